"""The store in one SQLite file (`server.db` in the server's data folder).

WAL mode, so that reading the archive never waits for a move being saved, and every
commit synced (`synchronous=FULL`): a move saved is on the disk, as the autosave files
were. One connection, used by one thread at a time: the writer thread saves rooms, worker
threads answer queries, and a transaction is short. Another program holding the file's
lock (an `sqlite3` shell left in a transaction) makes a save wait up to `timeout` seconds,
then fail with a sentence saying so, as a full or read-only disk does.

The file is trusted only while it is sound (`sqlite_file`): a new store is made only where
there is no file, an existing one is examined at the start (SQLite's quick check), and
one found damaged while the server runs (SQLite says so, or another program changed it
into something unsound) is logged once and written to no more: each save fails with
`the store's file is damaged`, which the players are told as any failed save.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Collection, Iterator
from datetime import UTC, datetime
from pathlib import Path

from ..ratings import Rating
from ..rooms.events import Stamped
from ..rooms.live import EVENTS_READ
from .base import (
    RECENT_CHANGES,
    PlayerRating,
    RatingPoint,
    Recent,
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
from .schema import NewerStore, migrate, now
from .sqlite_errors import DAMAGED, not_text, reason
from .sqlite_file import LEAVE_IT, Watch, examine_file, examine_tables, make_new, read_only

log = logging.getLogger(__name__)

ROOM_COLUMNS = (
    "code, game, size, variant, komi, creator, joiner, rated, sgf, version, "
    "created, updated, finished, result, winner, clock, open_challenge, recent, "
    "colour, rating_range"
)


INSERT_ROOM = (
    f"INSERT INTO rooms ({ROOM_COLUMNS}) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?)"
)
"""A new room at version 1 (or its last change's), unfinished (made and changed at the
same time)."""


NAME_KEY = (
    f"SELECT key FROM names WHERE {sql_skeleton('name')} = ? "
    "ORDER BY name = ? DESC, created, name LIMIT 1"
)
"""The key of a name (its skeleton, then the name): its own, else the first look-alike's."""


def when(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(sep=" ", timespec="milliseconds")[:23]


def event_time(at: float) -> str:
    """An event's time as `room_events.at` keeps it: to the microsecond, so that the time
    read back (`event_at`) is the same number (a commit's time is taken so)."""
    return datetime.fromtimestamp(at, UTC).isoformat(sep=" ", timespec="microseconds")[:26]


def event_at(text: str) -> float:
    return when(text).timestamp()


class SqliteStore:
    """Rooms, the archive, names and ratings in one SQLite file."""

    def __init__(self, path: Path, *, timeout: float = 5.0) -> None:
        """Open the file (made, owner-only, only if there is none), examine it and bring
        its tables up to date; raises StoreError saying why it cannot be used."""
        self.path = path
        self.location = str(path)
        self._lock = threading.Lock()
        self.damaged: str | None = None
        """Why the file is no longer written to, once it was found damaged."""
        if not os.path.lexists(path):
            make_new(path)
        examine_file(path)
        # A reader of its own, open as long as the store: the file is examined through
        # it (a connection that cannot write cannot write over a damaged file), and while
        # it is open the store's own connection, closing, leaves its last writes in the
        # WAL rather than write them into a file found damaged meanwhile.
        try:
            self._reader = read_only(path)
            examine_tables(self._reader, path)
        except sqlite3.Error as error:
            self._close_reader()
            raise StoreError(f"{path} cannot be opened: {reason(error)}") from None
        except StoreError:
            self._close_reader()
            raise
        try:
            self._db = sqlite3.connect(
                path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            self._close_reader()
            raise StoreError(f"{path} cannot be opened: {reason(error)}") from None
        try:
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StoreError(f"{path} cannot be put in WAL mode (it is in {mode} mode)")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            migrate(self._db)
            self._watch = Watch(path)
            derive_missing(self)
        except sqlite3.Error as error:
            self._close_all()
            raise StoreError(f"{path} cannot be used: {reason(error)}") from None
        except UnicodeDecodeError:
            self._close_all()
            raise StoreError(f"{path} is damaged (a text in it is not UTF-8): {LEAVE_IT}") from None
        except NewerStore as error:
            self._close_all()
            raise StoreError(f"{path} cannot be used: {error}") from None
        except StoreError as error:
            self._close_all()
            if not str(error).startswith(str(path)):  # a damaged row read at the start
                raise StoreError(f"{path} cannot be used: {error}") from None
            raise

    def _close_reader(self) -> None:
        reader = getattr(self, "_reader", None)
        if reader is not None:
            reader.close()  # it reads only: its closing writes nothing

    def _close_all(self) -> None:
        """Close both connections: the store's last, so that its last checkpoint writes
        the WAL into the file, unless the file was found damaged (then the reader, closed
        after it, keeps it from writing, and the WAL stays beside the file)."""
        if self.damaged is None:
            self._close_reader()
            self._db.close()
        else:
            self._db.close()
            self._close_reader()

    # -- transactions ---------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection in a write transaction, committed at the end (rolled back on an
        error); sqlite3's errors become StoreError. Refused at once once the file is found
        damaged: writing to it could only lose more."""
        with self._lock:
            self._look()
            if self.damaged is not None:
                raise StoreError(DAMAGED)
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise StoreError(self._failed(error)) from None
            except UnicodeDecodeError as error:
                raise StoreError(self._not_text(error)) from None
            finally:
                self._watch.written()

    def _read(self, query: str, parameters: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            self._look()
            try:
                cursor = self._db.execute(query, parameters)
                cursor.row_factory = sqlite3.Row
                return cursor.fetchall()
            except sqlite3.Error as error:
                raise StoreError(self._failed(error)) from None
            except UnicodeDecodeError as error:
                raise StoreError(self._not_text(error)) from None

    def _look(self) -> None:
        """Examine the file if another program changed it (under the lock)."""
        if self.damaged is None:
            problem = self._watch.problem()
            if problem is not None:
                self._damage(f"another program changed it, and it {problem}")

    def _failed(self, error: sqlite3.Error) -> str:
        """What a failed statement means for the player; a damaged file is marked so."""
        name = getattr(error, "sqlite_errorname", "") or ""
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            self._damage(f"SQLite says: {reason(error)}")
            return DAMAGED
        if not_text(error):
            self._damage("a text in it is not UTF-8")
            return DAMAGED
        return reason(error)

    def _not_text(self, error: UnicodeDecodeError) -> str:
        """A text read back is not UTF-8, as the store wrote it: the file is damaged."""
        self._damage(f"a text in it is not UTF-8: {error.reason}")
        return DAMAGED

    def _damage(self, why: str) -> None:
        """Write nothing more to the file, and say so once in the log."""
        if self.damaged is None:
            self.damaged = why
            log.error(
                "%s cannot be trusted any more (%s): nothing more is written to it, and "
                "the games are not being saved; stop the server and put back a copy "
                "(`serve --check` says whether a file is sound; the last saves stay in "
                "%s-wal)",
                self.location,
                why,
                self.location,
            )

    # -- rooms ----------------------------------------------------------------------------

    def save_room(self, room: RoomSave) -> int:
        return self.keep_room(room)[0]

    def keep_room(self, room: RoomSave) -> tuple[int, list[Stamped]]:
        """Save `room` whole with its events (`room.events`), in one transaction: its
        version after it (its last event's), and the events the store added: the game's
        `Rated`, where this save finished a rated game."""
        moment = now()
        added: list[Stamped] = []
        with self._transaction() as db:
            db.execute(
                f"{INSERT_ROOM} ON CONFLICT (code) DO UPDATE SET joiner = excluded.joiner, "
                "sgf = coalesce(excluded.sgf, rooms.sgf), "
                "version = max(rooms.version, excluded.version), "
                "recent = coalesce(excluded.recent, rooms.recent), updated = excluded.updated",
                _values(room, moment),
            )
            _insert_events(db, room.code, room.events)
            finish = room.finish
            if finish is not None:
                finished = stamp(finish.at) if finish.at is not None else moment
                changed = db.execute(
                    "UPDATE rooms SET finished = ?, result = ?, winner = ? "
                    "WHERE code = ? AND finished IS NULL",
                    (finished, finish.result, finish.winner, room.code),
                ).rowcount
                if changed:
                    at = room.events[-1].at if room.events else event_at(moment)
                    added.extend(self._rate(db, room.code, moment, at))
            (version,) = db.execute(
                "SELECT version FROM rooms WHERE code = ?", (room.code,)
            ).fetchone()
        return int(version), added

    def _rate(self, db: sqlite3.Connection, code: str, moment: str, at: float) -> list[Stamped]:
        """Update both players' ratings for the game of room `code`, just finished, if it
        is rated (inside the transaction that finished it), and add its `Rated` event as
        the room's next, at `at`: the event, if it did."""
        game, creator, joiner, rated, winner, result, version = db.execute(
            "SELECT game, creator, joiner, rated, winner, result, version FROM rooms "
            "WHERE code = ?",
            (code,),
        ).fetchone()
        if not rated or joiner is None or joiner == creator or not changes_ratings(result):
            return []
        players = (creator, joiner)
        before = [self._rating(db, name, game) for name in players]
        after = rated_after(before[0][0], before[1][0], players, winner)
        (last,) = db.execute(
            "SELECT max(version) FROM room_events WHERE code = ?", (code,)
        ).fetchone()
        rated = zip(players, before, after, strict=True)
        changes = [(name, old, new) for name, (old, _), new in rated]
        event = Stamped(max(version, last or 0) + 1, at, rated_event(changes))
        _insert_events(db, code, [event])
        db.execute("UPDATE rooms SET version = ? WHERE code = ?", (event.version, code))
        for name, (old, games), new in zip(players, before, after, strict=True):
            db.execute(
                "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?)",
                (code, name, game, old.value, old.deviation, new.value, new.deviation),
            )
            db.execute(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (name, game) DO UPDATE SET value = excluded.value, "
                "deviation = excluded.deviation, volatility = excluded.volatility, "
                "games = excluded.games, updated = excluded.updated",
                (name, game, new.value, new.deviation, new.volatility, games + 1, moment),
            )
        return [event]

    @staticmethod
    def _rating(db: sqlite3.Connection, name: str, game: str) -> tuple[Rating, int]:
        row = db.execute(
            "SELECT value, deviation, volatility, games FROM ratings WHERE name = ? AND game = ?",
            (name, game),
        ).fetchone()
        if row is None:
            return Rating(), 0
        return Rating(row[0], row[1], row[2]), int(row[3])

    def import_room(self, room: RoomSave, when: datetime) -> bool:
        with self._transaction() as db:
            inserted = db.execute(
                f"{INSERT_ROOM} ON CONFLICT (code) DO NOTHING", _values(room, stamp(when))
            )
        if inserted.rowcount:
            derive_missing(self, [room.code])
        return bool(inserted.rowcount)

    def room(self, code: str) -> StoredRoom | None:
        rows = self._read(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?", (code,))
        return self._rooms(rows)[0] if rows else None

    def rooms(
        self,
        *,
        finished: bool | None = None,
        player: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        challenges: bool = False,
    ) -> list[StoredRoom]:
        where, parameters = room_filter(finished, player, "?", challenges)
        parameters += [-1 if limit is None else limit, offset]
        rows = self._read(
            f"SELECT {ROOM_COLUMNS} FROM rooms {where} "
            "ORDER BY updated DESC, code LIMIT ? OFFSET ?",
            tuple(parameters),
        )
        return self._rooms(rows)

    def _rooms(self, rows: list[sqlite3.Row]) -> list[StoredRoom]:
        """The rooms of `rows`; a row that cannot be read (a time that is no time) is the
        file's damage, as SQLite's own errors are."""
        try:
            return [_stored_room(row) for row in rows]
        except (ValueError, TypeError, RecursionError) as error:
            with self._lock:
                self._damage(f"a room's row cannot be read: {error}")
            raise StoreError(DAMAGED) from None

    # -- events -----------------------------------------------------------------------------

    def events(self, code: str, after: int, limit: int = EVENTS_READ) -> list[Stamped]:
        """Room `code`'s events after version `after`, in order, at most `limit`."""
        rows = self._read(
            "SELECT version, kind, data, at FROM room_events WHERE code = ? AND version > ? "
            "ORDER BY version LIMIT ?",
            (code, after, limit),
        )
        try:
            return [
                stamped_of(row["version"], row["kind"], row["data"], event_at(row["at"]))
                for row in rows
            ]
        except (ValueError, TypeError) as error:
            with self._lock:
                self._damage(f"a room's event cannot be read: {error}")
            raise StoreError(DAMAGED) from None

    # -- what each person saw -----------------------------------------------------------------

    def keep_seen(self, name: str, code: str, version: int) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO seen (name, code, version, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (name, code) DO UPDATE SET version = excluded.version, "
                "at = excluded.at WHERE excluded.version > seen.version",
                (name, code, version, now()),
            )

    def seen(self, name: str, code: str) -> int | None:
        rows = self._read("SELECT version FROM seen WHERE name = ? AND code = ?", (name, code))
        return int(rows[0]["version"]) if rows else None

    def without_events(self) -> list[str]:
        """The rooms that have no events (kept before rooms had them)."""
        rows = self._read(
            "SELECT code FROM rooms WHERE NOT EXISTS "
            "(SELECT 1 FROM room_events WHERE room_events.code = rooms.code) ORDER BY code"
        )
        return [str(row["code"]) for row in rows]

    def rating_changes(self, code: str) -> list[tuple[str, Rating, Rating]]:
        """The rating changes of room `code`'s game: (name, before, after), creator first."""
        rows = self._read(
            "SELECT rating_changes.name, value_before, deviation_before, value_after, "
            "deviation_after FROM rating_changes JOIN rooms ON rooms.code = rating_changes.code "
            "WHERE rating_changes.code = ? ORDER BY rating_changes.name != rooms.creator",
            (code,),
        )
        return [(str(r[0]), Rating(r[1], r[2]), Rating(r[3], r[4])) for r in rows]

    def keep_derived(self, code: str, events: list[Stamped]) -> bool:
        """Keep the events derived for room `code` if it has none yet (one transaction):
        its version becomes their count, and its last changes are numbered up to it."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM room_events WHERE code = ?", (code,)).fetchone():
                return False
            _insert_events(db, code, events)
            (text,) = db.execute("SELECT recent FROM rooms WHERE code = ?", (code,)).fetchone()
            recent = recent_of(text)
            if recent is not None:
                text = recent_text(Recent(len(events), recent.changes))
            db.execute(
                "UPDATE rooms SET version = ?, recent = ? WHERE code = ?", (len(events), text, code)
            )
        return True

    def discard_room(self, code: str) -> bool:
        with self._transaction() as db:
            for table in ("room_events", "seen"):
                db.execute(
                    f"DELETE FROM {table} WHERE code = ? AND EXISTS "
                    "(SELECT 1 FROM rooms WHERE code = ? AND joiner IS NULL)",
                    (code, code),
                )
            deleted = db.execute(
                "DELETE FROM rooms WHERE code = ? AND joiner IS NULL", (code,)
            ).rowcount
        return bool(deleted)

    def codes(self) -> set[str]:
        return {row["code"] for row in self._read("SELECT code FROM rooms")}

    # -- names ----------------------------------------------------------------------------

    def name_key(self, name: str) -> str | None:
        rows = self._read(NAME_KEY, (skeleton(name), name))
        return str(rows[0]["key"]) if rows else None

    def keep_name(
        self, name: str, key: str, most: int | None = None, alike: bool = True
    ) -> str | None:
        with self._transaction() as db:  # one writer at a time: checked and kept at once
            if alike:
                found = db.execute(NAME_KEY, (skeleton(name), name)).fetchone()
            else:
                found = db.execute("SELECT key FROM names WHERE name = ?", (name,)).fetchone()
            if found is not None:
                return str(found[0])
            if most is not None:
                (count,) = db.execute("SELECT count(*) FROM names WHERE key = ?", (key,)).fetchone()
                if count >= most:
                    return None
            db.execute("INSERT INTO names VALUES (?, ?, ?)", (name, key, now()))
        return key

    def key_names(self, key: str) -> list[str]:
        rows = self._read("SELECT name FROM names WHERE key = ? ORDER BY created, name", (key,))
        return [str(row["name"]) for row in rows]

    def look_alikes(self) -> list[list[str]]:
        rows = self._read("SELECT name, key FROM names")
        return look_alikes((str(row["name"]), str(row["key"])) for row in rows)

    # -- ratings --------------------------------------------------------------------------

    def ratings(
        self, game: str | None = None, names: Collection[str] | None = None
    ) -> list[PlayerRating]:
        where, parameters = rating_filter(game, names, "?")
        rows = self._read(
            "SELECT name, game, value, deviation, volatility, games FROM ratings "
            f"{where} ORDER BY game, value DESC, name",
            tuple(parameters),
        )
        return [
            PlayerRating(
                row["name"],
                row["game"],
                Rating(row["value"], row["deviation"], row["volatility"]),
                row["games"],
            )
            for row in rows
        ]

    def rating_history(self, name: str, game: str | None = None) -> list[RatingPoint]:
        query, parameters = history_query(game, "?")
        rows = self._read(query, (name, *parameters))
        return [RatingPoint(str(r[0]), str(r[1]), when(r[2]), Rating(r[3], r[4])) for r in rows]

    def tally(self, name: str) -> Tally:
        (row,) = self._read(tally_query("?"), (name,) * 4)
        return Tally(int(row[0]), int(row[1]), int(row[2]))

    def close(self) -> None:
        with self._lock:
            self._close_all()


def _insert_events(
    db: sqlite3.Connection, code: str, events: tuple[Stamped, ...] | list[Stamped]
) -> None:
    for stamped in events:
        db.execute(
            "INSERT INTO room_events (code, version, kind, data, at) VALUES (?, ?, ?, ?, ?)",
            (code, *event_row(stamped, event_time)),
        )


def _values(room: RoomSave, moment: str) -> tuple[object, ...]:
    """The values of INSERT_ROOM for `room`, made and changed at `moment`."""
    setup = room.setup
    return (
        room.code,
        setup.game,
        setup.size,
        setup.variant,
        setup.komi,
        setup.creator,
        room.joiner,
        int(setup.rated),
        room.sgf,
        room.events[-1].version if room.events else 1,
        moment,
        moment,
        setup.clock,
        int(setup.open),
        recent_text(room.recent),
        setup.colour,
        setup.rating_range or None,
    )


def recent_text(recent: Recent | None) -> str | None:
    """`recent` as the `recent` column keeps it (JSON), None for none."""
    if recent is None:
        return None
    return json.dumps({"version": recent.version, "changes": [list(c) for c in recent.changes]})


def recent_of(text: str | None) -> Recent | None:
    """The `recent` column read back; raises ValueError for anything this program does not
    write there (the file's damage, as any other column that cannot be read)."""
    if text is None:
        return None
    kept = json.loads(text)
    if not isinstance(kept, dict) or set(kept) != {"version", "changes"}:
        raise ValueError("a room's last changes are not what the store writes")
    version, changes = kept["version"], kept["changes"]
    if type(version) is not int or version < 1 or not isinstance(changes, list):
        raise ValueError("a room's last changes are not what the store writes")
    if len(changes) > RECENT_CHANGES:
        raise ValueError(f"a room keeps at most {RECENT_CHANGES} last changes")
    read: list[tuple[str, str, str | None]] = []
    for change in changes:
        match change:
            case [str(kind), str(value), str() | None as by]:
                read.append((kind, value, by))
            case _:
                raise ValueError("a room's last change is not what the store writes")
    return Recent(version, tuple(read))


def _stored_room(row: sqlite3.Row) -> StoredRoom:
    return StoredRoom(
        code=row["code"],
        setup=RoomSetup(
            game=row["game"],
            size=row["size"],
            variant=row["variant"],
            komi=row["komi"],
            creator=row["creator"],
            rated=bool(row["rated"]),
            clock=row["clock"],
            open=bool(row["open_challenge"]),
            colour=row["colour"],
            rating_range=row["rating_range"] or "",
        ),
        joiner=row["joiner"],
        sgf=row["sgf"],
        version=row["version"],
        created=when(row["created"]),
        updated=when(row["updated"]),
        finished=when(row["finished"]) if row["finished"] is not None else None,
        result=row["result"],
        winner=row["winner"],
        recent=recent_of(row["recent"]),
    )
