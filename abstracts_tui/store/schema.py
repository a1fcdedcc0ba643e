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
    if newest > MIGRATIONS[-1].version:
        raise NewerStore(NewerStore.message(newest, MIGRATIONS[-1].version))
