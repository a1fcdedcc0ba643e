"""The room creation screen: the selection screen, with whether the room is rated."""

from __future__ import annotations

from pathlib import Path

from textual import on

from ..game_setup import Setup
from ..tui.screens import select
from ..tui.screens.select import ChoiceRow, SelectScreen, Stepper

RATED_HINT = "changes ratings"


class RoomScreen(SelectScreen):
    """Choose the room's game and options as on the selection screen, and whether it is
    rated (`rated` once it is dismissed)."""

    CSS_PATH = str(Path(select.__file__).parent / "select.tcss")  # relative paths are per module

    def __init__(self, default: Setup, *, rated: bool) -> None:
        super().__init__(default)
        self.rated = rated

    def on_mount(self) -> None:
        # Textual runs SelectScreen's on_mount too: this adds a row to what it composed.
        row = ChoiceRow("Rated", ["no", "yes"], int(self.rated), hint=RATED_HINT, id="rated")
        self.query_one("#setup").mount(row, before="#explanation")
        for seat in ("#first-player", "#second-player"):  # a room is for two people
            self.query_one(seat).display = False

    @on(Stepper.Changed, "#rated")
    def _rated_changed(self, event: Stepper.Changed) -> None:
        self.rated = event.index == 1
