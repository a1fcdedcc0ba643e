"""Linage's board: stones on the points of a grid of lines, two columns per point.

A row is one line of text, `├─┼─┼─┤`, so that 19 x 19 fits an 80 x 24 terminal. Empty
points of owned regions show `↕` (Vertical's) or `↔` (Horizontal's) when the score
overlay is on.
"""

from __future__ import annotations

from typing import ClassVar

from ...rules import Game
from .board_layout import BoardLayout
from .board_view import BoardView
from .canvas import Canvas
from .square_board import grid_step, label_columns, label_rows

GRID = ("board--grid",)


def shared_hits(cells: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], int]:
    """Click targets when cells are one character two columns apart: the character, then
    the column after it, then the column before it if no other cell took them."""
    hits: dict[tuple[int, int], int] = {}
    for dx in (0, 1, -1):
        for cell, (x, y) in enumerate(cells):
            hits.setdefault((x + dx, y), cell)
    return hits


class PointBoard(BoardView):
    """The board of Linage."""

    geometry_kind: ClassVar[str] = "points"
    empty_class: ClassVar[str] = "board--grid"
    territory_lines: ClassVar[bool] = True

    def _make_layout(self, game: Game, zoom: int = 1) -> BoardLayout:
        n = game.size
        across, down = 2 * zoom, zoom  # columns and lines from one point to the next
        label = len(str(n))
        left = label + 2  # the first point, after the label, a space and a marker column
        width = across * (n - 1) + 1
        canvas = Canvas(left + width + 2 + label, down * (n - 1) + 3)
        ys = [1 + down * (n - 1 - row) for row in range(n)]
        label_rows(canvas, n, 0, left + width + 2, ys)
        label_columns(canvas, [left + across * col for col in range(n)])
        glyphs = self.glyphs
        for row in range(n):
            line = (glyphs.line * (across - 1)).join(glyphs.point(col, row, n) for col in range(n))
            canvas.put(left, ys[row], line, GRID)
            if row:
                for y in range(ys[row] + 1, ys[row - 1]):
                    for col in range(n):
                        canvas.put(left + across * col, y, glyphs.vertical, GRID)
        cells = tuple((left + across * (c % n), ys[c // n]) for c in range(n * n))
        return BoardLayout(canvas, cells, 1, False, shared_hits(cells))

    def _neighbour(self, cell: int, direction: str) -> int | None:
        return grid_step(self.game.size, cell, direction)

    def _centre(self) -> int:
        n = self.game.size
        return (n // 2) * n + n // 2

    def _empty_text(self, cell: int) -> str:
        n = self.game.size
        return self.glyphs.point(cell % n, cell // n, n)
