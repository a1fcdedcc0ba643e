"""Searches run for a play screen as Textual thread workers: the computer's turns, hints,
analysis and game review.

The searches work on copies of the game, never on the session's. A finished search
posts `SearchDone` to the widget that started it (posting is thread-safe); the widget
asks `Searches.take` whether the result is still wanted, which it is not after the
position changed (an undo, a step in analysis, a new game). The UI thread stays free:
keys are answered while the computer thinks.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.widget import Widget

from ..chances import Hint
from ..clock import thinking_time
from ..engine.decide import Thinker
from ..engine.levels import budget_for
from ..engine.review import Review, Reviewer, review_budget
from ..engine.search import Budget, Candidate, Search
from ..engine.settings import PLAYOUTS_VARIABLE, SEED_VARIABLE, whole_number
from ..pace import paced, wait_for_pace
from ..session import Phase

if TYPE_CHECKING:
    from ..records import RecordNode
    from ..session import Session


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


def seed() -> int | None:
    """`ABSTRACTS_TUI_SEED` makes the computer's play reproducible (the tests use it)."""
    return whole_number(os.environ, SEED_VARIABLE, 0)


class Kind(StrEnum):
    """What a search is for (at most one job of each kind runs for a screen)."""

    TURN = "turn"
    """The computer's decision: komi, a side or a move."""
    HINT = "hint"
    ANALYSIS = "analysis"
    """The continuous search of the position shown in analysis mode."""
    REVIEW = "review"
    """The review of every move of a line."""


@dataclass
class Job:
    """One search under way: what it is for, where it started, and how to stop it."""

    kind: Kind
    node: RecordNode
    phase: Phase
    thinker: Thinker
    nodes: tuple[RecordNode, ...] = ()
    """The positions a `review` job evaluates, in order."""
    reviewer: Reviewer | None = None
    progress: tuple[int, int] = (0, 0)
    """(positions evaluated, positions in all) of a review, written by its thread."""
    cancelled: bool = False
    started: float = field(default_factory=time.monotonic)
    """When the search began (the computer's move is announced with its time)."""

    def stop(self) -> None:
        self.thinker.stop()
        if self.reviewer is not None:
            self.reviewer.stop()


class SearchStarted(Message):
    """A search started in a worker thread (the screen shows its figures as it goes)."""


class SearchDone(Message):
    """A search of `Searches` finished with `result` (check `Searches.take` first)."""

    def __init__(self, job: Job, result: Any) -> None:
        super().__init__()
        self.job = job
        self.result = result


class Searches:
    """The worker-thread searches of one widget (the play screen) on one session: at most
    one job of each kind."""

    def __init__(self, owner: Widget, session: Session) -> None:
        self.owner = owner
        self.session = session
        self.jobs: dict[Kind, Job] = {}
        self.done: dict[Kind, Job] = {}
        """The last finished job of each kind, whose search the panel goes on showing."""

    def busy(self, kind: Kind) -> bool:
        return kind in self.jobs

    def search(self, kind: Kind) -> Search | None:
        """The search of the job of `kind` (read live by the screen's timer), or of the
        last one finished if it searched the position shown now."""
        job = self.jobs.get(kind) or self.done.get(kind)
        if job is None or job.node is not self.session.node:
            return None
        return job.thinker.search

    def start(self, kind: Kind, work: Callable[[Thinker], Any], **more: Any) -> Job:
        """Run `work(thinker)` in a thread worker, which posts `SearchDone` when it ends."""
        self.cancel(kind)
        session = self.session
        job = Job(kind, session.node, session.phase, Thinker(seed()), **more)
        self.jobs[kind] = job
        owner = self.owner

        def run() -> None:
            with SEARCH_SLOTS:
                result = work(job.thinker)
            with contextlib.suppress(RuntimeError):  # the app has closed: nobody waits
                owner.post_message(SearchDone(job, result))

        owner.run_worker(run, thread=True, group=kind, exit_on_error=False)
        owner.post_message(SearchStarted())
        return job

    def take(self, job: Job) -> bool:
        """Note that `job` ended; whether its result still applies to the session (a
        review's does wherever the session went meanwhile: it is of the nodes it names)."""
        if self.jobs.get(job.kind) is job:
            del self.jobs[job.kind]
            self.done[job.kind] = job
        if job.kind is Kind.REVIEW:
            return not job.cancelled
        session = self.session
        return not (job.cancelled or session.node is not job.node or session.phase is not job.phase)

    def hurry(self, kind: Kind) -> bool:
        """Stop the job of `kind` and use what it found so far; False if none runs."""
        job = self.jobs.get(kind)
        if job is None:
            return False
        job.stop()
        return True

    def cancel(self, kind: Kind) -> None:
        """Stop the job of `kind` and drop its result."""
        self.done.pop(kind, None)
        job = self.jobs.pop(kind, None)
        if job is not None:
            job.cancelled = True
            job.stop()

    def cancel_all(self) -> None:
        for kind in list(self.jobs):
            self.cancel(kind)

    # -- the jobs --------------------------------------------------------------------

    def computer_turn(self, level: str) -> None:
        """The computer decides what the session waits for: komi, a side or a move."""
        session = self.session
        game = session.game.copy()
        budget = clocked(budget_for(level), session)
        phase = session.phase
        pace = paced(session)
        started = time.monotonic()

        def work(thinker: Thinker) -> Any:
            if phase is Phase.KOMI:
                return thinker.komi(game, budget)
            if phase is Phase.SIDE:
                return thinker.side(game, budget)
            move = thinker.move(game, budget)
            wait_for_pace(started, pace, lambda: thinker.stopped)
            return move

        self.start(Kind.TURN, work)

    def analyse(self, budget: Budget, kind: Kind) -> None:
        """Search the current position; the result is the candidates, best first (a
        `hint`'s: its best one as a `Hint`, which says how many it was the best of)."""
        game = self.session.game.copy()

        def work(thinker: Thinker) -> list[Candidate]:
            search = Search(game, thinker.rng.randrange(2**32))
            thinker.search = search
            if not thinker.stopped:
                search.run(budget)
            if kind is Kind.HINT:
                best = Hint.best_of(search.candidates())
                return [] if best is None else [best]
            return search.candidates(5)

        self.start(kind, work)

    def review(self, nodes: list[RecordNode]) -> Job:
        """Review the moves that lead through `nodes` (a line from its start, or from its
        last setup position): the result is a `Review`, its evaluations those of `nodes`
        in order. The budget and the seed are those of `abstracts-tui review`."""
        game = self.session.record.game_at(nodes[-1])
        nodes = nodes[len(nodes) - len(game.moves) - 1 :]  # from the last setup on
        reviewer = Reviewer(game, review_budget(), seed())
        started: list[Job] = []

        def progress(done: int, total: int) -> None:
            if started:
                started[0].progress = (done, total)

        def work(thinker: Thinker) -> Review:
            return reviewer.run(progress)

        more = {"nodes": tuple(nodes), "reviewer": reviewer, "progress": (0, len(nodes))}
        started.append(self.start(Kind.REVIEW, work, **more))
        return started[0]


def clocked(budget: Budget, session: Session) -> Budget:
    """`budget` cut to what the computer's running clock allows for this move: its
    share of the time left for the moves still to come (about half the empty cells)."""
    clock = session.clock
    side = session.side_to_move()
    if clock is None or clock.running != side:
        return budget
    game = session.game
    empty = sum(game.piece_at(cell) is None for cell in range(game.geometry.cell_count))
    allowed = thinking_time(clock, side, session.now(), max(1, empty // 2))
    seconds = allowed if budget.seconds is None else min(budget.seconds, allowed)
    return Budget(seconds=seconds, playouts=budget.playouts)
