"""Rated puzzles, as a server keeps them: every player has a puzzle rating per game and
every puzzle a rating of its own (Glicko-2, `ratings`), and each try is a game between
the two: solving the whole winning line wins it, a wrong move or a move shown loses it
(the first of these settles the try). A player is offered an unsolved puzzle near their
rating. Pure: the store keeps what this computes (`store.puzzle_book`)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ratings import Rating, after_game
from .puzzle import Puzzle

if TYPE_CHECKING:
    from .trial import Answer

START: dict[str, float] = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0}
"""A new puzzle's rating by its grade: where it starts before anyone has tried it."""
PUZZLE_DEVIATION = 250.0
"""A new puzzle's deviation: its grade says something of it, not all."""
NEAREST = 5
"""How many of the puzzles nearest the player's rating the next one is drawn from."""


def puzzle_key(puzzle: Puzzle) -> str:
    """The name a puzzle is kept by, the same wherever it comes from: `pilo-6-` and 12
    hexadecimal digits of its position's moves and options."""
    text = "|".join((puzzle.variant, str(puzzle.komi), *puzzle.moves))
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return f"{puzzle.game}-{puzzle.size}-{digest}"


def first_rating(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anyone has tried it."""
    return Rating(START.get(puzzle.grade, 1500.0), PUZZLE_DEVIATION)


@dataclass(frozen=True)
class Kept:
    """A puzzle as the server keeps it: its key, the puzzle, and its rating now."""

    key: str
    puzzle: Puzzle
    rating: Rating


@dataclass(frozen=True)
class TryRated:
    """What one try did to the player's puzzle rating (and to the puzzle's)."""

    won: bool
    before: Rating
    after: Rating
    puzzle_after: Rating

    def change(self) -> str:
        """`Puzzle rating 1500 -> 1523.`"""
        return f"Puzzle rating {round(self.before.value)} -> {round(self.after.value)}."

    def said(self) -> str:
        """`Solved. Puzzle rating 1500 -> 1523.` or `Failed. Puzzle rating 1500 -> 1477.`"""
        what = "Solved" if self.won else "Failed"
        return f"{what}. {self.change()}"


def after_try(player: Rating, puzzle: Rating, won: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one try: a game between the two that
    the player wins by solving the puzzle."""
    return after_game(player, puzzle, 1.0 if won else 0.0)


def choose(
    puzzles: Sequence[Kept], rating: Rating, solved: set[str], rng: random.Random
) -> Kept | None:
    """The next puzzle for a player of `rating`: one of the `NEAREST` nearest their
    rating, drawn by `rng`, that they have not solved (None: they solved them all)."""
    open_ = [kept for kept in puzzles if kept.key not in solved]
    if not open_:
        return None
    open_.sort(key=lambda kept: (abs(kept.rating.value - rating.value), kept.key))
    return rng.choice(open_[:NEAREST])


@dataclass
class Score:
    """How a rated try stands: settled by the first wrong move or move shown (lost) or
    by the whole line solved (won); what comes after changes nothing."""

    won: bool | None = None

    def after(self, answer: Answer, shown: bool = False) -> bool | None:
        """The try's result when `answer` (to a move, or to `show` if `shown`) settles it;
        None when it does not (yet, or any more)."""
        if self.won is not None:
            return None
        if shown or answer.wrong:
            self.won = False
        elif answer.right and answer.solved:
            self.won = True
        return self.won


@dataclass(frozen=True)
class PuzzleAnswer:
    """What the server answers of a person's rated puzzles: the puzzle offered next (None:
    none left) with their puzzle rating in its game, a try rated, or their ratings."""

    offered: Kept | None = None
    player: Rating | None = None
    rated: TryRated | None = None
    ratings: tuple[tuple[str, Rating, int], ...] = ()
    """(game, rating, tries) of each game they have a puzzle rating in."""
