"""What one name may cost the other people of a server: rooms made a minute, and how
often every lobby is told that the lists of rooms changed.

A name that makes rooms and calls them off in a loop (from three sessions at once) made
145 rooms in 31 s: each made and each ended told every lobby to draw its lists again, so
every idle lobby was sent 2.5 MB and the server spent 19 s of its processor. Here rooms
are made at most `ROOMS_PER_MINUTE` a minute per name (`ROOMS_AT_ONCE` at once), and the
lobbies are told at most every `LISTING_SECONDS`, whatever happens.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable

from ..rates import TokenBucket
from .room import RoomError

ROOMS_PER_MINUTE = 10
"""Rooms one name may make a minute, on average (a rematch's room too), on one server
process: a person makes a few rooms and plays in them; a loop that makes rooms and
calls them off is refused at this rate..."""
ROOMS_AT_ONCE = 10
"""...and this many at once (as many as may wait for a player: `rooms.WAITING_ROOMS`)."""
NAMES_KEPT = 1000
"""Names whose rate is remembered; beyond it, those with their whole allowance go."""
LISTING_SECONDS = 0.25
"""The least time between two tellings that the lobby's lists changed (a room made,
joined or ended, by anyone, in any process): a change is told at once if the last
telling is that old, else at the end of that time, once for every change made meanwhile,
each lobby reading the lists then (the latest state: nothing is lost). A lobby draws its
lists at most 4 times a second for them, however many rooms change."""


class RoomRates:
    """How fast each name may make rooms: `ROOMS_PER_MINUTE`, `ROOMS_AT_ONCE` at once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def check(self, name: str) -> None:
        """Raise RoomError (one sentence) if `name` may not make a room now."""
        bucket = self.buckets.get(name)
        if bucket is None:
            return
        bucket.refill()
        missing = round(1 - bucket.tokens, 9)  # a whole minute's refill is whole
        if missing > 0:
            wait = max(1, math.ceil(round(missing / bucket.rate, 6)))
            raise RoomError(
                f"you make rooms too fast (at most {ROOMS_PER_MINUTE} a minute): wait "
                f"{wait} s before you make another"
            )

    def take(self, name: str) -> None:
        """Count a room made by `name` (checked first with `check`)."""
        bucket = self.buckets.get(name)
        if bucket is None:
            if len(self.buckets) >= NAMES_KEPT:
                self._forget_idle()
            bucket = TokenBucket(ROOMS_PER_MINUTE / 60, ROOMS_AT_ONCE, self.clock)
            self.buckets[name] = bucket
        bucket.refill()
        bucket.tokens -= 1

    def _forget_idle(self) -> None:
        for name, bucket in list(self.buckets.items()):
            bucket.refill()
            if bucket.tokens >= bucket.burst:
                del self.buckets[name]


class Coalesced:
    """Calls `told` at most once every `LISTING_SECONDS` however often it is asked to,
    and always after the last time it was asked (never a change left untold)."""

    def __init__(self, told: Callable[[], None], seconds: float = LISTING_SECONDS) -> None:
        self.told = told
        self.seconds = seconds
        self.last = -math.inf
        """When `told` was last called (the loop's time)."""
        self.due: asyncio.TimerHandle | None = None

    def ask(self) -> None:
        """Tell now, or at the end of the time since the last telling."""
        if self.due is not None:
            return  # the telling due reads the lists as they are then
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (the server starting): nobody listens
            self.told()
            return
        wait = self.last + self.seconds - loop.time()
        if wait <= 0:
            self._tell()
        else:
            self.due = loop.call_later(wait, self._tell)

    def _tell(self) -> None:
        self.due = None
        self.last = asyncio.get_running_loop().time()
        self.told()

    def cancel(self) -> None:
        if self.due is not None:
            self.due.cancel()
            self.due = None
