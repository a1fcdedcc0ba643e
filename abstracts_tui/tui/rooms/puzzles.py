"""The lobby's rated puzzles (`p`): a game chosen from a list, then the puzzle screen with
the server's puzzles of that game, near the person's puzzle rating, each try rated and its
change said ("Solved. Puzzle rating 1500 -> 1523.")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...puzzles.rated import PuzzleAnswer
from ...rooms.link import Puzzling
from ...rooms.live import Refused
from ...rules.catalogue import CATALOGUE
from ...store import StoreError
from ..screens.puzzle import Offered, PuzzleScreen
from ..textual_internals import SteadyScreen

if TYPE_CHECKING:
    from ...rooms.client import RoomClient

UNREAD = "The puzzles cannot be read now; try again later."


class ServerRater:
    """Rated puzzles of one game from the server, through the rooms' client."""

    def __init__(self, client: RoomClient, game: str) -> None:
        self.client = client
        self.game = game
        self.key = ""
        """The key of the puzzle offered last."""

    async def _ask(self, request: Puzzling) -> PuzzleAnswer | str:
        try:
            return await self.client.puzzles(request)
        except (StoreError, Refused):
            return UNREAD

    async def next(self) -> Offered | str:
        answer = await self._ask(Puzzling("next", self.game))
        if isinstance(answer, str):
            return answer
        if answer.offered is None:
            return f"You have solved every puzzle of {CATALOGUE[self.game].title} here."
        self.key = answer.offered.key
        player = answer.player.text() if answer.player else "1500?"
        note = f"A puzzle rated {answer.offered.rating.text()}; your puzzle rating {player}."
        return Offered(answer.offered.puzzle, note)

    async def tried(self, won: bool) -> str:
        answer = await self._ask(Puzzling("tried", key=self.key, won=won))
        if isinstance(answer, str):
            return answer
        return answer.rated.change() if answer.rated is not None else UNREAD


class PuzzleGamesScreen(SteadyScreen[None]):
    """The games to solve rated puzzles of; Enter opens the puzzle screen."""

    DEFAULT_CSS = """
    PuzzleGamesScreen #puzzle-games-title { height: 1; padding: 0 1; text-style: bold;
        background: $primary; color: $text; }
    PuzzleGamesScreen #puzzle-games { height: auto; max-height: 12; margin: 1 1 0 1; }
    PuzzleGamesScreen #puzzle-games-said { height: auto; padding: 1 1 0 1; }
    """
    AUTO_FOCUS = "#puzzle-games"
    BINDINGS = [
        Binding("escape", "leave", "Back to the lobby", key_display="esc", id="puzzles.back"),
    ]

    def __init__(self, client: RoomClient, *, ascii: bool = False) -> None:
        super().__init__()
        self.client = client
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        yield Static("Rated puzzles: choose a game", id="puzzle-games-title", markup=False)
        options = [Option(info.title, id=name) for name, info in CATALOGUE.items()]
        yield OptionList(*options, id="puzzle-games")
        yield Static(
            "Each try is rated: the whole winning line found wins it, a wrong move or a "
            "move shown loses it.",
            id="puzzle-games-said",
            markup=False,
        )

    @on(OptionList.OptionSelected, "#puzzle-games")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.open(event.option.id)

    @work(exclusive=True, group="puzzle-games")
    async def open(self, game: str) -> None:
        rater = ServerRater(self.client, game)
        offered = await rater.next()
        if isinstance(offered, str):
            self.query_one("#puzzle-games-said", Static).update(offered)
            return
        screen = PuzzleScreen([offered.puzzle], ascii=self.ascii, rater=rater, note=offered.note)
        self.app.push_screen(screen)

    def action_leave(self) -> None:
        self.dismiss(None)
