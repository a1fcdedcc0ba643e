"""Asking for one line of text checked as typed: a comment, a move number, a position."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Input, Static

from .base import FieldDialog, KeyButton


class TextDialog(FieldDialog[str | None]):
    """One line of text; dismissed with it on Enter, or None on Escape.

    `check(text)` returns why the text cannot be accepted (None when it can); it runs
    as the text is typed, and Accept stays greyed out while it fails.
    """

    BINDINGS = [
        Binding("enter", "accept", "OK", priority=True, id="text.accept"),
        Binding("escape", "cancel", "Cancel", id="text.cancel"),
    ]

    def __init__(
        self,
        title: str,
        prompt: str,
        default: str = "",
        check: Callable[[str], str | None] | None = None,
        placeholder: str = "",
    ) -> None:
        super().__init__(title)
        self.prompt = prompt
        self.default = default
        self.check = check
        self.placeholder = placeholder

    def compose_body(self) -> ComposeResult:
        yield Static(self.prompt, classes="dialog-text", markup=False)
        yield Input(self.default, placeholder=self.placeholder, id="text")
        yield Static("", classes="dialog-error", id="text-note", markup=False)
        yield self.button_row(
            KeyButton("OK (enter)", variant="primary", id="accept"),
            KeyButton("Cancel (esc)", id="cancel"),
        )

    def on_mount(self) -> None:
        self.query_one("#text", Input).focus()
        self._check(self.default)

    @on(Input.Changed, "#text")
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    def _check(self, text: str) -> str | None:
        error = self.check(text) if self.check is not None else None
        note = self.query_one("#text-note", Static)
        warning = self.warning(text) if error is None else ""
        note.update(error or warning)
        note.set_class(bool(warning), "-warning")
        self.set_valid(error is None)
        return error

    def warning(self, text: str) -> str:
        """A note on acceptable text (e.g. that a file will be replaced); none here."""
        return ""

    def answer(self, text: str) -> str:
        """What the dialog is dismissed with for accepted `text`; the text itself here."""
        return text

    def action_accept(self) -> None:
        text = self.query_one("#text", Input).value
        if self._check(text) is not None:
            self.app.bell()
            return
        self.dismiss(self.answer(text))

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self.action_accept()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
