"""Setting komi before the first move (Linage, Egotzi squared)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Static

from ...rules import GameInfo, OptionError, format_number
from ...rules.catalogue import parse_komi
from .base import FieldDialog, KeyButton


def komi_error(text: str, step: float) -> str | None:
    """None if `text` is an allowed komi for a game whose komi is a multiple of `step`,
    else why not, as a sentence to show under the field."""
    if not text.strip():
        return "type a komi, e.g. " + ("0 or 4" if step == 2 else "0.5 or 6.5")
    try:
        parse_komi(text.strip(), step)
    except OptionError as error:
        message = str(error)
        return message[0].upper() + message[1:]
    return None


def komi_rule(info: GameInfo) -> str:
    """What komi may be for this game, in words."""
    if info.komi_step == 2:
        return "an even whole number such as 4 or -2"
    return "a whole or half number such as 6.5 or -3 (a half number rules out a draw)"


class KomiValidator(Validator):
    """Validates komi as typed with `parse_komi` and the game's komi step."""

    def __init__(self, step: float) -> None:
        super().__init__()
        self.step = step

    def validate(self, value: str) -> ValidationResult:
        error = komi_error(value, self.step)
        return self.success() if error is None else self.failure(error, value)


class KomiDialog(FieldDialog[str]):
    """The first player (`chooser`) sets komi; dismissed with the komi as validated text.

    Enter accepts only a valid komi; the reason is shown under the field while it is not.
    """

    BINDINGS = [
        Binding("enter", "accept", "Accept komi", priority=True, id="komi.accept"),
    ]

    def __init__(self, info: GameInfo, chooser: str, default: float = 0) -> None:
        super().__init__(f"{info.title}: set komi")
        self.info = info
        self.chooser = chooser
        self.default = default

    def explanation(self) -> str:
        """What komi is and what happens next."""
        first, second = (colour.capitalize() for colour in self.info.colours)
        return (
            f"{self.chooser}, set komi: the points added to {second}'s score at the end, "
            f"to make up for {first} moving first. Then the other player chooses a side, "
            f"{first} or {second}.\n\nKomi is {komi_rule(self.info)}."
        )

    def compose_body(self) -> ComposeResult:
        yield Static(self.explanation(), classes="dialog-text", markup=False)
        yield Input(
            format_number(self.default),
            placeholder="komi",
            validators=[KomiValidator(self.info.komi_step)],
            id="komi",
        )
        yield Static("", classes="dialog-error", id="komi-error", markup=False)
        yield self.button_row(KeyButton("Accept (enter)", variant="primary", id="accept"))

    def on_mount(self) -> None:
        field = self.query_one("#komi", Input)
        field.focus()
        self._show_error(field.value)

    @on(Input.Changed, "#komi")
    def _changed(self, event: Input.Changed) -> None:
        self._show_error(event.value)

    def _show_error(self, text: str) -> str | None:
        error = komi_error(text, self.info.komi_step)
        self.query_one("#komi-error", Static).update(error or "")
        self.set_valid(error is None)
        return error

    def action_accept(self) -> None:
        text = self.query_one("#komi", Input).value
        if self._show_error(text) is not None:
            self.app.bell()
            return
        self.dismiss(format_number(parse_komi(text.strip(), self.info.komi_step)))

    @on(Button.Pressed, "#accept")
    def _pressed(self) -> None:
        self.action_accept()
