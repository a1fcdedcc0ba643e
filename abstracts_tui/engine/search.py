"""Monte Carlo tree search with GRAVE: the `Search` interface and its pure-Python core.

`Search(game, seed=...)` searches from `game`'s position; `run(Budget(seconds=...))` or
`run(Budget(playouts=...))` grows the tree (call it again to search on), `stop()` ends a
running search from another thread, and `best_move()` / `candidates()` read the result.
It runs on the compiled core (`compiled_search.py`, the same search in C on every core,
with an MCTS-solver, an exact solver and tree reuse) when that was built, else on the
pure-Python core below (`PythonSearch`), which stays the readable reference.

Each iteration of the pure-Python core walks down the tree with `push()`, finishes the
game with the rules' own `playout(rng)` (uniformly random moves), scores it with
`outcome()` (a draw counts half a win), adds the final margin to its root move's (the
expected score, `Candidate.score`) and takes the moves back with `undo()`: one
`copy()` of the game serves the whole search. A move gets a node of its own on its
second visit, and the tree stops growing at `max_nodes`, so that memory stays bounded
however long the search runs.

Selection uses GRAVE (Cazenave 2015), a form of RAVE: every node keeps all-moves-as-first
statistics, for both colours, of every move played after it in its playouts. A child's
value mixes its own mean with the AMAF mean of its move, taken from the closest ancestor
(or the node itself) that has at least `ref` playouts, so that young nodes borrow the
better-informed statistics of their elders. In placement games a move that is good later
is usually good now, which is what AMAF bets on. `grave=False` gives plain UCT (UCB1) for
comparison.

`pass` is a move like any other. The pie rule's `swap` is one too for the rules (the
position stays and the same colour moves again), but the person who swaps now plays the
other colour, so the statistics of each node are kept for the people as they are there:
a result that reaches a node from below a swap (taken at or after that node, in the tree
or in the playout) counts for the other colour, and such a node's AMAF statistics take
the moves up to the swap only. And since a swap is played once a game, its AMAF
statistics are next to none: once it is tried, its prior in their place is the most
visited other move's mean seen from the other side (the swap wins what playing on
loses). Without this the search valued a swap as playing on, and after one lost playout
never tried it again.

`python -m abstracts_tui.engine.search --bench` prints playouts per second of both cores.
"""

from __future__ import annotations

import argparse
import math
import random
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import GAMES, SWAP, Game, Move, Outcome

if TYPE_CHECKING:
    from .compiled_search import CompiledSearch

from .terms import (
    DEFAULT_AMAF_FROM,
    DEFAULT_BIAS,
    DEFAULT_EXPLORATION,
    DEFAULT_MAX_NODES,
    DEFAULT_REF,
    PROOF_WINRATES,
    UCT_EXPLORATION,
    Budget,
    Candidate,
    Proof,
    bias_for,
    first_margin,
    mean_score,
    rank_candidates,
)

__all__ = [
    "DEFAULT_AMAF_FROM",
    "DEFAULT_BIAS",
    "DEFAULT_EXPLORATION",
    "DEFAULT_MAX_NODES",
    "DEFAULT_REF",
    "UCT_EXPLORATION",
    "Budget",
    "Candidate",
    "PythonSearch",
    "Search",
    "choose_move",
    "rank_candidates",
    "rewards_of",
]


class Node:
    """A position in the tree: its legal moves and the statistics of each.

    Child statistics live in lists on the parent, indexed like `moves`, so that selection
    reads plain lists; `children` holds the nodes of the moves tried twice or more.
    """

    __slots__ = (
        "amaf",
        "children",
        "moves",
        "pie",
        "ref",
        "ref_stats",
        "total",
        "turn",
        "visits",
        "wins",
    )

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.turn = game.turn
        moves = game.legal_moves()
        if len(moves) > 1:
            # Ties (before any statistics) go to a random move rather than the lowest
            # cell; a rotation is as good as a shuffle for that and much cheaper.
            shift = rng.randrange(len(moves))
            moves = moves[shift:] + moves[:shift]
        self.moves = moves
        self.pie = moves.index(SWAP) if SWAP in moves else -1
        """Where the pie rule's swap is among `moves`, or -1."""
        self.children: dict[int, Node] = {}
        """Child nodes by index in `moves` (few moves get one: a dict is smaller)."""
        self.visits = [0] * len(moves)
        self.wins = [0.0] * len(moves)
        """Wins of each child for `turn`, the colour to move here."""
        self.total = 0
        self.amaf: dict[int, list[float]] | None = None
        """AMAF key (move * 2 + colour) -> [wins for that colour, playouts], over the moves
        played below; None until the node has had `Search.amaf_from` playouts."""
        self.ref: Node | None = None
        """The node whose AMAF statistics selection here uses (GRAVE's reference)."""
        self.ref_stats: list[list[float]] = []
        """`ref.amaf[move * 2 + turn]` for each of `moves`, the lists themselves."""

    def borrow(self, ref: Node) -> None:
        """Use the AMAF statistics of `ref` from now on (adding empty ones it lacks)."""
        table = ref.amaf
        if table is None:
            table = ref.amaf = {}
        found = []
        turn = self.turn
        for move in self.moves:
            key = move * 2 + turn
            stats = table.get(key)
            if stats is None:
                stats = table[key] = [0.0, 0.0]
            found.append(stats)
        self.ref = ref
        self.ref_stats = found


class PythonSearch:
    """A Monte Carlo tree search from one position, in Python.

    `run()` may be called from a worker thread; `stop()`, `best_move()`,
    `candidates()` and `playouts` may be read from another thread meanwhile (their
    answer is a snapshot of a tree that is still growing).
    """

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
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> None:
        self.game = game.copy()
        self.rng = random.Random(seed)
        self.grave = grave
        self.ref = ref
        self.bias = bias_for(game) if bias is None else bias
        self.exploration = (
            exploration
            if exploration is not None
            else (DEFAULT_EXPLORATION if grave else UCT_EXPLORATION)
        )
        self.root = Node(self.game, self.rng)
        self.root.amaf = {}
        self.proofs = ending_proofs(self.game, self.root.moves)
        """The proof of each root move (as `root.moves`): the one this core makes, for a
        move that ends the game; None for the others."""
        self.margins = [0.0] * len(self.root.moves)
        """The final margins of the playouts through each root move (as `root.moves`),
        summed, for the person to move at the root."""
        self.nodes = 1
        """Nodes in the tree; it stops growing at `max_nodes` (playouts go on)."""
        self.max_nodes = max_nodes
        self.amaf_from = amaf_from
        self.playouts = 0
        """Iterations (tree walk, playout, update) done so far, over every `run`."""
        self._seconds = 0.0
        self._run_start: float | None = None
        self._stop = threading.Event()

    # -- control --------------------------------------------------------------------

    def stop(self) -> None:
        """Ask a running `run()` to return after the iteration under way (thread-safe)."""
        self._stop.set()

    def run(self, budget: Budget) -> None:
        """Search until the budget is spent or `stop()` is called; adds to the tree."""
        self._stop.clear()
        if not self.root.moves:
            return
        start = time.perf_counter()
        self._run_start = start
        deadline = None if budget.seconds is None else start + budget.seconds
        limit = None if budget.playouts is None else self.playouts + budget.playouts
        stopped = self._stop.is_set
        clock = time.perf_counter
        iterate = self._iterate_grave if self.grave else self._iterate_uct
        try:
            while not stopped():
                if limit is not None and self.playouts >= limit:
                    break
                if deadline is not None and clock() >= deadline:
                    break
                iterate()
                self.playouts += 1
        finally:
            self._run_start = None
            self._seconds += time.perf_counter() - start

    @property
    def seconds(self) -> float:
        """Wall time spent in `run` so far, the run under way included (read live by the
        app's panel for the playouts per second)."""
        start = self._run_start
        running = time.perf_counter() - start if start is not None else 0.0
        return self._seconds + running

    # -- results --------------------------------------------------------------------

    def best_move(self) -> Move | None:
        """The first of `candidates()`; None when the game is over."""
        found = self.candidates(1)
        if found:
            return found[0].move
        return self.root.moves[0] if self.root.moves else None

    def candidates(self, limit: int | None = None) -> list[Candidate]:
        """Root moves tried so far, best first (see `rank_candidates`)."""
        root = self.root
        visits = list(root.visits)
        wins = list(root.wins)
        proofs = self.proofs
        found = [
            Candidate(
                root.moves[i],
                visits[i],
                PROOF_WINRATES[proof] if (proof := proofs[i]) else wins[i] / visits[i],
                (root.moves[i], *self._pv(root.children.get(i))),
                proof,
                mean_score(self.margins[i], n),
            )
            for i, n in enumerate(visits)
            if n
        ]
        return rank_candidates(found, limit)

    @property
    def proven(self) -> Proof | None:
        """`win` when a root move ends the game won, `loss` or `draw` when every one ends
        it and the best so; None otherwise (this core proves no more)."""
        return root_proof(self.proofs)

    def winrate(self) -> float | None:
        """The root's winrate for the side to move (of the best move); None before any."""
        found = self.candidates(1)
        return found[0].winrate if found else None

    def score(self) -> float | None:
        """The root's expected score for the side to move: the mean final margin of
        every playout so far; None before any."""
        return mean_score(sum(self.margins), self.root.total)

    @staticmethod
    def _pv(node: Node | None, depth: int = 30) -> list[Move]:
        """The most visited line below `node`, while a move has been tried twice or more."""
        line: list[Move] = []
        while node is not None and len(line) < depth:
            visits = node.visits
            if not visits:
                break
            best = max(range(len(visits)), key=visits.__getitem__)
            if visits[best] < 2:  # a move tried once is a random playout's, not a plan
                break
            line.append(node.moves[best])
            node = node.children.get(best)
        return line

    # -- one iteration --------------------------------------------------------------

    def _child(self, node: Node, pick: int) -> Node | None:
        """The node below `node` by move `pick` (just pushed on the game), made if it is
        due; None where the walk down the tree stops and the playout begins."""
        child = node.children.get(pick)
        if child is None:
            # A move gets a node of its own on its second visit: most moves are visited
            # once, and their nodes would only cost memory.
            if not node.visits[pick] or self.nodes >= self.max_nodes:
                return None
            child = node.children[pick] = Node(self.game, self.rng)
            self.nodes += 1
        return child

    def _count_margin(self, game: Game, pick: int, swapped: bool) -> None:
        """Add the final margin of `game` (a playout's end) to root move `pick`'s, for
        the person to move at the root: the other colour's where a swap came after."""
        margin = first_margin(game)
        if (self.root.turn == 1) != swapped:
            margin = -margin
        self.margins[pick] += margin

    def _iterate_grave(self) -> None:
        game = self.game
        rng = self.rng
        ref_visits = self.ref
        amaf_from = self.amaf_from
        bias = self.bias
        sqrt = math.sqrt
        c = self.exploration
        node = self.root
        ref = node
        path: list[tuple[Node, int]] = []
        base = len(game.moves)
        while True:
            moves = node.moves
            if not moves:
                break
            if node.total >= ref_visits:
                ref = node
            if node.ref is not ref:
                node.borrow(ref)
            scale = c * math.sqrt(math.log(node.total + 1))
            best = -1.0
            pick = 0
            # value = (1 - beta) * own mean + beta * AMAF mean with
            # beta = an / (an + n + bias * an * n), over one division; a move with no
            # statistics at all is tried first. The swap's prior in place of its AMAF.
            pie = node.pie
            ref_stats = node.ref_stats if pie < 0 or not node.visits[pie] else pie_prior(node)
            for i, (stats, n, w) in enumerate(zip(ref_stats, node.visits, node.wins, strict=True)):
                an = stats[1]
                weight = an + n + bias * an * n
                value = (w + stats[0] + bias * an * w) / weight if weight else 1.0
                if scale:
                    value += scale / sqrt(n + 1)
                if value > best:
                    best = value
                    pick = i
            path.append((node, pick))
            game.push(moves[pick])
            child = self._child(node, pick)
            if child is None:
                break
            node = child
        # The movers of the playout's moves: colours alternate, except that the colour
        # that swaps moves again (the pie rule).
        keys = [parent.moves[i] * 2 + parent.turn for parent, i in path]
        swap_ply = swap_depth(path)
        turn = game.turn
        start = len(game.moves)
        game.playout(rng)
        played_moves = game.moves
        for move in played_moves[start:]:
            if move == SWAP:
                swap_ply = len(keys)
            keys.append(move * 2 + turn)
            if move != SWAP:
                turn ^= 1
        # The margin first: a game that keeps its score (Petrify, Pilo) reads the
        # outcome from it.
        self._count_margin(game, path[0][1], swap_ply >= 0)
        outcome = game.outcome()
        for _ in range(len(played_moves) - base):
            game.undo()
        rewards = rewards_of(outcome)
        flipped = (rewards[1], rewards[0])
        # Keep each (move, colour) once, at its last ply: it was played at or after
        # ply d exactly when that ply is >= d.
        seen: set[int] = set()
        played: list[tuple[int, int]] = []
        for ply in range(len(keys) - 1, -1, -1):
            key = keys[ply]
            if key not in seen:
                seen.add(key)
                played.append((ply, key))
        for depth, (parent, i) in enumerate(path):
            # A node at or above a swap sees the results flipped, and no move after it.
            before = depth <= swap_ply
            got = flipped if before else rewards
            parent.total += 1
            parent.visits[i] += 1
            parent.wins[i] += got[parent.turn]
            amaf = parent.amaf
            if amaf is None:
                if parent.total < amaf_from:
                    continue
                amaf = parent.amaf = {}
            if before:
                # The moves from this ply up to the swap, each once: one played there and
                # again after the swap counts (its last ply, kept above, is past it).
                window = list(dict.fromkeys(keys[depth : swap_ply + 1]))
            else:
                window = []
                for at, key in played:
                    if at < depth:
                        break
                    window.append(key)
            for key in window:
                entry = amaf.get(key)
                if entry is None:
                    amaf[key] = [got[key & 1], 1.0]
                else:
                    entry[0] += got[key & 1]
                    entry[1] += 1.0

    def _iterate_uct(self) -> None:
        game = self.game
        rng = self.rng
        c = self.exploration
        node = self.root
        path: list[tuple[Node, int]] = []
        base = len(game.moves)
        while True:
            moves = node.moves
            if not moves:
                break
            visits = node.visits
            wins = node.wins
            log_total = math.log(node.total + 1)
            best = -1.0
            pick = 0
            for i, n in enumerate(visits):
                if not n:
                    pick = i
                    break
                value = wins[i] / n + c * math.sqrt(log_total / n)
                if value > best:
                    best = value
                    pick = i
            path.append((node, pick))
            game.push(moves[pick])
            child = self._child(node, pick)
            if child is None:
                break
            node = child
        start = len(game.moves)
        game.playout(rng)
        # A node at or above a swap (in the tree or the playout) sees the results flipped.
        swap_at = swap_depth(path)
        if swap_at < 0 and SWAP in game.moves[start:]:
            swap_at = len(path)
        self._count_margin(game, path[0][1], swap_at >= 0)
        outcome = game.outcome()
        rewards = rewards_of(outcome)
        flipped = (rewards[1], rewards[0])
        while len(game.moves) > base:
            game.undo()
        for depth, (parent, i) in enumerate(path):
            parent.total += 1
            parent.visits[i] += 1
            parent.wins[i] += (flipped if depth <= swap_at else rewards)[parent.turn]


@dataclass(frozen=True)
class RootView:
    """The root of a search as the app reads it: its legal moves."""

    moves: tuple[Move, ...]


class Search:
    """A Monte Carlo tree search from one position, in the compiled core when it is
    built (`compiled_search.CompiledSearch`), else in Python (`PythonSearch`).

    `core` chooses (`compiled` or `python`; by default `compiled.core_name()`, which
    `ABSTRACTS_TUI_CORE=python` turns to Python). `run()` may be called from a worker
    thread; `stop()`, `best_move()`, `candidates()` and `playouts` may be read from
    another thread meanwhile (a snapshot of a tree that is still growing).
    """

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        core: str | None = None,
        grave: bool = True,
        ref: int = DEFAULT_REF,
        bias: float | None = None,
        exploration: float | None = None,
        amaf_from: int = DEFAULT_AMAF_FROM,
        max_nodes: int = DEFAULT_MAX_NODES,
        threads: int | None = None,
    ) -> None:
        from .core_status import core_name

        self.core = core or core_name()
        self._final: float | None = None
        """A finished game's final margin for the side to move (its score); None else."""
        if game.is_over():
            margin = first_margin(game)
            self._final = -margin if game.turn else margin
        self._impl: PythonSearch | CompiledSearch
        if self.core == "compiled":
            from .compiled_search import CompiledSearch

            self._impl = CompiledSearch(
                game,
                seed,
                grave=grave,
                ref=ref,
                bias=bias,
                exploration=exploration,
                amaf_from=amaf_from,
                threads=threads,
            )
        elif self.core == "python":
            self._impl = PythonSearch(
                game,
                seed,
                grave=grave,
                ref=ref,
                bias=bias,
                exploration=exploration,
                amaf_from=amaf_from,
                max_nodes=max_nodes,
            )
        else:
            raise ValueError(f"the search cores are compiled and python, not {core!r}")

    def run(self, budget: Budget) -> None:
        """Search until the budget is spent or `stop()` is called; adds to the tree."""
        self._impl.run(budget)

    def stop(self) -> None:
        """Ask a running `run()` to return soon (thread-safe)."""
        self._impl.stop()

    def follow(self, game: Game) -> bool:
        """Tree reuse: when `game` continues the line this search started from (the moves
        since were played), search on from its position with what was found below those
        moves, and return True; else False (and a new search is needed). The pure-Python
        core does not reuse trees; `ABSTRACTS_TUI_WITHOUT=reuse` turns it off."""
        if isinstance(self._impl, PythonSearch):
            return False
        from .compiled_search import without

        return not without("reuse") and self._impl.follow(game)

    @property
    def playouts(self) -> int:
        """Walks of the tree so far, over every `run`: what a playout budget counts."""
        return self._impl.playouts

    @property
    def playouts_run(self) -> int:
        """The walks that ran a playout: in the compiled core, a walk that reaches a
        proven move or position takes its result and runs none (once the root is proven,
        every walk of a playout budget does); in Python, every walk."""
        if isinstance(self._impl, PythonSearch):
            return self._impl.playouts
        return self._impl.playouts_run

    @property
    def seconds(self) -> float:
        """Wall time spent in `run` so far."""
        return self._impl.seconds

    @property
    def playouts_per_second(self) -> float:
        """The search's speed so far, in playouts run (0 before it has run)."""
        seconds = self.seconds
        return self.playouts_run / seconds if seconds > 0 else 0.0

    @property
    def root(self) -> RootView:
        """The root's legal moves (`root.moves`), as the pure-Python search's root node
        offers them: what app code written against that search reads."""
        if isinstance(self._impl, PythonSearch):
            return RootView(tuple(self._impl.root.moves))
        return RootView(self._impl.root_moves())

    @property
    def proven(self) -> Proof | None:
        """`win`, `loss` or `draw` for the side to move once the search has proven the
        position (the compiled core's solver; in Python, only the moves that end the
        game); None otherwise."""
        return self._impl.proven

    def candidates(self, limit: int | None = None) -> list[Candidate]:
        """Root moves tried so far, best first (see `rank_candidates`)."""
        return self._impl.candidates(limit)

    def best_move(self) -> Move | None:
        """The first of `candidates()`; None when the game is over."""
        return self._impl.best_move()

    def winrate(self) -> float | None:
        """The winrate of the best move for the side to move; None before any playout."""
        found = self.candidates(1)
        return found[0].winrate if found else None

    def score(self) -> float | None:
        """The position's expected score for the side to move (positive: it leads): the
        mean final margin, komi included, of the root's playouts (the compiled core's
        since its root last moved with the game), or a finished game's final margin;
        None before any playout. Each move's own is its candidate's `score`."""
        if self._final is not None:
            return self._final
        return self._impl.score()


def ending_proofs(game: Game, moves: list[Move]) -> list[Proof | None]:
    """For each of `moves` (legal in `game`), its proof for the side to move when it
    ends the game, else None; `game` is left as it was."""
    proofs: list[Proof | None] = []
    turn = game.turn
    for move in moves:
        game.push(move)
        outcome = game.outcome()
        game.undo()
        if outcome is None:
            proofs.append(None)
        elif outcome.winner is None:
            proofs.append("draw")
        else:
            proofs.append("win" if outcome.winner == turn else "loss")
    return proofs


def root_proof(proofs: list[Proof | None]) -> Proof | None:
    """The position's proof from its moves': a win if one wins, else the best of them
    when every move is proven; None otherwise."""
    if "win" in proofs:
        return "win"
    if not proofs or None in proofs:
        return None
    return "draw" if "draw" in proofs else "loss"


def pie_prior(node: Node) -> list[list[float]]:
    """`node.ref_stats` with the tried swap's AMAF statistics replaced by its prior: the
    most visited other move's, from the other side ([its losses, its visits])."""
    stats = list(node.ref_stats)
    visits, wins = node.visits, node.wins
    most = max((i for i in range(len(visits)) if i != node.pie), key=visits.__getitem__)
    stats[node.pie] = [visits[most] - wins[most], float(visits[most])]
    return stats


def swap_depth(path: list[tuple[Node, int]]) -> int:
    """The depth in `path` (a walk down the tree: each node and the move taken there) of
    the pie rule's swap, or -1 if the walk takes none."""
    return next((d for d, (parent, i) in enumerate(path) if i == parent.pie), -1)


def rewards_of(outcome: Outcome | None) -> tuple[float, float]:
    """What a finished playout gives each colour: 1 to the winner, half each for a draw."""
    winner = None if outcome is None else outcome.winner
    if winner is None:
        return (0.5, 0.5)
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


def choose_move(game: Game, budget: Budget, seed: int | None = None) -> Move:
    """The move a search with `budget` picks for the side to move; ValueError if over."""
    moves = game.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    if len(moves) == 1:
        return moves[0]
    search = Search(game, seed)
    search.run(budget)
    move = search.best_move()
    assert move is not None
    return move


# -- benchmark ---------------------------------------------------------------------------


def measure(
    game: Game, core: str, seconds: float, seed: int, grave: bool, threads: int | None
) -> tuple[float, float]:
    """(playouts per second of wall time, per second of this process's CPU time) of a
    search from `game` on `core`."""
    search = Search(game, seed, core=core, grave=grave, threads=threads)
    cpu = time.process_time()
    search.run(Budget(seconds=seconds))
    cpu = time.process_time() - cpu
    return search.playouts_per_second, search.playouts_run / cpu if cpu > 0 else 0.0


def bench(
    names: list[str], seconds: float, seed: int, grave: bool = True, largest: bool = True
) -> None:
    """Print search playouts per second from the start of each game at its default size
    (and its largest), on the pure-Python core and on the compiled one, and the ratio.

    Both cores run in the same process one after the other. The compiled core runs one
    tree per core (`threads`), so its figure per second of wall time counts every core
    and that ratio is what a player sees; the figures per second of CPU time (all the
    threads' time) compare the two on one core, and move less when the machine is busy.
    """
    from .compiled_search import default_threads
    from .core_status import built

    threads = default_threads()
    header = f"{'game':<11}{'size':>5}{'root moves':>11}{'python/s':>10}"
    if built():
        header += f"{'compiled/s':>12}{'ratio':>8}  |"
        header += f"{'python/cpu s':>13}{'compiled/cpu s':>15}{'ratio':>8}"
    else:
        header += "  (the compiled core is not built)"
    print(header)
    for name in names:
        cls = GAMES[name]
        sizes = [cls.info.default_size]
        if largest and cls.info.sizes.stop - 1 != cls.info.default_size:
            sizes.append(cls.info.sizes.stop - 1)
        for size in sizes:
            game = cls.new(size)
            python, python_cpu = measure(game, "python", seconds, seed, grave, None)
            line = f"{name:<11}{size:>5}{len(game.legal_moves()):>11}{python:>10,.0f}"
            if built():
                wall, cpu = measure(game, "compiled", seconds, seed, grave, threads)
                line += (
                    f"{wall:>12,.0f}{wall / python:>7.0f}x  |{python_cpu:>13,.0f}"
                    f"{cpu:>15,.0f}{cpu / python_cpu:>7.0f}x"
                )
            print(line, flush=True)
    if built():
        print(f"(compiled: {threads} thread{'s' if threads > 1 else ''}, one tree each)")


def main(argv: list[str] | None = None) -> None:
    """`python -m abstracts_tui.engine.search --bench [GAME ...] [--seconds S]`."""
    parser = argparse.ArgumentParser(description="Monte Carlo tree search benchmark.")
    parser.add_argument("--bench", action="store_true", help="print playouts/s per game")
    parser.add_argument("games", nargs="*", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--seconds", type=float, default=2.0, help="search seconds per core")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uct", action="store_true", help="plain UCT instead of GRAVE")
    parser.add_argument("--default-only", action="store_true", help="only each game's default size")
    args = parser.parse_args(argv)
    names = args.games or list(GAMES)
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]}; the games are {', '.join(GAMES)}")
    if not args.bench:
        parser.error("nothing to do: give --bench")
    bench(names, args.seconds, args.seed, grave=not args.uct, largest=not args.default_only)


if __name__ == "__main__":
    main()
