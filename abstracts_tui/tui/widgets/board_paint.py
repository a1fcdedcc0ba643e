"""Drawing a position's cells onto a board's canvas: each cell's content, the markers
beside it and the style of its state (a piece, a target, the last move, the cursor, a
mark of the score). The board widget keeps the canvas and turns it into lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ...rules import Piece
from .board_layout import BoardLayout
from .canvas import Canvas
from .glyphs import Glyphs

MARKS = ("own0", "own1", "cancelled", "fragment", "free")
"""The overlay marks `BoardView.show` understands (see `tui/overlay.py`)."""


@dataclass(frozen=True)
class Marks:
    """What a board shows besides its pieces: the `selected` piece, its legal `targets`,
    the cells of the `last` move, and a score overlay (cell -> one of `MARKS`)."""

    selected: int | None = None
    targets: frozenset[int] = frozenset()
    last: frozenset[int] = frozenset()
    overlay: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CellPainter:
    """Paints the cells of one board, as its widget draws them now: where they go
    (`layout`), with which characters (`glyphs`) and for which game's `colours`."""

    layout: BoardLayout
    glyphs: Glyphs
    colours: tuple[str, str]
    empty_text: Callable[[int], str]
    """What an empty cell shows (a grid's point differs at its edges)."""
    empty_class: str
    """The style of an empty cell."""
    territory_lines: bool
    """Whether territory marks are Linage's (`↕` / `↔`) rather than small pieces."""

    def paint_all(self, canvas: Canvas, pieces: Sequence[Piece | None], marks: Marks) -> None:
        """Draw every cell (without the cursor) and join the marks between them."""
        for cell in range(len(pieces)):
            self.paint(canvas, pieces[cell], cell, marks, cursor=False)
        if not self.layout.margins:
            self.join_marks(canvas, marks.overlay)

    def paint(
        self, canvas: Canvas, piece: Piece | None, cell: int, marks: Marks, *, cursor: bool
    ) -> None:
        """Draw one cell: content, markers and the style of its state."""
        glyphs = self.glyphs
        colours = self.colours
        mark = marks.overlay.get(cell)
        target = cell in marks.targets
        classes: list[str] = []
        if piece is None:
            if target:
                text = glyphs.target
                classes.append("board--target")
            elif mark in ("own0", "own1"):
                owner = 0 if mark == "own0" else 1
                text = glyphs.territory(owner, colours, lines=self.territory_lines)
                classes.append(f"board--{colours[owner]}")
            else:
                text = self.empty_text(cell)
                classes.append(self.empty_class)
        else:
            text = glyphs.piece(piece, colours, scoring=mark == "fragment")
            if piece.colour is None:
                classes.append(f"board--{piece.kind}")
            else:
                classes.append(f"board--{colours[piece.colour]}")
        if mark in MARKS:
            classes.append(f"board--{mark}")
        if cell in marks.last:
            classes.append("board--last")
        if piece is not None and target:
            classes.append("board--target")
        if cell == marks.selected:
            classes.append("board--selected")
        if cursor:
            classes.append("board--cursor")
        key = tuple(classes)
        layout = self.layout
        if layout.tiles:
            tile_x, tile_y, tile_width, tile_height = layout.tiles[cell]
            tile_key = tuple(name for name in classes if name != "board--cursor")
            if cell in layout.shaded:
                tile_key = ("board--shade", *tile_key)
                key = ("board--shade", *key)
            for row in range(tile_y, tile_y + tile_height):
                canvas.put(tile_x, row, " " * tile_width, tile_key)
        x, y = layout.cells[cell]
        width = layout.content
        if piece is not None and piece.kind == "block":
            text = glyphs.block * width
        text = text.ljust(width)[:width]
        if layout.margins:
            if cursor:
                left, right = glyphs.cursor
            elif cell == marks.selected:
                left, right = glyphs.selected
            elif piece is not None and target:
                left, right = glyphs.capture
            elif piece is not None and piece.kind == "block":
                left = right = glyphs.block
            elif piece is not None and mark == "cancelled":
                left, right = glyphs.cancelled
            else:
                left = right = " "
            canvas.put(x - 1, y, left + text + right, key)
        else:
            canvas.put(x, y, text, key)
            if cursor:
                canvas.put(x - 1, y, glyphs.cursor[0], key)
                canvas.put(x + width, y, glyphs.cursor[1], key)

    def join_marks(self, canvas: Canvas, overlay: Mapping[int, str]) -> None:
        """Give the column between two neighbours of a row their overlay mark's background,
        so that a region reads as one area rather than a row of dots."""
        cells = self.layout.cells
        for cell in range(len(cells) - 1):
            mark = overlay.get(cell)
            x, y = cells[cell]
            after, next_y = cells[cell + 1]
            if mark in MARKS and overlay.get(cell + 1) == mark and next_y == y:
                for between in range(x + 1, after):
                    key = canvas.keys[y][between]
                    canvas.keys[y][between] = (*key, f"board--{mark}")
