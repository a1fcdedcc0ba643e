"""Board geometry and cell notation shared by every game.

Cells are numbered densely from 0, row by row from the bottom, left to right; a set of
cells is a Python integer whose bit `i` stands for cell `i` (a bitboard).

Notation (docs/rules.md, Notation): on square boards and Linage's points a cell is a column letter
counted from the left then a row number counted from 1 at the bottom (`a1` is the
bottom-left cell); on Partitions' hex-hex board it is a row letter counted from the
bottom then the 1-based position of the cell within that row. Canonical names are lower
case; parsing is case-insensitive and ignores surrounding spaces.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterator

from .errors import MoveSyntaxError, shown

LETTERS = "abcdefghijklmnopqrstuvwxyz"

_CELL = re.compile(r"([a-z])([0-9]{1,2})")


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    """Number of set bits of `mask`."""
    return mask.bit_count()


class Geometry(ABC):
    """The cells of one board, their names and their neighbours."""

    size: int
    cell_count: int
    neighbours: tuple[tuple[int, ...], ...]
    """`neighbours[c]`: the cells adjacent to cell `c` (orthogonally, on square boards)."""
    neighbour_masks: tuple[int, ...]
    """`neighbour_masks[c]`: the same as a bitboard."""

    @property
    def full(self) -> int:
        """The bitboard of every cell."""
        return (1 << self.cell_count) - 1

    @abstractmethod
    def name(self, cell: int) -> str:
        """The canonical name of `cell`, e.g. `c3`."""

    @abstractmethod
    def parse(self, text: str) -> int:
        """The cell named by `text`; raises `MoveSyntaxError` with the board's extent."""

    _rows: tuple[tuple[int, ...], ...] | None = None

    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The cells row by row from the top row down, each row left to right."""
        if self._rows is None:
            self._rows = self._make_rows()
        return self._rows

    @abstractmethod
    def _make_rows(self) -> tuple[tuple[int, ...], ...]:
        """`rows()`, worked out once per board."""

    def component(self, start: int, within: int) -> int:
        """The cells of `within` connected to `start` (which must be in `within`)."""
        masks = self.neighbour_masks
        found = 1 << start
        frontier = found
        while frontier:
            grown = 0
            for cell in bits(frontier):
                grown |= masks[cell]
            frontier = grown & within & ~found
            found |= frontier
        return found

    def components(self, within: int) -> list[int]:
        """The connected parts of the set `within`, each as a bitboard."""
        parts = []
        rest = within
        while rest:
            part = self.component((rest & -rest).bit_length() - 1, rest)
            parts.append(part)
            rest &= ~part
        return parts


class SquareGrid(Geometry):
    """A `size` x `size` board of squares (or of points, for Linage)."""

    def __init__(self, size: int) -> None:
        if not 1 <= size <= 26:
            raise ValueError(f"a square board has 1 to 26 columns, not {size}")
        self.size = size
        self.cell_count = size * size
        neighbours = []
        for cell in range(self.cell_count):
            col, row = cell % size, cell // size
            near = []
            for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                c, r = col + dc, row + dr
                if 0 <= c < size and 0 <= r < size:
                    near.append(r * size + c)
            neighbours.append(tuple(near))
        self.neighbours = tuple(neighbours)
        self.neighbour_masks = tuple(sum(1 << n for n in near) for near in neighbours)
        self._names = [LETTERS[c % size] + str(c // size + 1) for c in range(self.cell_count)]
        self._cells = {name: cell for cell, name in enumerate(self._names)}

    def cell(self, col: int, row: int) -> int:
        """The cell at column `col` and row `row`, both counted from 0 at the bottom left."""
        return row * self.size + col

    def coords(self, cell: int) -> tuple[int, int]:
        """(column, row) of `cell`, both counted from 0 at the bottom left."""
        return cell % self.size, cell // self.size

    def name(self, cell: int) -> str:
        return self._names[cell]

    def parse(self, text: str) -> int:
        key = text.strip().lower()
        found = self._cells.get(key)
        if found is not None:
            return found
        last_col = LETTERS[self.size - 1]
        extent = f"columns a to {last_col}, rows 1 to {self.size}"
        if _CELL.fullmatch(key):
            raise MoveSyntaxError(f"{key} is off the board ({extent})")
        raise MoveSyntaxError(f"'{shown(text.strip())}' is not a cell name like c3 ({extent})")

    def _make_rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(row * n + col for col in range(n)) for row in reversed(range(n)))


class HexGrid(Geometry):
    """A hex-hex board of side `size` with pointy-topped cells in 2*size-1 horizontal rows.

    Row `i` (0 = bottom) holds `size + min(i, 2*size-2-i)` cells.
    """

    def __init__(self, size: int) -> None:
        if not 2 <= size <= 13:
            raise ValueError(f"a hex board has side 2 to 13, not {size}")
        self.size = size
        self.row_count = 2 * size - 1
        self.row_lengths = tuple(size + min(i, 2 * size - 2 - i) for i in range(self.row_count))
        starts = [0]
        for length in self.row_lengths:
            starts.append(starts[-1] + length)
        self.row_starts = tuple(starts[:-1])
        self.cell_count = starts[-1]
        self._coords = [
            (row, pos) for row, length in enumerate(self.row_lengths) for pos in range(length)
        ]
        neighbours = []
        for row, pos in self._coords:
            near = [(row, pos - 1), (row, pos + 1)]
            for other in (row - 1, row + 1):
                if not 0 <= other < self.row_count:
                    continue
                if self.row_lengths[other] > self.row_lengths[row]:
                    near += [(other, pos), (other, pos + 1)]
                else:
                    near += [(other, pos - 1), (other, pos)]
            neighbours.append(
                tuple(
                    sorted(
                        self.cell(r, p)
                        for r, p in near
                        if 0 <= r < self.row_count and 0 <= p < self.row_lengths[r]
                    )
                )
            )
        self.neighbours = tuple(neighbours)
        self.neighbour_masks = tuple(sum(1 << n for n in near) for near in neighbours)
        self._names = [LETTERS[r] + str(p + 1) for r, p in self._coords]
        self._cells = {name: cell for cell, name in enumerate(self._names)}

    def cell(self, row: int, pos: int) -> int:
        """The cell at row `row` (0 = bottom) and position `pos` (0 = leftmost)."""
        return self.row_starts[row] + pos

    def coords(self, cell: int) -> tuple[int, int]:
        """(row, position) of `cell`, both counted from 0."""
        return self._coords[cell]

    def name(self, cell: int) -> str:
        return self._names[cell]

    def parse(self, text: str) -> int:
        key = text.strip().lower()
        found = self._cells.get(key)
        if found is not None:
            return found
        last_row = LETTERS[self.row_count - 1]
        extent = (
            f"rows a to {last_row}; row a has {self.size} cells, "
            f"the middle row {LETTERS[self.size - 1]} has {2 * self.size - 1}"
        )
        if _CELL.fullmatch(key):
            raise MoveSyntaxError(f"{key} is off the board ({extent})")
        raise MoveSyntaxError(f"'{shown(text.strip())}' is not a cell name like c3 ({extent})")

    def _make_rows(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(self.row_starts[r] + p for p in range(self.row_lengths[r]))
            for r in reversed(range(self.row_count))
        )
