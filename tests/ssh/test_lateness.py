"""The watch on the server's loop tells what held each long wait: the loop's own work, a
blocking call, or the processor given to another process (see
abstracts_tui.server.lateness)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from abstracts_tui.server.lateness import SCHEDSTAT, Lateness, ThreadClock

ROOT = Path(__file__).resolve().parent.parent.parent


def watched(hold: Callable[[], None], long: float = 0.05) -> Lateness:
    """A watch on a loop that is held once by `hold`."""

    async def run() -> Lateness:
        lateness = Lateness(long=long)
        watching = asyncio.create_task(lateness.watch())
        await asyncio.sleep(0.05)
        hold()
        await asyncio.sleep(0.05)
        watching.cancel()
        return lateness

    return asyncio.run(run())


def spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_wait_the_loops_own_work_made_is_told_as_such() -> None:
    [wait] = watched(lambda: spin(0.12)).long
    assert wait.late >= 0.11
    assert wait.ran >= 0.11


def test_a_wait_on_a_blocking_call_is_not_the_loops_own_work() -> None:
    [wait] = watched(lambda: time.sleep(0.12)).long
    assert wait.late >= 0.11
    assert wait.ran < 0.05


def test_an_idle_loop_that_nobody_waits_on_is_watched_once_a_second() -> None:
    def wakes(busy: bool) -> int:
        async def run() -> Lateness:
            lateness = Lateness(long=-1.0, busy=lambda: busy)  # every wake noted
            watching = asyncio.create_task(lateness.watch())
            await asyncio.sleep(0.3)
            watching.cancel()
            return lateness

        return len(asyncio.run(run()).long)

    assert wakes(busy=False) == 0  # the first wake comes after a second
    assert wakes(busy=True) >= 10  # every 10 ms


def test_a_clock_without_the_systems_queue_times_still_tells_the_time_run(
    tmp_path: Path,
) -> None:
    clock = ThreadClock(str(tmp_path / "absent"))
    ran, queued = clock.read()
    spin(0.02)
    assert clock.read()[0] - ran >= 0.02
    assert queued is None
    clock.close()


WAITED = textwrap.dedent(
    """
    import asyncio, json, os, subprocess, sys
    from abstracts_tui.server.lateness import Lateness

    os.sched_setaffinity(0, {0})
    rival = subprocess.Popen(
        [sys.executable, "-c", "import os\\nos.sched_setaffinity(0, {0})\\nwhile True: pass"]
    )
    os.nice(10)

    async def run():
        lateness = Lateness(long=0.003, tick=0.005)
        watching = asyncio.create_task(lateness.watch())
        await asyncio.sleep(3)
        watching.cancel()
        return lateness

    try:
        waits = asyncio.run(run()).long
    finally:
        rival.kill()
    print(json.dumps([[w.late, w.ran, w.queued] for w in waits]))
    """
)


@pytest.mark.skipif(
    not os.path.exists(SCHEDSTAT) or not hasattr(os, "sched_setaffinity"),
    reason="the system keeps no run-queue times of a thread (Linux's schedstat)",
)
def test_a_wait_for_the_processor_is_told_from_the_loops_own_work() -> None:
    """A watch whose process shares one core with a busy process of a higher priority:
    its wakes come late because the core is the other's, and it says so."""
    done = subprocess.run(
        [sys.executable, "-c", WAITED],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    waits = json.loads(done.stdout)
    assert waits, "no wake came late while another process held the core"
    late = sum(wait[0] for wait in waits)
    ran = sum(wait[1] for wait in waits)
    queued = sum(wait[2] for wait in waits)
    assert queued >= late / 2, waits
    assert ran < late / 2, waits
