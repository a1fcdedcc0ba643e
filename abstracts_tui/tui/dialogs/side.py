"""The second player chooses a colour once komi is set (Linage, Egotzi squared)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.content import Content
from textual.widgets import Button, Static

from ...rules import GameInfo, format_number
from .base import Dialog, KeyButton


def komi_label(komi: float) -> str:
    """`+komi 6.5`, `komi -2`: what the second colour adds to its score."""
    sign = "+" if komi >= 0 else ""
    return f"{sign}komi {format_number(komi)}"


class SideDialog(Dialog[int]):
    """The second player (`chooser`) picks a colour; dismissed with its index (0 moves first).

    Keys: `1` or the first colour's initial, `2` or the second colour's initial.
    """

    def __init__(self, info: GameInfo, chooser: str, komi: float) -> None:
        super().__init__(f"{info.title}: choose a side")
        self.info = info
        self.chooser = chooser
        self.komi = komi
        self.names = (info.colours[0].capitalize(), info.colours[1].capitalize())
        self.labels = (f"{self.names[0]} (moves first)", f"{self.names[1]} ({komi_label(komi)})")
        initials = [colour[0].lower() for colour in info.colours]
        if initials[0] == initials[1] or not all(i.isalpha() for i in initials):
            initials = ["", ""]
        # The keys depend on the game's colours, so they are added to this dialog's own
        # bindings map rather than declared in BINDINGS.
        self._bindings = BindingsMap.merge(
            [
                self._bindings,
                BindingsMap(
                    Binding(
                        ",".join(filter(None, (str(colour + 1), initials[colour]))),
                        f"choose({colour})",
                        self.names[colour],
                        key_display="/".join(filter(None, (str(colour + 1), initials[colour]))),
                        id=f"side.colour{colour + 1}",
                    )
                    for colour in (0, 1)
                ),
            ]
        )

    def explanation(self) -> str:
        """Who chooses and what the sides mean."""
        first, second = self.names
        return (
            f"{self.chooser}, choose your side. {first} moves first; {second} adds komi "
            f"{format_number(self.komi)} to its score at the end. The other player takes "
            f"the other side."
        )

    def compose_body(self) -> ComposeResult:
        yield Static(self.explanation(), classes="dialog-text", markup=False)
        yield self.button_row(
            *(KeyButton(Content(self.labels[colour]), id=f"colour{colour}") for colour in (0, 1))
        )

    def action_choose(self, colour: int) -> None:
        self.dismiss(colour)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(1 if event.button.id == "colour1" else 0)
