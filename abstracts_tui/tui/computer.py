"""The play model's searches (`play/searching.py`) for a play screen: each job runs as a
Textual thread worker of the screen, and its result comes back as a `SearchDone` message
(posting is thread-safe), which the screen checks with `Searches.take` (a result is not
wanted after the position changed). The UI thread stays free: keys are answered while the
computer thinks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message import Message
from textual.widget import Widget

from ..engine.decide import Thinker
from ..play.searching import Job, Kind, Searcher, seed
from ..session import Session

__all__ = ["Job", "Kind", "SearchDone", "SearchStarted", "Searches"]


class SearchStarted(Message):
    """A search started in a worker thread (the screen shows its figures as it goes)."""


class SearchDone(Message):
    """A search of `Searches` finished with `result` (check `Searches.take` first)."""

    def __init__(self, job: Job, result: Any) -> None:
        super().__init__()
        self.job = job
        self.result = result


class Searches(Searcher):
    """The searches of one widget (the play screen) on one session, as thread workers
    whose results are posted to it."""

    def __init__(self, owner: Widget, session: Session) -> None:
        def spawn(run: Callable[[], None], kind: Kind) -> None:
            owner.run_worker(run, thread=True, group=kind, exit_on_error=False)

        def deliver(job: Job, result: Any) -> None:
            owner.post_message(SearchDone(job, result))

        super().__init__(session, deliver, spawn=spawn, seed=seed())
        self.owner = owner

    def start(self, kind: Kind, work: Callable[[Thinker], Any], **more: Any) -> Job:
        job = super().start(kind, work, **more)
        self.owner.post_message(SearchStarted())
        return job
