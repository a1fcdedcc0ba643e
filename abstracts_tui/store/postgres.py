"""The store in a PostgreSQL database, shared by any number of server processes.

`PostgresStore` is the `Store` of `base` (a small psycopg pool serves the worker threads
that ask it) plus what several processes need to be one server, as functions on a
connection the caller holds (the server's event loop keeps one of its own, see
`live_postgres`): each change of a room is committed with the version it makes, refused
if the room has another version by then or the seat is held by another connection
(`Conflict`), written as a row of `room_changes`, and announced with
`NOTIFY abstracts_tui_rooms, 'CODE VERSION'`; a seat taken is announced too. The change's
events are rows of `room_events` in the same transaction (a room's version is its event
count, and the change's row has its last event's version).

psycopg is imported here only: a server without `--database` never loads it.
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Callable, Collection, Iterator
from datetime import UTC, datetime
from typing import Any, TypeAlias

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from ..ratings import Rating
from ..rooms.events import Stamped
from ..rooms.live import EVENTS_READ, Change, Conflict
from .base import (
    PlayerRating,
    RatingPoint,
    RoomSave,
    RoomSetup,
    StoredRoom,
    StoreError,
    Tally,
    changes_ratings,
    event_row,
    history_query,
    rated_after,
    rated_event,
    rating_filter,
    room_filter,
    stamped_of,
    tally_query,
)
from .derived import derive_missing
from .names import look_alikes, skeleton, sql_skeleton
from .pg_schema import LOCKS, PROCESS_LOCKS, migrate
from .schema import NewerStore

Db: TypeAlias = "psycopg.Connection[Any]"
AsyncDb: TypeAlias = "psycopg.AsyncConnection[Any]"

ROOMS_CHANNEL = "abstracts_tui_rooms"
"""Notified with `CODE VERSION` when a room is made or changed."""
SEATS_CHANNEL = "abstracts_tui_seats"
"""Notified with `CODE NAME HOLDER` when a connection takes a seat."""
PRESENCE_CHANNEL = "abstracts_tui_presence"
"""Notified with `CODE PROCESS` when who a process shows room CODE's game to changes."""

CONNECT: dict[str, Any] = {
    "connect_timeout": 5,
    # A database machine that vanishes (no reset comes) is noticed in about 10 seconds,
    # from either side, instead of the system's two hours.
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 10_000,
    "options": "-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 "
    "-c tcp_keepalives_count=3 -c lock_timeout=5s -c statement_timeout=10s -c timezone=UTC",
    "application_name": "abstracts-tui",
}
"""How every connection is made: a dead peer is found in seconds, and no statement waits
on a lock for long."""

ROOM_COLUMNS = (
    "code, game, size, variant, komi, creator, joiner, rated, sgf, version, "
    "created, updated, finished, result, winner, phase, komi_chosen, "
    "time_control, turn_started, clock_main, clock_periods, open_challenge, "
    "colour, rating_range"
)

INSERT_ROOM = (
    f"INSERT INTO rooms ({ROOM_COLUMNS}) VALUES "
    "(%(code)s, %(game)s, %(size)s, %(variant)s, %(komi)s, %(creator)s, %(joiner)s, "
    "%(rated)s, %(sgf)s, %(version)s, coalesce(%(when)s, now()), coalesce(%(when)s, now()), "
    "NULL, NULL, NULL, %(phase)s, %(komi_chosen)s, "
    "%(time_control)s, NULL, %(clock_main)s, %(clock_periods)s, %(open_challenge)s, "
    "%(colour)s, %(rating_range)s)"
)


NAME_KEY = (
    f"SELECT key FROM names WHERE {sql_skeleton('name', postgres=True)} = %s "
    "ORDER BY name = %s DESC, created, name LIMIT 1"
)
"""The key of a name (its skeleton, then the name): its own, else the first look-alike's."""
NAMES_LOCK = 0x6E616D65
"""The first key of the advisory lock held while a name is kept ('name')."""


def where(url: str) -> str:
    """The database as the players and the log are told, without a password:
    `database abstracts on db.example:5432`."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the database"
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or "5432")
    name = str(parts.get("dbname") or parts.get("user") or "")
    return f"database {name} on {host}:{port}" if name else f"the database on {host}:{port}"


def reason(error: BaseException) -> str:
    """What went wrong with the database, in one short sentence."""
    if isinstance(error, PoolTimeout):
        return "the database cannot be reached"
    text = str(error).strip()
    for pattern, said in (
        (r"Connection refused", "the database cannot be reached (connection refused)"),
        (r"timeout expired|timed out", "the database cannot be reached (no answer in time)"),
        (r"could not translate host name", "the database's host name is not known"),
        (r"password authentication failed", "the database refused the password"),
        (r"no password supplied", "the database needs a password (PGPASSWORD or ~/.pgpass)"),
        (r"database \"[^\"]*\" does not exist", None),
        (r"role \"[^\"]*\" does not exist", None),
        (
            r"terminating connection|server closed the connection|connection is (lost|closed)"
            r"|consuming input failed|the connection is closed",
            "the database connection was lost",
        ),
        (r"the database system is (starting up|shutting down)", None),
        (r"lock timeout|statement timeout|canceling statement", "the database is too busy"),
    ):
        found = re.search(pattern, text, re.IGNORECASE)
        if found:
            return said or found.group(0)
    line = text.splitlines()[0] if text else type(error).__name__
    return line.removeprefix("connection failed: ")[:200]


def check_url(url: str) -> None:
    """Raise StoreError unless `url` is a PostgreSQL connection string."""
    if not re.match(r"postgres(ql)?://", url):
        raise StoreError(f"--database takes a postgresql:// URL, not {url[:40]!r}")
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        raise StoreError(f"the database URL cannot be read: {reason(error)}") from None


def connect(url: str, *, autocommit: bool = False) -> Db:
    """A new connection (rows as tuples); raises StoreError saying why there is none."""
    try:
        return psycopg.connect(url, autocommit=autocommit, **CONNECT)
    except psycopg.Error as error:
        raise StoreError(reason(error)) from None


async def connect_async(url: str) -> AsyncDb:
    """A new connection for the event loop, in autocommit mode (for LISTEN)."""
    try:
        return await psycopg.AsyncConnection.connect(url, autocommit=True, **CONNECT)
    except psycopg.Error as error:
        raise StoreError(reason(error)) from None


@contextlib.contextmanager
def failures() -> Iterator[None]:
    """psycopg's errors (and the pool's) become StoreError."""
    try:
        yield
    except (psycopg.Error, PoolTimeout) as error:
        raise StoreError(reason(error)) from None


def check_database(url: str) -> str:
    """What `serve --check` says of the database at `url`: a sentence when it can be
    used; raises StoreError saying why not. Changes nothing."""
    from .pg_schema import MIGRATIONS

    check_url(url)
    location = where(url)
    try:
        with connect(url, autocommit=True) as db:
            made = _one(db, "SELECT to_regclass('schema_version') IS NOT NULL", ())
            row = db.execute("SELECT max(version) FROM schema_version").fetchone() if made else None
    except StoreError as error:
        raise StoreError(f"{location} cannot be used: {error}") from None
    except psycopg.Error as error:
        raise StoreError(f"{location} cannot be used: {reason(error)}") from None
    newest = max(migration.version for migration in MIGRATIONS)
    if row is None or row[0] is None:
        return f"{location} can be used: its tables are not made yet (the first start makes them)"
    version = int(row[0])
    if version > newest:
        raise StoreError(f"{location} cannot be used: {NewerStore.message(version, newest)}")
    tables = f"its tables are at version {version}"
    tables += " (this version's)" if version == newest else f" (the start makes them {newest})"
    return f"{location} can be used: {tables}"


class PostgresStore:
    """Rooms, the archive, names, ratings and the host key in one PostgreSQL database."""

    def __init__(self, url: str) -> None:
        """Connect and bring the tables up to date; raises StoreError saying why the
        database cannot be used."""
        check_url(url)
        self.url = url
        self.location = where(url)
        try:
            with connect(url, autocommit=True) as db:
                migrate(db)
        except StoreError as error:
            raise StoreError(f"{self.location} cannot be used: {error}") from None
        except psycopg.Error as error:
            raise StoreError(f"{self.location} cannot be used: {reason(error)}") from None
        except NewerStore as error:
            raise StoreError(f"{self.location} cannot be used: {error}") from None
        self.pool: ConnectionPool[Db] = ConnectionPool(
            url,
            kwargs=CONNECT,
            min_size=1,
            max_size=4,
            timeout=5,
            check=ConnectionPool.check_connection,
            open=False,
            name="abstracts-tui",
        )
        self.pool.open(wait=False)
        derive_missing(self)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Db]:
        with failures(), self.pool.connection() as db, db.transaction():
            yield db

    # -- rooms ----------------------------------------------------------------------------

    def save_room(self, room: RoomSave) -> int:
        return self.keep_room(room)[0]

    def keep_room(self, room: RoomSave) -> tuple[int, list[Stamped]]:
        with self._transaction() as db:
            db.execute(
                f"{INSERT_ROOM} ON CONFLICT (code) DO UPDATE SET joiner = excluded.joiner, "
                "sgf = coalesce(excluded.sgf, rooms.sgf), phase = excluded.phase, "
                "komi_chosen = excluded.komi_chosen, "
                "version = greatest(rooms.version, excluded.version), updated = now()",
                _values(room, None),
            )
            insert_events(db, room.code, room.events)
            added = finish(db, room)
            version = _one(db, "SELECT version FROM rooms WHERE code = %s", (room.code,))
            notify_room(db, room.code, int(version))
        return int(version), added

    def keep_seen(self, name: str, code: str, version: int) -> None:
        with failures(), self.pool.connection() as db:
            keep_seen(db, name, code, version)

    def seen(self, name: str, code: str) -> int | None:
        with failures(), self.pool.connection() as db:
            return seen(db, name, code)

    def import_room(self, room: RoomSave, when: datetime) -> bool:
        with self._transaction() as db:
            inserted = db.execute(
                f"{INSERT_ROOM} ON CONFLICT (code) DO NOTHING", _values(room, when)
            )
        if inserted.rowcount:
            derive_missing(self, [room.code])
        return bool(inserted.rowcount)

    # -- events -----------------------------------------------------------------------------

    def events(self, code: str, after: int, limit: int = EVENTS_READ) -> list[Stamped]:
        with failures(), self.pool.connection() as db:
            return events(db, code, after, limit)

    def without_events(self) -> list[str]:
        """The rooms that have no events (kept before rooms had them)."""
        with failures(), self.pool.connection() as db:
            rows = db.execute(
                "SELECT code FROM rooms WHERE NOT EXISTS "
                "(SELECT 1 FROM room_events WHERE room_events.code = rooms.code) ORDER BY code"
            ).fetchall()
        return [str(row[0]) for row in rows]

    def rating_changes(self, code: str) -> list[tuple[str, Rating, Rating]]:
        """The rating changes of room `code`'s game: (name, before, after), creator first."""
        with failures(), self.pool.connection() as db:
            rows = db.execute(
                "SELECT c.name, value_before, deviation_before, value_after, deviation_after "
                "FROM rating_changes c JOIN rooms r ON r.code = c.code WHERE c.code = %s "
                "ORDER BY c.name <> r.creator",
                (code,),
            ).fetchall()
        return [(str(r[0]), Rating(r[1], r[2]), Rating(r[3], r[4])) for r in rows]

    def keep_derived(self, code: str, events: list[Stamped]) -> bool:
        """Keep the events derived for room `code` if it has none yet (one transaction):
        its version becomes their count, and its changes are numbered down to end there
        (a process reads the changes after its version: none of these)."""
        with self._transaction() as db:
            version = db.execute(
                "SELECT version FROM rooms WHERE code = %s FOR UPDATE", (code,)
            ).fetchone()
            if (
                version is None
                or db.execute(
                    "SELECT 1 FROM room_events WHERE code = %s LIMIT 1", (code,)
                ).fetchone()
            ):
                return False
            insert_events(db, code, events)
            # Two steps, each clear of the other's numbers (a key is checked row by row).
            db.execute(
                "UPDATE room_changes SET version = version - %s WHERE code = %s",
                (SHIFT, code),
            )
            db.execute(
                "UPDATE room_changes SET version = version + %s WHERE code = %s",
                (SHIFT + len(events) - int(version[0]), code),
            )
            db.execute("UPDATE rooms SET version = %s WHERE code = %s", (len(events), code))
            notify_room(db, code, len(events))
        return True

    def room(self, code: str) -> StoredRoom | None:
        with failures(), self.pool.connection() as db:
            return room_row(db, code)

    def rooms(
        self,
        *,
        finished: bool | None = None,
        player: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        challenges: bool = False,
    ) -> list[StoredRoom]:
        where, parameters = room_filter(finished, player, "%s", challenges)
        parameters += [limit, offset]
        query = (
            f"SELECT {ROOM_COLUMNS} FROM rooms {where} "
            "ORDER BY updated DESC, code LIMIT %s OFFSET %s"
        )
        with failures(), self.pool.connection() as db:
            rows = db.cursor(row_factory=dict_row).execute(query.encode(), parameters).fetchall()
        return [stored_room(row) for row in rows]

    def discard_room(self, code: str) -> bool:
        with failures(), self.pool.connection() as db:
            return discard_room(db, code)

    def codes(self) -> set[str]:
        with failures(), self.pool.connection() as db:
            return {row[0] for row in db.execute("SELECT code FROM rooms")}

    # -- names ----------------------------------------------------------------------------

    def name_key(self, name: str) -> str | None:
        with failures(), self.pool.connection() as db:
            row = db.execute(NAME_KEY.encode(), (skeleton(name), name)).fetchone()
        return str(row[0]) if row else None

    def keep_name(
        self, name: str, key: str, most: int | None = None, alike: bool = True
    ) -> str | None:
        with self._transaction() as db:
            # One process keeps a name at a time: two look-alikes kept at once by two
            # keys would each find the other not there yet.
            db.execute("SELECT pg_advisory_xact_lock(%s, 0)", (NAMES_LOCK,))
            if alike:
                found = db.execute(NAME_KEY.encode(), (skeleton(name), name)).fetchone()
            else:
                found = db.execute("SELECT key FROM names WHERE name = %s", (name,)).fetchone()
            if found is not None:
                return str(found[0])
            if most is not None:
                count = _one(db, "SELECT count(*) FROM names WHERE key = %s", (key,))
                if int(count) >= most:
                    return None
            db.execute(
                "INSERT INTO names (name, key) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
                (name, key),
            )
            return str(_one(db, "SELECT key FROM names WHERE name = %s", (name,)))

    def key_names(self, key: str) -> list[str]:
        with failures(), self.pool.connection() as db:
            rows = db.execute(
                "SELECT name FROM names WHERE key = %s ORDER BY created, name", (key,)
            ).fetchall()
        return [str(row[0]) for row in rows]

    def look_alikes(self) -> list[list[str]]:
        with failures(), self.pool.connection() as db:
            rows = db.execute("SELECT name, key FROM names").fetchall()
        return look_alikes((str(row[0]), str(row[1])) for row in rows)

    # -- ratings --------------------------------------------------------------------------

    def ratings(
        self, game: str | None = None, names: Collection[str] | None = None
    ) -> list[PlayerRating]:
        where, parameters = rating_filter(game, names, "%s")
        query = (
            "SELECT name, game, value, deviation, volatility, games FROM ratings "
            f"{where} ORDER BY game, value DESC, name"
        )
        with failures(), self.pool.connection() as db:
            rows = db.execute(query.encode(), parameters).fetchall()
        return [
            PlayerRating(row[0], row[1], Rating(row[2], row[3], row[4]), row[5]) for row in rows
        ]

    def rating_history(self, name: str, game: str | None = None) -> list[RatingPoint]:
        query, parameters = history_query(game, "%s")
        with failures(), self.pool.connection() as db:
            rows = db.execute(query.encode(), [name, *parameters]).fetchall()
        return [RatingPoint(r[0], r[1], r[2], Rating(r[3], r[4])) for r in rows]

    def tally(self, name: str) -> Tally:
        with failures(), self.pool.connection() as db:
            (row,) = db.execute(tally_query("%s").encode(), [name] * 4).fetchall()
        return Tally(int(row[0]), int(row[1]), int(row[2]))

    # -- the host key ---------------------------------------------------------------------

    def host_key(self, make: Callable[[], str]) -> str:
        """The host key every process serves: the one kept, else `make()`'s, kept now (the
        first process to keep one wins)."""
        with self._transaction() as db:
            row = db.execute("SELECT key FROM server_keys WHERE name = 'host'").fetchone()
            if row is not None:
                return str(row[0])
        key = make()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO server_keys (name, key) VALUES ('host', %s) "
                "ON CONFLICT (name) DO NOTHING",
                (key,),
            )
            return str(_one(db, "SELECT key FROM server_keys WHERE name = 'host'", ()))

    def close(self) -> None:
        self.pool.close()


# -- live rooms: on a connection the caller holds -------------------------------------------


SHIFT = 1 << 30
"""Far below any version: where a room's changes are moved while they are numbered anew."""


def insert_events(db: Db, code: str, events: tuple[Stamped, ...] | list[Stamped]) -> None:
    for stamped in events:
        db.execute(
            "INSERT INTO room_events (code, version, kind, data, at) VALUES (%s, %s, %s, %s, %s)",
            (code, *event_row(stamped, _moment)),
        )


def _moment(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def events(db: Db, code: str, after: int, limit: int = EVENTS_READ) -> list[Stamped]:
    """Room `code`'s events after version `after`, in order, at most `limit`."""
    with failures():
        rows = db.execute(
            "SELECT version, kind, data, at FROM room_events WHERE code = %s AND version > %s "
            "ORDER BY version LIMIT %s",
            (code, after, limit),
        ).fetchall()
    return [stamped_of(version, kind, data, at.timestamp()) for version, kind, data, at in rows]


def create_room(db: Db, room: RoomSave, holder: str) -> bool:
    """Make a new room at version 1 (its `Made` event) with its creator's seat held by
    `holder`; False if the code is taken (by a room another process made at the same
    moment)."""
    with failures(), db.transaction():
        made = db.execute(f"{INSERT_ROOM} ON CONFLICT (code) DO NOTHING", _values(room, None))
        if not made.rowcount:
            return False
        insert_events(db, room.code, room.events)
        if holder:
            _take_seat(db, room.code, room.setup.creator, holder)
        notify_room(db, room.code, 1)
    return True


def discard_room(db: Db, code: str) -> bool:
    """Delete room `code`, its changes and its seats if nobody joined it (see
    `Store.discard_room`); whether it was deleted."""
    with failures(), db.transaction():
        found = db.execute(
            "SELECT 1 FROM rooms WHERE code = %s AND joiner IS NULL FOR UPDATE", (code,)
        ).fetchone()
        if found is None:
            return False
        for table in ("room_changes", "room_events", "seats", "seen", "rooms"):
            db.execute(f"DELETE FROM {table} WHERE code = %s".encode(), (code,))
    return True


def change_room(
    db: Db, room: RoomSave, change: Change, seat: tuple[str, str] | None = None
) -> None:
    """Commit `change`, which makes `room` (the whole room after it), at `change.version`
    (see `commit_change`)."""
    holder = seat[1] if seat is not None else None
    commit_change(db, room.code, change.version, lambda at: (room, change), holder)


def commit_change(
    db: Db,
    code: str,
    version: int,
    make: Callable[[datetime], tuple[RoomSave, Change] | None],
    holder: str | None = None,
) -> list[Stamped] | None:
    """Commit the change `make(at)` gives (the whole room after it, and the change with
    its events, the first at `version`) to room `code`, `at` being the database's time in
    the change's own transaction, once the room is locked: the moment every process
    charges the clock with. Returns the events kept (the change's, and the game's `Rated`
    where it finished a rated game), or None if `make` found nothing to commit.

    Raises Conflict if the room is not at the version before by then, or if the seat
    of the change's `by` is held by another connection than `holder` (the connection
    that made the change); StoreError if the database cannot be used. A join takes the
    joiner's seat for `holder`.
    """
    with failures(), db.transaction():
        row = db.execute(
            "SELECT version, clock_timestamp() FROM rooms WHERE code = %s FOR UPDATE", (code,)
        ).fetchone()
        if row is None or row[0] != version - 1:
            raise Conflict(seat=False)
        at: datetime = row[1]
        made = make(at)
        if made is None:
            return None
        room, change = made
        if holder is not None and change.by is not None and change.kind != "join":
            held = db.execute(
                "SELECT holder FROM seats WHERE code = %s AND name = %s", (code, change.by)
            ).fetchone()
            if held is not None and held[0] != holder:
                raise Conflict(seat=True)
        kept = list(change.events or room.events)
        insert_events(db, code, kept)
        last = kept[-1].version if kept else version
        db.execute(
            "UPDATE rooms SET joiner = %s, sgf = coalesce(%s, sgf), phase = %s, "
            "komi_chosen = %s, version = %s, updated = %s, turn_started = %s, "
            "clock_main = %s, clock_periods = %s WHERE code = %s",
            (
                room.joiner,
                room.sgf,
                room.phase,
                room.komi_chosen,
                last,
                at,
                at,
                _listed(room.clock_main),
                _listed(room.clock_periods),
                code,
            ),
        )
        if change.kind == "join" and holder is not None:
            _take_seat(db, code, change.value, holder)
        kept += finish(db, room)
        last = kept[-1].version if kept else version
        db.execute(
            "INSERT INTO room_changes (code, version, kind, value, by, at, clock_main, "
            "clock_periods) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            (code, last, change.kind, change.value, change.by, at, *(change.left or (None, None))),
        )
        notify_room(db, code, last)
    return kept


def _listed(values: tuple[Any, ...] | None) -> list[Any] | None:
    return list(values) if values is not None else None


def database_now(db: Db) -> datetime:
    """The database's clock now."""
    with failures():
        now = _one(db, "SELECT clock_timestamp()", ())
    assert isinstance(now, datetime)
    return now


def take_seat(db: Db, code: str, name: str, holder: str) -> None:
    """`holder`'s connection plays `name`'s seat in room `code` from now on."""
    with failures(), db.transaction():
        _take_seat(db, code, name, holder)


def _take_seat(db: Db, code: str, name: str, holder: str) -> None:
    db.execute(
        "INSERT INTO seats (code, name, holder) VALUES (%s, %s, %s) ON CONFLICT (code, name) "
        "DO UPDATE SET holder = excluded.holder, claimed = now()",
        (code, name, holder),
    )
    db.execute("SELECT pg_notify(%s, %s)", (SEATS_CHANNEL, f"{code} {name} {holder}"))


def seats(db: Db, codes: list[str]) -> dict[str, dict[str, str]]:
    """Who holds which seat, by room."""
    held: dict[str, dict[str, str]] = {}
    with failures():
        rows = db.execute(
            "SELECT code, name, holder FROM seats WHERE code = ANY(%s)", (codes,)
        ).fetchall()
    for code, name, holder in rows:
        held.setdefault(code, {})[name] = holder
    return held


def notify_room(db: Db, code: str, version: int) -> None:
    db.execute("SELECT pg_notify(%s, %s)", (ROOMS_CHANNEL, f"{code} {version}"))


def changes(db: Db, code: str, after: int) -> list[Change]:
    """The changes of room `code` after version `after`, in order."""
    with failures():
        rows = db.execute(
            "SELECT version, kind, value, by, at FROM room_changes "
            "WHERE code = %s AND version > %s ORDER BY version",
            (code, after),
        ).fetchall()
    return [Change(*row) for row in rows]


def room_row(db: Db, code: str) -> StoredRoom | None:
    with failures():
        row = (
            db.cursor(row_factory=dict_row)
            .execute(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE code = %s".encode(), (code,))
            .fetchone()
        )
    return stored_room(row) if row is not None else None


def versions(db: Db) -> dict[str, int]:
    """Every unfinished room's version, by code."""
    with failures():
        rows = db.execute("SELECT code, version FROM rooms WHERE finished IS NULL").fetchall()
    return {code: version for code, version in rows}


def finish(db: Db, room: RoomSave) -> list[Stamped]:
    """Mark the room finished if `room` has its end and it is not marked yet; rate it
    then, and add its `Rated` event as the room's next: the event, if it did."""
    end = room.finish
    if end is None:
        return []
    finished = db.execute(
        "UPDATE rooms SET finished = coalesce(%s, now()), result = %s, winner = %s "
        "WHERE code = %s AND finished IS NULL RETURNING game, creator, joiner, rated, "
        "version, clock_timestamp()",
        (end.at, end.result, end.winner, room.code),
    ).fetchone()
    if finished is None:
        return []
    game, creator, joiner, rated, version, now = finished
    if not rated or joiner is None or joiner == creator or not changes_ratings(end.result):
        return []
    players = (creator, joiner)
    for name in sorted(players):  # always in one order: two games ending at once wait
        db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCKS, f"{name} {game}"))
    before = [_rating(db, name, game) for name in players]
    after = rated_after(before[0][0], before[1][0], players, end.winner)
    last = _one(db, "SELECT max(version) FROM room_events WHERE code = %s", (room.code,))
    at = room.events[-1].at if room.events else now.timestamp()
    changes = [(name, old, new) for name, (old, _), new in zip(players, before, after, strict=True)]
    event = Stamped(max(version, last or 0) + 1, at, rated_event(changes))
    insert_events(db, room.code, [event])
    db.execute("UPDATE rooms SET version = %s WHERE code = %s", (event.version, room.code))
    for name, (old, games), new in zip(players, before, after, strict=True):
        db.execute(
            "INSERT INTO rating_changes VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (room.code, name, game, old.value, old.deviation, new.value, new.deviation),
        )
        db.execute(
            "INSERT INTO ratings VALUES (%s, %s, %s, %s, %s, %s, now()) "
            "ON CONFLICT (name, game) DO UPDATE SET value = excluded.value, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "games = excluded.games, updated = excluded.updated",
            (name, game, new.value, new.deviation, new.volatility, games + 1),
        )
    return [event]


def _rating(db: Db, name: str, game: str) -> tuple[Rating, int]:
    row = db.execute(
        "SELECT value, deviation, volatility, games FROM ratings WHERE name = %s AND game = %s",
        (name, game),
    ).fetchone()
    if row is None:
        return Rating(), 0
    return Rating(row[0], row[1], row[2]), int(row[3])


# -- processes and sessions -----------------------------------------------------------------


async def hold_process(db: AsyncDb, process: int | None = None) -> int:
    """Take the advisory lock that says this process is alive (it goes with `db`'s
    connection): `process`'s number again, or a new one. Returns the number."""
    while True:
        number = process or secrets.randbelow(2**31 - 2) + 1
        cursor = await db.execute("SELECT pg_try_advisory_lock(%s, %s)", (PROCESS_LOCKS, number))
        row = await cursor.fetchone()
        if row is not None and row[0]:
            return number
        process = None  # another process has that number: take another


LIVE_PROCESSES = (
    "SELECT objid::bigint::integer FROM pg_locks WHERE locktype = 'advisory' AND granted "
    "AND classid = %s::bigint::oid AND objsubid = 2 "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


def open_session(db: Db, token: str, name: str, process: int, limit: int) -> bool:
    """Count a new session of `name` (this process's number `process`) unless `name`
    has `limit` open already on all the processes alive; False then."""
    with failures(), db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCKS, f"session {name}"))
        db.execute(
            f"DELETE FROM sessions WHERE name = %s AND process NOT IN ({LIVE_PROCESSES})",
            (name, PROCESS_LOCKS),
        )
        count = _one(db, "SELECT count(*) FROM sessions WHERE name = %s", (name,))
        if int(count) >= limit:
            return False
        db.execute(
            "INSERT INTO sessions (token, name, process) VALUES (%s, %s, %s)",
            (token, name, process),
        )
    return True


def close_session(db: Db, token: str) -> None:
    with failures():
        db.execute("DELETE FROM sessions WHERE token = %s", (token,))


def restore_sessions(db: Db, process: int, sessions: dict[str, str]) -> None:
    """Make the rows of this process's sessions `sessions` (token: name) what they are."""
    with failures(), db.transaction():
        db.execute("DELETE FROM sessions WHERE process = %s", (process,))
        for token, name in sessions.items():
            db.execute(
                "INSERT INTO sessions (token, name, process) VALUES (%s, %s, %s)",
                (token, name, process),
            )


def restore_seats(db: Db, held: list[tuple[str, str, str]]) -> None:
    """Put back the seats `held` (code, name, holder) that the database has no holder for
    (a database restored or made anew while the connections holding them were cut off);
    a seat taken by another connection meanwhile stays its."""
    with failures(), db.transaction():
        for code, name, holder in held:
            made = db.execute(
                "INSERT INTO seats (code, name, holder) SELECT %s, %s, %s "
                "WHERE EXISTS (SELECT 1 FROM rooms WHERE code = %s) "
                "ON CONFLICT (code, name) DO NOTHING",
                (code, name, holder, code),
            )
            if made.rowcount:
                db.execute("SELECT pg_notify(%s, %s)", (SEATS_CHANNEL, f"{code} {name} {holder}"))


# -- who is connected ---------------------------------------------------------------------


def keep_seen(db: Db, name: str, code: str, version: int) -> None:
    """A screen of `name`'s showed room `code` up to `version` (kept unless a later one is)."""
    with failures(), db.transaction():
        db.execute(
            "INSERT INTO seen (name, code, version, at) VALUES (%s, %s, %s, now()) "
            "ON CONFLICT (name, code) DO UPDATE SET version = excluded.version, "
            "at = excluded.at WHERE excluded.version > seen.version",
            (name, code, version),
        )


def seen(db: Db, name: str, code: str) -> int | None:
    """The last version of room `code` a screen of `name`'s showed (None: none)."""
    with failures():
        row = db.execute(
            "SELECT version FROM seen WHERE name = %s AND code = %s", (name, code)
        ).fetchone()
    return int(row[0]) if row is not None else None


def set_presence(db: Db, process: int, code: str, names: Collection[str]) -> None:
    """The people process `process` shows room `code`'s game to are `names` (announced)."""
    with failures(), db.transaction():
        db.execute("DELETE FROM presence WHERE process = %s AND code = %s", (process, code))
        _insert_presence(db, process, code, names)
        db.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, f"{code} {process}"))


def restore_presence(
    db: Db, process: int, shown: dict[str, frozenset[str]], before: int | None = None
) -> None:
    """Make process `process`'s rows what it shows (`shown`: code -> names) after it
    (re)connected, announcing every room it had or has rows of; the rows of processes
    gone (and of its number `before`, if it had to take another) go."""
    with failures(), db.transaction():
        rows = db.execute(
            "DELETE FROM presence WHERE process = ANY(%s) "
            f"OR process NOT IN ({LIVE_PROCESSES}) RETURNING code",
            ([process, before or process], PROCESS_LOCKS),
        ).fetchall()
        for code, names in shown.items():
            _insert_presence(db, process, code, names)
        for code in sorted({row[0] for row in rows} | set(shown)):
            db.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, f"{code} {process}"))


def _insert_presence(db: Db, process: int, code: str, names: Collection[str]) -> None:
    for name in sorted(names):
        db.execute(
            "INSERT INTO presence (process, code, name) VALUES (%s, %s, %s)",
            (process, code, name),
        )


PRESENT = (
    "SELECT code, name FROM presence WHERE code = ANY(%s) AND process <> %s "
    f"AND process IN ({LIVE_PROCESSES})"
)
"""Who the other live processes show each of some rooms' games to."""


def present(rows: list[Any], codes: Collection[str]) -> dict[str, frozenset[str]]:
    """The people connected to each room of `codes` through other processes, from the
    rows of PRESENT."""
    found: dict[str, set[str]] = {code: set() for code in codes}
    for code, name in rows:
        found.setdefault(code, set()).add(name)
    return {code: frozenset(names) for code, names in found.items()}


def presence_elsewhere(db: Db, process: int, codes: Collection[str]) -> dict[str, frozenset[str]]:
    """The people connected to each room of `codes` through the other live processes."""
    with failures():
        rows = db.execute(PRESENT, (list(codes), process, PROCESS_LOCKS)).fetchall()
    return present(rows, codes)


async def read_presence_elsewhere(
    conn: AsyncDb, process: int, codes: Collection[str]
) -> dict[str, frozenset[str]]:
    """`presence_elsewhere` on the event loop's listening connection (psycopg's errors
    are the caller's)."""
    cursor = await conn.execute(PRESENT.encode(), (list(codes), process, PROCESS_LOCKS))
    return present(await cursor.fetchall(), codes)


# -- rows ---------------------------------------------------------------------------------


def _one(db: Db, query: str, parameters: tuple[object, ...]) -> Any:
    row = db.execute(query.encode(), parameters).fetchone()
    assert row is not None
    return row[0]


def _values(room: RoomSave, when: datetime | None) -> dict[str, object]:
    setup = room.setup
    return {
        "code": room.code,
        "game": setup.game,
        "size": setup.size,
        "variant": setup.variant,
        "komi": setup.komi,
        "creator": setup.creator,
        "joiner": room.joiner,
        "rated": setup.rated,
        "sgf": room.sgf,
        "when": when,
        "version": room.events[-1].version if room.events else 1,
        "phase": room.phase,
        "komi_chosen": room.komi_chosen,
        "time_control": setup.clock,
        "clock_main": _listed(room.clock_main),
        "clock_periods": _listed(room.clock_periods),
        "open_challenge": setup.open,
        "colour": setup.colour,
        "rating_range": setup.rating_range or None,
    }


def stored_room(row: dict[str, Any]) -> StoredRoom:
    return StoredRoom(
        code=row["code"],
        setup=RoomSetup(
            game=row["game"],
            size=row["size"],
            variant=row["variant"],
            komi=row["komi"],
            creator=row["creator"],
            rated=bool(row["rated"]),
            clock=row["time_control"],
            open=bool(row["open_challenge"]),
            colour=row["colour"],
            rating_range=row["rating_range"] or "",
        ),
        joiner=row["joiner"],
        sgf=row["sgf"],
        version=row["version"],
        created=row["created"],
        updated=row["updated"],
        finished=row["finished"],
        result=row["result"],
        winner=row["winner"],
        phase=row["phase"],
        komi_chosen=row["komi_chosen"],
        turn_started=row["turn_started"],
        clock_main=tuple(row["clock_main"]) if row["clock_main"] is not None else None,
        clock_periods=tuple(row["clock_periods"]) if row["clock_periods"] is not None else None,
    )
