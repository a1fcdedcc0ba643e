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
ended later (a screen's drawing replaced at the next move, the sessions that closed) is
not collected while frozen: every `thaw_every` seconds everything is unfrozen and
collected whole, once (one pause as long as before, every 2 minutes instead of every few
seconds).
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_EVERY = 10.0
"""Seconds between freezes: the longest a full collection walks what came since."""
THAW_EVERY = 120.0
"""Seconds between thaws: the most that cycles of ended sessions are kept."""


def freeze() -> None:
    """Leave what lives now out of later collections, once what came since the last
    freeze has been collected (a full collection, which walks nothing frozen)."""
    gc.collect()
    gc.freeze()


async def keep_pauses_short(
    freeze_every: float = FREEZE_EVERY, thaw_every: float = THAW_EVERY
) -> None:
    """Freeze now and every `freeze_every` seconds, and thaw every `thaw_every` (runs
    until cancelled; everything is unfrozen then)."""
    thawed = time.monotonic()
    try:
        freeze()  # the modules and the rooms read: never walked again
        while True:
            await asyncio.sleep(freeze_every)
            if time.monotonic() - thawed >= thaw_every:
                gc.unfreeze()
                thawed = time.monotonic()
            freeze()
    finally:
        gc.unfreeze()
