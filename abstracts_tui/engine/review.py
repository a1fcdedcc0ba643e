"""Game review, as KaTrain does for Go: every position of a game evaluated by a search,
each move's loss of win rate for the side that made it, each person's biggest mistakes
and an accuracy figure.

`Reviewer(game, budget)` reviews the moves of `game` (from its start position); `run()`
evaluates one position after the other, calling `progress(done, total)` after each, and
may be stopped from another thread (`stop()`): the review then holds the moves whose
positions both got evaluated. The app can run it in a worker thread; `abstracts-tui
review FILE.sgf` prints it.

A move's loss is the mover's win rate before it (the evaluation of the position it was
played in) minus the mover's win rate after it, never below 0, both as every figure is
shown (calibrated to the results they foretell, `calibration.py`, unless proven): the
search that gives each figure is a sample, so a good move can look a little better than
the position, and the review's best move loses nothing (its figure after is a second
sample of the line the figure before measured).
Both are the people's, not the colours': the search measures the chances of the person
to move, who may take the other colour where the pie rule's swap is allowed, and the
people take turns even where a swap keeps the colour to move. So a swap the review
finds best loses nothing, and a first move that invites a good swap loses what the swap
takes.
Beside the win rate, each figure has its expected score (the mean final margin of the
search's playouts, komi included, `Candidate.score`), and a move's score lost is found
the same way: the mover's before less the mover's after, never below 0, none for the
review's best move.
Accuracy follows Lichess's move accuracy, 103.1668 * exp(-0.04354 * loss%) - 3.1669 for
a loss in percentage points (100 for a move that loses nothing), averaged over a
person's moves.
"""

from __future__ import annotations

import math
import os
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import SWAP, Game, Move
from .calibration import shown_winrate
from .search import Budget, Search
from .settings import PLAYOUTS_VARIABLE, whole_number
from .terms import SHOWN_WINRATE_BOUNDS, Proof, first_margin

Progress = Callable[[int, int], None]

COMPILED_PLAYOUTS = 10_000
PYTHON_PLAYOUTS = 300
"""Playouts a position by default on each core: a review of a 100-move game takes
seconds on either."""


def review_budget(playouts: int | None = None, seconds: float | None = None) -> Budget:
    """The search of each position: as given, else `ABSTRACTS_TUI_PLAYOUTS`, else the
    default of the core in use (the command and the app alike)."""
    if playouts is None and seconds is None:
        from .core_status import core_name

        default = COMPILED_PLAYOUTS if core_name() == "compiled" else PYTHON_PLAYOUTS
        playouts = whole_number(os.environ, PLAYOUTS_VARIABLE, 1) or default
    return Budget(seconds=seconds, playouts=playouts)


def person_names(players: Sequence[str | None], colours: Sequence[str]) -> list[str]:
    """The people by the colour they started with: their names, else the colour's."""
    return [name or colour.capitalize() for name, colour in zip(players, colours, strict=True)]


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what the review thinks of it."""

    number: int
    """1 for the first move."""
    move: Move
    name: str
    colour: int
    """The colour that made it (0 = the first mover's colour)."""
    person: int
    """Who made it: 0 for the person who began with the first colour (a pie-rule swap
    exchanges the people's colours)."""
    before: float
    """The mover's win rate in the position the move was played in (theirs as a person:
    where they could swap, with the colour the swap would give them)."""
    after: float
    """The mover's win rate in the position after it (after a swap, with their new
    colour)."""
    best: str | None
    """The search's best move in the position the move was played in."""
    before_proof: Proof | None = None
    """What the search proved of the position the move was played in, for the mover
    (`before` is then exact), or None."""
    after_proof: Proof | None = None
    """What the search proved (or the game's end says) of the position after the move,
    for the mover, or None."""
    score_before: float | None = None
    """The mover's expected score in the position the move was played in (positive: the
    mover leads), or None where the search gave none."""
    score_after: float | None = None
    """The mover's expected score in the position after it (a finished game's: its final
    margin), or None."""

    @property
    def loss(self) -> float:
        """The win rate the move gave away (0 to 1); none for the review's best move,
        whose figure after it is only a second sample of the same line."""
        if self.name == self.best:
            return 0.0
        return max(0.0, self.before - self.after)

    @property
    def score_loss(self) -> float | None:
        """The expected score the move gave away, in points (none for the review's best
        move, as `loss`); None where either figure is missing."""
        if self.score_before is None or self.score_after is None:
            return None
        if self.name == self.best:
            return 0.0
        return max(0.0, self.score_before - self.score_after)

    @property
    def accuracy(self) -> float:
        """Lichess's move accuracy of this loss: 100 for none, falling as it grows."""
        if self.loss == 0:
            return 100.0  # the formula's rounded constants give 99.9999
        value = 103.1668 * math.exp(-0.04354 * self.loss * 100) - 3.1669
        return min(100.0, max(0.0, value))


@dataclass(frozen=True)
class Review:
    """The review of a game's moves."""

    evaluations: tuple[float, ...]
    """The first colour's win rate in each position evaluated, from the start."""
    moves: tuple[MoveReview, ...]
    playouts: int
    """The playouts of all the searches together."""
    scores: tuple[float | None, ...] = ()
    """The first colour's expected score in each position evaluated (positive: it
    leads), as `evaluations`; None where the search gave none."""

    def mistakes(self, person: int, limit: int = 3) -> list[MoveReview]:
        """The person's moves that lost most, biggest first (only those that lost some)."""
        theirs = [m for m in self.moves if m.person == person and m.loss > 0]
        theirs.sort(key=lambda m: (-m.loss, m.number))
        return theirs[:limit]

    def accuracy(self, person: int) -> float | None:
        """The mean accuracy of the person's moves; None if they made none."""
        theirs = [m.accuracy for m in self.moves if m.person == person]
        return sum(theirs) / len(theirs) if theirs else None


OTHER_SIDE: dict[Proof, Proof] = {"win": "loss", "loss": "win", "draw": "draw"}
"""A proof as the other side sees it."""


def points_lost_text(m: MoveReview) -> str:
    """A move's expected score lost as the review prints it: `2.5`, `0.0`, or `-` where
    the search gave no score."""
    lost = m.score_loss
    return "-" if lost is None else f"{lost:.1f}"


def percent_text(winrate: float, proof: Proof | None) -> str:
    """A win rate as the review prints it: `win`, `loss` or `draw` where it is proven,
    else a percentage within `SHOWN_WINRATE_BOUNDS` (100.0% and 0.0% are proofs only)."""
    if proof is not None:
        return proof
    low, high = SHOWN_WINRATE_BOUNDS
    return f"{min(high, max(low, winrate)):.1%}"


@dataclass(frozen=True)
class Evaluation:
    """What the review found of one position."""

    first_colour: float
    """The first colour's win rate as shown (the graph's figure)."""
    to_move: float
    """The win rate of the person to move as shown (`calibration.shown_winrate`; where
    the pie rule's swap is allowed, they may take either colour)."""
    best: str | None
    """The search's best move, None where the game is over."""
    playouts: int
    proven: Proof | None = None
    """What the search proved of the position for the person to move (`to_move` is
    then exact), the game's end included; None when unproven."""
    score: float | None = None
    """The expected score of the person to move (that of the search's best move; at the
    game's end its final margin); None where there is none."""
    first_colour_score: float | None = None
    """`score` as the first colour's (the graph's)."""


def winrate_colour(game: Game, best: Move | None) -> int:
    """The colour whose win rate the search's figure for `game` is: that of the person to
    move, who holds the colour to move, unless the best move is the pie rule's swap,
    which hands them the other colour."""
    return game.turn ^ (best == SWAP)


def person_score(search: Search) -> float | None:
    """The expected score of the person to move after `search`: its best move's as shown
    (none where too few playouts gave it, as where a proof ended the playouts early)."""
    found = search.candidates(1)
    return found[0].shown_score if found else search.score()


def person_winrate(game: Game, search: Search) -> float:
    """The win rate of the person to move in `game` after `search` of it, as shown
    (`calibration.shown_winrate`: its best move's, calibrated unless proven); 0.5 before
    any playout."""
    found = search.candidates(1)
    if not found:
        return 0.5
    return shown_winrate(game, found[0].winrate, found[0].proven)


class Reviewer:
    """Reviews the moves of a game, one position at a time; `stop()` is thread-safe."""

    def __init__(self, game: Game, budget: Budget, seed: int | None = None) -> None:
        self.start = type(game).from_position(game.start_position)
        self.moves = list(game.moves)
        self.budget = budget
        self.rng = random.Random(seed)
        self._stopped = threading.Event()
        self._search: Search | None = None

    def stop(self) -> None:
        """End the review soon; `run()` returns what it has evaluated."""
        self._stopped.set()
        search = self._search
        if search is not None:
            search.stop()

    def evaluate(self, game: Game) -> Evaluation:
        """What the search (or the game's end) says of `game`'s position."""
        outcome = game.outcome()
        if outcome is not None:
            winrate = 0.5 if outcome.winner is None else float(outcome.winner == 0)
            to_move = winrate if game.turn == 0 else 1.0 - winrate
            proof: Proof = "draw" if to_move == 0.5 else "win" if to_move == 1.0 else "loss"
            margin = first_margin(game)
            final = margin if game.turn == 0 else -margin
            return Evaluation(winrate, to_move, None, 0, proof, final, margin)
        search = Search(game, self.rng.randrange(2**32))
        self._search = search
        if not self._stopped.is_set():
            search.run(self.budget)
        best = search.best_move()
        theirs = person_winrate(game, search)
        first = winrate_colour(game, best) == 0
        score = person_score(search)
        first_score = None
        if score is not None:
            first_score = score if first else -score
        return Evaluation(
            theirs if first else 1.0 - theirs,
            theirs,
            None if best is None else game.move_name(best),
            search.playouts_run,
            search.proven,
            score,
            first_score,
        )

    def run(self, progress: Progress | None = None) -> Review:
        """Evaluate every position (the start and after each move) and review the moves."""
        game = self.start.copy()
        total = len(self.moves) + 1
        found: list[Evaluation] = []
        for index in range(total):
            if self._stopped.is_set():
                break
            if index:
                game.push(self.moves[index - 1])
            evaluation = self.evaluate(game)
            if self._stopped.is_set() and evaluation.playouts == 0 and not game.is_over():
                break
            found.append(evaluation)
            if progress is not None:
                progress(index + 1, total)
        return Review(
            tuple(e.first_colour for e in found),
            self._reviews(found),
            sum(e.playouts for e in found),
            tuple(e.first_colour_score for e in found),
        )

    def _reviews(self, evaluations: list[Evaluation]) -> tuple[MoveReview, ...]:
        game = self.start.copy()
        swapped = 0
        found = []
        for number, move in enumerate(self.moves[: len(evaluations) - 1], start=1):
            colour = game.turn
            here, there = evaluations[number - 1], evaluations[number]
            # The people take turns (a swap too), so the person to move after the move
            # is the mover's opponent.
            before, after = here.to_move, 1.0 - there.to_move
            score_after = None if there.score is None else -there.score
            name = game.move_name(move)
            found.append(
                MoveReview(
                    number,
                    move,
                    name,
                    colour,
                    colour ^ swapped,
                    before,
                    after,
                    here.best,
                    here.proven,
                    OTHER_SIDE[there.proven] if there.proven else None,
                    here.score,
                    score_after,
                )
            )
            if move == SWAP:
                swapped ^= 1
            game.push(move)
        return tuple(found)
