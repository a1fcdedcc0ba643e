"""Who plays each side: a person at this screen or the computer at a level, changed
during a game (take over a side from the computer, or hand one to it)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ...engine.levels import LEVELS
from ..widgets.steppers import ChoiceRow, step_to_computer
from .base import Dialog, KeyButton

HERE = "a person here"
LEVEL_NAMES = tuple(LEVELS)
"""The computer's levels, weakest first."""

Levels = tuple[str | None, str | None]
"""For each colour, the computer's level, or None for a person at this screen."""


def seat_labels() -> list[str]:
    """The values of a side's row: a person here, then the computer at each level."""
    return [HERE, *(f"computer, {level}" for level in LEVEL_NAMES)]


class SeatRow(ChoiceRow):
    """A side's row: the first step from a person lands on `computer` (the settings'
    level), as the home screen's seats do; from there the steps go through the levels."""

    def __init__(
        self, label: str, labels: list[str], index: int, *, computer: int, hint: str, id: str
    ) -> None:
        super().__init__(label, labels, index, hint=hint, id=id)
        self.computer = computer

    def action_step(self, delta: int) -> None:
        if not step_to_computer(self, delta, self.computer):
            super().action_step(delta)


class SeatsDialog(Dialog[Levels]):
    """One row a side, `Blue  < computer, easy >  Ann`; dismissed with the levels chosen
    (None for a person), or nothing when cancelled."""

    BINDINGS = [
        Binding("up,shift+tab", "app.focus_previous", "", show=False),
        Binding("down,tab", "app.focus_next", "", show=False),
        Binding("enter", "accept", "Accept", id="seats.accept"),
        Binding("escape", "cancel", "Cancel", id="seats.cancel"),
    ]

    def __init__(
        self,
        colours: tuple[str, str],
        people: tuple[str, str],
        levels: Levels,
        default_level: str | None = None,
    ) -> None:
        super().__init__("Who plays each side")
        self.colours = colours
        self.people = people
        self.levels = levels
        self.default_level = default_level
        """The level a side handed to the computer starts at (the settings')."""

    def compose_body(self) -> ComposeResult:
        yield Static(
            "Take over a side from the computer, or hand one to it: ←/→ change a side, "
            "↑/↓ choose the other, Enter to accept.",
            classes="dialog-text",
            markup=False,
        )
        labels = seat_labels()
        default = self.default_level
        computer = 1 + LEVEL_NAMES.index(default) if default in LEVEL_NAMES else 1
        for colour in (0, 1):
            level = self.levels[colour]
            index = 0 if level not in LEVEL_NAMES else 1 + LEVEL_NAMES.index(level)
            yield SeatRow(
                self.colours[colour].capitalize(),
                labels,
                index,
                computer=computer,
                hint=self.people[colour],
                id=f"seat{colour}",
            )
        yield self.button_row(
            KeyButton("Accept", id="accept", variant="primary"), KeyButton("Cancel", id="cancel")
        )

    def chosen(self) -> Levels:
        """The level of each side as the rows show it now."""
        first, second = (self.query_one(f"#seat{colour}", ChoiceRow).index for colour in (0, 1))
        return (
            None if first == 0 else LEVEL_NAMES[first - 1],
            None if second == 0 else LEVEL_NAMES[second - 1],
        )

    def action_accept(self) -> None:
        self.dismiss(self.chosen())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: KeyButton.Pressed) -> None:
        if event.button.id == "accept":
            self.action_accept()
        else:
            self.action_cancel()
