"""The SQLite store's tables, made and changed by numbered migrations.

`schema_version` lists the migrations applied. Each migration is applied once, in a
transaction of its own that first checks it is not there yet (two processes starting at
once apply it once between them). A later version adds a column or a table by adding a
migration at the end of `MIGRATIONS`, never by changing one already released.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta


@dataclass(frozen=True)
class Migration:
    version: int
    what: str
    statements: tuple[str, ...]


MIGRATIONS = (
    Migration(
        1,
        "rooms (the archive once finished), names and their keys, ratings",
        (
            """CREATE TABLE rooms (
                code TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                size INTEGER,
                variant TEXT,
                komi REAL,
                creator TEXT NOT NULL,
                joiner TEXT,
                rated INTEGER NOT NULL DEFAULT 0,
                sgf TEXT,
                version INTEGER NOT NULL,
                created TEXT NOT NULL,
                updated TEXT NOT NULL,
                finished TEXT,
                result TEXT,
                winner TEXT
            )""",
            "CREATE INDEX rooms_by_update ON rooms (updated)",
            "CREATE INDEX rooms_by_creator ON rooms (creator, updated)",
            "CREATE INDEX rooms_by_joiner ON rooms (joiner, updated)",
            "CREATE INDEX rooms_unfinished ON rooms (code) WHERE finished IS NULL",
            """CREATE TABLE names (
                name TEXT PRIMARY KEY,
                key TEXT NOT NULL,
                created TEXT NOT NULL
            )""",
            """CREATE TABLE ratings (
                name TEXT NOT NULL,
                game TEXT NOT NULL,
                value REAL NOT NULL,
                deviation REAL NOT NULL,
                volatility REAL NOT NULL,
                games INTEGER NOT NULL,
                updated TEXT NOT NULL,
                PRIMARY KEY (name, game)
            )""",
            # One row per player and rated game: the key makes a second update of the
            # same game impossible, and the rows are the history of each rating.
            """CREATE TABLE rating_changes (
                code TEXT NOT NULL REFERENCES rooms (code),
                name TEXT NOT NULL,
                game TEXT NOT NULL,
                value_before REAL NOT NULL,
                deviation_before REAL NOT NULL,
                value_after REAL NOT NULL,
                deviation_after REAL NOT NULL,
                PRIMARY KEY (code, name)
            )""",
        ),
    ),
    Migration(
        2,
        "a room's clock (its time control's spec), kept from its making",
        ("ALTER TABLE rooms ADD COLUMN clock TEXT",),
    ),
    Migration(
        3,
        "open challenges: a room anyone may join from the lobby, without its code",
        ("ALTER TABLE rooms ADD COLUMN open_challenge INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration(
        4,
        "a room's last changes (its chat lines and offers waiting, read again at a restart)",
        ("ALTER TABLE rooms ADD COLUMN recent TEXT",),
    ),
    Migration(
        5,
        "each room's events, numbered from 1 (a room's version is its event count)",
        (
            # One row per event (`rooms.events`): its kind and its fields as JSON, kept
            # in the transaction of the change that made it; `at` is the change's time
            # (UTC, ISO 8601, to the microsecond). The rooms kept before have theirs
            # derived once, at the store's start (`store.derived`).
            """CREATE TABLE room_events (
                code TEXT NOT NULL REFERENCES rooms (code),
                version INTEGER NOT NULL,
                kind TEXT NOT NULL,
                data TEXT NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (code, version)
            )""",
        ),
    ),
    Migration(
        6,
        "the last version each person saw of each room",
        (
            # One row per person and room a screen of theirs showed: the last version
            # it showed (only ever raised), for what a screen coming back missed.
            """CREATE TABLE seen (
                name TEXT NOT NULL,
                code TEXT NOT NULL,
                version INTEGER NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (name, code)
            )""",
        ),
    ),
    Migration(
        7,
        "a room's creator's colour (first, second, random) and an open challenge's rating range",
        (
            # `colour`: first, second or random (drawn when somebody joins); rooms made
            # before read as first. `rating_range`: `±200` or `1400-1800`; NULL: anyone.
            "ALTER TABLE rooms ADD COLUMN colour TEXT NOT NULL DEFAULT 'first'",
            "ALTER TABLE rooms ADD COLUMN rating_range TEXT",
        ),
    ),
    Migration(
        8,
        "how each player is told of their games while away, and the notices sent",
        (
            # A player's notice target (an URL or mailto:ADDRESS; NULL: none) and quiet
            # hours (`store.notices`); a notice sent is claimed by its row, once.
            "CREATE TABLE notify_settings (name TEXT PRIMARY KEY, target TEXT, "
            "quiet_from INTEGER, quiet_to INTEGER, utc_offset INTEGER NOT NULL DEFAULT 0, "
            "updated TEXT NOT NULL)",
            "CREATE TABLE notices_sent (name TEXT NOT NULL, code TEXT NOT NULL, "
            "version INTEGER NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, "
            "PRIMARY KEY (name, code, version))",
            "CREATE INDEX notices_sent_by_time ON notices_sent (at)",
        ),
    ),
    Migration(
        9,
        "mutes and blocks, reports to the admins, suspended names",
        (
            # Who mutes or blocks whom (`store.moderation`), the reports made to the
            # admins, and the names suspended; times in seconds since the epoch.
            "CREATE TABLE IF NOT EXISTS relations (name TEXT NOT NULL, other TEXT NOT NULL, "
            "kind TEXT NOT NULL CHECK (kind IN ('mute', 'block')), at REAL NOT NULL, "
            "PRIMARY KEY (name, other, kind))",
            "CREATE INDEX IF NOT EXISTS relations_by_other ON relations (other)",
            "CREATE TABLE IF NOT EXISTS reports (reporter TEXT NOT NULL, reported TEXT NOT NULL, "
            "reason TEXT NOT NULL, at REAL NOT NULL)",
            "CREATE INDEX IF NOT EXISTS reports_by_pair ON reports (reporter, reported, at)",
            # The games' ends by time, for the aborts counted per person and day.
            "CREATE INDEX IF NOT EXISTS room_events_ended ON room_events (at) WHERE kind = 'ended'",
            "CREATE TABLE IF NOT EXISTS suspensions (name TEXT PRIMARY KEY, "
            "until REAL NOT NULL, reason TEXT NOT NULL, admin TEXT NOT NULL, "
            "at REAL NOT NULL)",
        ),
    ),
    Migration(
        10,
        "replies kept ready in days-per-move rooms (conditional moves), secret until played",
        (  # `store.conditional`
            "CREATE TABLE IF NOT EXISTS kept_replies (code TEXT NOT NULL, name TEXT NOT NULL, "
            "named TEXT NOT NULL, reply TEXT NOT NULL, moves INTEGER NOT NULL, "
            "at TEXT NOT NULL, PRIMARY KEY (code, name, named))",
        ),
    ),
    Migration(
        11,
        "rated puzzles: the server's puzzles, the players' puzzle ratings and tries",
        (  # `store.puzzle_book`
            "CREATE TABLE IF NOT EXISTS puzzles (key TEXT PRIMARY KEY, game TEXT NOT NULL, "
            "size INTEGER NOT NULL, data TEXT NOT NULL, value REAL NOT NULL, "
            "deviation REAL NOT NULL, volatility REAL NOT NULL, source TEXT NOT NULL, "
            "added TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles (game, value)",
            "CREATE TABLE IF NOT EXISTS puzzle_ratings (name TEXT NOT NULL, "
            "game TEXT NOT NULL, value REAL NOT NULL, deviation REAL NOT NULL, "
            "volatility REAL NOT NULL, "
            "tries INTEGER NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (name, game))",
            "CREATE TABLE IF NOT EXISTS puzzle_tries (id INTEGER PRIMARY KEY, "
            "name TEXT NOT NULL, key TEXT NOT NULL, game TEXT NOT NULL, won INTEGER NOT NULL, "
            "value_before REAL NOT NULL, value_after REAL NOT NULL, at TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS puzzle_tries_by_name ON puzzle_tries (name, game)",
            "CREATE TABLE IF NOT EXISTS puzzles_mined (code TEXT PRIMARY KEY, "
            "found INTEGER NOT NULL, at TEXT NOT NULL)",
        ),
    ),
)


class NewerStore(Exception):
    """The store was made by a newer version of the program (the message says which)."""

    @staticmethod
    def message(version: int, known: int) -> str:
        """Why a store whose tables are at `version` cannot be used by this program, which
        knows versions up to `known`."""
        return (
            f"its tables are at version {version}, made by a newer version of abstracts-tui "
            f"(this one knows versions up to {known})"
        )


_last_now = ""
_now_lock = threading.Lock()


def now() -> str:
    """The time as the store keeps it: UTC, ISO 8601, to the microsecond (sorts as text).
    Each call gives a later time than the one before in this process, so that two changes
    in the same microsecond still list in the order they were made."""
    global _last_now
    with _now_lock:
        moment = datetime.now(UTC)
        text = moment.isoformat(sep=" ", timespec="microseconds")[:26]
        if text <= _last_now:
            last = datetime.fromisoformat(_last_now).replace(tzinfo=UTC)
            text = (last + timedelta(microseconds=1)).isoformat(sep=" ")[:26]
        _last_now = text
        return text


def migrate(db: sqlite3.Connection) -> None:
    """Apply the migrations `db` has not had yet (`db` in autocommit mode)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version "
        "(version INTEGER PRIMARY KEY, what TEXT NOT NULL, applied TEXT NOT NULL)"
    )
    for migration in MIGRATIONS:
        db.execute("BEGIN IMMEDIATE")
        try:
            done = db.execute(
                "SELECT 1 FROM schema_version WHERE version = ?", (migration.version,)
            ).fetchone()
            if done is None:
                for statement in migration.statements:
                    db.execute(statement)
                db.execute(
                    "INSERT INTO schema_version VALUES (?, ?, ?)",
                    (migration.version, migration.what, now()),
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    (newest,) = db.execute("SELECT max(version) FROM schema_version").fetchone()
    known = max(migration.version for migration in MIGRATIONS)
    if newest > known:
        raise NewerStore(NewerStore.message(newest, known))
