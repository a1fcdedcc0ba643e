"""The sentences of play, the same in the full-screen app and line mode: a move with what
it captured, pushed or left (`words.move_words`), the computer's move with its time,
komi and sides chosen, the computer choosing, a hint (the side to move's chance, named),
and the flag. A front end adds only what is its own: the app's key that plays a hint,
the turn in the same status line; line mode says the turn on a line of its own.

Pure functions of the session and the rules' objects: no terminal, no Textual.
"""

from __future__ import annotations

from ..chances import Hint, hint_words
from ..engine.terms import line_names
from ..rules import Game, Move, format_number
from ..session import Phase, Session
from ..words import colour, move_words, took_words

HINT_LINE = 5
"""The moves of the line a hint names after its own."""
NO_HINT = "No hint: there is no move to play now."
NO_HINT_FOUND = "No hint found."
LOOKING = "Looking for a good move..."


def played_words(
    session: Session,
    name: str,
    mover: int | None = None,
    person: str | None = None,
    thought: float | None = None,
) -> str:
    """The move `name` just made by `mover` (`person`, None: the colour alone), said as
    `words.move_words` says it, with the computer's time (`thought`). A move that is no
    longer the session's last one (a screen told late, after more moves) is said by its
    name alone: `Blue (Ann) plays c3.`"""
    game = session.game
    last = game.moves[-1] if game.moves else None
    if last is not None and game.move_name(last) == name:
        return last_move_words(game, last, person, thought)
    if mover is None:
        who = person or "The computer"
    else:
        who = colour(game, mover) if person is None else f"{colour(game, mover)} ({person})"
    done = {"pass": "passes", "swap": "swaps"}.get(name, f"plays {name}")
    return f"{who} {done}{took_words(thought)}."


def last_move_words(game: Game, move: Move, person: str | None, thought: float | None) -> str:
    """`move`, the last of `game`'s, said with what it changed."""
    before = game.copy()
    before.undo()
    return move_words(before, game, move, person, thought)


def komi_words(who: str, komi: float) -> str:
    """`Ann sets komi to 4.`"""
    return f"{who} sets komi to {format_number(komi)}."


def side_words(who: str, game: Game, side: int) -> str:
    """`Bob takes Orange.`"""
    return f"{who} takes {colour(game, side)}."


def choosing_words(name: str, level: str | None, phase: Phase) -> str:
    """`Computer (easy) is choosing its move.` (komi, a side)."""
    what = {Phase.KOMI: "komi", Phase.SIDE: "a side"}.get(phase, "its move")
    who = name if level is None else f"{name} ({level})"
    return f"{who} is choosing {what}."


def hint_sentence(game: Game, hint: Hint) -> str:
    """The hint, why, and the line the search expects after it: `Hint: c2 - Orange's
    chance 55%, ahead by 3 (best of 12 moves tried); the line c2 d4 e5.` (its first
    `HINT_LINE` moves)."""
    line = " ".join(line_names(game, hint.pv, HINT_LINE))
    return f"{hint_words(game, hint)}; the line {line}."


def time_up_words(session: Session) -> str:
    """`Time is up. Orange (Bob) lost on time: Blue (Ann) wins.`"""
    return f"Time is up. {session.turn_text()}."
