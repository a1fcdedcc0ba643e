"""The room creation screen: the selection screen, with whether the room is rated and
whether anyone may join it from the lobby (an open challenge) or only who has its code
(a room listed to nobody else: the others do not see it, in their lobby or as a game
to watch)."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.widgets import Static

from ...game_setup import Setup
from ..screens import select
from ..screens.select import SelectScreen
from ..widgets.steppers import ChoiceRow, Stepper

RATED_HINT = "changes ratings"
JOINER = "(joins by code)"
"""The second seat as the screen shows it: the room is created with it open."""
JOINER_DESCRIBED = "the player who joins by code"
"""The second seat as the explanation names it."""
OPENS = ["by its code", "anyone"]
"""Who may join, as the row names it."""
OPENS_HINTS = ["private", "listed"]
"""What each choice of `OPENS` does to the lobbies, beside it: a room by its code is in
nobody else's lobby, one for anyone in every lobby."""
ACCEPTER = "(anyone)"
"""The second seat as the screen shows it for an open challenge."""
ACCEPTER_DESCRIBED = "whoever accepts it in the lobby"


class RoomScreen(SelectScreen):
    """Choose the room's game and options as on the selection screen, and whether it is
    rated (`rated` once it is dismissed)."""

    CSS_PATH = str(Path(select.__file__).parent / "select.tcss")  # relative paths are per module
    MORE_KEYS = {}  # the rooms have no recent games, settings or puzzles
    OWN_GAMES = False
    DEFAULT_CSS = """
    RoomScreen .seat-name {
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, default: Setup, *, rated: bool, open: bool = False) -> None:
        super().__init__(default)
        self.rated = rated
        self.open = open
        """Whether the room is an open challenge (`open` once it is dismissed)."""

    def on_mount(self) -> None:
        # Textual runs SelectScreen's on_mount too: this adds a row to what it composed.
        row = ChoiceRow("Rated", ["no", "yes"], int(self.rated), hint=RATED_HINT, id="rated")
        self.query_one("#setup").mount(row, before="#explanation")
        opens = ChoiceRow(
            "Who joins", OPENS, int(self.open), hint=OPENS_HINTS[self.open], id="open"
        )
        self.query_one("#setup").mount(opens, before="#explanation")
        # A room is for two people: the creator, by the name they connected with, and
        # whoever joins by the code. Neither name is typed here, so neither is a field.
        for seat, name in (("first", self.creator), ("second", JOINER)):
            for hidden in (f"#{seat}", f"#{seat}-player"):
                self.query_one(hidden).display = False
            self.query_one(f"#{seat}-row").mount(
                Static(name, classes="seat-name", markup=False, id=f"{seat}-name"),
                after=f"#{seat}-label",
            )
        self._show_joiner()

    @property
    def creator(self) -> str:
        return self.player_names()[0]

    def described_names(self) -> tuple[str, str]:
        return self.creator, ACCEPTER_DESCRIBED if self.open else JOINER_DESCRIBED

    def _show_joiner(self) -> None:
        for name in self.query("#second-name").results(Static):
            name.update(ACCEPTER if self.open else JOINER)
        self._show_texts()

    @on(Stepper.Changed, "#rated")
    def _rated_changed(self, event: Stepper.Changed) -> None:
        self.rated = event.index == 1

    @on(Stepper.Changed, "#open")
    def _open_changed(self, event: Stepper.Changed) -> None:
        self.open = event.index == 1
        self.query_one("#open", ChoiceRow).set_hint(OPENS_HINTS[self.open])
        self._show_joiner()
