"""A room's gateway: the one way a command reaches the room's game.

`send` checks the seat (the command's holder against the seat's), takes the room's lock
(two commands of one process never race), checks the command on copies of the session
and the room's terms (the rules' errors become one sentence; nothing live is touched),
commits it through the live store at the room's next version (the copy after the command
is the room saved), and only then applies the same command, at the same moment, to the
live session and terms, whose listeners (every screen showing the room) redraw. Nothing
is ever rolled back.

While the store keeps no change every command is refused with its sentence, and the
room's running clock is held (`Rooms.lost`); the first change kept after that is its
`Hold`, which gives back the time the store was away, the same in every process.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from ..commands import Command, Hold, Play, encode
from ..rules import RulesError
from ..session import Session
from .apply import apply, twin
from .derive import events_of
from .events import Arrived, Back, ChatSaid, Event, Left, Stamped, Watching
from .fold import attend
from .holder import Holder
from .kept import RoomSave
from .live import Change, Conflict, LiveRooms, Refused
from .room import EVENTS_KEPT, Room

log = logging.getLogger(__name__)

COMMIT_SECONDS = 4.0
"""How long a command waits for the store before it is refused: the store is in trouble
from the moment it was asked (`LiveRooms.late`: the clocks are held) until it answers."""

PRESENCE = "presence"
"""The kind of a change that only says who is in the room (`note`): no command."""

Applied = Callable[[Room, Command, str | None], None]
"""Told after a command is applied to the live session (the room's own effects: a join)."""
CatchUp = Callable[[Room], Awaitable[None]]
"""Brings the room up to the store's version now (takes the gateway's lock itself)."""
ON_BEHALF = "kept-ready"
"""The token of the holder a reply kept ready is sent with (`conditional`): the server
plays it for the player, whichever connection holds their seat."""
BESIDE_THE_GAME = (Arrived, Left, Back, Watching, ChatSaid)
"""Events that change nothing a command of the game was decided on: who is in the room,
how many watch, a chat line. A command that lost the race to one of these is sent again."""


class ChangedMeanwhile(Refused):
    """Another process committed to the room first (its version then is `version`)."""

    def __init__(self, version: int) -> None:
        super().__init__("the game changed meanwhile: look again")
        self.version = version


class Gateway:
    """The commands of one room."""

    def __init__(
        self,
        room: Room,
        live: LiveRooms,
        applied: Applied,
        conflict: Callable[[Room], None],
        catch_up: CatchUp | None = None,
    ) -> None:
        self.room = room
        self.live = live
        self.applied = applied
        self.conflict = conflict
        """Called when another process changed the room first: catch up soon."""
        self.catch_up = catch_up
        """With it, a command that another process's presence or chat beat to the store
        is sent again once caught up, rather than refused (see `send`)."""
        self.lock = asyncio.Lock()
        """Held while a command is checked, committed and applied, and while changes from
        elsewhere are applied: one at a time."""

    def seat_refusal(self, by: str | None, holder: Holder | None) -> str | None:
        """Why `holder` may not act for `by` here: another connection holds the seat."""
        if by is None or holder is None or holder.token == ON_BEHALF:
            return None
        held = self.room.holders.get(by)
        if held is not None and held != holder.token:
            return (
                f"{by}'s seat is played from another connection now "
                f"(join room {self.room.code} again to take it here)"
            )
        return None

    async def send(self, command: Command, holder: Holder | None) -> None:
        """Commit `command` by `holder` (None: the clock) and apply it; raises Refused
        with one sentence, nothing changed, if it cannot be made. A clock held while the
        store kept no change has its `Hold` committed first: every process reads the
        time it gives back from the store, before the change. Where another process
        committed first only events beside the game (`BESIDE_THE_GAME`: somebody came or
        went, a chat line), the command is sent once more after catching up: what its
        sender saw is still the game."""
        try:
            await self._send(command, holder)
        except ChangedMeanwhile as refused:
            if self.catch_up is None:
                raise
            await self.catch_up(self.room)
            if not self.only_beside_the_game(refused.version):
                raise
            await self._send(command, holder)

    def only_beside_the_game(self, version: int) -> bool:
        """Whether every event of the room after `version` is known here and beside the
        game (none is, where some are not known here: refused, to be safe)."""
        room = self.room
        after = [stamped for stamped in room.events if stamped.version > version]
        if room.version <= version or len(after) != room.version - version:
            return False
        return all(isinstance(stamped.event, BESIDE_THE_GAME) for stamped in after)

    async def _send(self, command: Command, holder: Holder | None) -> None:
        room = self.room
        by = holder.user if holder is not None else None
        refusal = self.seat_refusal(by, holder)
        if isinstance(command, Play) and command.kept and _seat_holder(holder) is holder:
            refusal = "a reply kept ready is played by the server only"
        if refusal is not None:
            raise Refused(refusal)
        async with self.lock:
            if self.live.problem is not None:
                raise Refused(self.live.problem)
            held = _held(room)
            if held is not None and not isinstance(command, Hold):
                await self._commit(Hold(held), None)
            await self._commit(command, holder)

    async def resume(self) -> None:
        """The store keeps changes again: the room's clock, held until now, runs on from
        where it was held (its `Hold` committed here, unless another process's change
        came first: the catch-up applies that one). Raises Refused."""
        async with self.lock:
            held = _held(self.room)
            if held is not None and self.live.problem is None:
                await self._commit(Hold(held), None)

    async def _commit(self, command: Command, holder: Holder | None) -> None:
        """Check `command` on a copy, commit it, and apply it here (under the lock)."""
        room = self.room
        by = holder.user if holder is not None else None
        began = self.live.now()
        try:  # at once, on a copy at the store's time now: no wait for a sure refusal
            apply(twin(room.session), room.terms.copy(), command, by, began)
        except RulesError as error:
            raise Refused(str(error)) from None
        before, copy, terms = twin(room.session), twin(room.session), room.terms.copy()
        version = room.version + 1
        kind, value = encode(command)

        def make(at: float) -> tuple[RoomSave, Change]:
            try:
                apply(copy, terms, command, by, at)
            except RulesError as error:
                raise Refused(str(error)) from None
            made = events_of(command, by, before, copy)
            events = tuple(Stamped(version + i, at, event) for i, event in enumerate(made))
            left = copy.node.time_left if isinstance(command, Play) else None
            kept = (left.seconds, left.periods) if left is not None else None
            when = datetime.fromtimestamp(at, UTC)
            save = replace(clock_at(room.save(copy), copy, at), events=events)
            last = events[-1].version
            return save, Change(last, kind, value, by, when, kept, events)

        try:
            events = await asyncio.wait_for(
                self.live.commit(room.code, version, make, _seat_holder(holder)),
                COMMIT_SECONDS,
            )
        except TimeoutError:
            self.live.late(began)  # its clocks are held from the moment it was asked
            raise Refused(
                self.live.problem
                or f"the database did not answer in {COMMIT_SECONDS:g} seconds; try again"
            ) from None
        except Conflict as conflict:
            self.conflict(room)
            if conflict.seat and by is not None:
                room.holders[by] = "elsewhere"
                raise Refused(f"{by}'s seat is played from another connection now") from None
            raise ChangedMeanwhile(version - 1) from None
        room.version = events[-1].version
        self.apply_here(command, by, events[0].at, events)

    async def note(self, presence: Callable[[], Sequence[Event] | None]) -> bool:
        """Commit the presence events `presence()` gives (called under the lock, at the
        room's version then: none to commit, nothing is; None: not known here yet, False
        is returned), as a change of their own by
        nobody; False if they could not be (the room changed first: it catches up, and
        the caller asks again; or the store is in trouble, or its clock held: who is
        connected is noted once it keeps changes again). Nothing else is touched."""
        room = self.room
        async with self.lock:
            if room.finished:
                return True  # its events are closed
            if self.live.problem is not None or _held(room) is not None:
                return False
            found = presence()
            if found is None:
                return False
            made = list(found)
            if not made:
                return True
            version = room.version + 1
            session = room.session

            def make(at: float) -> tuple[RoomSave, Change]:
                events = tuple(Stamped(version + i, at, event) for i, event in enumerate(made))
                when = datetime.fromtimestamp(at, UTC)
                save = replace(clock_at(room.save(), session, at), events=events)
                return save, Change(events[-1].version, PRESENCE, "", None, when, None, events)

            began = self.live.now()
            try:
                events = await asyncio.wait_for(
                    self.live.commit(room.code, version, make, None), COMMIT_SECONDS
                )
            except TimeoutError:
                self.live.late(began)
                return False
            except Conflict:
                self.conflict(room)
                return False
            except Refused:
                return False
            room.version = events[-1].version
            keep_events(room, events)
            return True

    def apply_here(
        self, command: Command, by: str | None, at: float, events: Sequence[Stamped] = ()
    ) -> bool:
        """Apply a command committed (here or elsewhere) to the live session, and give
        the room its `events`; False if it does not fit (the copy here went astray: the
        caller reads the room again)."""
        try:
            apply(self.room.session, self.room.terms, command, by, at)
        except RulesError as error:
            log.warning("room %s: %s does not apply here (%s)", self.room.code, command, error)
            return False
        self.room.commands(command, by, at)
        keep_events(self.room, events)
        self.applied(self.room, command, by)
        return True


def keep_events(room: Room, events: Sequence[Stamped]) -> None:
    """Add `events` to those the room knows here, and tell them (only the new ones, so
    that each is told once; after a gap, the room knows those from here on)."""
    fresh = [stamped for stamped in events if stamped.version > room.version_known]
    if not fresh:
        return
    if room.events and fresh[0].version != room.events[-1].version + 1:
        room.events.clear()
    for stamped in fresh:
        if room.attendance is None or stamped.version <= room.attendance_version:
            continue
        if stamped.version != room.attendance_version + 1:
            room.attendance = None  # a gap: folded again from the store when needed
            break
        room.attendance = attend(room.attendance, stamped.event)
        room.attendance_version = stamped.version
    room.events.extend(fresh)
    del room.events[:-EVENTS_KEPT]
    room.version_known = fresh[-1].version
    room.told(fresh)
    if room.news is not None:
        room.news(room, fresh)


def _seat_holder(holder: Holder | None) -> Holder | None:
    """The holder the store checks the seat against (none for a reply kept ready)."""
    return None if holder is not None and holder.token == ON_BEHALF else holder


def _held(room: Room) -> float | None:
    """Since when the room's running clock is held, if it is."""
    clock = room.session.clock
    return clock.held if clock is not None else None


def clock_at(save: RoomSave, session: Session, at: float) -> RoomSave:
    """`save`, taken from `session` after a change committed at `at`, with the running
    side's time as it stands at `at`: a store that keeps when the running clock started
    keeps `at` (a chat line, an offer), and a process that reads the room whole then
    charges that side nothing twice and gives it nothing back."""
    clock = session.clock
    if clock is None or clock.running is None or save.clock_main is None:
        return save
    sides = [clock.left(side, at) for side in (0, 1)]
    main = tuple(side.main for side in sides)
    return replace(save, clock_main=main, clock_periods=tuple(side.periods for side in sides))
