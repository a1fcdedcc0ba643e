"""The room creation screen: the selection screen, with whether the room is rated."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.widgets import Static

from ..game_setup import Setup
from ..tui.screens import select
from ..tui.screens.select import ChoiceRow, SelectScreen, Stepper

RATED_HINT = "changes ratings"
JOINER = "(joins by code)"
"""The second seat as the screen shows it: the room is created with it open."""
JOINER_DESCRIBED = "the player who joins by code"
"""The second seat as the explanation names it."""


class RoomScreen(SelectScreen):
    """Choose the room's game and options as on the selection screen, and whether it is
    rated (`rated` once it is dismissed)."""

    CSS_PATH = str(Path(select.__file__).parent / "select.tcss")  # relative paths are per module
    DEFAULT_CSS = """
    RoomScreen .seat-name {
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, default: Setup, *, rated: bool) -> None:
        super().__init__(default)
        self.rated = rated

    def on_mount(self) -> None:
        # Textual runs SelectScreen's on_mount too: this adds a row to what it composed.
        row = ChoiceRow("Rated", ["no", "yes"], int(self.rated), hint=RATED_HINT, id="rated")
        self.query_one("#setup").mount(row, before="#explanation")
        # A room is for two people: the creator, by the name they connected with, and
        # whoever joins by the code. Neither name is typed here, so neither is a field.
        for seat, name in (("first", self.creator), ("second", JOINER)):
            for hidden in (f"#{seat}", f"#{seat}-player"):
                self.query_one(hidden).display = False
            self.query_one(f"#{seat}-row").mount(
                Static(name, classes="seat-name", markup=False), after=f"#{seat}-label"
            )

    @property
    def creator(self) -> str:
        return self.player_names()[0]

    def described_names(self) -> tuple[str, str]:
        return self.creator, JOINER_DESCRIBED

    @on(Stepper.Changed, "#rated")
    def _rated_changed(self, event: Stepper.Changed) -> None:
        self.rated = event.index == 1
