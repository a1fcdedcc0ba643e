"""The pie rule: the second player may take over the first player's position."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Static

from .base import Dialog, KeyButton


class PieDialog(Dialog[bool]):
    """Offer the swap to the second player; dismissed with True to swap, False to play on.

    `colours` are the game's two colour names (the first mover's first), `first` and
    `second` the names of the people who hold them now.
    """

    BINDINGS = [
        Binding("s", "answer(True)", "Swap", id="pie.swap"),
        Binding("p,enter", "answer(False)", "Play on", key_display="p/enter", id="pie.play_on"),
    ]

    def __init__(self, colours: tuple[str, str], first: str, second: str) -> None:
        super().__init__("Pie rule: swap?")
        self.colours = (colours[0].capitalize(), colours[1].capitalize())
        self.first = first
        self.second = second

    def explanation(self) -> str:
        """What the choice means, with the people's names and colours."""
        one, two = self.colours
        return (
            f"{self.first} ({one}) has made the first move. {self.second} ({two}) may now "
            f"swap instead of moving:\n\n"
            f"Swap (s): {self.second} takes over {one} and its position as it stands; "
            f"{self.first} plays {two} and moves next.\n"
            f"Play on (p or Enter): {self.second} keeps {two} and makes a move."
        )

    def compose_body(self) -> ComposeResult:
        yield Static(self.explanation(), classes="dialog-text", markup=False)
        yield self.button_row(
            KeyButton("Swap (s)", id="swap"),
            KeyButton("Play on (p)", variant="primary", id="play-on"),
        )

    def action_answer(self, swap: bool) -> None:
        self.dismiss(swap)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "swap")
