"""The search in the compiled core: the same `Search` interface, one tree for every thread.

The whole iteration (GRAVE or UCT selection, expansion, playout, outcome, update, and
the MCTS-solver's proofs) runs in C with the interpreter lock released. Every thread
searches the same tree (tree parallelisation): statistics are atomic counters, a move
being explored has its value lowered as if its playout had lost until the playout ends
(virtual loss) so that the other threads look elsewhere meanwhile, and a playout budget
is shared among them. So more threads reach deeper, not only wider. One thread with a
seed and a playout budget gives the same result on every run; several threads do not
(their interleaving changes), so `ABSTRACTS_TUI_SEED` (reproducible runs) makes one
thread the default.

Memory: the tree never takes more than `max_bytes` (256 MiB by default), AMAF tables
included: a tenth for nodes, half for edges (a node's moves and their statistics),
two-fifths for AMAF tables. When it is full it stops growing and the playouts go on.
"""

from __future__ import annotations

import os
import random
from typing import TYPE_CHECKING

from ..rules import Game, Move
from .compiled import module, position_of
from .settings import SEED_VARIABLE

if TYPE_CHECKING:
    from ._core import Searcher

from .terms import (
    DEFAULT_AMAF_FROM,
    DEFAULT_EXPLORATION,
    DEFAULT_REF,
    PROOF_WINRATES,
    UCT_EXPLORATION,
    Budget,
    Candidate,
    Proof,
    bias_for,
    mean_score,
    rank_candidates,
)

DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""The bound on the memory of one search's trees, AMAF tables included."""
THREADS_VARIABLE = "ABSTRACTS_TUI_THREADS"
WITHOUT_VARIABLE = "ABSTRACTS_TUI_WITHOUT"
"""A comma-separated list of the compiled search's improvements to leave out, `solver`
(the MCTS-solver, and with it the exact solver), `exact` (the exact solver of nodes with
few moves) and `reuse` (tree reuse): for measuring what each brings (scripts/match.py
players such as `engine:0.2@compiled~reuse`)."""


def without(feature: str) -> bool:
    """Whether `ABSTRACTS_TUI_WITHOUT` turns `feature` off."""
    names = os.environ.get(WITHOUT_VARIABLE, "").lower().replace(" ", "").split(",")
    return feature in names


MAX_THREADS = 64
"""The most threads the compiled core runs for one search."""


def default_threads() -> int:
    """`ABSTRACTS_TUI_THREADS` when set; else one thread when `ABSTRACTS_TUI_SEED` asks
    for reproducible searches, and one per core otherwise."""
    text = os.environ.get(THREADS_VARIABLE, "").strip()
    if text.isdigit() and 1 <= int(text) <= MAX_THREADS:
        return int(text)
    if os.environ.get(SEED_VARIABLE, "").strip():
        return 1
    return max(1, min(MAX_THREADS, os.cpu_count() or 1))


_PROOFS = {0: None, 1: 0, 2: 1, 3: None}


class CompiledSearch:
    """A Monte Carlo tree search from one position, in the compiled core."""

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        grave: bool = True,
        ref: int = DEFAULT_REF,
        bias: float | None = None,
        exploration: float | None = None,
        amaf_from: int = DEFAULT_AMAF_FROM,
        threads: int | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        if exploration is None:
            exploration = DEFAULT_EXPLORATION if grave else UCT_EXPLORATION
        self.turn = game.turn
        self.start = game.start_position
        self.line = tuple(game.moves)
        self.threads = threads if threads is not None else default_threads()
        self.max_bytes = max_bytes
        self._live = bool(game.legal_moves())
        if seed is None:
            seed = random.getrandbits(63)
        self._searcher: Searcher = module().Searcher(
            position_of(game),
            seed & (2**64 - 1),
            self.threads,
            int(grave),
            ref,
            bias_for(game) if bias is None else bias,
            exploration,
            amaf_from,
            max_bytes,
            0 if without("solver") else 1,
            0 if without("exact") else 1,
        )

    def stop(self) -> None:
        """Ask a running `run()` to return (thread-safe)."""
        self._searcher.stop()

    def follow(self, game: Game) -> bool:
        """Move the root to `game`'s position when `game` continues the line searched
        (same start, the root's moves then more), keeping the subtree below the moves
        played; False (and nothing changes) when it does not continue it."""
        moves = tuple(game.moves)
        line = self.line
        if moves[: len(line)] != line or game.start_position != self.start:
            return False
        self._searcher.advance(list(moves[len(line) :]))
        self.line = moves
        self.turn = game.turn
        self._live = bool(game.legal_moves())
        return True

    def run(self, budget: Budget) -> None:
        """Search until the budget is spent, `stop()` is called, or (in a timed search)
        the position is proven."""
        if not self._live or budget.playouts == 0:
            return
        self._searcher.run(budget.playouts or 0, budget.seconds or 0.0)

    @property
    def playouts(self) -> int:
        """Walks of the tree so far, over every run: what a playout budget counts."""
        return self._searcher.playouts

    @property
    def playouts_run(self) -> int:
        """The walks that ran a playout: those a proof answered (a proven move or
        position below the root, whose result is known) ran none."""
        answered = self._searcher.answered  # read first: never more than the walks
        return self._searcher.playouts - answered

    @property
    def seconds(self) -> float:
        return self._searcher.seconds

    @property
    def walks_met(self) -> int:
        """Walks (over every run) that took a move below the root while another thread's
        walk was under way through it: what the virtual loss keeps down (0 with one
        thread)."""
        return self._searcher.met

    @property
    def nodes(self) -> int:
        return self._searcher.nodes

    @property
    def tree_bytes(self) -> int:
        """The memory the tree holds now (nodes, edges, AMAF tables)."""
        return self._searcher.bytes

    @property
    def proven(self) -> Proof | None:
        """`win`, `loss` or `draw` for the side to move once the root is proven."""
        return _relative(self._searcher.solved, self.turn)

    def candidates(self, limit: int | None = None) -> list[Candidate]:
        """Root moves tried so far, best first (see `search_types.rank_candidates`)."""
        found = []
        scores = self._searcher.scores()
        for (move, visits, wins, proven, pv), (margins, scored) in zip(
            self._searcher.stats(), scores, strict=True
        ):
            if not visits:
                continue
            verdict = _relative(proven, self.turn)
            winrate = PROOF_WINRATES[verdict] if verdict else wins / visits
            score = mean_score(margins, scored)
            found.append(Candidate(move, visits, winrate, (move, *pv), verdict, score, scored))
        return rank_candidates(found, limit)

    def score(self) -> float | None:
        """The root's expected score for the side to move: the mean final margin of the
        playouts since the root last moved (`follow`); None before any."""
        scores = self._searcher.scores()
        return mean_score(sum(m for m, _ in scores), sum(n for _, n in scores))

    def root_moves(self) -> tuple[Move, ...]:
        """The root's legal moves (none when the game is over)."""
        return tuple(row[0] for row in self._searcher.stats()) if self._live else ()

    def best_move(self) -> Move | None:
        """The first of `candidates()`; before any playout, the first legal move; None
        when the game is over."""
        found = self.candidates(1)
        if found:
            return found[0].move
        stats = self._searcher.stats() if self._live else []
        return stats[0][0] if stats else None


def _relative(code: int, turn: int) -> Proof | None:
    """A proof code of the core (1 + winner, 3 a draw) for the colour `turn`."""
    if code == 3:
        return "draw"
    winner = _PROOFS.get(code)
    if winner is None:
        return None
    return "win" if winner == turn else "loss"
