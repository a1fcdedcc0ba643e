"""Notices to players who are not connected to their game: your move, a challenge of
yours accepted, a game's end, sent where each player said (`notify`).

The notifier hears every room's committed events (`Rooms.news`, made here or by another
process). For each player of the room with no screen showing it (on any process), with a
target set, it claims the notice in the store (`store.notices.claim`: one process sends
it, once per game and event) and queues it for that player. Sending is off the event
loop, on threads of its own (`SENDING_THREADS`), one notice of a player at a time, each
try with a timeout (`notify_send.SEND_SECONDS`) and tried again after `RETRY_SECONDS`;
a player's queue holds `WAITING_PER_PLAYER` notices (the oldest go first) and each
player is sent at most `NOTICES_PER_HOUR`. Quiet hours hold a notice until they end; a
"your move" held or retried is dropped once it is no longer the player's move or a
screen of theirs shows the game.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from ..rates import TokenBucket
from ..rooms.events import Ended, Joined, KomiSet, MovePlayed, SideChosen, Stamped, Swapped
from ..rooms.live import Refused
from ..rooms.room import Room
from ..rooms.rooms import Rooms
from ..store import Store, StoreError
from ..store.notices import claim, forget_old, setting
from ..subscribers import Subscription
from .notify_command import Mail
from .notify_send import Outgoing, SendError, Smtp, send
from .notify_setting import Quiet
from .room_desk import your_move

log = logging.getLogger("abstracts_tui.notices")

RETRY_SECONDS = (2.0, 10.0, 60.0, 300.0, 1800.0)
"""The waits before each further try at a notice not sent (then it is given up)."""
WAITING_PER_PLAYER = 10
"""Notices waiting to be sent to one player at most: past it, the oldest is dropped."""
PLAYERS_WAITING = 1000
"""Players with notices waiting at most: past it, new notices are dropped (logged)."""
NOTICES_PER_HOUR = 30
"""Notices sent to one player in an hour at most (a burst of as many, then one every
two minutes)."""
SENDING_THREADS = 4
"""The threads that send (a slow receiver holds one of them, never the event loop or the
store's threads)."""
QUIET_LOOK_SECONDS = 10.0
"""How often a notice held by quiet hours reads its player's setting again (quiet hours
changed or ended, notices turned off)."""
FORGET_SECONDS = 3600.0
"""How often the notices sent more than `store.notices.KEPT_DAYS` ago are forgotten."""

HANDING = (Joined, KomiSet, SideChosen, MovePlayed, Swapped)
"""The events that hand the move on to the other player."""


@dataclass(frozen=True)
class Notice:
    """One notice to player `name` of room `code`'s event `version`."""

    name: str
    code: str
    version: int
    kind: str
    """`move` (their move), `joined` (their challenge accepted) or `end`."""
    outgoing: Outgoing
    quiet: Quiet | None


def notice_of(room: Room, events: list[Stamped], name: str) -> tuple[str, int, str, str] | None:
    """What player `name` is to be told of `events`, new in `room`, while away: (kind,
    the version of the event it tells, title, text); None for nothing."""
    told = your_move(room, events, name)
    if not told:
        return None
    text = " ".join(said for said, _ in told)
    where = f"room {room.code}"
    if any(ring for _, ring in told):
        handing = [s for s in events if isinstance(s.event, HANDING)]
        last = handing[-1] if handing else events[-1]
        if isinstance(last.event, Joined):
            return "joined", last.version, f"{last.event.name} joined {where}", text
        return "move", last.version, f"Your move in {where}", text
    ended = [s for s in events if isinstance(s.event, Ended)]
    if ended:
        return "end", ended[-1].version, f"The game in {where} is over", text
    return None  # a rating change alone: said with the end


class Notifier:
    """Hears the rooms' events and sends the notices players asked for."""

    def __init__(
        self, rooms: Rooms, store: Store, smtp: Smtp | None, *, private: bool = False
    ) -> None:
        self.rooms = rooms
        self.store = store
        self.smtp = smtp
        self.private = private
        """Whether URLs inside the server's network may be posted to (`--notify-private`)."""
        self.waiting: dict[str, collections.deque[Notice]] = {}
        self.budgets: dict[str, TokenBucket] = {}
        self.senders: dict[str, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[object]] = set()
        self.pool = ThreadPoolExecutor(SENDING_THREADS, thread_name_prefix="notices")
        self.tie: Subscription | None = None
        self.forgetting: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Start hearing the rooms' events (on the server's loop)."""
        self.tie = self.rooms.news.subscribe(self.heard)
        Mail.sent = self.smtp is not None
        self.forgetting = asyncio.get_running_loop().call_later(FORGET_SECONDS, self._forget)

    async def close(self) -> None:
        """Stop: notices not sent yet are dropped."""
        if self.tie is not None:
            self.tie.close()
        if self.forgetting is not None:
            self.forgetting.cancel()
        for task in [*self.senders.values(), *self.tasks]:
            task.cancel()
        for task in [*self.senders.values(), *self.tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _spawn(self, work: Awaitable[object]) -> None:
        task: asyncio.Task[object] = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _forget(self) -> None:
        """Forget the old notices sent, and the budgets of the players sent none lately."""
        self._spawn(self._forget_old())
        for name, budget in list(self.budgets.items()):
            budget.refill()
            if budget.tokens >= budget.burst and name not in self.waiting:
                del self.budgets[name]
        self.forgetting = asyncio.get_running_loop().call_later(FORGET_SECONDS, self._forget)

    async def _forget_old(self) -> None:
        try:
            await asyncio.to_thread(forget_old, self.store)
        except StoreError as error:
            log.warning("the notices sent long ago are not forgotten now: %s", error)

    def heard(self, room: Room, events: list[Stamped]) -> None:
        """New events of `room` (on the server's loop)."""
        for name in room.players:
            found = notice_of(room, events, name)
            if found is not None:
                self._spawn(self._consider(room.code, name, *found))

    def away(self, code: str, name: str, elsewhere: frozenset[str]) -> bool:
        return name not in self.rooms.presences.here(code) and name not in elsewhere

    async def _consider(
        self, code: str, name: str, kind: str, version: int, title: str, text: str
    ) -> None:
        try:
            elsewhere = await self.rooms.live.elsewhere(code)
        except Refused:
            elsewhere = frozenset()
        if not self.away(code, name, elsewhere):
            return
        try:
            row = await asyncio.to_thread(setting, self.store, name)
            if row.target is None:
                return
            if not await asyncio.to_thread(claim, self.store, name, code, version, kind):
                return  # another process sends it (or sent it)
        except StoreError as error:
            log.warning("a notice to %s of room %s is not sent: %s", name, code, error)
            return
        quiet = Quiet(*row.quiet) if row.quiet is not None else None
        self.queue(Notice(name, code, version, kind, Outgoing(row.target, title, text), quiet))

    def queue(self, notice: Notice) -> None:
        """Queue `notice` for its player (within the bounds) and see that it is sent."""
        name = notice.name
        waiting = self.waiting.get(name)
        if waiting is None:
            if len(self.waiting) >= PLAYERS_WAITING:
                log.warning("a notice to %s is dropped: too many players wait for theirs", name)
                return
            waiting = self.waiting[name] = collections.deque(maxlen=WAITING_PER_PLAYER)
        waiting.append(notice)
        if name not in self.senders:
            self.senders[name] = asyncio.ensure_future(self._send_all(name))

    async def _send_all(self, name: str) -> None:
        try:
            waiting = self.waiting[name]
            while waiting:
                notice = waiting.popleft()
                await self._send(notice)
        finally:
            self.senders.pop(name, None)
            if not self.waiting.get(name):
                self.waiting.pop(name, None)

    def still(self, notice: Notice) -> bool:
        """Whether `notice` is still worth sending (a move: still theirs, still away)."""
        if notice.kind != "move":
            return True
        room = self.rooms.known(notice.code)
        if room is None or room.session.over or room.session.waiting_for() != notice.name:
            return False
        return notice.name not in self.rooms.presences.here(notice.code)

    async def _hold(self, notice: Notice) -> bool:
        """Wait while the player's quiet hours hold (as they are set now, read again
        every `QUIET_LOOK_SECONDS`): whether the notice is still to be sent after."""
        quiet, said = notice.quiet, False
        while quiet is not None and (wait := quiet.holds(time.time())) > 0:
            if not said:
                log.info(
                    "a notice to %s of room %s waits for the quiet hours' end",
                    notice.name,
                    notice.code,
                )
                said = True
            await asyncio.sleep(min(wait, QUIET_LOOK_SECONDS))
            try:
                row = await asyncio.to_thread(setting, self.store, notice.name)
            except StoreError:
                continue
            if row.target != notice.outgoing.target:
                return False  # notices are off now, or go elsewhere
            quiet = Quiet(*row.quiet) if row.quiet is not None else None
        return not said or self.still(notice)

    async def _send(self, notice: Notice) -> None:
        if not await self._hold(notice):
            return
        budget = self.budgets.setdefault(
            notice.name, TokenBucket(NOTICES_PER_HOUR / 3600, NOTICES_PER_HOUR)
        )
        if not budget.take(1):
            log.warning(
                "a notice to %s is dropped: %d sent this hour", notice.name, NOTICES_PER_HOUR
            )
            return
        loop = asyncio.get_running_loop()
        work = partial(send, notice.outgoing, self.smtp, private=self.private)
        for attempt in range(len(RETRY_SECONDS) + 1):
            try:
                await loop.run_in_executor(self.pool, work)
            except SendError as error:
                if not error.again or attempt == len(RETRY_SECONDS):
                    log.warning(
                        "a notice to %s of room %s is not sent: %s", notice.name, notice.code, error
                    )
                    return
                log.info(
                    "a notice to %s of room %s is tried again in %g s: %s",
                    notice.name,
                    notice.code,
                    RETRY_SECONDS[attempt],
                    error,
                )
                await asyncio.sleep(RETRY_SECONDS[attempt])
                if not self.still(notice):
                    return
            else:
                log.info("a notice to %s of room %s is sent", notice.name, notice.code)
                return
