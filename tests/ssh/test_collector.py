"""The server keeps its long-lived objects out of the garbage collector's passes, and
still gives back the cycles of what ended once they add up (see
abstracts_tui.server.collector)."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref
from collections.abc import Iterator

import pytest

from abstracts_tui.server.collector import Pauses, freeze, keep_pauses_short


class Screen:
    """Holds itself, as a session's screens and widgets do: only a collection frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()


def test_a_freeze_collects_the_garbage_then_leaves_the_rest_out_of_collections() -> None:
    dropped, kept = Screen(), Screen()
    gone, alive = weakref.ref(dropped), weakref.ref(kept)
    del dropped
    freeze()
    assert gone() is None  # not frozen for minutes: it was garbage already
    assert gc.get_freeze_count() > 0
    del kept
    gc.collect()
    assert alive() is not None  # frozen: a full collection does not walk it


def test_what_ended_while_frozen_is_given_back_once_the_frozen_objects_grow() -> None:
    async def run() -> None:
        kept = Screen()
        alive = weakref.ref(kept)
        task = asyncio.get_running_loop().create_task(keep_pauses_short(0.01, growth=0.25))
        await asyncio.sleep(0.05)
        del kept  # it ends while frozen: the freezes do not free it
        await asyncio.sleep(0.05)
        assert alive() is not None
        # New objects that live on (a session opening) grow the frozen objects by more than
        # a quarter: then everything is collected once.
        sessions = [Screen() for _ in range(gc.get_freeze_count() // 2)]
        for _ in range(1000):
            if alive() is None:
                break
            await asyncio.sleep(0.01)
        assert alive() is None
        assert sessions  # they live on
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert gc.get_freeze_count() == 0  # a stopped server leaves nothing frozen

    asyncio.run(run())


def said_by(pauses: Pauses, caplog: pytest.LogCaptureFixture) -> list[str]:
    """The lines `pauses.report()` writes in the log."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="abstracts_tui.server.collector"):
        pauses.report()
    return [record.getMessage() for record in caplog.records]


def test_a_long_collection_is_said_in_the_log_once(caplog: pytest.LogCaptureFixture) -> None:
    pauses, short = Pauses(long=0.0), Pauses(long=60.0)
    gc.callbacks += [pauses, short]
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(pauses)
        gc.callbacks.remove(short)
    said = said_by(pauses, caplog)
    assert len(said) == 1
    assert said[0].startswith("garbage collection: 1 pause(s) of 0 ms or more; the longest ")
    assert said[0].endswith(" ms (generation 2)")
    assert said_by(pauses, caplog) == []  # said once
    assert said_by(short, caplog) == []  # none took a minute
