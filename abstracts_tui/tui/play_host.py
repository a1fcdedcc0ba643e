"""What the play screen's helpers (`thinking.py`, `asking.py`, `selection.py`,
`play_files.py`) use of the screen: its session and searches, its board, and how it says
things. The screen is the only host; a protocol keeps the helpers free of it."""

from __future__ import annotations

from typing import Protocol

from textual.app import App
from textual.message import Message

from ..chances import Hint
from ..play.turns import Turns
from ..rules import Game
from ..session import Session
from .computer import Searches
from .online import OnlinePlay
from .play_seat import Seat
from .widgets.board import BoardView
from .widgets.pie_question import PieQuestion


class PlayHost(Protocol):
    """The play screen, as its helpers see it."""

    app: App[object]
    session: Session
    searches: Searches
    turns: Turns
    seat: Seat
    online: OnlinePlay | None
    board: BoardView
    ascii: bool
    hint: Hint | None
    """The hint shown (in play), if any."""
    selected: int | None
    """The cell of the piece chosen to move, if any."""
    thought: float | None
    asking: bool
    pie: PieQuestion

    @property
    def game(self) -> Game: ...

    @property
    def analysing(self) -> bool: ...

    @property
    def is_attached(self) -> bool: ...

    @property
    def pie_out_of_sight(self) -> bool: ...

    def say(self, message: str) -> None: ...

    def refuse(self, reason: str | None) -> None: ...

    def key(self, binding_id: str) -> str: ...

    def draw_board(self) -> None: ...

    def draw_analysis(self) -> None: ...

    def next_step(self) -> None: ...

    def post_message(self, message: Message) -> bool: ...
