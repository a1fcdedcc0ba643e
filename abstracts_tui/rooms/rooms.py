"""Every room of a server: one model, whatever store carries it.

Each process keeps every unfinished room in memory (the lobby lists them and the screens
draw them without asking the store); the live store (`live.LiveRooms`: SQLite in one
process, or PostgreSQL shared by several) is the truth. A room changes only by a command
sent through its gateway (`gateway.Gateway`): committed first, with its events, then
applied here and shown. A change the live store reports (made by another process) is
read with its events and applied to the room here by the same function (`apply.apply`),
under the same lock: each room has its events here in order, each once (`Room.events`).

A room with a clock keeps its time here: as on lichess, no clock runs until each side has
made a move, then the side to move's runs, whoever is connected or not, and a timer on
the event loop sends the clock's `Flag` command when it runs out, even if nobody presses
a key. A first move not made within `clock.first_move_seconds` of the moment it was due
(both people in, komi and sides chosen; the other's first move) aborts the game,
unrated, by the same timer and command (a first move due waits while the store keeps no
change, and is due afresh after). Every clock reads the store's time (`LiveRooms.now`).
While the store keeps no change (`LiveRooms.held_since`: lost, locked, full) every running
clock is held and no flag is sent; once it keeps them again the first change of each room
is its `Hold`, which runs the clock on from where it was held, as every process reads it.

Who is in each room (`presence.Presences`: the screens showing it, here and in other
processes) is written to its events as a change of its own, by nobody, whenever it
differs from what they say (`attending` says how often), and the last version each
person's screen showed of each room is kept in the store (`remember_seen`, `seen_by`).

Reading a room never takes a seat: `take_seat` does, when a player enters their room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

from ..clock import SideTime
from ..commands import Abort, Command, CommandError, Flag, Join, Rematch, Say, decode
from ..game_setup import Setup
from ..printable import printable
from ..records import Record
from ..rules import RulesError
from ..session import Change, Changed, Phase, Session
from ..subscribers import Subscribers, Subscription
from ..time_odds import has_odds
from .apply import adopt, apply, twin
from .attending import Attending, Noted
from .bounds import Coalesced, RoomRates
from .chat import ChatLine, check_line
from .conditional import Conditions
from .derive import events_of, made_event
from .events import Event, Stamped
from .fold import Attendance, attend, presence
from .gateway import PRESENCE, Gateway, keep_events
from .holder import Holder, new_holder
from .kept import RECENT_CHANGES, StoredRoom
from .live import Change as StoredChange
from .live import LiveRooms, Refused
from .pairing import FIRST
from .play import check, rematch_setup, restore_offers
from .presence import Presences
from .room import Room, RoomError, ending
from .rows import BAD_ROW, CODE_LENGTH, CODE_LETTERS, OPEN_SEAT, check_record, why
from .rows import room_session as session_of_record
from .seating import RatingsReader, checked, joining, kept_pairing, rematch_colour, seated

log = logging.getLogger(__name__)

WAITING_ROOMS = 10
"""Rooms one person may have waiting for a player at once (made, nobody joined yet): a
stranger who makes rooms in a loop is refused at this many, not kept in every process's
memory and the store."""
FORGET_SECONDS = 60.0
"""How often finished rooms that nobody's screen shows are let go of, once they were so
at the look before: the store has them, and `get` reads one again when it is asked for
(a stranger's rooms made and aborted in a loop no longer stay in memory)."""
FLAG_RETRY_SECONDS = 1.0
"""How soon a flag the store did not take is sent again."""
SEEN_KEPT = 10_000
"""How many (person, room) pairs a process remembers the last version a screen of
theirs showed for, besides the store (`Rooms.seen`): past that, the oldest are
forgotten here (the store keeps them all)."""


class Rooms:
    """Every unfinished room in memory, and every room in the live store."""

    def __init__(
        self,
        live: LiveRooms,
        presences: Presences | None = None,
        ratings: RatingsReader | None = None,
    ) -> None:
        """The rooms of `live`, with who is connected to each (`presences`: the live
        store's too, on a server of several processes) and the store's `ratings` (for
        the challenges' rating ranges; None: everybody counts as unrated); raises
        StoreError if they cannot be read."""
        self.live = live
        self.ratings = ratings
        self.rated = live.rated
        self.web_url: str | None = None
        """The address of the server's web page (`serve --public-url`), which each room's
        link (`room_link`) starts with; None: rooms have no links shown."""
        self.presences = presences if presences is not None else Presences()
        """Who is connected to each room's game (the screens showing it follow them)."""
        self.attending = Attending(self._note_presence, self.spawn)
        """Writes who is connected to each room to its events, at most once a window."""
        self.presences.moved = self._presence_moved
        self.listing: Subscribers[[]] = Subscribers()
        """Told when the lobby's lists change: a room made, joined or ended (here or by
        another process), at most every `bounds.LISTING_SECONDS`."""
        self.telling = Coalesced(self._told_listing)
        self.rates = RoomRates()
        """How fast each name makes rooms (`bounds.ROOMS_PER_MINUTE`)."""
        self.discarded: set[str] = set()
        """The rooms ended before anybody joined them, deleted from the store (kept in
        memory as finished until they are let go of, as every finished room is)."""
        self.news: Subscribers[[Room, list[Stamped]]] = Subscribers()
        """Told of every room's new events, made here or by another process (for the
        players' news in their lobbies: your move, a game's end, its rating change)."""
        self.rooms: dict[str, Room] = {}
        self.gateways: dict[str, Gateway] = {}
        self.conditions = Conditions(self.send)
        """The replies kept ready in days-per-move rooms (`conditions.replies`: the store's)."""
        self.codes = live.codes()
        """Every code in use, finished rooms' too: a code names one game for good."""
        self.tasks: set[asyncio.Task[object]] = set()
        self.unshown: set[str] = set()
        """The finished rooms that no screen showed at the last sweep."""
        self.sweeper: asyncio.TimerHandle | None = None
        self.armers: dict[str, Callable[[Changed | None], None]] = {}
        """Each room's listener that sets its flag timer again (see `run_clock`)..."""
        self.arming: dict[str, Subscription] = {}
        """...and its tie to the room's session."""
        self.seen: dict[tuple[str, str], int] = {}
        """The last version a screen of each person showed of each room here, once it
        stopped showing it (at most `SEEN_KEPT`, the latest), as the store is told it
        (`LiveRooms.keep_seen`): what a screen coming back missed."""
        for stored in live.unfinished():
            room = self._load(stored)
            if room is None:
                continue
            self._add(room)
            if room.finished:  # it ended, but the end was not saved: save it (and rate it)
                save = room.save()
                finish = ending(room.session, stored.updated)
                room.version = live.save(replace(save, finish=finish))

    @property
    def location(self) -> str:
        return self.live.location

    # -- starting and stopping --------------------------------------------------------------

    async def start(self) -> None:
        """Connect the live store; raises StoreError if it cannot be used."""
        await self.live.start(self)
        for room in list(self.rooms.values()):
            await self._read_recent(room)
        for room in self.rooms.values():  # their flag timers need the loop
            if room.joiner is not None:
                self.run_clock(room)
        self.sweeper = asyncio.get_running_loop().call_later(FORGET_SECONDS, self._sweep_often)

    async def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        self.telling.cancel()
        self.attending.cancel()
        self.presences.moved = None
        for room in self.rooms.values():
            if room.flag_timer is not None:
                room.flag_timer.cancel()
        await self.live.close()

    async def flush(self) -> None:
        """Wait until every change is kept (before the server stops, before ratings are read)."""
        await self.live.flush()

    def _sweep_often(self) -> None:
        self.sweep()
        self.sweeper = asyncio.get_running_loop().call_later(FORGET_SECONDS, self._sweep_often)

    def sweep(self) -> None:
        """Let go of the finished rooms that no screen has shown since the last sweep."""
        unshown = {
            code
            for code, room in self.rooms.items()
            if room.finished and not shown(room) and not self.gateways[code].lock.locked()
        }
        for code in unshown & self.unshown:
            if self.live.forget(code):
                del self.rooms[code]
                del self.gateways[code]
                self.discarded.discard(code)
                self.armers.pop(code, None)
                tie = self.arming.pop(code, None)
                if tie is not None:
                    tie.close()
                unshown.discard(code)
        self.unshown = unshown

    # -- rooms from the store -----------------------------------------------------------------

    def _load(self, stored: StoredRoom) -> Room | None:
        """The room of a row of the store, or None (and a log line) if it cannot be used."""
        try:
            return self._room(stored)
        except BAD_ROW as error:
            reason = why(error)
        except Exception as error:  # a fault of the program's: the log has the details
            log.exception("room %s: reading it failed", stored.code)
            reason = f"reading it failed ({type(error).__name__})"
        log.warning("room %s in %s not loaded: %s", stored.code, self.location, printable(reason))
        return None

    def _room(self, stored: StoredRoom) -> Room:
        kept = stored.setup
        setup = Setup(
            kept.game, kept.size, kept.variant, kept.komi, kept.creator, OPEN_SEAT, clock=kept.clock
        )
        session: Session
        if stored.sgf is None:  # komi and sides are being chosen
            session = Session.start(replace(setup, second=stored.joiner or OPEN_SEAT))
            if stored.phase == "side" and session.phase is Phase.KOMI:
                session.set_komi(stored.komi_chosen or 0.0)
        else:
            record = Record.from_sgf(stored.sgf)
            check_record(record, setup, f"the record of room {stored.code}")
            session = session_of_record(record, setup.first, stored.joiner)
        session.now = self.live.now
        session.first_moves_free = True
        room = Room(
            stored.code, setup, session, rated=kept.rated, version=stored.version, open=kept.open
        )
        room.colour, room.rating_range = kept_pairing(kept.colour, kept.rating_range)
        room.terms.keeper = self.live
        if stored.joiner is not None:
            _restore_clock(session, stored)
        return room

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.codes.add(room.code)
        self.gateways[room.code] = Gateway(
            room, self.live, self._applied, self._conflict, self._caught_up
        )
        room.news = self._tell_news
        self._follow_listing(room)
        if room.joiner is not None:
            self.run_clock(room)
        self._tell_listing()

    def _tell_listing(self) -> None:
        self.telling.ask()

    def _told_listing(self) -> None:
        self.listing()

    def _tell_news(self, room: Room, events: list[Stamped]) -> None:
        self.news(room, events)

    def _follow_listing(self, room: Room) -> None:
        """Tell `listing` of the room's join and end, made here or by another process."""

        def changed(change: Changed) -> None:
            joined = change.change is Change.PHASE and change.by is None
            if joined or change.change in (Change.END, Change.FLAG) or room.finished:
                self._tell_listing()

        room.session.listeners.subscribe(changed)  # the room's own: it goes with the room

    # -- the clock ----------------------------------------------------------------------------

    def run_clock(self, room: Room) -> None:
        """Let the room's clock run (both people are in), with a timer for its flag."""
        session = room.session
        if session.clock is None:
            return
        session.resume_clock()
        arm = self.armers.get(room.code)
        tie = self.arming.get(room.code)
        if arm is None or tie is None or tie.closed:
            arm = self.armers[room.code] = self._armer(room)
            self.arming[room.code] = session.listeners.subscribe(arm)
        arm(None)

    def _armer(self, room: Room) -> Callable[[Changed | None], None]:
        """What sets the room's flag timer again after each change (none while its clock
        is held: a process that cannot keep changes decides no flag)."""
        session = room.session

        def arm(changed: Changed | None = None) -> None:
            if room.flag_timer is not None:
                room.flag_timer.cancel()
                room.flag_timer = None
            clock = session.clock
            if clock is None or clock.held is not None:
                return
            now = session.now()
            left = clock.seconds_to_flag(now)
            if left is None:
                left = session.first_move_left(now)
            if left is None or room.finished:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop yet (the server starting): `start` arms it
                return
            # A flag due but not taken (a store that refused it) is sent again later.
            delay = left + 0.02 if left > 0 else FLAG_RETRY_SECONDS
            room.flag_timer = loop.call_later(delay, flag)

        def flag() -> None:
            room.flag_timer = None
            self.spawn(send_flag())

        async def send_flag() -> None:
            try:
                await self.send(room, Flag(), None)
            except Refused:
                arm(None)  # the store refused it, or another process flagged first: catch-up

        return arm

    def _hold_clock(self, room: Room, since: float) -> None:
        """The store keeps no change from `since`: the room's running clock is held."""
        clock = room.session.clock
        if clock is None or room.finished:
            return
        if clock.running is not None:
            clock.hold(since)
        elif room.session.first_move_left(since) is not None:
            clock.held = since  # the first move due waits too: due afresh after (`_hold`)
        else:
            return
        arm = self.armers.get(room.code)
        if arm is not None:
            arm(None)  # its flag timer stops

    async def _run_on(self, room: Room) -> None:
        """The store keeps changes again: the room's held clock runs on (its `Hold`
        committed, or another process's change read instead)."""
        gateway = self.gateways.get(room.code)
        if gateway is None:
            return
        with contextlib.suppress(Refused):  # lost again, or changed first by another process
            await gateway.resume()

    def spawn(self, work: Coroutine[Any, Any, object]) -> None:
        """Run a coroutine on the loop, kept until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- commands ------------------------------------------------------------------------------

    async def send(self, room: Room, command: Command, holder: Holder | None) -> None:
        """Commit `command` in `room` and apply it; raises Refused (one sentence). A room
        it ends before anybody joined (its creator called it off) is deleted from the
        store: an empty room made and called off in a loop is not kept for ever."""
        if room.code in self.discarded:
            raise Refused(f"room {room.code} was called off before anybody joined it")
        if isinstance(command, Join) and holder is not None:  # colours drawn, range checked
            command = await joining(room, holder.user, self.ratings)
        await self.gateways[room.code].send(command, holder)
        await self.conditions.after(room, command, holder)  # a reply kept ready, played
        if room.abandoned and room.code not in self.discarded:
            self.discarded.add(room.code)
            self.spawn(self._discard(room.code))

    async def _discard(self, code: str) -> None:
        try:
            await self.live.discard(code)
        except Refused as refused:
            log.warning(
                "room %s, called off before anybody joined it, stays in %s: %s",
                code,
                self.location,
                refused,
            )

    def sender(self, room: Room, holder: Holder) -> Callable[[Command], Awaitable[None]]:
        """What a screen of `holder`'s sends its commands in `room` with."""
        return lambda command: self.send(room, command, holder)

    def _applied(self, room: Room, command: Command, by: str | None) -> None:
        """A command applied to a room's session: what it does to the room itself."""
        arm = self.armers.get(room.code)
        if arm is not None:  # a clock held, and run on by this change (`Hold`, or any)
            arm(None)
        if isinstance(command, Say) and by is not None:
            room.chat.add(ChatLine(by, command.text, watcher=by not in room.players))
        if isinstance(command, Join) and by is not None:
            self.run_clock(room)
            room.listeners(room)

    def _conflict(self, room: Room) -> None:
        self.spawn(self.catch_up(room.code))

    async def _caught_up(self, room: Room) -> None:
        await self.catch_up(room.code)

    # -- rooms ----------------------------------------------------------------------------------

    # -- events and what each person saw --------------------------------------------------------

    async def events_since(self, room: Room, after: int) -> list[Stamped]:
        """`room`'s events after version `after`, in order: those the room has here, and
        before them those read from the store. Raises Refused."""
        here = room.events
        if here and here[0].version <= after + 1:
            return [stamped for stamped in here if stamped.version > after]
        first = here[0].version if here else room.version + 1
        found: list[Stamped] = []
        while after < first - 1:
            read = await self.live.events(room.code, after)
            if not read:
                break
            found.extend(stamped for stamped in read if stamped.version < first)
            after = read[-1].version
        return found + [stamped for stamped in room.events if stamped.version >= first]

    def remember_seen(self, name: str, code: str, version: int) -> None:
        """A screen of `name`'s showed room `code` up to `version`, and shows it no more:
        remembered here at once, and kept in the store (for a restart, and for the
        other processes of a shared one)."""
        key = (name, code)
        before = self.seen.pop(key, None)
        self.seen[key] = max(version, before or 0)
        while len(self.seen) > SEEN_KEPT:
            del self.seen[next(iter(self.seen))]
        if before is None or version > before:  # else kept already: no write
            self.spawn(self._keep_seen(name, code, version))

    async def _keep_seen(self, name: str, code: str, version: int) -> None:
        try:
            await self.live.keep_seen(name, code, version)
        except Refused as refused:
            log.warning("what %s saw of room %s is not kept: %s", name, code, refused)

    async def seen_by(self, name: str, code: str) -> int | None:
        """The last version of room `code` a screen of `name`'s showed, on any process,
        before or after a restart (None: none did). A person's screens only see a room
        further: the later of the store's and this process's is the one."""
        here = self.seen.get((name, code))
        try:
            kept = await self.live.seen(name, code)
        except Refused:
            return here
        if kept is None or here is None:
            return kept if here is None else here
        return max(kept, here)

    # -- who is in each room --------------------------------------------------------------------

    def _presence_moved(self, code: str) -> None:
        """Who is connected to room `code` changed: written at once if a player came or
        went, else with the watchers' window (`attending`)."""
        room = self.rooms.get(code)
        attendance = room.attendance if room is not None else None
        players = set(room.players) if room is not None else set()
        urgent = attendance is None or attendance.here != players & self.presences.people(code)
        self.attending.ask(code, urgent=urgent)

    async def _note_presence(self, code: str) -> Noted:
        """Write who is connected to room `code` now to its events, if they say otherwise
        (`attending`: called at most once a window per room)."""
        room = self.rooms.get(code)
        gateway = self.gateways.get(code)
        if room is None or gateway is None or room.finished:
            return Noted.NOTHING
        try:
            if room.attendance is None:
                await self._read_attendance(room)
            connected = self.presences.here(code) | await self.live.elsewhere(code)
        except Refused:
            return Noted.LATER
        version = room.version

        def found() -> list[Event] | None:
            attendance = room.attendance
            if attendance is None or room.attendance_version != room.version:
                room.attendance = None  # read again first: it changed meanwhile
                return None
            return list(presence(attendance, room.players, connected))

        if not await gateway.note(found):
            return Noted.NOTHING if room.finished else Noted.LATER
        return Noted.WROTE if room.version != version else Noted.NOTHING

    async def _read_attendance(self, room: Room) -> None:
        """Who is in `room` as all its events say (read from the store if need be)."""
        events = await self.events_since(room, 0)
        attendance = Attendance()
        last = 0
        for stamped in events:
            if stamped.version != last + 1:
                return  # not all there: read again later
            attendance = attend(attendance, stamped.event)
            last = stamped.version
        if room.attendance is None and last == room.version:
            room.attendance, room.attendance_version = attendance, last

    # -- rooms ----------------------------------------------------------------------------------

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.codes:
                return code

    async def say(self, room: Room, text: str, holder: Holder) -> None:
        """`holder`'s user says `text` in `room`'s chat (a player or a watcher); raises
        Refused (or ChatRefused: too long, empty, too fast) with one sentence."""
        line = check_line(text)
        room.rates.take(holder.user)
        await self.send(room, Say(line), holder)

    async def rematch(self, room: Room, holder: Holder) -> Room:
        """The rematch of `room`, accepted by `holder` (one of its players): a new room of
        the same game with the colours reversed, both players in it, named in the old one
        (whose screens go there). Raises RoomError."""
        if room.joiner is None or holder.user not in room.players:
            raise RoomError("only the players of a game play its rematch")
        problem = check(room.session, room.terms, Rematch(Rematch.ACCEPT), holder.user)
        if problem is not None:  # before a room is made for nothing
            raise RoomError(problem)
        self.rates.check(holder.user)
        setup = rematch_setup(room.setup, room.joiner)
        # Each seat is the accepter's, or the other player's until their screen takes it.
        first, second = (
            holder if holder.user == name else new_holder(name)
            for name in (setup.first, setup.second)
        )
        colour = rematch_colour(room)
        new = await self.create(setup, first, rated=room.rated, rematch=True, colour=colour)
        self.rates.take(holder.user)
        await self.join(new, second)
        try:
            await self.send(room, Rematch(Rematch.ACCEPT, new.code), holder)
        except Refused as refused:
            raise RoomError(str(refused)) from None
        return new

    async def create(
        self,
        setup: Setup,
        holder: Holder,
        *,
        rated: bool | None = None,
        open: bool = False,
        rematch: bool = False,
        colour: str = FIRST,
        rating_range: str = "",
    ) -> Room:
        """A new room for `setup`, with `holder`'s user as the first person and a seat
        open; rated as the server's rooms are, unless `rated` says; an open challenge
        (listed in every lobby) if `open`; a rematch's (joined at once, so not counted
        against `WAITING_ROOMS`) if `rematch`; the creator playing `colour` (`first`,
        `second`, `random`), accepted only by ratings in `rating_range` (`±200`,
        `1400-1800`; "": any). Raises RoomError."""
        creator = holder.user
        waiting = self.waiting_rooms(creator)
        if waiting >= WAITING_ROOMS and not rematch:
            raise RoomError(
                f"you have {waiting} rooms waiting for a player already: abort one of them "
                "(enter it, then abort) before you make another"
            )
        if not rematch:  # counted against whoever accepted it (`rematch`)
            self.rates.check(creator)
        setup = replace(setup, first=creator, second=OPEN_SEAT, first_level=None, second_level=None)
        rated = (self.rated if rated is None else rated) and not has_odds(setup.clock)
        colour, rating_range = checked(setup, colour, rating_range)
        for _ in range(20):
            code = self.new_code()
            session = Session.start(seated(setup, creator, colour))
            session.now = self.live.now
            session.first_moves_free = True
            room = Room(code, setup, session, rated=rated, version=1, open=open)
            room.colour, room.rating_range = colour, rating_range
            room.terms.keeper = self.live
            # To the microsecond, as the stores keep times: read back, it is the same.
            first = Stamped(1, round(self.live.now(), 6), made_event(room))
            try:
                kept = await self.live.create(replace(room.save(), events=(first,)), holder)
            except Refused as refused:
                raise RoomError(str(refused)) from None
            self.codes.add(code)
            if kept:
                room.attendance = Attendance()  # nobody in it yet: its screen says so
                keep_events(room, [first])
                if not rematch:
                    self.rates.take(creator)
                room.holders[creator] = holder.token
                self._add(room)
                return room
        raise RoomError("no free room code was found; try again")

    def waiting_rooms(self, name: str) -> int:
        """How many rooms `name` made that wait for a player (unfinished, nobody joined)."""
        return sum(
            1
            for room in self.rooms.values()
            if room.setup.first == name and room.joiner is None and not room.finished
        )

    def known(self, code: str) -> Room | None:
        """The room `code` if it is in memory (never waits)."""
        return self.rooms.get(code.strip().lower())

    async def get(self, code: str) -> Room | None:
        """The room `code`: an unfinished one, or one read from the store (a finished one,
        the archive, or one another process just made). Never takes a seat."""
        code = code.strip().lower()
        room = self.rooms.get(code)
        if room is not None:
            return room
        try:
            found = await self.live.room(code)
        except Refused as refused:
            log.warning("room %s cannot be read from %s: %s", code, self.location, refused)
            return None
        if found is None:
            return None
        loaded = self._load(found)
        if loaded is not None:
            await self._read_recent(loaded)
        room = self.rooms.get(code)  # read meanwhile by a catch-up
        if room is None and loaded is not None:
            room = loaded
            self._add(room)
            await self._read_seats(room)
        elif room is not None and room.version < found.version:
            await self.catch_up(code, found.version)  # that reading was the earlier
        return room

    async def _read_recent(self, room: Room) -> None:
        """The offers waiting in `room`, read whole from the store, and the chat lines
        said lately: its record keeps neither, its last changes do (`RECENT_CHANGES` of
        them, on a store that keeps changes). Nothing changes if the room changed
        meanwhile (each change applied told its offers and said its lines)."""
        version = room.version
        try:
            changes = await self.live.changes(room.code, max(0, version - RECENT_CHANGES))
        except Refused:
            return  # the store is lost: the offers are read with the room again
        if room.version != version:
            return
        commands: list[tuple[Command, str]] = []
        for change in changes:
            if change.version > version:
                break
            with contextlib.suppress(CommandError):
                commands.append((decode(change.kind, change.value), change.by or ""))
        restore_offers(room.session, room.terms, commands)
        if not room.chat.lines:
            for command, by in commands:
                if isinstance(command, Say) and by:
                    room.chat.add(ChatLine(by, command.text, watcher=by not in room.players))

    async def _read_seats(self, room: Room) -> None:
        with contextlib.suppress(Refused):  # read again when the store is back
            room.holders.update((await self.live.seats([room.code])).get(room.code, {}))

    async def join(self, room: Room, holder: Holder) -> None:
        """`holder`'s user takes the open seat (or their own seat back); raises RoomError
        if it is taken by somebody else or the store refuses it."""
        name = holder.user
        if name in room.players:
            await self.take_seat(room, holder)
            return
        if room.joiner is not None:
            raise RoomError(f"room {room.code} is full: {room.creator} and {room.joiner} play")
        try:
            await self.send(room, Join(), holder)
        except Refused as refused:
            raise RoomError(str(refused)) from None
        room.holders[name] = holder.token

    async def take_seat(self, room: Room, holder: Holder) -> None:
        """The connection `holder` plays its user's seat from now on (if the store can be
        reached: else the seat stays where it was)."""
        if holder.user not in room.players or room.finished:
            return
        if room.holders.get(holder.user) == holder.token:
            return
        try:
            await self.live.take_seat(room.code, holder.user, holder)
        except Refused:
            return
        room.holders[holder.user] = holder.token

    def unfinished(self) -> list[Room]:
        """The games under way (the lobby lists them)."""
        return [room for room in self.rooms.values() if not room.finished]

    def of_player(self, name: str) -> list[Room]:
        """The unfinished games `name` plays in, to take the seat back, those where it
        is `name`'s move first."""
        mine = [room for room in self.unfinished() if name in room.players]
        return sorted(mine, key=lambda room: not room.waits_for(name))

    def listed(self, name: str) -> list[Room]:
        """The unfinished rooms `name`'s lobby lists: their own games, and the rooms open
        to anyone (an open challenge, then its game). A room made to be joined by its
        code is listed to its players only: the others reach it by its code, as a
        private game of lichess's is not in its lobby or on its TV but is seen by its
        link."""
        return [room for room in self.unfinished() if room.open or name in room.players]

    def to_watch(self, name: str) -> list[Room]:
        """Other people's games open to anyone, under way (an open challenge nobody has
        accepted is accepted, not watched)."""
        return [
            room
            for room in self.listed(name)
            if name not in room.players and room.joiner is not None
        ]

    def challenges(self, name: str) -> list[Room]:
        """Other people's open challenges nobody has accepted yet (in the order this
        process learnt of them)."""
        return [
            room
            for room in self.listed(name)
            if room.open and room.joiner is None and name not in room.players
        ]

    # -- what the live store tells (`live.Told`) ---------------------------------------------

    def changed(self, code: str, version: int | None) -> None:
        room = self.rooms.get(code)
        if room is not None and version is not None and version <= room.version:
            return  # its own change, or one applied already
        self.spawn(self.catch_up(code, version))

    def seat(self, code: str, name: str, holder: str) -> None:
        room = self.rooms.get(code)
        if room is not None:
            room.holders[name] = holder

    def lost(self) -> None:
        held = self.live.held_since
        for room in self.rooms.values():
            clock = room.session.clock
            if held is not None:
                self._hold_clock(room, held)
            elif clock is not None and clock.held is not None:
                self.spawn(self._run_on(room))
            room.session.saving_listeners()

    def held(self) -> list[tuple[str, str, str]]:
        return [
            (code, name, holder)
            for code, room in self.rooms.items()
            for name, holder in room.holders.items()
        ]

    def versions(self) -> dict[str, int]:
        return {room.code: room.version for room in self.unfinished()}

    async def catch_up(self, code: str, version: int | None = None) -> None:
        """Bring room `code` up to `version` (all it has) from the store's changes; a room
        new here is read whole."""
        self.codes.add(code)
        room = self.rooms.get(code)
        try:
            if room is None:
                found = await self.live.room(code)
                if found is None or found.finished is not None:
                    return
                loaded = self._load(found) if code not in self.rooms else None
                if loaded is not None:
                    await self._read_recent(loaded)
                if loaded is not None and code not in self.rooms:
                    self._add(loaded)
                    await self._read_seats(loaded)
                elif code in self.rooms:
                    # Read meanwhile by another reading, maybe at an earlier version (the
                    # change that sent this one came after that reading): its copy is
                    # brought up to this one's.
                    await self.catch_up(code, found.version)
                return
            gateway = self.gateways[code]
            async with gateway.lock:
                if version is not None and version <= room.version:
                    return
                joined = False
                changes = await self.live.changes(code, room.version)
                last = changes[-1].version if changes else room.version
                events = await self._events_until(code, room.version, last)
                for change in changes:
                    mine = [e for e in events if room.version < e.version <= change.version]
                    if (mine and mine[0].version != room.version + 1) or not self._apply(
                        gateway, change, mine
                    ):
                        await self._reload(room)
                        return
                    joined = joined or change.kind == "join"
                if joined:  # the joiner's seat may have been told before the room was here
                    await self._read_seats(room)
                if not changes and not room.finished and await self.live.room(code) is None:
                    self._gone(gateway)
        except Refused:
            pass  # the store is lost: everything is read again when it is back

    def _gone(self, gateway: Gateway) -> None:
        """The gateway's room is no longer in the store: another process deleted it,
        called off before anybody joined it, before its end was read here. It ends here
        too, as its creator's call-off (only such a room is ever deleted)."""
        room = gateway.room
        self.discarded.add(room.code)
        if room.joiner is None:
            at = self.live.now()
            before, after = twin(room.session), twin(room.session)
            events: list[Stamped] = []
            with contextlib.suppress(RulesError):  # told as nothing, as before events
                apply(after, room.terms.copy(), Abort(), room.creator, at)
                found = events_of(Abort(), room.creator, before, after)
                events = [Stamped(room.version + 1 + i, at, e) for i, e in enumerate(found)]
            gateway.apply_here(Abort(), room.creator, at, events)

    async def _events_until(self, code: str, after: int, last: int) -> list[Stamped]:
        """Room `code`'s events after version `after` up to `last`, read from the store
        (`EVENTS_READ` at a time)."""
        found: list[Stamped] = []
        while after < last:
            read = await self.live.events(code, after)
            if not read:
                break
            found.extend(stamped for stamped in read if stamped.version <= last)
            after = read[-1].version
        return found

    def _apply(self, gateway: Gateway, change: StoredChange, events: list[Stamped]) -> bool:
        """Apply a change read from the store, with its events; False if it does not fit
        the room here."""
        room = gateway.room
        if change.kind == PRESENCE:  # who is in the room: events only, no command
            keep_events(room, events)
            room.version = change.version
            if room.code in self.presences.followers:
                self._presence_moved(room.code)  # it may say otherwise than who is here
            return True
        try:
            command = decode(change.kind, change.value)
        except CommandError as error:
            log.warning("room %s: change %d: %s", room.code, change.version, error)
            return False
        by = change.by
        if isinstance(command, Join) and by is None:
            by = change.value  # an earlier version's join named the joiner in its value
        at = change.at.timestamp() if change.at is not None else self.live.now()
        if not gateway.apply_here(command, by, at, events):
            return False
        room.version = change.version
        return True

    async def _reload(self, room: Room) -> None:
        """Read the room whole again (its copy here went astray)."""
        found = await self.live.room(room.code)
        fresh = self._load(found) if found is not None else None
        if fresh is None:
            return
        await self._read_recent(fresh)
        events = await self._events_until(room.code, room.version, fresh.version)
        room.version = fresh.version
        adopt(room.session, fresh.session)  # silently: the events say what happened
        room.terms.take(fresh.terms)
        # Drawn again (no news: a redraw), so that every copy shown is copied again
        # before the events come to it.
        room.session.notify(Changed(Change.STEP))
        keep_events(room, events)
        if room.joiner is not None:
            self.run_clock(room)
        self._tell_listing()  # joined or ended meanwhile, maybe


def _restore_clock(session: Session, stored: StoredRoom) -> None:
    """The clock as the store has it: each side's time when it last stopped, and the
    side to move's running since the room's last change (a store that keeps them)."""
    clock = session.clock
    if clock is None or session.phase is not Phase.PLAY or session.over:
        return
    if stored.clock_main is not None and stored.clock_periods is not None:
        clock.sides = [
            SideTime(main, periods)
            for main, periods in zip(stored.clock_main, stored.clock_periods, strict=True)
        ]
    if stored.turn_started is None:
        return
    if session.each_moved():
        clock.start(session.side_to_move(), stored.turn_started.timestamp())
    else:  # a first move is due since the room's last change (`Session.first_move_left`)
        session.first_move_due = session.move_number()
        clock.started = stored.turn_started.timestamp()


def shown(room: Room) -> bool:
    """Whether a screen shows `room`, or waits on it (any screen, full or by lines, follows
    its chat; a full screen's copy also takes its commands)."""
    return bool(room.commands or room.chat.listeners or room.listeners or room.told)
