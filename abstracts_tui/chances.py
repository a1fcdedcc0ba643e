"""A search's figures in words, the same in the full-screen app and in line mode: always
the chance of the side to move, named (`Orange's chance 55%`), never a bare number whose
side the reader has to guess, and beside it by how much that side is expected to lead or
trail at the count (`Orange's chance 45%, behind by 2.5`).

Pure functions of the rules' objects and the search's candidates: no terminal here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .engine.calibration import candidate_winrate
from .engine.terms import Candidate, line_names
from .rules import Game, format_number


@dataclass(frozen=True)
class Hint(Candidate):
    """The search's best move offered as a hint, with how many moves it was the best of."""

    tried: int = 1
    """The moves the search looked at (its candidates with a playout or more)."""

    @classmethod
    def best_of(cls, found: Sequence[Candidate]) -> Hint | None:
        """The first of `found` (the search's candidates, best first); None if none."""
        if not found:
            return None
        best = found[0]
        return cls(
            best.move,
            best.visits,
            best.winrate,
            best.pv,
            best.proven,
            best.score,
            best.scored,
            len(found),
        )


def mover(game: Game) -> str:
    """The colour to move, capitalised: `Orange`."""
    return game.colour_name(game.turn).capitalize()


def percent(value: float, proven: str | None = None) -> str:
    """A win rate in whole percents. Only a proof reads 100% or 0%: an unproven figure,
    however close, is a sample and reads 1% to 99%."""
    shown = round(100 * value)
    if proven is None:
        shown = min(99, max(1, shown))
    return f"{shown}%"


def score_words(score: float) -> str:
    """An expected score (the side to move's: positive when it leads) in words, to a
    tenth of a point: `ahead by 3`, `behind by 2.5`, `level`."""
    shown = round(abs(score), 1)
    if shown == 0:
        return "level"
    return f"{'ahead' if score > 0 else 'behind'} by {format_number(shown)}"


def chance_words(
    game: Game, winrate: float, proven: str | None = None, score: float | None = None
) -> str:
    """`winrate` (the side to move's figure as shown, `calibration.shown_winrate`'s, not
    the search's raw one) as the side to move's chance, with its expected `score` when
    there is one: `Orange's chance 45%, behind by 2.5`; a
    result the search proved is said as such, without figures: `Orange wins by force`,
    `Orange loses by force`, `a draw by force`."""
    if proven == "win":
        return f"{mover(game)} wins by force"
    if proven == "loss":
        return f"{mover(game)} loses by force"
    if proven == "draw":
        return "a draw by force"
    chance = f"{mover(game)}'s chance {percent(winrate)}"
    return chance if score is None else f"{chance}, {score_words(score)}"


TOO_FEW = "too few playouts to judge"
"""What stands for a figure the search has too few playouts for (`Candidate.few_visits`)."""


def candidate_words(game: Game, candidate: Candidate) -> str:
    """A candidate's figures in words: its chance and expected score, its proof, or that
    it has too few playouts to mean anything."""
    shown = candidate_winrate(candidate, game)
    if shown is None:
        return TOO_FEW
    return chance_words(game, shown, candidate.proven, candidate.shown_score)


def hint_words(game: Game, hint: Hint) -> str:
    """Why the hint: `Hint: c2 - Orange's chance 55%, ahead by 3 (best of 12 moves
    tried)`."""
    why = f"best of {hint.tried} moves tried" if hint.tried > 1 else "the only move tried"
    chance = candidate_words(game, hint)
    return f"Hint: {game.move_name(hint.move)} - {chance} ({why})"


def candidate_chance(game: Game, candidate: Candidate, line_limit: int = 5) -> str:
    """One move the search looked at, as line mode's analysis lists it: `d4: Blue's
    chance 62%, ahead by 1.5, 1,200 playouts; the line d4 e5 c3.`"""
    chance = candidate_words(game, candidate)
    line = " ".join(line_names(game, candidate.pv, line_limit))
    visits = f"{candidate.visits:,} playouts"
    return f"{game.move_name(candidate.move)}: {chance}, {visits}; the line {line}."
