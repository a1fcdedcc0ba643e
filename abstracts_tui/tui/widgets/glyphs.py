"""The characters boards are drawn with: one set for Unicode terminals, one for ASCII.

Sides differ by shape as well as by colour, so that a monochrome terminal still tells
them apart: the first shape is filled (`●`), the second hollow (`○`). Which colour gets
which shape follows the colour's name, not its order: Partitions' White is hollow although
White moves first.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import Piece

FILLED = 0
HOLLOW = 1

SHAPES = {"blue": FILLED, "orange": HOLLOW, "black": FILLED, "white": HOLLOW}
"""The shape of each piece colour's glyph."""

TERRITORY_SHAPES = {"vertical": FILLED, "horizontal": HOLLOW}
"""Linage's sides own territory but have no pieces: they still need two marks."""


@dataclass(frozen=True)
class Glyphs:
    """One character set for drawing boards."""

    pieces: tuple[str, str]
    """The filled and the hollow piece."""
    scoring: tuple[str, str]
    """The same pieces when they are in a fragment group (Partitions)."""
    stone: str
    """Linage's neutral stone."""
    block: str
    empty: str
    """An empty square or hex cell."""
    target: str
    """An empty cell the selected piece can move to."""
    owned: tuple[str, str]
    """An empty cell of territory, by the owner's shape."""
    owned_lines: tuple[str, str]
    """An empty point of Linage territory: Vertical's, Horizontal's."""
    cursor: tuple[str, str] = ("[", "]")
    selected: tuple[str, str] = ("(", ")")
    capture: tuple[str, str] = (">", "<")
    """Around an enemy piece the selected piece can capture."""
    cancelled: tuple[str, str] = ("-", "-")
    """Around a piece of a group that cancelled against an equal enemy group."""
    corners: str = "┌┬┐├┼┤└┴┘"
    """Points of a grid of lines: top row, middle rows, bottom row; left, inner, right."""
    line: str = "─"
    """The line between two points of a row."""
    vertical: str = "│"
    """The line between two points of a column (on a zoomed board)."""
    letters: bool = False
    """Draw a coloured piece as its colour's initial, as in position strings (ASCII)."""

    def piece(self, piece: Piece, colours: tuple[str, str], scoring: bool = False) -> str:
        """The characters of a piece: its glyph, then a stack's height if above 1.

        `scoring` picks the variant for pieces of a fragment group (Partitions).
        """
        if piece.kind == "block":
            return self.block
        if piece.colour is None:
            return self.stone
        name = colours[piece.colour]
        if self.letters:
            text = name[0].upper() if scoring else name[0]
        else:
            text = (self.scoring if scoring else self.pieces)[SHAPES.get(name, piece.colour)]
        if piece.kind == "stack" and piece.height > 1:
            text += str(piece.height) if piece.height < 10 else "+"
        return text

    def territory(self, colour: int, colours: tuple[str, str], lines: bool = False) -> str:
        """The mark of an empty cell owned by `colour`."""
        name = colours[colour]
        if lines:
            return self.owned_lines[TERRITORY_SHAPES.get(name, colour)]
        return self.owned[SHAPES.get(name, colour)]

    def point(self, col: int, row: int, size: int) -> str:
        """The grid character of the empty point (col, row), both from 0 at the bottom left."""
        across = 0 if col == 0 else 2 if col == size - 1 else 1
        down = 0 if row == size - 1 else 2 if row == 0 else 1
        return self.corners[3 * down + across]


UNICODE = Glyphs(
    pieces=("●", "○"),
    scoring=("◉", "◎"),
    stone="●",
    block="▒",
    empty="·",
    target="*",
    owned=("▪", "▫"),
    owned_lines=("↕", "↔"),
    cancelled=("─", "─"),
)

ASCII = Glyphs(
    pieces=("x", "o"),
    scoring=("X", "O"),
    stone="o",
    block="#",
    empty=".",
    target="*",
    owned=("+", "-"),
    owned_lines=("|", "="),
    corners="+++++++++",
    line="-",
    vertical="|",
    letters=True,
)
