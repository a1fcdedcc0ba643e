"""Rooms shared by every server process pointed at one PostgreSQL database.

Each process keeps a copy of every unfinished room in memory, as a lone server does, so
that its lobby lists them and its screens draw them without asking the database. The
database is the truth:

- a change (a join, komi, a side, a move) made on a screen here is committed first, at
  the room's next version, and only then shown: if the room has another version by then,
  or the seat is held by another connection, or the database cannot be reached, the
  change is refused with a sentence and nothing changes (`Refused`, which the play
  screen shows as `Not played: ...`);
- the commit announces `CODE VERSION`; every process LISTENs, reads the changes after
  the version it has from `room_changes`, and applies them to its copy, whose screens
  redraw as for a move made there;
- a seat is held by the last connection that took it (entering the room takes it), on
  whatever process; a move from another connection of the same person is refused;
- a room's clock is the database's: a change that charges it is applied at the moment
  the database gives in the change's own transaction, here and in every process that
  reads it, and the time left is stored with the room; between changes the faces are
  drawn from this process's monotonic clock plus its offset to the database's; the
  first process whose timer finds the time gone records the end on time (`flag`), once;
- who is connected to a room's game is known across processes: each process keeps a row
  per room and person it shows the game to (`presence`) and announces a change; the
  others read the rows of the processes alive (a process killed is gone with its lock),
  at once when told and every second;
- while the database cannot be reached the players are told (the panel of every room's
  screen), changes are refused, and the process reconnects by itself every second, then
  reads what it missed and puts back what is its own: its sessions, the seats its
  connections hold and who it shows each room to; and it reads again the others' (the
  seats, who is connected), so that the screens show what is true again.

Every call to the database from the event loop is short (one transaction of a few
statements on the loop's own connection), so the loop waits for it rather than giving
each screen a state "sent, not yet committed"; a database that stops answering is given
up after a few seconds (see `store.postgres.CONNECT`), and from then on changes are
refused at once until it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ..clock import SideTime
from ..game_setup import Setup
from ..records import Record
from ..rules import Options, RulesError
from ..session import Change as SessionChange
from ..session import Changed, Phase, Session
from ..store import RoomSave, StoredRoom, StoreError
from ..store.postgres import (
    PRESENCE_CHANNEL,
    ROOMS_CHANNEL,
    SEATS_CHANNEL,
    AsyncDb,
    Change,
    Db,
    PostgresStore,
    RoomConflict,
    changes,
    close_session,
    commit_change,
    connect,
    connect_async,
    create_room,
    database_now,
    hold_process,
    open_session,
    presence_elsewhere,
    read_presence_elsewhere,
    restore_presence,
    restore_seats,
    restore_sessions,
    room_row,
    seats,
    set_presence,
    take_seat,
    versions,
)
from .files import printable
from .holder import HOLDER, Holder
from .presence import PRESENCES, Presences
from .room_files import BAD_ROOM, OPEN_SEAT, check_record, room_session, why
from .rooms import Room, RoomError, Rooms, room_save

log = logging.getLogger(__name__)
T = TypeVar("T")

RETRY_SECONDS = 1.0
"""How often a process that lost the database tries to reach it again."""
LOOK_SECONDS = 1.0
"""How often a connected process asks whether the database is there, and reads who the
other processes (those alive) show the rooms shown here to."""
LOST = "moves wait until it is back"


class Refused(RulesError):
    """A change the database did not take: nothing changed; the message says why."""


@dataclass
class SharedRoom(Room):
    version: int = 0
    """The version of the room this copy is at."""
    holders: dict[str, str] = field(default_factory=dict)
    """The connection holding each seat (by name), as the database last said."""


@dataclass
class _Before:
    """A session's state before a change, to put back if the change is refused."""

    node: Any
    children: list[Any]
    moves: int
    phase: Phase
    people: tuple[str, str]
    options: Options
    result: str
    clock: tuple[list[SideTime], int | None, float, bool] | None


class RoomSession(Session):
    """A room's game whose changes are committed to the shared database before anyone
    sees them (`link` commits them); changes read from the database are applied with
    `remote` set, and are not committed again."""

    link: SharedRooms
    room: SharedRoom

    def __init__(self, record: Record, autosave: Path | None = None, **kwargs: Any) -> None:
        super().__init__(record)
        self.remote = False
        self.held = False
        self.withheld: list[Changed] = []
        """What changed while `held`: told once the change is committed."""
        self.moment: float | None = None
        """The database's time of the change being made or applied: the clock's `now`."""
        self.now = self._database_time

    def _database_time(self) -> float:
        if self.moment is not None:
            return self.moment
        link = getattr(self, "link", None)
        return link.database_time() if link is not None else time.time()

    # -- saving is committing -----------------------------------------------------------

    def save_autosave(self) -> None:
        pass  # every change is committed as it is made

    def flush(self, timeout: float = 10.0) -> bool:
        return True

    @property
    def save_problem(self) -> str | None:
        return self.link.problem

    @property
    def autosave_path(self) -> Path | None:
        return Path(self.link.store.location)

    def notify(self, changed: Changed) -> None:
        if self.held:
            self.withheld.append(changed)
        else:
            super().notify(changed)

    def release(self) -> None:
        """Tell the listeners what changed while held (the change is committed)."""
        changes, self.withheld = self.withheld, []
        for changed in changes:
            super().notify(changed)

    # -- changes --------------------------------------------------------------------------

    def play(self, move: Any, *, branch: bool = False) -> Any:
        if self.remote:
            return super().play(move, branch=branch)
        mover = self.waiting_for()
        return self._committed(
            lambda: super(RoomSession, self).play(move),
            lambda code: ("move", self.game.move_name(code), mover),
        )

    def set_komi(self, text: str | float) -> float:
        if self.remote:
            return super().set_komi(text)
        chooser = self.chooser
        try:
            return self._committed(
                lambda: super(RoomSession, self).set_komi(text),
                lambda komi: ("komi", repr(komi), chooser),
            )
        except Refused:  # the dialog asks again; the panel says why
            return self.game.options.komi

    def choose_side(self, colour: int) -> None:
        if self.remote:
            return super().choose_side(colour)
        chooser = self.chooser
        with contextlib.suppress(Refused):  # the dialog asks again; the panel says why
            self._committed(
                lambda: super(RoomSession, self).choose_side(colour),
                lambda _: ("side", str(colour), chooser),
            )

    def check_flag(self, now: float | None = None) -> bool:
        """The side to move's time ran out: record the end on time (once: a process that
        finds the room's version moved catches up instead)."""
        clock = self.clock
        if self.remote or self.moment is not None or clock is None:
            return super().check_flag(now)
        loser = clock.flagged(self.now() if now is None else now)
        if loser is None:
            return False
        name = self.people[loser]
        try:
            return self._committed(
                lambda: super(RoomSession, self).check_flag(),
                lambda flagged: ("flag", name, None) if flagged else None,
                seated=False,
            )
        except Refused:
            return False

    def _committed(
        self,
        apply: Callable[[], T],
        change: Callable[[T], tuple[str, str, str | None] | None],
        seated: bool = True,
    ) -> T:
        """Apply a change here, unseen, at the database's time of its transaction, commit
        it, and show it; put everything back and raise Refused if it cannot be committed
        (the rules' errors change nothing). `seated`: made from the seat of the person the
        game waits for (an end on time is nobody's)."""
        self.link.check(self.room, change_by=self.waiting_for() if seated else None)
        clock = self.clock
        before = _Before(
            self.node,
            list(self.node.children),
            len(self.game.moves),
            self.phase,
            self.people,
            self.record.options,
            self.record.result,
            None
            if clock is None
            else (list(clock.sides), clock.running, clock.started, self.clock_paused),
        )
        results: list[T] = []

        def make(at: float) -> Change | None:
            self.moment = at
            result = apply()
            results.append(result)
            made = change(result)
            return None if made is None else Change(self.room.version + 1, *made)

        self.held = True
        try:
            self.link.commit(self.room, make)
        except BaseException:
            if results or self.withheld:
                self._put_back(before)
            self.withheld.clear()
            raise
        finally:
            self.held = False
            self.moment = None
        self.release()
        return results[0]

    def _put_back(self, before: _Before) -> None:
        self.node = before.node
        before.node.children[:] = before.children
        if self.record.options != before.options:
            self._replace_options(before.options)
        while len(self.game.moves) > before.moves:
            self.game.undo()
        self.phase = before.phase
        self.people = self.record.players = before.people
        self.record.result = before.result
        if self.clock is not None and before.clock is not None:
            sides, running, started, paused = before.clock
            self.clock.sides, self.clock.running, self.clock.started = sides, running, started
            self.clock_paused = paused

    def adopt(self, other: Session) -> None:
        """Become `other` (the room as the database has it), for the screens showing this."""
        self.record, self.node, self.game = other.record, other.node, other.game
        self.phase, self.people = other.phase, other.people
        self.clock, self.clock_paused = other.clock, other.clock_paused
        self.notify(Changed(SessionChange.STEP))


class SharedRooms(Rooms):
    """Every unfinished room in the database, kept up to date by LISTEN/NOTIFY."""

    store: PostgresStore
    rooms: dict[str, SharedRoom]  # type: ignore[assignment]

    def __init__(
        self, store: PostgresStore, *, rated: bool = False, presences: Presences = PRESENCES
    ) -> None:
        self.presences = presences
        """Who is connected to each room: this process announces its own, and is told
        the others'."""
        presences.announce = self._announce
        self.problem: str | None = None
        """Why changes are refused now (the database is lost); None while it is there."""
        self.db: Db | None = None
        self.process = 0
        """This process's number while it holds its lock (see `store.pg_schema`)."""
        self.sessions: dict[str, str] = {}
        """The sessions this process counts in the database: token -> name."""
        self.offset = time.time() - time.monotonic()
        """The database's clock less this process's monotonic one (measured at each
        connection): the clocks' faces here agree with the times the database gives."""
        self.listener: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.stopping = False
        super().__init__(store, rated=rated)

    # -- the connection -------------------------------------------------------------------

    async def start(self) -> None:
        """Connect, listen, and catch up with what changed since the rooms were read;
        raises StoreError if the database cannot be reached."""
        self.db = await asyncio.to_thread(connect, self.store.url, autocommit=True)
        self._measure_offset(self.db)
        listening = await self._listen_connection()
        self.listener = asyncio.get_running_loop().create_task(self._listen(listening))
        for room in self.rooms.values():  # their flag timers need the loop
            if room.joiner is not None:
                self.run_clock(room)

    async def _listen_connection(self) -> AsyncDb:
        conn = await connect_async(self.store.url)
        try:
            before = self.process or None
            self.process = await hold_process(conn, before)
            for channel in (ROOMS_CHANNEL, SEATS_CHANNEL, PRESENCE_CHANNEL):
                await conn.execute(f"LISTEN {channel}".encode())
            self._catch_up_all(before)  # after LISTEN: nothing falls between the two
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _listen(self, conn: AsyncDb | None) -> None:
        import psycopg

        while not self.stopping:
            try:
                if conn is None:
                    await asyncio.sleep(RETRY_SECONDS)
                    conn = await self._reconnect()
                    if conn is None:
                        continue
                self.ready.set()
                while self.db is not None and not self.stopping:
                    async for note in conn.notifies(timeout=LOOK_SECONDS):
                        self._told(note.channel, note.payload)
                    # Each second: is it still there, and is every process it knew of?
                    await self._read_presence(conn)
            except (psycopg.Error, StoreError, OSError) as error:
                self.lost(_reason(error))
            except Exception:  # a fault of the program's: log it, and go on listening
                log.exception("reading the database's notices failed")
                self.lost("the database cannot be read")
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
                conn = None

    async def _reconnect(self) -> AsyncDb | None:
        """Connect again after a loss; None if the database is still out of reach."""
        try:
            self.db = await asyncio.to_thread(connect, self.store.url, autocommit=True)
            self._measure_offset(self.db)
            conn = await self._listen_connection()
        except StoreError:
            self._close_db()
            return None
        if self.db is None:  # lost again while catching up
            await conn.close()
            return None
        log.info("%s is back: changes are taken again", self.store.location)
        self.problem = None
        self._tell_players()
        return conn

    async def _read_presence(self, conn: AsyncDb) -> None:
        """Who the other processes show the rooms shown here to (a process gone is gone
        from it), on the listening connection."""
        found = await read_presence_elsewhere(conn, self.process, self.presences.followed())
        for code, names in found.items():
            self.presences.set_elsewhere(code, names)

    def _measure_offset(self, db: Db) -> None:
        before = time.monotonic()
        now = database_now(db)
        after = time.monotonic()
        self.offset = now.timestamp() - (before + after) / 2

    def database_time(self) -> float:
        """The database's time now, in seconds since the epoch, as this process reckons it."""
        return time.monotonic() + self.offset

    def lost(self, reason: str) -> None:
        """The database cannot be used: refuse changes and tell the players until the
        listener has it back."""
        self._close_db()
        if self.problem is None:
            log.warning("%s lost: %s; trying again every second", self.store.location, reason)
            self.problem = f"{reason}: {LOST}"
            self._tell_players()

    def _close_db(self) -> None:
        db, self.db = self.db, None
        if db is not None:
            with contextlib.suppress(Exception):
                db.close()

    def _tell_players(self) -> None:
        for room in self.rooms.values():
            for listener in list(room.session.saving_listeners):
                listener()

    @contextlib.contextmanager
    def _using(self) -> Iterator[Db]:
        """The loop's connection; a failure loses it (and raises Refused)."""
        if self.db is None:
            raise Refused(f"{self.problem or 'the database cannot be reached'}")
        try:
            yield self.db
        except StoreError as error:
            self.lost(str(error))
            raise Refused(f"{error}: {LOST}") from None

    async def close(self) -> None:
        self.stopping = True
        self.presences.announce = None
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(BaseException):
                await self.listener
        if self.db is not None:  # its people are gone at once for the other processes
            with contextlib.suppress(StoreError):
                restore_sessions(self.db, self.process, {})
                restore_presence(self.db, self.process, {})
        self._close_db()

    # -- what the other processes did ---------------------------------------------------------

    def _told(self, channel: str, payload: str) -> None:
        words = payload.split()
        if channel == SEATS_CHANNEL and len(words) == 3:
            room = self.rooms.get(words[0])
            if room is not None:
                room.holders[words[1]] = words[2]
        elif channel == ROOMS_CHANNEL and len(words) == 2 and words[1].isdigit():
            self._catch_up(words[0], int(words[1]))
        elif channel == PRESENCE_CHANNEL and len(words) == 2:
            code, process = words
            if process != str(self.process) and code in self.presences.followers:
                self._read_elsewhere([code])

    def _read_elsewhere(self, codes: list[str]) -> None:
        """Who the other processes show rooms `codes` to, read now."""
        if self.db is None or not codes:
            return
        for code, names in presence_elsewhere(self.db, self.process, codes).items():
            self.presences.set_elsewhere(code, names)

    def _announce(self, code: str, names: frozenset[str]) -> None:
        """Tell the other processes who this one shows room `code` to (while the database
        is lost, it is told when it is back), and read who they show it to."""
        if self.db is None:
            return
        with contextlib.suppress(Refused), self._using() as db:
            set_presence(db, self.process, code, names)
            if code in self.presences.followers and code not in self.presences.elsewhere:
                self._read_elsewhere([code])  # a screen shows it for the first time

    def _catch_up(self, code: str, version: int | None = None) -> None:
        """Bring room `code` up to `version` (all it has) from the database's changes."""
        if self.db is None:
            return
        self.codes.add(code)
        room = self.rooms.get(code)
        if room is None:
            stored = room_row(self.db, code)
            if stored is not None and stored.finished is None:
                self._add(stored)
            return
        if version is not None and version <= room.version:
            return  # its own change, or one applied already
        for change in changes(self.db, code, room.version):
            if change.version != room.version + 1 or not self._apply(room, change):
                self._reload(room)
                return

    def _catch_up_soon(self, code: str) -> None:
        try:
            self._catch_up(code)
        except StoreError as error:
            self.lost(str(error))

    def _catch_up_all(self, before: int | None = None) -> None:
        """After (re)connecting: every room that changed meanwhile, every new one; what is
        this process's own put back (its sessions, the seats its connections hold, who it
        shows each room to; `before`: its number until now); the seats and who is
        connected, read again."""
        db = self.db
        if db is None:
            return
        current = versions(db)
        for code, version in current.items():
            room = self.rooms.get(code)
            if room is None or version > room.version:
                self._catch_up(code, version)
        for room in list(self.rooms.values()):
            if room.code not in current and not room.finished:
                self._catch_up(room.code)  # finished elsewhere: read its last changes
        restore_sessions(db, self.process, self.sessions)
        mine = [
            (code, name, holder)
            for code, room in self.rooms.items()
            for name, holder in room.holders.items()
            if holder in self.sessions
        ]
        restore_seats(db, mine)
        held = seats(db, list(self.rooms))
        for code, room in self.rooms.items():
            room.holders = dict(held.get(code, {}))
        restore_presence(db, self.process, self.presences.shown(), before)
        self._read_elsewhere(self.presences.followed())

    def _apply(self, room: SharedRoom, change: Change) -> bool:
        """Apply a change read from the database; False if it does not fit this copy."""
        session = room.session
        assert isinstance(session, RoomSession)
        session.remote = True
        session.moment = change.at.timestamp() if change.at is not None else None
        try:
            if change.kind == "join":
                room.joiner = change.value
                session.set_people(session.people[0], change.value)
                self.run_clock(room)
                for listener in list(room.listeners):
                    listener(room)
            elif change.kind == "komi":
                session.set_komi(float(change.value))
            elif change.kind == "side":
                session.choose_side(int(change.value))
            elif change.kind == "flag":
                if not session.check_flag():
                    raise ValueError("the clock here has time left")
            else:
                session.play(change.value)
        except (RulesError, ValueError) as error:
            log.warning("room %s: change %d does not fit (%s)", room.code, change.version, error)
            return False
        finally:
            session.remote = False
            session.moment = None
        room.version = change.version
        return True

    def _reload(self, room: SharedRoom) -> None:
        """Read the room whole again (its copy here went astray)."""
        if self.db is None:
            return
        stored = room_row(self.db, room.code)
        fresh = self._load(stored) if stored is not None else None
        if fresh is None or stored is None:
            return
        if fresh.flag_timer is not None:  # this room's own timer follows the clock adopted
            fresh.flag_timer.cancel()
        room.joiner = fresh.joiner
        room.version = stored.version
        session = room.session
        assert isinstance(session, RoomSession)
        session.adopt(fresh.session)

    # -- rooms here ---------------------------------------------------------------------------

    def _room(self, stored: StoredRoom) -> SharedRoom:
        kept = stored.setup
        setup = Setup(
            kept.game, kept.size, kept.variant, kept.komi, kept.creator, OPEN_SEAT, clock=kept.clock
        )
        session: Session
        if stored.sgf is None:
            start = replace(setup, second=stored.joiner or OPEN_SEAT)
            session = RoomSession.start(start)
            if stored.phase == "side" and session.phase is Phase.KOMI:
                assert isinstance(session, RoomSession)
                session.remote = True
                session.set_komi(stored.komi_chosen or 0.0)
                session.remote = False
        else:
            record = Record.from_sgf(stored.sgf)
            check_record(record, setup, f"the record of room {stored.code}")
            session = room_session(record, kept.creator, stored.joiner)
            shared = RoomSession(session.record)
            shared.adopt(session)
            session = shared
        assert isinstance(session, RoomSession)
        room = SharedRoom(
            stored.code, setup, stored.joiner, session, [], kept.rated, version=stored.version
        )
        session.link, session.room = self, room
        self._tell_movers(room)
        if stored.joiner is not None:
            self._restore_clock(session, stored)
            self.run_clock(room)
        return room

    def _restore_clock(self, session: Session, stored: StoredRoom) -> None:
        """The clock as the database has it: each side's time when it last stopped, and
        the side to move's running since the room's last change."""
        clock = session.clock
        if clock is None or session.phase is not Phase.PLAY or session.over:
            return
        if stored.clock_main is not None and stored.clock_periods is not None:
            clock.sides = [
                SideTime(main, periods)
                for main, periods in zip(stored.clock_main, stored.clock_periods, strict=True)
            ]
        if stored.turn_started is not None:
            clock.start(session.side_to_move(), stored.turn_started.timestamp())

    def _load(self, stored: StoredRoom) -> SharedRoom | None:
        room = super()._load(stored)
        assert room is None or isinstance(room, SharedRoom)
        return room

    def _add(self, stored: StoredRoom) -> None:
        try:
            room = self._room(stored)
        except BAD_ROOM as error:
            log.warning("room %s not loaded: %s", stored.code, printable(why(error)))
            return
        self.rooms[room.code] = room
        if self.db is not None:
            room.holders.update(seats(self.db, [room.code]).get(room.code, {}))

    def save(self, room: Room, finish: Any = None) -> None:
        """Finish a room found ended at the start (imported so): at once."""
        session = room.session
        sgf = session.record.to_sgf() if session.phase is Phase.PLAY else None
        save = room_save(room.code, room.setup, room.rated, session, sgf)
        self.store.save_room(replace(save, finish=finish) if finish is not None else save)

    def _watch_saving(self, room: Room) -> None:
        pass  # the log says once when the database is lost, not once per room

    def flush(self) -> None:
        pass  # every change is committed before it is shown

    # -- changes made here ----------------------------------------------------------------

    def check(self, room: SharedRoom, change_by: str | None) -> None:
        """Raise Refused if a change by `change_by` cannot be made at this connection now:
        the database is lost, or another connection holds the seat."""
        if self.db is None:
            raise Refused(f"{self.problem or 'the database cannot be reached'}")
        holder = HOLDER.get()
        if holder is None or change_by is None:
            return
        held = room.holders.get(change_by)
        if held is not None and held != holder.token:
            raise Refused(
                f"{change_by}'s seat is played from another connection now "
                f"(join room {room.code} again to take it here)"
            )

    def commit(self, room: SharedRoom, make: Callable[[float], Change | None]) -> None:
        """Commit the change `make(at)` applies to `room`'s session, `at` being the
        database's time of the change's transaction; raises Refused."""
        holder = HOLDER.get()
        by: list[str] = []

        def made(at: datetime) -> tuple[RoomSave, Change] | None:
            change = make(at.timestamp())
            if change is None:
                return None
            by.append(change.by or "")
            left = room.session.node.time_left
            if change.kind == "move" and left is not None:
                change = replace(change, left=(left.seconds, left.periods))
            return self._snapshot(room, room.session), change

        version = room.version + 1
        try:
            with self._using() as db:
                token = holder.token if holder is not None else None
                at = commit_change(db, room.code, version, made, token)
        except RoomConflict as conflict:
            if conflict.seat:
                room.holders[by[0]] = "elsewhere"
                message = f"{by[0]}'s seat is played from another connection now"
            else:
                message = "the game changed meanwhile: look again"
            asyncio.get_running_loop().call_soon(self._catch_up_soon, room.code)
            raise Refused(message) from None
        if at is not None:
            room.version = version

    def _snapshot(self, room: Room, session: Session) -> RoomSave:
        sgf = session.record.to_sgf() if session.phase is Phase.PLAY else None
        save = room_save(room.code, room.setup, room.rated, session, sgf)
        komi = session.game.options.komi if session.phase is Phase.SIDE else None
        save = replace(save, phase=session.phase.value, komi_chosen=komi)
        clock = session.clock
        if clock is None:
            return save
        main = tuple(side.main for side in clock.sides)
        return replace(save, clock_main=main, clock_periods=tuple(s.periods for s in clock.sides))

    def create(self, setup: Setup, creator: str, *, rated: bool | None = None) -> Room:
        setup = replace(setup, first=creator, second=OPEN_SEAT, first_level=None, second_level=None)
        rated = self.rated if rated is None else rated
        holder = HOLDER.get()
        token = holder.token if holder is not None else ""
        for _ in range(20):
            code = self.new_code()
            session = RoomSession.start(setup)
            assert isinstance(session, RoomSession)
            room = SharedRoom(code, setup, None, session, [], rated, version=1)
            session.link, session.room = self, room
            self._tell_movers(room)
            try:
                with self._using() as db:
                    made = create_room(db, self._snapshot(room, session), token)
            except Refused as refused:
                raise RoomError(str(refused)) from None
            self.codes.add(code)
            if made:
                room.holders[creator] = token
                self.rooms[code] = room
                return room
        raise RoomError("no free room code was found; try again")

    def get(self, code: str) -> Room | None:
        code = code.strip().lower()
        room = self.rooms.get(code)
        if room is None and self.db is not None:
            with contextlib.suppress(StoreError):
                stored = room_row(self.db, code)
                if stored is not None:
                    self.codes.add(code)
                    loaded = self._load(stored)
                    if loaded is not None:
                        self.rooms[code] = room = loaded
        holder = HOLDER.get()
        if room is not None and holder is not None and holder.user in room.players:
            self.take_seat(room, holder)
        return room

    def take_seat(self, room: SharedRoom, holder: Holder) -> None:
        """The connection `holder` plays its user's seat from now on."""
        if room.finished or room.holders.get(holder.user) == holder.token:
            return
        with contextlib.suppress(Refused), self._using() as db:
            take_seat(db, room.code, holder.user, holder.token)
            room.holders[holder.user] = holder.token

    def join(self, room: Room, name: str) -> None:
        assert isinstance(room, SharedRoom)
        if name in room.players:
            return
        if room.joiner is not None:
            raise RoomError(f"room {room.code} is full: {room.creator} and {room.joiner} play")
        session = room.session
        assert isinstance(session, RoomSession)
        holder = HOLDER.get()
        people = session.people
        clock = session.clock
        session.held = True

        def joined(at: datetime) -> tuple[RoomSave, Change]:
            session.moment = at.timestamp()  # the clock starts now if the game does
            session.set_people(people[0], name)
            session.resume_clock()
            save = replace(self._snapshot(room, session), joiner=name)
            return save, Change(room.version + 1, "join", name, name)

        try:
            token = holder.token if holder is not None else None
            with self._using() as db:
                commit_change(db, room.code, room.version + 1, joined, token)
        except (Refused, RoomConflict) as error:
            session.withheld.clear()
            session.people = session.record.players = people
            session.clock_paused = True
            if clock is not None:
                clock.running = None
            if isinstance(error, RoomConflict):
                self._catch_up_soon(room.code)
                raise RoomError(f"room {room.code} changed meanwhile: look again") from None
            raise RoomError(str(error)) from None
        finally:
            session.held = False
            session.moment = None
        room.version += 1
        room.joiner = name
        self.run_clock(room)
        if holder is not None:
            room.holders[name] = holder.token
        session.release()
        for listener in list(room.listeners):
            listener(room)

    # -- sessions -----------------------------------------------------------------------------

    def open_session(self, holder: Holder, limit: int) -> str | None:
        """Count a session of `holder.user` on every process; a sentence if it may not open."""
        try:
            with self._using() as db:
                if not open_session(db, holder.token, holder.user, self.process, limit):
                    return (
                        f"abstracts-tui: {holder.user} has {limit} sessions open already; "
                        "close one first.\r\n"
                    )
        except Refused:
            return (
                "abstracts-tui: the server cannot reach its database now; "
                "try again in a moment.\r\n"
            )
        self.sessions[holder.token] = holder.user
        return None

    def close_session(self, holder: Holder) -> None:
        if self.sessions.pop(holder.token, None) is None:
            return
        with contextlib.suppress(Refused), self._using() as db:
            close_session(db, holder.token)


def _reason(error: BaseException) -> str:
    from ..store.postgres import reason

    return str(error) if isinstance(error, StoreError) else reason(error)
