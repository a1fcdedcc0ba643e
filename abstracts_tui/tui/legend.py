"""The legend beside the board: whose pieces are which where colours are not shown
(`NO_COLOR`), and what each mark of the score means, for the marks the board shows now
only. Pure: no Textual here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..rules import Game, Piece
from .overlay import OWN
from .widgets.glyphs import Glyphs


def legend_text(game: Game, glyphs: Glyphs, overlay: Mapping[int, str]) -> str:
    """`▪ ▫  Blue's, Orange's area` and the like, one line per kind of mark the board
    draws now: a mark is named only with the glyphs and colours that are on the board."""
    colours = game.info.colours
    names = [c.capitalize() for c in colours]
    drawn: dict[str, set[int]] = {}
    """Mark -> the colours it is drawn for (an owner, or a piece's colour)."""
    for cell, mark in overlay.items():
        piece = game.piece_at(cell)
        if mark in OWN:
            # An empty cell shows the owner's glyph; an occupied one only its ground.
            kind = "area" if piece is None else "ground"
            drawn.setdefault(kind, set()).add(OWN.index(mark))
        elif mark in ("cancelled", "fragment") and piece is not None and piece.colour is not None:
            drawn.setdefault(mark, set()).add(piece.colour)  # drawn on the piece itself
        elif mark == "free":
            drawn.setdefault(mark, set())

    def whose(sides: set[int]) -> str:
        return ", ".join(f"{names[side]}'s" for side in sorted(sides))

    lines = []
    if "area" in drawn:
        lines_kind = game.info.geometry == "points"
        shown = sorted(drawn["area"])
        marks = " ".join(glyphs.territory(side, colours, lines=lines_kind) for side in shown)
        lines.append(f"{marks}  {whose(drawn['area'])} area")
    ground = drawn.get("ground", set()) - drawn.get("area", set())
    if ground:
        lines.append(f"coloured ground  {whose(ground)} area")
    if "free" in drawn:
        lines.append("shaded  a region both may play in")
    if "cancelled" in drawn:
        left, right = glyphs.cancelled
        side = min(drawn["cancelled"])
        glyph = glyphs.piece(Piece("disk", side), colours)
        lines.append(f"{left}{glyph}{right}  a group cancelled by an equal one")
    if "fragment" in drawn:
        sides = sorted(drawn["fragment"])
        marks = " ".join(glyphs.piece(Piece("disk", c), colours, scoring=True) for c in sides)
        lines.append(f"{marks}  {whose(set(sides))} fragments (score for the other side)")
    return ("Marks:\n" + "\n".join(lines)) if lines else ""


def sides_text(game: Game, glyphs: Glyphs, people: Sequence[str]) -> str:
    """`● Blue (Ann)   ○ Orange (Bob)`: each side's piece as the board draws it, its colour
    and who holds it (`people[colour]`), for a terminal without colours, where the shape
    alone tells the sides apart. Linage's stones are nobody's: nothing to say there."""
    if game.info.geometry == "points":
        return ""
    colours = game.info.colours
    sides = [
        f"{glyphs.piece(Piece('disk', side), colours)} {name.capitalize()} ({people[side]})"
        for side, name in enumerate(colours)
    ]
    return "   ".join(sides)


def panel_legend(
    game: Game,
    glyphs: Glyphs,
    overlay: Mapping[int, str] | None,
    people: Sequence[str],
    *,
    monochrome: bool,
) -> str:
    """What the panel's legend says: whose pieces are which on a `monochrome` terminal,
    and the score's marks while the score is shown (`overlay`)."""
    parts = [sides_text(game, glyphs, people) if monochrome else ""]
    parts.append(legend_text(game, glyphs, overlay) if overlay is not None else "")
    return "\n".join(part for part in parts if part)
