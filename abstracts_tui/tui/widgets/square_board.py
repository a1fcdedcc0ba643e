"""Square boards (Petrify, Pilo, Egotzi): three columns per square, four with stacks.

Each square is its content (a disk, or a stack and its height) between two columns of
its own, which hold the markers: `[ ]` the cursor, `( )` the selected piece, `> <` a
piece it can capture, `─ ─` a piece of a cancelled group. Row numbers run up the left
and right edges, column letters along the top and bottom, with `a1` at the bottom left.
"""

from __future__ import annotations

from typing import ClassVar

from ...rules import Game
from ...rules.geometry import LETTERS
from .board_view import BoardLayout, BoardView
from .canvas import Canvas

LABEL = ("board--label",)

STEPS = {
    "left": (-1, 0),
    "right": (1, 0),
    "up": (0, 1),
    "down": (0, -1),
    "up_left": (-1, 1),
    "up_right": (1, 1),
    "down_left": (-1, -1),
    "down_right": (1, -1),
}
"""(column, row) steps; up is towards higher row numbers, as the board is drawn."""


def grid_step(size: int, cell: int, direction: str) -> int | None:
    """The cell one step from `cell` on a `size` x `size` grid, None off the grid."""
    dc, dr = STEPS[direction]
    col, row = cell % size + dc, cell // size + dr
    if 0 <= col < size and 0 <= row < size:
        return row * size + col
    return None


def label_rows(canvas: Canvas, size: int, left: int, right: int) -> None:
    """Write the row numbers at columns `left` (right-aligned) and `right`."""
    width = len(str(size))
    for row in range(size):
        number = str(row + 1)
        canvas.put(left, size - row, number.rjust(width), LABEL)
        canvas.put(right, size - row, number, LABEL)


def label_columns(canvas: Canvas, xs: list[int]) -> None:
    """Write the column letters above and below the board, at columns `xs`."""
    bottom = canvas.height - 1
    for col, x in enumerate(xs):
        canvas.put(x, 0, LETTERS[col], LABEL)
        canvas.put(x, bottom, LETTERS[col], LABEL)


class SquareBoard(BoardView):
    """The board of Petrify, Pilo and Egotzi."""

    geometry_kind: ClassVar[str] = "square"

    def _make_layout(self, game: Game) -> BoardLayout:
        n = game.size
        content = 2 if type(game).piece_kind == "stack" else 1
        step = content + 2
        label = len(str(n))
        left = label + 1  # the first square's left marker column
        canvas = Canvas(left + step * n + 1 + label, n + 2)
        label_rows(canvas, n, 0, left + step * n + 1)
        label_columns(canvas, [left + step * col + 1 for col in range(n)])
        cells = tuple((left + step * (c % n) + 1, n - c // n) for c in range(n * n))
        hits = {(x - 1 + i, y): cell for cell, (x, y) in enumerate(cells) for i in range(step)}
        return BoardLayout(canvas, cells, content, True, hits)

    def _neighbour(self, cell: int, direction: str) -> int | None:
        return grid_step(self.game.size, cell, direction)

    def _centre(self) -> int:
        n = self.game.size
        return (n // 2) * n + (n - 1) // 2
