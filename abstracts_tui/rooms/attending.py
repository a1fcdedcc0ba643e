"""When who is in a room is written to its events: coalesced, and rate-limited per room.

Who is connected to a room (`presence.Presences`: the screens showing it, here and in
other processes) changes as screens open and close; the room's events say it only
through its presence events (`events.Arrived`, `Left`, `Back`, `Watching`), committed by
the room's gateway as a change of their own (`gateway.Gateway.note`). The cost is kept
so:

- a change of who is connected asks for a write of its room (`Attending.ask`): at once
  if a player came or went (`urgent`), else (watchers only) at once if the room's last
  write is older than its window, and at the window's end if not, once for every change
  asked meanwhile;
- the write commits the difference between who is connected THEN and what the room's
  events say (`fold.presence`): a watcher who comes and goes within a window writes
  nothing, and a change is one store write (one commit) however many screens made it;
- the window is `PRESENCE_SECONDS`, and each room has a budget of `PRESENCE_BURST`
  writes, given back one every `PRESENCE_REFILL_SECONDS`: once it is spent, the next
  write, a player's too, waits for the budget. People coming and going as people do
  are written at once or within a second; a connection (a watcher's or a player's)
  that comes and goes in a loop grows the room's events by at most one change every
  `PRESENCE_REFILL_SECONDS` (two a minute), however fast it loops;
- a finished room's events are not written to at all (its stream is closed), nor any
  room's while the store keeps no change: who is connected is written once it does.
"""

from __future__ import annotations

import asyncio
import enum
import math
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ..rates import TokenBucket

PRESENCE_SECONDS = 1.0
"""The least time between two writes of a room's presence."""
PRESENCE_BURST = 10
"""The writes of a room's presence that may be made one a window..."""
PRESENCE_REFILL_SECONDS = 30.0
"""...and how often one more is allowed once they are made."""
ROOMS_KEPT = 10_000
"""Rooms whose budget is remembered; beyond it, those with their whole budget go."""


class Noted(enum.Enum):
    """What a write of a room's presence did."""

    WROTE = "wrote"
    NOTHING = "nothing"
    """Its events said who is connected already (or the room is finished, or gone)."""
    LATER = "later"
    """It could not be written now (the room changed first, the store is in trouble):
    asked again at the end of the window."""


class Attending:
    """Asks for each room's presence to be written (`write`), once a window at most,
    within each room's budget."""

    def __init__(
        self,
        write: Callable[[str], Awaitable[Noted]],
        spawn: Callable[[Coroutine[Any, Any, object]], None],
    ) -> None:
        self.write = write
        self.spawn = spawn
        self.last: dict[str, float] = {}
        """Room code -> when its presence was last written or tried (the loop's time)."""
        self.budgets: dict[str, TokenBucket] = {}
        self.due: dict[str, asyncio.TimerHandle] = {}
        self.running: set[str] = set()
        self.again: set[str] = set()
        """Rooms asked for while their write was under way: asked again after it..."""
        self.urgent: set[str] = set()
        """...and those of them asked for at once."""

    def ask(self, code: str, *, urgent: bool = False) -> None:
        """Who is connected to room `code` changed: write it now, or once it may be
        (`urgent`: a player came or went, written without waiting for the window)."""
        if code in self.running:
            self.again.add(code)
            if urgent:
                self.urgent.add(code)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (the server starting): nobody is connected yet
            return
        wait = 0.0 if urgent else self.last.get(code, -math.inf) + PRESENCE_SECONDS - loop.time()
        budget = self.budgets.get(code)
        if budget is not None:
            budget.refill()
            if budget.tokens < 1:
                wait = max(wait, (1 - budget.tokens) / budget.rate)
        due = self.due.get(code)
        if due is not None:
            if due.when() <= loop.time() + wait:
                return  # the write due reads who is connected then
            due.cancel()
        self.due[code] = loop.call_later(max(0.0, wait), self._go, code)

    def _go(self, code: str) -> None:
        self.due.pop(code, None)
        self.running.add(code)
        self.spawn(self._run(code))

    async def _run(self, code: str) -> None:
        try:
            noted = await self.write(code)
        finally:
            self.running.discard(code)
        loop = asyncio.get_running_loop()
        if noted is not Noted.NOTHING:
            self.last[code] = loop.time()
        if noted is Noted.WROTE:
            self._spend(code, loop.time)
        elif noted is Noted.LATER:
            self.again.add(code)
        if code in self.again:
            self.again.discard(code)
            urgent = code in self.urgent and noted is not Noted.LATER
            self.urgent.discard(code)
            self.ask(code, urgent=urgent)

    def _spend(self, code: str, clock: Callable[[], float]) -> None:
        budget = self.budgets.get(code)
        if budget is None:
            if len(self.budgets) >= ROOMS_KEPT:
                self._forget_quiet()
            budget = self.budgets[code] = TokenBucket(
                1 / PRESENCE_REFILL_SECONDS, PRESENCE_BURST, clock
            )
        budget.refill()
        budget.tokens -= 1

    def _forget_quiet(self) -> None:
        for code, budget in list(self.budgets.items()):
            budget.refill()
            if budget.tokens >= budget.burst:
                del self.budgets[code]
                self.last.pop(code, None)

    def cancel(self) -> None:
        for handle in self.due.values():
            handle.cancel()
        self.due.clear()
