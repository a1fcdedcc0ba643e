"""The players' notice settings and the notices sent, in either store (SQLite or
PostgreSQL): tables `notify_settings` and `notices_sent` (SQLite migration 8, PostgreSQL
migration 9).

A notice is claimed before it is sent: the row of (player, room, version of the event it
tells) is inserted in a transaction of its own, and only the process whose insert made
the row sends it. So a notice goes once, however many processes of a server hear the
event. Every function blocks (call it off the event loop) and raises StoreError.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from .base import Store
from .either import sql, writing
from .sqlite import SqliteStore

KEPT_DAYS = 30
"""How long a notice sent is remembered (a game's move is told once within it)."""


@dataclass(frozen=True)
class NoticeRow:
    """A player's notice setting as kept: the target (None: no notices) and quiet hours
    (from, to, minutes from UTC; None: none)."""

    target: str | None
    quiet: tuple[int, int, int] | None


class _Cursor(Protocol):
    rowcount: int

    def fetchall(self) -> Sequence[Sequence[Any]]: ...


def setting(store: Store, name: str) -> NoticeRow:
    """Player `name`'s setting (no target and no quiet hours when they never set one)."""
    query = "SELECT target, quiet_from, quiet_to, utc_offset FROM notify_settings WHERE name = ?"
    if isinstance(store, SqliteStore):  # a read: no write transaction
        rows: Sequence[Sequence[Any]] = store._read(query, (name,))
    else:
        with writing(store, "notices") as (db, mark, _):
            rows = db.execute(sql(query, mark), (name,)).fetchall()
    if not rows:
        return NoticeRow(None, None)
    target, start, end, offset = rows[0]
    quiet = None if start is None else (int(start), int(end), int(offset))
    return NoticeRow(None if target is None else str(target), quiet)


def keep_setting(store: Store, name: str, row: NoticeRow) -> None:
    """Keep `row` as player `name`'s setting."""
    start, end, offset = row.quiet if row.quiet is not None else (None, None, 0)
    with writing(store, "notices") as (db, mark, moment):
        db.execute(
            sql(
                "INSERT INTO notify_settings (name, target, quiet_from, quiet_to, utc_offset, "
                "updated) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                "target = excluded.target, quiet_from = excluded.quiet_from, "
                "quiet_to = excluded.quiet_to, utc_offset = excluded.utc_offset, "
                "updated = excluded.updated",
                mark,
            ),
            (name, row.target, start, end, offset, moment),
        )


def claim(store: Store, name: str, code: str, version: int, kind: str) -> bool:
    """Claim the notice to `name` of room `code`'s event `version`: True for the one
    caller that claimed it first (it sends it), False for every other."""
    with writing(store, "notices") as (db, mark, moment):
        cursor = db.execute(
            sql(
                "INSERT INTO notices_sent (name, code, version, kind, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (name, code, version) DO NOTHING",
                mark,
            ),
            (name, code, version, kind, moment),
        )
        return bool(cursor.rowcount == 1)


def forget_old(store: Store) -> None:
    """Forget the notices sent more than `KEPT_DAYS` ago."""
    with writing(store, "notices") as (db, mark, moment):
        if isinstance(moment, str):
            cutoff: object = (datetime.now(UTC) - timedelta(days=KEPT_DAYS)).isoformat(sep=" ")[:26]
        else:
            cutoff = datetime.now(UTC) - timedelta(days=KEPT_DAYS)
        db.execute(sql("DELETE FROM notices_sent WHERE at < ?", mark), (cutoff,))
