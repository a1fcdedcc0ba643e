"""The computer's searches for a game in play, without any user interface: its turns
(komi, a side or a move), hints, analysis and game review, each run on a worker thread,
cancellable, its result handed to a callback.

A `Searcher` runs at most one job of each `Kind` for one session; the searches work on
copies of the game, never on the session's. A job cancelled (a side taken over, an undo,
a new game) is never delivered, and `take` tells the front end, on its own thread,
whether a result that arrived is still wanted (not after the position changed). How much
each job may search is decided here (`Searcher.budget`). The full-screen app posts the
results to its screen as messages (`tui/computer.py`); line mode waits for them (`wait`).
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

from ..chances import Hint
from ..clock import thinking_time
from ..engine.decide import Thinker
from ..engine.levels import DEFAULT_LEVEL, budget_for
from ..engine.review import Review, Reviewer, review_budget
from ..engine.settings import PLAYOUTS_VARIABLE, SEED_VARIABLE, whole_number
from ..engine.terms import Budget, Candidate
from ..pace import paced, wait_for_pace
from ..session import Phase

if TYPE_CHECKING:
    from ..engine.search import Search
    from ..records import RecordNode
    from ..session import Session

SEARCH_SLOTS = threading.BoundedSemaphore(2)
"""Searches that run at once in this process. Every app of the SSH server shares one
process, and threads share one interpreter lock: more searches at once would not go
faster, only slow every screen; the others wait for a slot."""
HINT_BUDGET = Budget(seconds=2.0)
"""A hint's search, in the full-screen app and line mode alike."""
BRIEF_ANALYSIS = Budget(seconds=3.0)
"""Line mode's `analyze`: one look at the position, said when it ends."""
ANALYSIS_CANDIDATES = 5
"""The candidates an analysis job hands back, best first."""


def analysis_budget() -> Budget:
    """Continuous analysis stops by itself after a minute, so that an idle screen does not
    keep a core busy for ever; `ABSTRACTS_TUI_PLAYOUTS` sets a playout budget instead
    (for reproducible figures, as in the engine protocol)."""
    playouts = whole_number(os.environ, PLAYOUTS_VARIABLE, 1)
    if playouts is not None:
        return Budget(playouts=playouts)
    return Budget(seconds=60.0, playouts=500_000)


def seed() -> int | None:
    """`ABSTRACTS_TUI_SEED` makes the computer's play reproducible (the tests use it)."""
    return whole_number(os.environ, SEED_VARIABLE, 0)


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


class Kind(StrEnum):
    """What a search is for (at most one job of each kind runs for a session)."""

    TURN = "turn"
    """The computer's decision: komi, a side or a move."""
    HINT = "hint"
    ANALYSIS = "analysis"
    """A search of the position shown (continuous in the app's analysis mode)."""
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
    """When the search began (the computer's move is said with its time)."""
    result: Any = None
    """What the search found, once `finished` is set."""
    ended: float | None = None
    """When the search ended (None while it runs)."""
    finished: threading.Event = field(default_factory=threading.Event)

    def stop(self) -> None:
        """End the search as soon as possible, with what it has found so far."""
        self.thinker.stop()
        if self.reviewer is not None:
            self.reviewer.stop()

    @property
    def thought(self) -> float:
        """Seconds the search took (so far, while it runs)."""
        return (self.ended or time.monotonic()) - self.started


Deliver = Callable[[Job, Any], None]
"""Told a job's result, on the job's thread, unless the job was cancelled."""
Spawn = Callable[[Callable[[], None], Kind], None]
"""Runs a function on a thread of its own (the app's: a Textual thread worker)."""


def spawn_thread(run: Callable[[], None], kind: Kind) -> None:
    """A daemon thread for `run`: a search never keeps the program from ending."""
    threading.Thread(target=run, name=f"search-{kind}", daemon=True).start()


class Searcher:
    """The computer's searches on one session: at most one job of each kind."""

    def __init__(
        self,
        session: Session,
        deliver: Deliver | None = None,
        *,
        spawn: Spawn = spawn_thread,
        seed: int | None = None,
        playouts: int | None = None,
    ) -> None:
        self.session = session
        self.deliver = deliver
        self.spawn = spawn
        self.seed = seed
        self.playouts = playouts
        """A fixed playout budget for every job (tests), instead of the levels' time."""
        self.jobs: dict[Kind, Job] = {}
        self.done: dict[Kind, Job] = {}
        """The last finished job of each kind, whose search a screen goes on showing."""

    # -- the budget -------------------------------------------------------------------

    def budget(self, kind: Kind, level: str | None = None) -> Budget:
        """How much a job of `kind` searches: the computer's turn at `level`, cut to its
        running clock; a hint `HINT_BUDGET`; analysis `analysis_budget()`; a review the
        command's; a fixed playout count where the searcher has one."""
        if self.playouts is not None:
            return Budget(playouts=self.playouts)
        if kind is Kind.TURN:
            return clocked(budget_for(level or DEFAULT_LEVEL), self.session)
        if kind is Kind.HINT:
            return HINT_BUDGET
        if kind is Kind.ANALYSIS:
            return analysis_budget()
        return review_budget()

    # -- the jobs' lives ---------------------------------------------------------------

    def busy(self, kind: Kind) -> bool:
        return kind in self.jobs

    def search(self, kind: Kind) -> Search | None:
        """The search of the job of `kind` (read live while it runs), or of the last one
        finished if it searched the position shown now."""
        job = self.jobs.get(kind) or self.done.get(kind)
        if job is None or job.node is not self.session.node:
            return None
        return job.thinker.search

    def start(self, kind: Kind, work: Callable[[Thinker], Any], **more: Any) -> Job:
        """Run `work(thinker)` on a thread of its own; its result is delivered when it
        ends, unless the job was cancelled meanwhile. A job of `kind` under way is
        cancelled first."""
        self.cancel(kind)
        session = self.session
        job = Job(kind, session.node, session.phase, Thinker(self.seed), **more)
        self.jobs[kind] = job
        deliver = self.deliver

        def run() -> None:
            result = None
            try:
                with SEARCH_SLOTS:
                    result = work(job.thinker)
            finally:
                job.result = result
                job.ended = time.monotonic()
                job.finished.set()
            if deliver is not None and not job.cancelled:
                with contextlib.suppress(RuntimeError):  # the app has closed: nobody waits
                    deliver(job, result)

        self.spawn(run, kind)
        return job

    def wait(self, job: Job) -> Any:
        """The result of `job`, once it ends (None if it was cancelled), noted as `take`
        notes it: for a front end that waits on its own thread (line mode)."""
        job.finished.wait()
        return job.result if self.take(job) else None

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
        """Stop the job of `kind` and drop its result: it is never delivered."""
        self.done.pop(kind, None)
        job = self.jobs.pop(kind, None)
        if job is not None:
            job.cancelled = True
            job.stop()

    def cancel_all(self) -> None:
        for kind in list(self.jobs):
            self.cancel(kind)

    # -- the jobs ----------------------------------------------------------------------

    def computer_turn(self, level: str | None) -> Job:
        """The computer decides what the session waits for: komi, a side or a move (at
        least at the watching pace where it plays both sides)."""
        session = self.session
        game = session.game.copy()
        budget = self.budget(Kind.TURN, level)
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

        return self.start(Kind.TURN, work)

    def analyse(self, kind: Kind, budget: Budget | None = None) -> Job:
        """Search the current position (`budget`, else the kind's): the result is the
        candidates, best first (a `hint`'s: its best one as a `Hint`, which says how many
        it was the best of; none where nothing was found)."""
        game = self.session.game.copy()
        if budget is None or self.playouts is not None:
            budget = self.budget(kind)

        def work(thinker: Thinker) -> list[Candidate]:
            from ..engine.search import Search

            search = Search(game, thinker.rng.randrange(2**32))
            thinker.search = search
            if not thinker.stopped:
                search.run(budget)
            if kind is Kind.HINT:
                best = Hint.best_of(search.candidates())
                return [] if best is None else [best]
            return search.candidates(ANALYSIS_CANDIDATES)

        return self.start(kind, work)

    def review(self, nodes: list[RecordNode]) -> Job:
        """Review the moves that lead through `nodes` (a line from its start, or from its
        last setup position): the result is a `Review`, its evaluations those of `nodes`
        in order. The budget and the seed are those of `abstracts-tui review`."""
        game = self.session.record.game_at(nodes[-1])
        nodes = nodes[len(nodes) - len(game.moves) - 1 :]  # from the last setup on
        reviewer = Reviewer(game, self.budget(Kind.REVIEW), seed())
        started: list[Job] = []

        def progress(done: int, total: int) -> None:
            if started:
                started[0].progress = (done, total)

        def work(thinker: Thinker) -> Review:
            return reviewer.run(progress)

        more = {"nodes": tuple(nodes), "reviewer": reviewer, "progress": (0, len(nodes))}
        started.append(self.start(Kind.REVIEW, work, **more))
        return started[0]
