"""Live rooms of one server process over its SQLite store.

One process has every room, so the versions and the seats are kept in memory, and a
commit is the room's save, whole, into the store: put on a writer thread (one
`files.Autosave` per room: only the newest save of a room matters), so the event loop
never waits for the disk. A store that fails (a full disk, another program's lock) is
told to the players (`trouble`), each save is tried again, and until they are all made
no change is taken (the changes taken before it was known are kept here and saved with
the next try) and every room's running clock is held (`held_since`, from the moment the
failure was known): no move is taken that could not be kept, and no time is charged or
flag decided while none could be.

The store keeps no changes, only rooms and their events; each save of a room carries its
last changes (`Recent`), so that a restart reads its chat lines and its offers waiting
again, and every event taken here and not written yet (only the newest save of a room is
made, so each writes the events before it too). The change that ends a game waits (up to
`FINISH_WAIT`) for its save, which rates it and adds the `Rated` event, so that the end
is told with it; a save that takes longer adds it later, and the rooms are told then.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import replace
from functools import partial
from pathlib import Path

from ..files import Autosave
from ..printable import printable
from ..rooms.events import Ended, Stamped
from ..rooms.holder import Holder
from ..rooms.live import EVENTS_READ, Change, Conflict, Make, Refused, Told
from .base import RECENT_CHANGES, Recent, RoomSave, Store, StoredRoom, StoreError

log = logging.getLogger(__name__)

WAITING = "moves wait until the games can be saved again"
"""What the players are told becomes of their moves while the store cannot be written."""
SETTLE_LOOK = 0.1
"""How often `settle` looks again at a room's save that failed (it is tried again)."""
FINISH_WAIT = 2.0
"""How long the change that ends a game waits for its save (which rates the game) before
it is told without its `Rated` event (told once the save is made): less than the
gateway's wait for a commit (`gateway.COMMIT_SECONDS`)."""


class LiveSqlite:
    """The live rooms of a store of one process (`rooms.live.LiveRooms`)."""

    def __init__(self, store: Store, *, rated: bool = False) -> None:
        self.store = store
        self.location = store.location
        self.rated = rated
        self.problem: str | None = None
        self.held_since: float | None = None
        self.versions_here: dict[str, int] = {}
        self.held: dict[str, dict[str, str]] = {}
        self.recent: dict[str, Recent] = {}
        """The last changes of each room read or changed here, saved with it."""
        self.savers: dict[str, Autosave] = {}
        self.unkept: dict[str, list[Stamped]] = {}
        """The events taken here and not written yet, by room (the writer thread writes
        them with the room's next save: under `events_lock`)."""
        self.added: dict[str, list[Stamped]] = {}
        """The events the store added to a room's (its `Rated`), until a commit or the
        rooms are told of them (on the loop)."""
        self.finishing: set[str] = set()
        """The rooms whose game's end is being saved, waited for by its commit."""
        self.events_lock = threading.Lock()
        self.told: Told | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def trouble(self) -> str | None:
        return self.problem

    def now(self) -> float:
        return time.time()

    def unfinished(self) -> list[StoredRoom]:
        found = self.store.rooms(finished=False)
        for stored in found:
            self.versions_here[stored.code] = stored.version
            if stored.recent is not None:
                self.recent[stored.code] = stored.recent
        return found

    def codes(self) -> set[str]:
        return self.store.codes()

    def save(self, save: RoomSave) -> int:
        version = self.store.save_room(save)  # before serving: nothing waits on it
        self.versions_here[save.code] = version
        return version

    def _put(self, save: RoomSave) -> None:
        """Save the room soon, on its writer, with every event of it not written yet."""
        with self.events_lock:
            self.unkept.setdefault(save.code, []).extend(save.events)
        self._saver(save.code).put(partial(self._write, replace(save, events=())))

    def _write(self, save: RoomSave) -> None:
        """On the writer thread: the save, with the room's events not written yet."""
        code = save.code
        with self.events_lock:
            events = tuple(self.unkept.get(code, ()))
        _, added = self.store.keep_room(replace(save, events=events))
        with self.events_lock:
            del self.unkept.get(code, [])[: len(events)]
        loop = self.loop
        if added and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._added, code, added)

    def _added(self, code: str, added: list[Stamped]) -> None:
        """On the loop: the store added events to room `code` (its `Rated`): the room's
        version is theirs; a commit waiting for them takes them, else the rooms are told."""
        self.versions_here[code] = max(self.versions_here.get(code, 0), added[-1].version)
        self.added.setdefault(code, []).extend(added)
        if code not in self.finishing and self.told is not None:
            self.told.changed(code, added[-1].version)

    def forget(self, code: str) -> bool:
        saver = self.savers.get(code)
        if saver is not None and (saver.problem is not None or not saver.flush(0)):
            return False  # not saved yet: kept until it is
        for kept in (self.savers, self.versions_here, self.held, self.recent, self.added):
            kept.pop(code, None)
        with self.events_lock:
            self.unkept.pop(code, None)
        return True

    def _saver(self, code: str) -> Autosave:
        saver = self.savers.get(code)
        if saver is None:
            changed = partial(self._problem_changed, code)
            saver = self.savers[code] = Autosave(Path(self.location), changed)
        return saver

    def _problem_changed(self, code: str) -> None:
        """From the writer thread: the log says so, and the players are told on the loop."""
        problem = self.savers[code].problem
        if problem is None:
            log.info("room %s is saved again in %s", code, self.location)
        else:
            log.warning("room %s is not being saved: %s", code, printable(problem))
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._trouble_changed, self.now())

    def _trouble_changed(self, noticed: float) -> None:
        """On the loop: the store's trouble as its rooms' saves have it now (the clocks
        held from `noticed`, when a save was first known to fail), told to the rooms."""
        failing = next((s.problem for s in self.savers.values() if s.problem is not None), None)
        problem = f"{failing}: {WAITING}" if failing is not None else None
        if problem == self.problem:
            return
        self.problem = problem
        self.held_since = None if problem is None else self.held_since or noticed
        if self.told is not None:
            self.told.lost()

    async def start(self, told: Told) -> None:
        self.told = told
        self.loop = asyncio.get_running_loop()
        self._trouble_changed(self.now())  # a save made before the start that failed

    def late(self, began: float) -> None:
        pass  # a commit here waits for no disk

    def settle(self, code: str, timeout: float) -> str | None:
        saver = self.savers.get(code)
        if saver is None:
            return None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if saver.flush(max(0.0, left)) and saver.problem is None:
                return None
            if left <= 0:
                return saver.problem or "its last change is still being saved"
            time.sleep(min(SETTLE_LOOK, left))  # failed: until its next try

    async def close(self) -> None:
        await self.flush()

    async def flush(self) -> None:
        savers = list(self.savers.values())
        await asyncio.to_thread(lambda: [saver.flush() for saver in savers])

    async def create(self, save: RoomSave, holder: Holder | None) -> bool:
        if self.problem is not None:
            raise Refused(self.problem)
        if save.code in self.versions_here:
            return False
        self.versions_here[save.code] = 1
        if holder is not None:
            self.held[save.code] = {save.setup.creator: holder.token}
        self._put(save)
        return True

    async def commit(
        self, code: str, version: int, make: Make, holder: Holder | None
    ) -> list[Stamped]:
        if self.problem is not None:
            raise Refused(self.problem)
        if self.versions_here.get(code, 0) != version - 1:
            raise Conflict(seat=False)
        # To the microsecond: the time its events are kept with reads back the same.
        at = round(self.now(), 6)
        save, change = make(at)
        seats = self.held.setdefault(code, {})
        if holder is not None and change.by is not None:
            held = seats.get(change.by)
            if change.kind == "join":
                seats[change.by] = holder.token
            elif held is not None and held != holder.token:
                raise Conflict(seat=True)
        self.versions_here[code] = change.version
        said = (change.kind, change.value, change.by)
        before = self.recent.get(code)
        kept = ((*before.changes, said) if before else (said,))[-RECENT_CHANGES:]
        recent = Recent(change.version, kept)
        self.recent[code] = recent
        events = list(change.events)
        if not any(isinstance(stamped.event, Ended) for stamped in events):
            self._put(replace(save, recent=recent))
            return events
        self.finishing.add(code)
        try:
            self._put(replace(save, recent=recent))
            await asyncio.to_thread(self.savers[code].flush, FINISH_WAIT)
        finally:
            self.finishing.discard(code)
        return events + self.added.pop(code, [])

    async def discard(self, code: str) -> None:
        # After the room's saves, on its writer: the newest state of the room is none.
        self._saver(code).put(partial(self._discard, code))

    def _discard(self, code: str) -> None:
        with self.events_lock:
            self.unkept.pop(code, None)
        self.store.discard_room(code)

    async def changes(self, code: str, after: int) -> list[Change]:
        """The room's last changes after version `after`: none that a room here has not
        applied (no other process changes the rooms), but those before a restart."""
        if code not in self.versions_here:  # not read here yet: its row has them
            await self.room(code)
        recent = self.recent.get(code)
        if recent is None:
            return []
        first = recent.version - len(recent.changes) + 1
        return [
            Change(first + i, kind, value, by)
            for i, (kind, value, by) in enumerate(recent.changes)
            if first + i > after
        ]

    async def events(self, code: str, after: int) -> list[Stamped]:
        """The room's events after `after`: those written, then those not written yet."""
        try:
            found = await asyncio.to_thread(self.store.events, code, after, EVENTS_READ)
        except StoreError as error:
            raise Refused(str(error)) from None
        last = found[-1].version if found else after
        with self.events_lock:
            waiting = [e for e in self.unkept.get(code, ()) if e.version > last]
        return (found + waiting)[:EVENTS_READ]

    async def room(self, code: str) -> StoredRoom | None:
        try:
            stored = await asyncio.to_thread(self.store.room, code)
        except StoreError as error:
            raise Refused(str(error)) from None
        if stored is not None:
            self.versions_here.setdefault(code, stored.version)
            if stored.recent is not None:  # those kept here are as new or newer
                self.recent.setdefault(code, stored.recent)
        return stored

    async def versions(self) -> dict[str, int]:
        return dict(self.versions_here)

    async def elsewhere(self, code: str) -> frozenset[str]:
        return frozenset()  # one process shows every screen

    async def keep_seen(self, name: str, code: str, version: int) -> None:
        try:
            await asyncio.to_thread(self.store.keep_seen, name, code, version)
        except StoreError as error:
            raise Refused(str(error)) from None

    async def seen(self, name: str, code: str) -> int | None:
        try:
            return await asyncio.to_thread(self.store.seen, name, code)
        except StoreError as error:
            raise Refused(str(error)) from None

    async def take_seat(self, code: str, name: str, holder: Holder) -> None:
        self.held.setdefault(code, {})[name] = holder.token

    async def seats(self, codes: list[str]) -> dict[str, dict[str, str]]:
        return {code: dict(self.held[code]) for code in codes if code in self.held}

    async def open_session(self, holder: Holder, limit: int) -> str | None:
        return None  # the server counts its own sessions

    async def close_session(self, holder: Holder) -> None:
        pass
