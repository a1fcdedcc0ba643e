"""The board widgets: `board_for(game)` builds the right one for a game's geometry.

`BoardView` is the shared base (cursor, keys, mouse, `show`); `SquareBoard` draws
Petrify, Pilo and Egotzi, `PointBoard` Linage, `HexBoard` Partitions.
"""

from __future__ import annotations

from ...rules import Game
from .board_view import BoardView
from .hex_board import HexBoard
from .point_board import PointBoard
from .square_board import SquareBoard

BOARDS: dict[str, type[BoardView]] = {
    cls.geometry_kind: cls for cls in (SquareBoard, PointBoard, HexBoard)
}
"""The board class for each `GameInfo.geometry`."""


def board_for(game: Game, *, ascii: bool = False, id: str | None = None) -> BoardView:
    """A board widget for `game`, drawn in ASCII only if `ascii`."""
    return BOARDS[game.info.geometry](game, ascii=ascii, id=id)


__all__ = ["BOARDS", "BoardView", "HexBoard", "PointBoard", "SquareBoard", "board_for"]
