"""Searches run for a play screen in worker threads: the computer's turns and analysis.

The searches work on copies of the game, never on the session's, and hand their results
back to the screen on the UI thread; a result that arrives after the position changed
(an undo, a step in analysis, a new game) is dropped. The UI thread stays free: keys are
answered while the computer thinks.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.decide import Thinker
from ..engine.levels import budget_for
from ..engine.search import Budget, Candidate, Search
from ..engine.settings import PLAYOUTS_VARIABLE, SEED_VARIABLE, whole_number
from ..session import Phase

if TYPE_CHECKING:
    from ..records import RecordNode
    from ..rules import Game
    from .screens.play import PlayScreen


def analysis_budget() -> Budget:
    """Continuous analysis stops by itself after a minute, so that an idle screen does not
    keep a core busy for ever; `ABSTRACTS_TUI_PLAYOUTS` sets a playout budget instead
    (for reproducible figures, as in the engine protocol)."""
    playouts = whole_number(os.environ, PLAYOUTS_VARIABLE, 1)
    if playouts is not None:
        return Budget(playouts=playouts)
    return Budget(seconds=60.0, playouts=500_000)


SEARCH_SLOTS = threading.BoundedSemaphore(2)
"""Searches that run at once in this process. Every app of the SSH server shares one
process, and threads share one interpreter lock: more searches at once would not go
faster, only slow every screen; the others wait for a slot."""
HINT_BUDGET = Budget(seconds=2.0)
GRAPH_BUDGET = Budget(playouts=300)
"""Each position of the game gets this much when the win-rate graph is filled in."""


def seed() -> int | None:
    """`ABSTRACTS_TUI_SEED` makes the computer's play reproducible (the tests use it)."""
    return whole_number(os.environ, SEED_VARIABLE, 0)


@dataclass
class Job:
    """One search under way: what it is for, where it started, and how to stop it."""

    kind: str
    """`turn` (the computer's decision), `hint`, `analysis` or `graph`."""
    node: RecordNode
    phase: Phase
    thinker: Thinker
    cancelled: bool = False


class Searches:
    """The worker-thread searches of one play screen: at most one job of each kind."""

    def __init__(self, screen: PlayScreen) -> None:
        self.screen = screen
        self.jobs: dict[str, Job] = {}
        self.done: dict[str, Job] = {}
        """The last finished job of each kind, whose search the panel goes on showing."""

    def busy(self, kind: str) -> bool:
        return kind in self.jobs

    def search(self, kind: str) -> Search | None:
        """The search of the job of `kind` (read live by the screen's timer), or of the
        last one finished if it searched the position shown now."""
        job = self.jobs.get(kind) or self.done.get(kind)
        if job is None or job.node is not self.screen.session.node:
            return None
        return job.thinker.search

    def start(self, kind: str, work: Callable[[Thinker], Any], done: Callable[[Any], None]) -> None:
        """Run `work(thinker)` in a thread; `done(result)` on the UI thread if still wanted."""
        self.cancel(kind)
        session = self.screen.session
        job = Job(kind, session.node, session.phase, Thinker(seed()))
        self.jobs[kind] = job

        def run() -> None:
            with SEARCH_SLOTS:
                result = work(job.thinker)
            with contextlib.suppress(RuntimeError):  # the app has closed: nobody waits
                self.screen.app.call_from_thread(self._finished, job, result, done)

        self.screen.run_worker(run, thread=True, group=kind, exit_on_error=False)

    def _finished(self, job: Job, result: Any, done: Callable[[Any], None]) -> None:
        if self.jobs.get(job.kind) is job:
            del self.jobs[job.kind]
            self.done[job.kind] = job
        session = self.screen.session
        if job.cancelled or session.node is not job.node or session.phase is not job.phase:
            return
        done(result)

    def hurry(self, kind: str) -> bool:
        """Stop the job of `kind` and use what it found so far; False if none runs."""
        job = self.jobs.get(kind)
        if job is None:
            return False
        job.thinker.stop()
        return True

    def cancel(self, kind: str) -> None:
        """Stop the job of `kind` and drop its result."""
        self.done.pop(kind, None)
        job = self.jobs.pop(kind, None)
        if job is not None:
            job.cancelled = True
            job.thinker.stop()

    def cancel_all(self) -> None:
        for kind in list(self.jobs):
            self.cancel(kind)

    # -- the jobs --------------------------------------------------------------------

    def computer_turn(self, level: str, done: Callable[[Any], None]) -> None:
        """The computer decides what the session waits for: komi, a side or a move."""
        session = self.screen.session
        game = session.game.copy()
        budget = budget_for(level)
        phase = session.phase

        def work(thinker: Thinker) -> Any:
            if phase is Phase.KOMI:
                return thinker.komi(game, budget)
            if phase is Phase.SIDE:
                return thinker.side(game, budget)
            return thinker.move(game, budget)

        self.start("turn", work, done)

    def analyse(self, budget: Budget, kind: str, done: Callable[[Any], None]) -> None:
        """Search the current position; `done` gets the candidates, best first."""
        game = self.screen.session.game.copy()

        def work(thinker: Thinker) -> list[Candidate]:
            search = Search(game, thinker.rng.randrange(2**32))
            thinker.search = search
            if not thinker.stopped:
                search.run(budget)
            return search.candidates(5)

        self.start(kind, work, done)

    def evaluate_line(self, nodes: list[RecordNode], done: Callable[[Any], None]) -> None:
        """Evaluate each node of `nodes` (a short search each) in a thread; `done` gets the
        first colour's win rates, in order."""
        record = self.screen.session.record
        games = [record.game_at(node) for node in nodes]

        def work(thinker: Thinker) -> list[float | None]:
            found: list[float | None] = []
            for game in games:
                if thinker.stopped:
                    break
                found.append(evaluation(game, thinker, GRAPH_BUDGET))
            return found

        self.start("graph", work, done)


def first_winrate(game: Game, search: Search) -> float | None:
    """The first colour's win rate by `search` of `game`."""
    winrate = search.winrate()
    if winrate is None:
        return None
    return winrate if game.turn == 0 else 1 - winrate


def evaluation(game: Game, thinker: Thinker, budget: Budget) -> float | None:
    """The first colour's win rate in `game`: the result of a finished game, else a search."""
    outcome = game.outcome()
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner == 0)
    search = Search(game, thinker.rng.randrange(2**32))
    thinker.search = search
    search.run(budget)
    return first_winrate(game, search)
