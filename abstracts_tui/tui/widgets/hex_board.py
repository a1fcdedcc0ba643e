"""Partitions' hex-hex board: rows offset by half a cell, coordinates on all six edges.

A cell is one character and cells are two columns apart; a row with k cells fewer than
the middle row is indented by k columns, so each cell sits between its two neighbours
in the rows above and below. Rows are lettered from `a` at the bottom; a cell is named
by its row and its position in the row from the left (`e5`). Each row's letter stands
left of its first cell (position 1) on the two left edges, and the name of its last cell
(`e9`, `h6`) right of it on the two right edges, so that a cell near either end is named
by counting from the nearer one. The positions are numbered below the bottom row and
above the top row: the cells of one number lie on the two slanting lines that join those
numbers through the middle row's cell of that number.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from ...rules import Game
from ...rules.geometry import LETTERS, HexGrid
from .board_layout import BoardLayout
from .board_view import DIRECTIONS, BoardView
from .canvas import Canvas
from .point_board import shared_hits

LABEL = ("board--label",)

SLANTS = {"up_left": (1, -1), "up_right": (1, 1), "down_left": (-1, -1), "down_right": (-1, 1)}
"""(row step, half-cell step) of the four slanting directions."""


class HexBoard(BoardView):
    """The board of Partitions.

    Up and down have no straight neighbour on a hex board: they step up-left and up-right
    in turn (down-left and down-right), keeping close to the column where a run of
    vertical moves began, so that repeated presses go straight up (down) the screen.
    """

    geometry_kind: ClassVar[str] = "hex"
    max_zoom: ClassVar[int] = 2  # rows three lines apart no longer read as a hex board

    BINDINGS: ClassVar[list[BindingType]] = [
        # q e / z c sit around s on the keyboard like the six neighbours around a hex; the
        # vi diagonals (y u b n) are left free because the play screen uses u and n.
        Binding("q", "cursor('up_left')", "Up-left", id="board.up_left", show=False),
        Binding("e", "cursor('up_right')", "Up-right", id="board.up_right", show=False),
        Binding("z", "cursor('down_left')", "Down-left", id="board.down_left", show=False),
        Binding("c", "cursor('down_right')", "Down-right", id="board.down_right", show=False),
    ]

    def __init__(
        self,
        game: Game,
        *,
        ascii: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(game, ascii=ascii, name=name, id=id, classes=classes)
        self._column: tuple[int, int] | None = None
        """(cell, target) while vertical moves run: the cell they reached and twice the
        half-cell column they keep to."""

    @property
    def grid(self) -> HexGrid:
        geometry = self.game.geometry
        assert isinstance(geometry, HexGrid)
        return geometry

    def _make_layout(self, game: Game, zoom: int = 1) -> BoardLayout:
        geometry = game.geometry
        assert isinstance(geometry, HexGrid)
        widest = geometry.row_count
        gap = 2 + zoom  # from a row's end cell to its label: a marker column and a space
        left = gap  # the widest row's first cell
        height = zoom * (widest - 1) + 3  # the rows, and a line of numbers above and below
        name = 1 + len(str(widest))  # the longest name on the right: the middle row's last
        canvas = Canvas(left + zoom * (2 * widest - 2) + gap + name, height)
        cells = []
        for cell in range(geometry.cell_count):
            row, pos = geometry.coords(cell)
            cells.append((left + zoom * self._half(row, pos), 1 + zoom * (widest - 1 - row)))
        for row in range(geometry.row_count):
            first = cells[geometry.cell(row, 0)]
            last = cells[geometry.cell(row, geometry.row_lengths[row] - 1)]
            canvas.put(first[0] - gap, first[1], LETTERS[row], LABEL)
            ending = f"{LETTERS[row]}{geometry.row_lengths[row]}"
            canvas.put(last[0] + gap, last[1], ending, LABEL)
        for row, y in ((0, height - 1), (geometry.row_count - 1, 0)):
            for pos in range(geometry.row_lengths[row]):
                x = cells[geometry.cell(row, pos)][0]
                number = str(pos + 1)
                canvas.put(x, y, number, LABEL)  # only the last can have two digits
        return BoardLayout(canvas, tuple(cells), 1, False, shared_hits(tuple(cells)))

    def _half(self, row: int, pos: int) -> int:
        """The column of (row, pos) in half cells from the left of the widest row."""
        grid = self.game.geometry
        assert isinstance(grid, HexGrid)
        return grid.row_count - grid.row_lengths[row] + 2 * pos

    def _at(self, row: int, half: int) -> int | None:
        """The cell of `row` at half-cell column `half`, None if there is none."""
        grid = self.grid
        if not 0 <= row < grid.row_count:
            return None
        twice = half - (grid.row_count - grid.row_lengths[row])
        if twice % 2 or not 0 <= twice // 2 < grid.row_lengths[row]:
            return None
        return grid.cell(row, twice // 2)

    def _neighbour(self, cell: int, direction: str) -> int | None:
        row, pos = self.grid.coords(cell)
        if direction in ("left", "right"):
            return self._at(row, self._half(row, pos) + (2 if direction == "right" else -2))
        if direction in SLANTS:
            rows, halves = SLANTS[direction]
            return self._at(row + rows, self._half(row, pos) + halves)
        return self._vertical(cell, 1 if direction == "up" else -1)

    def _vertical(self, cell: int, rows: int) -> int | None:
        """One row up (`rows` = 1) or down (-1), leaning towards the kept column."""
        row, pos = self.grid.coords(cell)
        half = self._half(row, pos)
        if self._column is not None and self._column[0] == cell:
            target = self._column[1]
        else:
            target = 2 * half - 1  # half a cell to the left: the first step leans left
        found = [
            (abs(2 * h - target), c)
            for h in (half - 1, half + 1)
            if (c := self._at(row + rows, h)) is not None
        ]
        if not found:
            return None
        chosen = min(found)[1]
        self._column = (chosen, target)
        return chosen

    def move_cursor(self, direction: str) -> None:
        """Move the cursor one cell in any of the six hex directions, or up/down (see the
        class docstring). It stops at the edge."""
        if direction not in DIRECTIONS:
            raise ValueError(f"unknown direction '{direction}'; use one of {DIRECTIONS}")
        cell = self._neighbour(self.cursor, direction)
        if direction not in ("up", "down"):
            self._column = None
        if cell is not None:
            self.cursor = cell

    def _centre(self) -> int:
        grid = self.grid
        return grid.cell(grid.size - 1, grid.size - 1)
