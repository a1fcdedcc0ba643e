"""Where a board's cells go on its widget (`BoardLayout`): what each geometry's board
(`square_board.py`, `point_board.py`, `hex_board.py`) works out once for a size and zoom,
and the widget draws every position onto."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .canvas import Canvas


@dataclass(frozen=True)
class BoardLayout:
    """Where a board's cells go on the widget, and the parts drawn once."""

    canvas: Canvas
    """Labels and grid lines; never drawn on (copied for each redraw)."""
    cells: tuple[tuple[int, int], ...]
    """`cells[c]`: (x, y) of the first character of cell `c`'s content."""
    content: int
    """Characters of a cell's content: 1, or 2 for a stack and its height."""
    margins: bool
    """Whether each cell has columns of its own on both sides of its content for markers
    (square boards); else the columns between cells are shared and only the cursor marks
    them."""
    hits: Mapping[tuple[int, int], int]
    """The cell under each (x, y) a mouse click can pick."""
    tiles: tuple[tuple[int, int, int, int], ...] = ()
    """(x, y, width, height) of each cell's square when a zoomed square board fills it
    with the cell's style; empty when cells are drawn as their content only."""
    shaded: frozenset[int] = frozenset()
    """Cells whose square is shaded, so that large squares read as a board."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in terminal cells."""
        return self.canvas.width, self.canvas.height

    def cropped(self, edges: frozenset[str]) -> BoardLayout:
        """The layout without its line of coordinates above (`top` not in `edges`) or
        below (`bottom` not in it): every layout keeps those two lines for labels only."""
        top = 0 if "top" in edges else 1
        bottom = self.canvas.height - (0 if "bottom" in edges else 1)
        if (top, bottom) == (0, self.canvas.height):
            return self
        canvas = Canvas(self.canvas.width, bottom - top)
        canvas.chars = [row[:] for row in self.canvas.chars[top:bottom]]
        canvas.keys = [row[:] for row in self.canvas.keys[top:bottom]]
        return BoardLayout(
            canvas,
            tuple((x, y - top) for x, y in self.cells),
            self.content,
            self.margins,
            {(x, y - top): cell for (x, y), cell in self.hits.items() if top <= y < bottom},
            tuple((x, y - top, w, h) for x, y, w, h in self.tiles),
            self.shaded,
        )
