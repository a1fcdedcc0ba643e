"""What every search core shares: the search's constants, its budget, and a candidate
move with what the search thinks of it (`search.py` chooses a core; `compiled_search.py`
is the compiled one)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..rules import Game, Move

DEFAULT_REF = 50
"""GRAVE: a node's own AMAF statistics are used once it has this many playouts."""
DEFAULT_BIAS = 1e-5
"""GRAVE: a child's own mean takes over from the AMAF mean as its visits near 1 / bias;
at 1e-5 the AMAF mean leads for the whole of a search of ordinary length."""
GAME_BIAS: dict[str, float] = {"petrify": 1e-3}
"""GRAVE's bias of the games whose own differs from `DEFAULT_BIAS`. A Petrify move's worth
hangs on when it is played (a disk moves to capture and leaves a block), which the AMAF
mean cannot see; with the own mean taking over from about a thousand visits, eight times
the playouts won 85% of 120 games against one search where they won 79% of 200, and
equal searches scored 55% of 120 against 1e-5 (docs/computer.md)."""
DEFAULT_EXPLORATION = 0.05
"""The UCB exploration constant added to GRAVE values. It must be small: against plain
UCT at 300 playouts a move, 10 games each, 0.05 won 10-0 in Partitions and 8-2 in
Egotzi where 0.2 won 4-6 and 5-5. Without any, a node where every move has lost so far
sticks to the first move it tried, which can miss a win."""
UCT_EXPLORATION = 0.7
"""The UCB exploration constant of plain UCT."""
DEFAULT_MAX_NODES = 30_000
"""The tree stops growing at this many nodes, which bounds the memory of a long search."""
DEFAULT_AMAF_FROM = 20
"""GRAVE: a node keeps AMAF statistics from its this-many-th playout on (the root from
the first). Most nodes never get that far, and the tables are most of the memory."""


MIN_VISITS_TO_SHOW = 10
"""A move the search visited fewer times than this (and has not proven) shows no win
rate: a search that ends when its root is proven leaves the other moves a handful of
visits, often at 1 or 0 whatever their real value (of 130 such figures found wrong
against an exact solver, all had 1 to 5 visits)."""
SHOWN_WINRATE_BOUNDS = (0.001, 0.999)
"""An unproven win rate is shown within these, so that 1 and 0 (to three places) always
mean a proof."""

Proof = Literal["win", "loss", "draw"]
"""What a solver proved of a move or a position, for the side to move."""

PROOF_WINRATES: dict[Proof, float] = {"win": 1.0, "loss": 0.0, "draw": 0.5}
"""The win rate that each proof stands for."""


def bias_for(game: Game) -> float:
    """GRAVE's bias for `game`'s searches (`GAME_BIAS`, else `DEFAULT_BIAS`)."""
    return GAME_BIAS.get(game.info.name, DEFAULT_BIAS)


@dataclass(frozen=True)
class Budget:
    """How long one `Search.run` may go on: seconds of wall time, playouts, or both.

    The run stops at whichever limit comes first; with neither it runs until `stop()`.
    Only a playout budget gives the same result on every machine.
    """

    seconds: float | None = None
    playouts: int | None = None


@dataclass(frozen=True)
class Candidate:
    """One move at the root with what the search thinks of it."""

    move: Move
    visits: int
    winrate: float
    """Between 0 and 1, for the side to move at the root (a draw counts half): the
    search's raw figure, which decisions read; figures shown are `shown_winrate`'s."""
    pv: tuple[Move, ...]
    """The principal variation, starting with `move`."""
    proven: Proof | None = None
    """`win`, `loss` or `draw` for the side to move when the compiled core's solver has
    proven the move's value (its winrate is then 1, 0 or 0.5); None otherwise. What a
    front end reads to say that a move wins (or loses) by force."""
    score: float | None = None
    """The expected score: the mean final margin (komi included) of the playouts through
    the move, for the side to move at the root (positive: it leads). None where no
    playout ended the game through it (a move the search took only a proof's word for;
    the compiled core counts the playouts since its root last moved with the game)."""
    scored: int | None = None
    """The playouts that gave `score`; None when every visit did (the pure-Python core's
    walks all end a game; the compiled core's answered by a proof end none)."""

    @property
    def few_visits(self) -> bool:
        """Whether the move is unproven with fewer than `MIN_VISITS_TO_SHOW` visits: its
        win rate means nothing yet, and is not shown."""
        return self.proven is None and self.visits < MIN_VISITS_TO_SHOW

    @property
    def shown_score(self) -> float | None:
        """The expected score to show: None where there is none, or where fewer than
        `MIN_VISITS_TO_SHOW` playouts gave it (a proven move's often have: the search
        stops playing out what a proof settles)."""
        playouts = self.visits if self.scored is None else self.scored
        return None if playouts < MIN_VISITS_TO_SHOW else self.score


def first_margin(game: Game) -> float:
    """The first colour's points less the second's, komi included: a finished game's
    final margin (Partitions': that of its first scores, which a tie-break may decide
    against)."""
    first, second = game.score().points
    return first - second


def mean_score(margins: float, playouts: int) -> float | None:
    """The mean of `playouts` final margins summed to `margins`; None for no playout."""
    return margins / playouts if playouts else None


def rank_candidates(found: list[Candidate], limit: int | None = None) -> list[Candidate]:
    """Candidates best first: proven wins, then the moves with at least a tenth of the top
    visit count by the lower bound of their winrate (winrate - 0.5 / sqrt(visits)), then
    the others by visits, proven losses last.

    Most visits alone lags behind a move found late: a sure draw visited 773 times would
    beat a win at 85% visited 636 times.
    """
    if not found:
        return []
    enough = max(c.visits for c in found) / 10

    def rank(c: Candidate) -> tuple[int, bool, float, int]:
        group = {"win": 0, "loss": 2}.get(c.proven or "", 1)
        n = c.visits
        if n < enough:
            return (group, True, -n, -n)
        return (group, False, -(c.winrate - 0.5 / math.sqrt(n)), -n)

    ranked = sorted(found, key=rank)
    return ranked if limit is None else ranked[:limit]


def line_names(game: Game, moves: Sequence[Move], limit: int) -> list[str]:
    """The first `limit` of `moves` in notation from `game`'s position, up to the first
    that is not legal there (a line found for another position)."""
    replay = game.copy()
    names = []
    for move in moves[:limit]:
        if replay.illegal_reason(move) is not None:
            break
        names.append(replay.move_name(move))
        replay.push(move)
    return names
