"""Short pauses of Python's garbage collector in a server of many sessions.

Every session's screens are tens of thousands of objects that live as long as it does.
CPython's full collection walks every object it tracks, and it runs whenever the objects
that survived the younger collections reach a quarter of the old ones: with 100 sessions
(1.5 million objects, about 300 MB a process) one came every 10 to 15 seconds and stopped
the event loop for 1 to 3.5 seconds on a busy machine, every session of the process
waiting. A move that crosses processes waits for the pauses of both: those pauses were
the slow end of crossing moves.

So every `freeze_every` seconds the server collects what came since the last freeze and
freezes what is left (`gc.freeze`): frozen objects are left out of every collection, so
a full collection walks only the last seconds' objects. What was alive at a freeze and
ended later (the screens of a session that closed, a dialog's widgets) is not collected
while frozen: once the frozen objects have grown by a quarter since everything was last
collected (CPython's own rule for a full collection, counted over what outlived a
freeze), everything is unfrozen and collected whole, once. With a steady set of
sessions little outlives a freeze (50 sessions with running clocks: about 2,000 objects
every 10 seconds, against 1.2 million), so that one long pause (about a second at 50
sessions) comes every 20 to 25 minutes instead of every few seconds; sessions coming and
going bring it sooner, as the garbage they leave requires.

Every collection that stops the process for `LONG_PAUSE` or more is timed
(`gc.callbacks`) and said in the log once a period, and so is every wait of the server's
loop of `LONG_PAUSE` or more, whatever held it (`lateness.Lateness`, which tells the
loop's own work from the processor given to others): the server's operator sees the
pauses its sessions wait through, and `scripts/hostile_ssh.py` reports the longest.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

from .lateness import LONG_PAUSE, Lateness

log = logging.getLogger(__name__)

FREEZE_EVERY = 10.0
"""Seconds between freezes: the longest a full collection walks what came since."""
GROWTH = 0.25
"""How much the frozen objects grow, against what was frozen after the last collection
of everything, before everything is collected again."""


class Pauses:
    """Times every collection of the process (a `gc.callbacks` entry); keeps the long ones
    until they are said."""

    def __init__(self, long: float = LONG_PAUSE) -> None:
        self.long_pause = long
        """The seconds from which a collection is said."""
        self.started = 0.0
        self.long: list[tuple[float, int]] = []
        """Each long collection since the last report: its seconds and its generation."""

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        # Called with the interpreter stopped for the collection: nothing is allocated
        # but the tuple kept for a long one.
        if phase == "start":
            self.started = time.perf_counter()
            return
        took = time.perf_counter() - self.started
        if took >= self.long_pause:
            self.long.append((took, info["generation"]))

    def report(self) -> None:
        """Say the long collections since the last report in one line, and forget them."""
        if not self.long:
            return
        took, generation = max(self.long)
        log.info(
            "garbage collection: %d pause(s) of %d ms or more; the longest %d ms (generation %d)",
            len(self.long),
            self.long_pause * 1000,
            took * 1000,
            generation,
        )
        self.long = []


def freeze() -> int:
    """Leave what lives now out of later collections, once what came since the last
    freeze has been collected (a full collection, which walks nothing frozen); how many
    objects it left out."""
    gc.collect()
    # The objects not frozen are the ones that came since: few (`gc.get_freeze_count`
    # would walk every frozen one, a pause of its own).
    added = len(gc.get_objects())
    gc.freeze()
    return added


def collect_all() -> int:
    """Collect everything, frozen or not (the one long pause), and freeze what lives;
    how many objects that is."""
    gc.unfreeze()
    return freeze()


async def keep_pauses_short(
    freeze_every: float = FREEZE_EVERY,
    growth: float = GROWTH,
    busy: Callable[[], bool] = lambda: True,
) -> None:
    """Freeze now and every `freeze_every` seconds; collect everything when the objects
    frozen since have grown by `growth` of those frozen then (runs until cancelled;
    everything is unfrozen then)."""
    pauses = Pauses()
    # The modules and the rooms read, before anybody's session: never walked again. This
    # first collection of everything is not counted: nobody has a session yet.
    frozen = collect_all()
    gc.callbacks.append(pauses)
    lateness = Lateness(busy=busy)
    watching = asyncio.get_running_loop().create_task(lateness.watch())
    try:
        grown = 0
        while True:
            await asyncio.sleep(freeze_every)
            if grown > frozen * growth:
                frozen, grown = collect_all(), 0
            else:
                grown += freeze()
            pauses.report()
            lateness.report()
    finally:
        watching.cancel()
        gc.callbacks.remove(pauses)
        pauses.report()
        lateness.report()
        gc.unfreeze()
