"""What the move line (`:`) says of the text typed so far, at each character: a legal
move (Enter plays it), the start of legal moves (which ones), or why no legal move is
typed, in the rules' own words (the same sentence as a click on the cell)."""

from __future__ import annotations

from ..rooms.conditional import is_reply_line
from ..rules import Game, RulesError

NAMED_MOVES = 4
"""How many of the legal moves that go on from the text typed are named (the rest counted)."""


def typed_check(game: Game, text: str) -> str:
    """One sentence on `text` as a move in `game` now."""
    typed = text.strip().lower()
    if is_reply_line(typed):
        return "if MOVE then REPLY keeps your reply ready (days per move); Enter sends it."
    if not typed:
        example = "c3, c3-f6" if game.info.captures else "c3"
        return f"Type a move, e.g. {example} (Enter plays it, Esc closes the line)."
    try:
        reason = game.illegal_reason(game.parse_move(typed))
    except RulesError as error:
        refusal = f"Not a move: {error}"
    else:
        if reason is None:
            return f"{typed}: legal. Enter plays it."
        refusal = f"Not legal: {reason}"
    # A cell is the start of a move from it (Pilo's b3 of b3-e3): say where it can go.
    names = [game.move_name(m) for m in game.legal_moves()]
    going_on = [name for name in names if name.startswith(typed) and name != typed]
    if going_on:
        named = ", ".join(going_on[:NAMED_MOVES])
        more = len(going_on) - NAMED_MOVES
        if more > 0:
            named += f" and {more} more"
        return f"{typed}...: can be a legal move ({named})."
    return refusal
