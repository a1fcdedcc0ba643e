"""What a live-rooms store does for `Rooms`: the protocol, and its errors.

Two implementations live in `store/`: `live_sqlite` (one process: versions and seats in
memory, a commit is the room's save into the SQLite store) and `live_postgres` (every
server process pointed at one database: a commit is a transaction at the room's next
version, and the others are told by LISTEN/NOTIFY). Every call that may wait on the
store is a coroutine: the implementation runs it off the event loop.

Both keep each room's events (`events.Stamped`, in `room_events`) in the transaction of
the change that made them: a room's version is its event count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from ..rules import RulesError
from .events import Stamped
from .holder import Holder
from .kept import RoomSave, StoredRoom


class Refused(RulesError):
    """A command the store did not take (or the rules refused): nothing changed; the
    message is one sentence saying why."""


class Conflict(Exception):
    """A commit refused by the store: the room changed first (`seat` False), or the seat
    is held by another connection (`seat` True)."""

    def __init__(self, seat: bool) -> None:
        super().__init__("the seat is held by another connection" if seat else "changed")
        self.seat = seat


EVENTS_READ = 1000
"""The most events `LiveRooms.events` reads at once: a process far behind reads a long
history in several calls, none of them holding the store or the loop for long."""


@dataclass(frozen=True)
class Change:
    """One change of a room as a store keeps it (see `commands.encode`), with the events
    it made."""

    version: int
    """The room's version once it is made: its last event's."""
    kind: str
    value: str
    by: str | None = None
    """Who made it (None: the clock)."""
    at: datetime | None = None
    """When it was committed, by the store's clock."""
    left: tuple[float, int] | None = None
    """A move's in a room with a clock: the mover's main time and periods left after it."""
    events: tuple[Stamped, ...] = ()
    """The events the command made, numbered from the room's version before it plus one
    (given to a commit; a change read back from a store has none: `LiveRooms.events`)."""


Make = Callable[[float], tuple[RoomSave, Change]]
"""Given the store's time of the commit, the room after the change and the change
(raises `Refused` if the command does not apply then)."""


class Told(Protocol):
    """What `Rooms` is told by its live store (on the event loop)."""

    def changed(self, code: str, version: int | None) -> None:
        """Room `code` has reached `version` (maybe by another process; None: read all it
        has): catch up."""

    def seat(self, code: str, name: str, holder: str) -> None:
        """`name`'s seat in room `code` is held by connection `holder` now."""

    def lost(self) -> None:
        """The store is lost or back (`LiveRooms.problem` and `held_since` say which): hold the
        clocks, or run them on, and tell the players."""

    def held(self) -> list[tuple[str, str, str]]:
        """Every seat as last told: (code, name, holder)."""

    def versions(self) -> dict[str, int]:
        """Every unfinished room here, with its version here."""


class LiveRooms(Protocol):
    """The rooms' store, as `Rooms` uses it."""

    location: str
    """The store, as the log and the players are told."""

    rated: bool
    problem: str | None
    """Why commands are refused now (the store is lost, or cannot keep them); None while
    it takes them."""
    held_since: float | None
    """Since when the store has kept no change (the store's time): every room's running
    clock is held from then until it keeps them again (`commands.Hold`); None while it
    keeps them."""

    @property
    def trouble(self) -> str | None:
        """Why the rooms are not being kept now (the players are told); None while they are."""
        ...

    def now(self) -> float:
        """The store's clock now, in seconds since the epoch (read here, never waited on)."""
        ...

    def forget(self, code: str) -> bool:
        """Let go of what is kept here of room `code` (finished, shown by nobody here), if
        its last save is done: whether it was (else it is asked again later)."""
        ...

    def save(self, save: RoomSave) -> int:
        """Save a room whole at once (a game found ended at the start, before serving):
        its version after it (a `Rated` event the store added counts)."""
        ...

    def unfinished(self) -> list[StoredRoom]:
        """Every unfinished room (read once, at the start, before the loop serves)."""
        ...

    def codes(self) -> set[str]:
        """Every code in use (read once, at the start)."""
        ...

    async def start(self, told: Told) -> None:
        """Connect and listen; raises StoreError if the store cannot be used."""
        ...

    async def close(self) -> None: ...

    async def create(self, save: RoomSave, holder: Holder | None) -> bool:
        """Keep a new room at version 1 (its `Made` event, in `save.events`), its creator's
        seat held by `holder`; False if its code is taken. Raises Refused."""
        ...

    def late(self, began: float) -> None:
        """A commit begun at `began` (the store's time) had no answer in time: the store
        is in trouble from then on, until it answers again."""
        ...

    def settle(self, code: str, timeout: float) -> str | None:
        """Wait up to `timeout` seconds (blocking: off the event loop) until every change
        of room `code` taken here is kept in the store: None once it is, else why not."""
        ...

    async def commit(
        self, code: str, version: int, make: Make, holder: Holder | None
    ) -> list[Stamped]:
        """Commit the change `make(at)` gives, whose events begin at version `version` of
        room `code` (the room must be at `version - 1`), with its events; the events kept,
        in order: the change's, and a `Rated` the store added where the change finished a
        rated game (all stamped with the store's time `at` of the commit). Raises
        Conflict, Refused (the store is lost, or cannot keep it now). A commit its caller
        stopped waiting for is not made after all, unless it was on its way already: then
        `Told.changed` says so."""
        ...

    async def discard(self, code: str) -> None:
        """Delete room `code` from the store once its saves are made: it ended before
        anybody joined it (`Room.abandoned`). Raises Refused."""
        ...

    async def changes(self, code: str, after: int) -> list[Change]:
        """Room `code`'s changes after version `after`, in order. Raises Refused."""
        ...

    async def events(self, code: str, after: int) -> list[Stamped]:
        """Room `code`'s events after version `after`, in order, at most `EVENTS_READ` of
        them (the first ones). Raises Refused."""
        ...

    async def room(self, code: str) -> StoredRoom | None:
        """Room `code` as stored; None if there is none. Raises Refused."""
        ...

    async def versions(self) -> dict[str, int]:
        """Every unfinished room's version, by code. Raises Refused."""
        ...

    async def elsewhere(self, code: str) -> frozenset[str]:
        """The people other server processes show room `code`'s game to now (none for a
        store of one process). Raises Refused."""
        ...

    async def keep_seen(self, name: str, code: str, version: int) -> None:
        """A screen of `name`'s showed room `code` up to `version` (kept unless a later
        one is kept already). Raises Refused."""
        ...

    async def seen(self, name: str, code: str) -> int | None:
        """The last version of room `code` a screen of `name`'s showed, as kept (None:
        none). Raises Refused."""
        ...

    async def take_seat(self, code: str, name: str, holder: Holder) -> None:
        """`holder`'s connection plays `name`'s seat from now on. Raises Refused."""
        ...

    async def seats(self, codes: list[str]) -> dict[str, dict[str, str]]:
        """Who holds which seat, by room. Raises Refused."""
        ...

    async def open_session(self, holder: Holder, limit: int) -> str | None:
        """Count a session of `holder.user`; a sentence if it may not open."""
        ...

    async def close_session(self, holder: Holder) -> None: ...

    async def flush(self) -> None:
        """Wait until every change taken is kept."""
        ...
