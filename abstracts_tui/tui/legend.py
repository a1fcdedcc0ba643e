"""The legend of the score shown on the board: what each mark means, for the marks the
board shows now only. Pure: no Textual here."""

from __future__ import annotations

from collections.abc import Mapping

from ..rules import Game, Piece
from .widgets.glyphs import Glyphs


def legend_text(game: Game, glyphs: Glyphs, overlay: Mapping[int, str]) -> str:
    """`▪ ▫ Blue's, Orange's area` and the like, one line per kind of mark shown."""
    marks = set(overlay.values())
    colours = game.info.colours
    one, two = (c.capitalize() for c in colours)
    lines = []
    if marks & {"own0", "own1"}:
        lines_kind = game.info.geometry == "points"
        first = glyphs.territory(0, colours, lines=lines_kind)
        second = glyphs.territory(1, colours, lines=lines_kind)
        lines.append(f"{first} {second}  {one}'s, {two}'s area")
    if "free" in marks:
        lines.append("shaded  a region both may play in")
    if "cancelled" in marks:
        left, right = glyphs.cancelled
        lines.append(f"{left}{glyphs.pieces[0]}{right}  a group cancelled by an equal one")
    if "fragment" in marks:
        pieces = (glyphs.piece(Piece("disk", c), colours, scoring=True) for c in (0, 1))
        first, second = pieces
        lines.append(f"{first} {second}  {one}'s, {two}'s fragments (score for the other side)")
    return ("Marks:\n" + "\n".join(lines)) if lines else ""
