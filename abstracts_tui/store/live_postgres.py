"""Live rooms shared by every server process pointed at one PostgreSQL database.

The database is the truth (see `rooms.rooms` for what each process keeps):

- a command is committed first, at the room's next version (`postgres.commit_change`),
  and only then applied and shown; the room changed meanwhile, or the seat held by
  another connection, refuses it (`Conflict`);
- the commit keeps the change's events with it, and announces `CODE VERSION` (the room's
  event count); every process LISTENs and `Rooms` reads the changes and the events after
  the version it has, and applies them;
- a seat is held by the last connection that took it, on whatever process;
- a room's clock is the database's: a change is applied at the moment the database gives
  in the change's own transaction, and between changes the clocks read this process's
  monotonic clock plus its offset to the database's;
- who is connected to a room's game is known across processes (`presence`: a row per
  room and person each process shows the game to; a process killed is gone with its
  lock), read at once when told and every second; what it changes is written to the
  room's events by whichever process commits it first (`rooms.attending`): the others'
  commits of the same find the room changed, catch up, and have nothing to write;
- while the database cannot be reached the players are told, commands are refused at
  once, every room's running clock is held from the last moment the database answered
  (or the moment a command it did not answer in time was asked: `late`), and the
  process reconnects every second, reads what it missed and puts back what is its own:
  its sessions, the seats its connections hold and who it shows each room to; then each
  held clock runs on, by a `Hold` committed as the room's next change (see `rooms`).

The event loop never waits on the database: every blocking call runs on one worker
thread that owns the connection (awaited), and the notices come on psycopg's
`AsyncConnection`. A database that stops answering delays only the commands waiting on
it (the gateway gives each a few seconds); every other key of every session is answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from ..rooms.events import Stamped
from ..rooms.holder import Holder
from ..rooms.live import Change, Make, Refused, Told
from ..rooms.presence import Presences
from .base import RoomSave, StoredRoom, StoreError
from .postgres import (
    PRESENCE_CHANNEL,
    ROOMS_CHANNEL,
    SEATS_CHANNEL,
    AsyncDb,
    Db,
    PostgresStore,
    close_session,
    commit_change,
    connect,
    connect_async,
    create_room,
    database_now,
    discard_room,
    events,
    hold_process,
    keep_seen,
    open_session,
    presence_elsewhere,
    read_presence_elsewhere,
    reason,
    restore_presence,
    restore_seats,
    restore_sessions,
    room_row,
    seats,
    seen,
    set_presence,
    take_seat,
    versions,
)
from .postgres import changes as read_changes

log = logging.getLogger(__name__)
T = TypeVar("T")

RETRY_SECONDS = 1.0
"""How often a process that lost the database tries to reach it again."""
LOOK_SECONDS = 1.0
"""How often a connected process asks whether the database is there, and reads who the
other processes (those alive) show the rooms shown here to."""
LOST = "moves wait until it is back"


class LivePostgres:
    """The live rooms of a PostgreSQL store (`rooms.live.LiveRooms`)."""

    def __init__(self, store: PostgresStore, *, rated: bool = False, presences: Presences) -> None:
        self.store = store
        self.location = store.location
        self.rated = rated
        self.presences = presences
        presences.announce = self._announce
        self.problem: str | None = None
        self.held_since: float | None = None
        self.db: Db | None = None
        """The worker's connection (used on the worker thread only)."""
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="abstracts-tui-db")
        self.process = 0
        """This process's number while it holds its lock (see `store.pg_schema`)."""
        self.sessions: dict[str, str] = {}
        """The sessions this process counts in the database: token -> name."""
        self.offset = time.time() - time.monotonic()
        """The database's clock less this process's monotonic one (measured at each
        connection): the clocks' faces here agree with the times the database gives."""
        self.answered = self.now()
        """When the database last answered (the store's time): where a loss holds the
        clocks from."""
        self.told: Told | None = None
        self.listener: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False

    @property
    def trouble(self) -> str | None:
        return self.problem

    def now(self) -> float:
        return time.monotonic() + self.offset

    def unfinished(self) -> list[StoredRoom]:
        return self.store.rooms(finished=False)

    def codes(self) -> set[str]:
        return self.store.codes()

    def forget(self, code: str) -> bool:
        return True  # nothing is kept here per room: the database has it

    def save(self, save: RoomSave) -> int:
        return self.store.save_room(save)

    async def flush(self) -> None:
        pass  # every change is committed before it is shown

    # -- the worker's connection ----------------------------------------------------------

    async def _call(self, work: Callable[..., T], *args: Any) -> T:
        """`work(db, *args)` on the worker thread; raises Refused if the database is lost
        (or is lost by it)."""
        if self.problem is not None:
            raise Refused(self.problem)
        loop = asyncio.get_running_loop()
        # Shielded: a caller that stops waiting (a command given up after a few seconds)
        # leaves the work to run when the worker is free; a commit made after all is then
        # read back by the catch-up, as another process's would be.
        done = asyncio.wrap_future(self.worker.submit(self._run, loop, work, args))
        done.add_done_callback(_retrieved)
        return await asyncio.shield(done)

    def _run(self, loop: asyncio.AbstractEventLoop, work: Callable[..., T], args: Any) -> T:
        db = self.db
        if db is None:
            raise Refused(self.problem or "the database cannot be reached")
        try:
            done = work(db, *args)
        except StoreError as error:
            loop.call_soon_threadsafe(self.lost, str(error))
            raise Refused(f"{error}: {LOST}") from None
        self.answered = self.now()
        return done

    def _connect(self) -> None:
        """On the worker: a new connection, and the offset of the database's clock."""
        self._close_db()
        db = connect(self.store.url, autocommit=True)
        before = time.monotonic()
        now = database_now(db)
        after = time.monotonic()
        self.offset = now.timestamp() - (before + after) / 2
        self.db = db

    def _close_db(self) -> None:
        db, self.db = self.db, None
        if db is not None:
            with contextlib.suppress(Exception):
                db.close()

    # -- starting, listening, reconnecting ------------------------------------------------

    async def start(self, told: Told) -> None:
        self.told = told
        self.loop = asyncio.get_running_loop()
        await asyncio.wrap_future(self.worker.submit(self._connect))
        listening = await self._listen_connection()
        self.listener = self.loop.create_task(self._listen(listening))

    async def _listen_connection(self) -> AsyncDb:
        conn = await connect_async(self.store.url)
        try:
            before = self.process or None
            self.process = await hold_process(conn, before)
            for channel in (ROOMS_CHANNEL, SEATS_CHANNEL, PRESENCE_CHANNEL):
                await conn.execute(f"LISTEN {channel}".encode())
            await self._catch_up_all(before)  # after LISTEN: nothing falls between the two
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
                while self.problem is None and not self.stopping:
                    async for note in conn.notifies(timeout=LOOK_SECONDS):
                        self.answered = self.now()
                        self._heard(note.channel, note.payload)
                    # Each second: is it still there, and is every process it knew of?
                    await self._read_presence(conn)
                    self.answered = self.now()
            except (psycopg.Error, StoreError, OSError, Refused) as error:
                self.lost(str(error) if isinstance(error, StoreError | Refused) else reason(error))
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
            await asyncio.wrap_future(self.worker.submit(self._connect))
            problem, self.problem = self.problem, None  # the catch-up may use it
            try:
                conn = await self._listen_connection()
            except BaseException:
                self.problem = problem
                raise
        except (StoreError, Refused):
            self.worker.submit(self._close_db)
            return None
        log.info("%s is back: changes are taken again", self.location)
        self.held_since = None
        if self.told is not None:
            self.told.lost()
        return conn

    async def _read_presence(self, conn: AsyncDb) -> None:
        """Who the other processes show the rooms shown here to (a process gone is gone
        from it), on the listening connection."""
        found = await read_presence_elsewhere(conn, self.process, self.presences.followed())
        for code, names in found.items():
            self.presences.set_elsewhere(code, names)

    def lost(self, why: str, since: float | None = None) -> None:
        """The database cannot be used: refuse commands, hold the clocks (from the last
        moment it answered, or `since` if earlier) and tell the players until the
        listener has it back."""
        if self.stopping:
            return  # its worker is gone: the close ends the connection
        self.worker.submit(self._close_db)
        if self.problem is None:
            log.warning("%s lost: %s; trying again every second", self.location, why)
            self.problem = f"{why}: {LOST}"
            self.held_since = self.answered if since is None else min(since, self.answered)
            if self.told is not None:
                self.told.lost()

    def late(self, began: float) -> None:
        self.lost("the database did not answer in time", began)

    def settle(self, code: str, timeout: float) -> str | None:
        return None  # every change is committed before it is shown

    async def _catch_up_all(self, before: int | None = None) -> None:
        """After (re)connecting: every room that changed meanwhile, every new one; what is
        this process's own put back (its sessions, the seats its connections hold, who it
        shows each room to; `before`: its number until now); the seats and who is
        connected, read again."""
        told = self.told
        assert told is not None
        current = await self._call(versions)
        here = told.versions()
        for code, version in current.items():
            if code not in here or version > here[code]:
                told.changed(code, version)
        for code in here:
            if code not in current:
                told.changed(code, None)  # finished elsewhere: its last changes are read
        await self._call(restore_sessions, self.process, dict(self.sessions))
        mine = [held for held in told.held() if held[2] in self.sessions]
        await self._call(restore_seats, mine)
        for code, held in (await self._call(seats, list(here))).items():
            for name, holder in held.items():
                told.seat(code, name, holder)
        shown = self.presences.shown()
        await self._call(restore_presence, self.process, shown, before)
        await self._read_elsewhere(self.presences.followed())

    async def close(self) -> None:
        self.stopping = True
        self.presences.announce = None
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(BaseException):
                await self.listener
        if self.problem is None:  # its people are gone at once for the other processes
            with contextlib.suppress(Refused, TimeoutError):
                await asyncio.wait_for(self._call(_forget, self.process), 5)
        self.worker.submit(self._close_db)
        self.worker.shutdown(wait=False)

    # -- what the other processes did -------------------------------------------------------

    def _heard(self, channel: str, payload: str) -> None:
        told = self.told
        assert told is not None
        words = payload.split()
        if channel == SEATS_CHANNEL and len(words) == 3:
            told.seat(*words)
        elif channel == ROOMS_CHANNEL and len(words) == 2 and words[1].isdigit():
            told.changed(words[0], int(words[1]))
        elif channel == PRESENCE_CHANNEL and len(words) == 2:
            code, process = words
            if process != str(self.process) and code in self.presences.followers:
                self._spawn(self._read_elsewhere([code]))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)

    async def _read_elsewhere(self, codes: list[str]) -> None:
        """Who the other processes show rooms `codes` to, read now."""
        if not codes:
            return
        with contextlib.suppress(Refused):
            found = await self._call(presence_elsewhere, self.process, codes)
            for code, names in found.items():
                self.presences.set_elsewhere(code, names)

    def _announce(self, code: str, names: frozenset[str]) -> None:
        """Tell the other processes who this one shows room `code` to (while the database
        is lost, it is told when it is back), and read who they show it to."""
        if self.problem is not None or self.loop is None:
            return
        first = code in self.presences.followers and code not in self.presences.elsewhere

        async def announce() -> None:
            with contextlib.suppress(Refused):
                await self._call(set_presence, self.process, code, names)
                if first:  # a screen shows it for the first time
                    await self._read_elsewhere([code])

        self._spawn(announce())

    # -- the live rooms' calls ------------------------------------------------------------

    async def create(self, save: RoomSave, holder: Holder | None) -> bool:
        return await self._call(create_room, save, holder.token if holder is not None else "")

    async def commit(
        self, code: str, version: int, make: Make, holder: Holder | None
    ) -> list[Stamped]:
        def made(at: datetime) -> tuple[RoomSave, Change]:
            save, change = make(at.timestamp())
            change = replace(change, at=at)
            if change.kind == "join":  # earlier versions read the joiner from the value
                change = replace(change, value=change.by or "")
            return save, change

        token = holder.token if holder is not None else None
        given_up = False

        def unless_given_up(at: datetime) -> tuple[RoomSave, Change] | None:
            # A command refused for want of an answer is not made after all, once the
            # database answers (the worker reaches it then): the player was told so.
            return None if given_up else made(at)

        try:
            kept = await self._call(commit_change, code, version, unless_given_up, token)
        except asyncio.CancelledError:  # the gateway stopped waiting (`late` follows)
            given_up = True
            raise
        if kept is None:
            raise Refused(f"the database did not answer in time: {LOST}")
        return kept

    async def discard(self, code: str) -> None:
        # The other processes read the call-off's change first, or find the room gone
        # when they read its changes (`Rooms.catch_up`): it ends there too.
        await self._call(discard_room, code)

    async def changes(self, code: str, after: int) -> list[Change]:
        return await self._call(read_changes, code, after)

    async def events(self, code: str, after: int) -> list[Stamped]:
        return await self._call(events, code, after)

    async def room(self, code: str) -> StoredRoom | None:
        return await self._call(room_row, code)

    async def versions(self) -> dict[str, int]:
        return await self._call(versions)

    async def elsewhere(self, code: str) -> frozenset[str]:
        found = await self._call(presence_elsewhere, self.process, [code])
        return found.get(code, frozenset())

    async def keep_seen(self, name: str, code: str, version: int) -> None:
        await self._call(keep_seen, name, code, version)

    async def seen(self, name: str, code: str) -> int | None:
        return await self._call(seen, name, code)

    async def take_seat(self, code: str, name: str, holder: Holder) -> None:
        await self._call(take_seat, code, name, holder.token)

    async def seats(self, codes: list[str]) -> dict[str, dict[str, str]]:
        return await self._call(seats, codes)

    async def open_session(self, holder: Holder, limit: int) -> str | None:
        try:
            if not await self._call(open_session, holder.token, holder.user, self.process, limit):
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

    async def close_session(self, holder: Holder) -> None:
        if self.sessions.pop(holder.token, None) is None:
            return
        with contextlib.suppress(Refused):
            await self._call(close_session, holder.token)


_tasks: set[asyncio.Task[Any]] = set()
"""Tasks started here, kept until they end."""


def _retrieved(done: asyncio.Future[Any]) -> None:
    """Its error read, so that one nobody waits for any more is not logged as lost."""
    if not done.cancelled():
        done.exception()


def _forget(db: Db, process: int) -> None:
    restore_sessions(db, process, {})
    restore_presence(db, process, {})
