"""Square boards (Petrify, Pilo, Egotzi): three columns per square, four with stacks.

Each square is its content (a disk, or a stack and its height) between two columns of
its own, which hold the markers: `[ ]` the cursor, `( )` the selected piece, `> <` a
piece it can capture, `─ ─` a piece of a cancelled group. Row numbers run up the left
and right edges, column letters along the top and bottom, with `a1` at the bottom left.
Zoomed, a square is two columns wider and two lines taller per step, its content in the
middle, and the whole square takes the cell's colours (the last move, a target, an area).
"""

from __future__ import annotations

from typing import ClassVar

from ...rules import Game
from ...rules.geometry import LETTERS
from .board_layout import BoardLayout
from .board_view import BoardView
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


def label_rows(
    canvas: Canvas, size: int, left: int, right: int, ys: list[int] | None = None
) -> None:
    """Write the row numbers at columns `left` (right-aligned) and `right`, on lines `ys`
    (row 1 first; by default one line per row from the bottom up)."""
    width = len(str(size))
    for row in range(size):
        number = str(row + 1)
        y = size - row if ys is None else ys[row]
        canvas.put(left, y, number.rjust(width), LABEL)
        canvas.put(right, y, number, LABEL)


def label_columns(canvas: Canvas, xs: list[int]) -> None:
    """Write the column letters above and below the board, at columns `xs`."""
    bottom = canvas.height - 1
    for col, x in enumerate(xs):
        canvas.put(x, 0, LETTERS[col], LABEL)
        canvas.put(x, bottom, LETTERS[col], LABEL)


class SquareBoard(BoardView):
    """The board of Petrify, Pilo and Egotzi."""

    geometry_kind: ClassVar[str] = "square"

    def _make_layout(self, game: Game, zoom: int = 1) -> BoardLayout:
        n = game.size
        content = 2 if type(game).piece_kind == "stack" else 1
        pad = zoom - 1  # columns either side of the markers, and lines above and below
        step = content + 2 + 2 * pad
        rows = 1 + 2 * pad
        label = len(str(n))
        left = label + 1  # the first square's left edge
        canvas = Canvas(left + step * n + 1 + label, rows * n + 2)
        middles = [1 + rows * (n - 1 - row) + pad for row in range(n)]
        label_rows(canvas, n, 0, left + step * n + 1, middles)
        label_columns(canvas, [left + step * col + pad + 1 for col in range(n)])
        tiles = tuple(
            (left + step * (c % n), 1 + rows * (n - 1 - c // n), step, rows) for c in range(n * n)
        )
        cells = tuple((x + pad + 1, y + pad) for x, y, _, _ in tiles)
        hits = {
            (x + i, y + j): cell
            for cell, (x, y, width, height) in enumerate(tiles)
            for i in range(width)
            for j in range(height)
        }
        if zoom == 1:
            return BoardLayout(canvas, cells, content, True, hits)
        shaded = frozenset(c for c in range(n * n) if (c % n + c // n) % 2)
        return BoardLayout(canvas, cells, content, True, hits, tiles, shaded)

    def _neighbour(self, cell: int, direction: str) -> int | None:
        return grid_step(self.game.size, cell, direction)

    def _centre(self) -> int:
        n = self.game.size
        return (n // 2) * n + (n - 1) // 2
