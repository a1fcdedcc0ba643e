"""How late the server's loop wakes from short sleeps, and what held it.

Whatever holds the loop is a wait every session of the loop shares. Two kinds of hold look
alike from inside the loop and are not alike for its players: the loop's own work (a
callback that runs long, a garbage collection: a request of one client holding up the
others), and the processor given to other processes (the machine's cores all busy: the
loop ready to run, and waiting for one). So each long wait is told apart by the loop's
thread's own clocks over it: the time it ran (`time.thread_time`) and, where the system
keeps it (Linux's `/proc/thread-self/schedstat`), the time it waited for a processor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

LONG_PAUSE = 0.05
"""A wait of the server's loop this long or longer (seconds) is said in the log."""
TICK = 0.01
"""Seconds between the loop's wakes that `Lateness` times while sessions are open."""
IDLE_TICK = 1.0
"""Seconds between them while none is (an idle server wakes once a second, not 100
times: about 1.5% of a core on this project's machine)."""
SCHEDSTAT = "/proc/thread-self/schedstat"
"""The calling thread's time run and time waited on a run queue, in nanoseconds."""


@dataclass(frozen=True)
class Wait:
    """One wake of the loop that came late."""

    late: float
    """Seconds after its time."""
    ran: float
    """Seconds the loop's thread ran from the sleep to the wake: its own work."""
    queued: float | None
    """Seconds it waited for a processor then (None where the system does not say)."""


Reading = tuple[float, float | None]
"""A `ThreadClock`'s seconds run and seconds waited for a processor."""


class ThreadClock:
    """The time the thread that made it has run, and has waited for a processor.

    Made (and read) on the thread it times: the system's file names the thread that
    opened it."""

    def __init__(self, path: str = SCHEDSTAT) -> None:
        self.fd: int | None = None
        with contextlib.suppress(OSError):
            self.fd = os.open(path, os.O_RDONLY)

    def read(self) -> Reading:
        """Seconds run, and seconds waited for a processor (None if unknown)."""
        ran = time.thread_time()
        if self.fd is None:
            return ran, None
        try:
            fields = os.pread(self.fd, 128, 0).split()
            return ran, int(fields[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return ran, None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def since(before: Reading, after: Reading, late: float) -> Wait:
    """The wait of `late` seconds between two readings of a `ThreadClock`."""
    queued = None if before[1] is None or after[1] is None else after[1] - before[1]
    return Wait(late, after[0] - before[0], queued)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


class Lateness:
    """How late the server's loop wakes from short sleeps: whatever held it (a collection,
    a layout on the loop's thread, the processor given to others) is a wait every
    session of the loop shares. Keeps the waits of `long_pause` or more until said."""

    def __init__(
        self,
        long: float = LONG_PAUSE,
        tick: float = TICK,
        busy: Callable[[], bool] = lambda: True,
    ) -> None:
        self.long_pause = long
        self.tick = tick
        self.busy = busy
        """Whether anybody has a session (else the watch sleeps `IDLE_TICK` at a time)."""
        self.long: list[Wait] = []

    async def watch(self) -> None:
        """Sleep `tick` at a time (`IDLE_TICK` while nobody is `busy`) and note each wake
        `long_pause` or more late, with what the loop's thread did meanwhile (until
        cancelled)."""
        loop = asyncio.get_running_loop()
        clock = ThreadClock()
        try:
            while True:
                tick = self.tick if self.busy() else IDLE_TICK
                asleep, before = loop.time(), clock.read()
                await asyncio.sleep(tick)
                late = loop.time() - asleep - tick
                if late >= self.long_pause:
                    self.long.append(since(before, clock.read(), late))
        finally:
            clock.close()

    def report(self) -> None:
        """Say the long waits since the last report in one line, and forget them: how
        many, the longest and what held it, and how many the loop's own work made."""
        if not self.long:
            return
        longest = max(self.long, key=lambda wait: wait.late)
        held = f"its own work {ms(longest.ran)} ms"
        if longest.queued is not None:
            held += f", waiting for a processor {ms(longest.queued)} ms"
        own = [wait.ran for wait in self.long if wait.ran >= self.long_pause]
        log.info(
            "the server's loop: %d wait(s) of %d ms or more; the longest %d ms (%s); "
            "%d with %d ms or more of its own work%s",
            len(self.long),
            ms(self.long_pause),
            ms(longest.late),
            held,
            len(own),
            ms(self.long_pause),
            f" (the most {ms(max(own))} ms)" if own else "",
        )
        self.long = []
