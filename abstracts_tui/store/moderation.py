"""What the server keeps to deal with abuse: who mutes or blocks whom, the reports made
to its admins, the names suspended, and how many games a person aborted lately.

Kept beside the rooms in the same store (SQLite migration 9, PostgreSQL migration 10):
`relations` (one row per person, other and kind, `mute` or `block`), `reports` (one row
per report) and `suspensions` (one row per name suspended). Times are seconds since the
epoch. The aborts are counted from the rooms' events (`Ended` of how `aborted`, by the
person), so that the count holds across every process of a shared store.

`Moderation.of(store)` gives the moderation of a SQLite or PostgreSQL store, and None for
any other (nothing is then muted, blocked or suspended).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .base import Store
from .sqlite import SqliteStore

MUTE = "mute"
"""A relation: the other's chat lines are hidden from the person."""
BLOCK = "block"
"""A relation: as a mute, and the two never play each other (see `Relations.apart`)."""
FOREVER = 253_402_300_799.0
"""The end of a suspension without a number of days (the last second of year 9999)."""


@dataclass(frozen=True)
class Relations:
    """Whom one person mutes and blocks, and who blocks them."""

    muted: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    blocked_by: frozenset[str] = frozenset()

    def hides(self, name: str) -> bool:
        """Whether the person sees no chat of `name` (muted or blocked)."""
        return name in self.muted or name in self.blocked

    def apart(self, name: str) -> bool:
        """Whether the person and `name` may not play each other (one blocks the other):
        neither joins the other's room nor sees the other's open challenges."""
        return name in self.blocked or name in self.blocked_by


NOBODY = Relations()
"""The relations of a person who mutes and blocks nobody."""


@dataclass(frozen=True)
class Report:
    """A report made to the admins: by `reporter`, of `reported`, at `at`, and why."""

    reporter: str
    reported: str
    reason: str
    at: float


@dataclass(frozen=True)
class Suspension:
    """`name` may not sign in until `until` (`FOREVER`: until an admin lifts it)."""

    name: str
    until: float
    reason: str
    by: str

    def until_text(self) -> str:
        """`until 2026-12-09 15:00 UTC`, or `until an admin lifts it`."""
        if self.until >= FOREVER:
            return "until an admin lifts it"
        return f"until {datetime.fromtimestamp(self.until, UTC):%Y-%m-%d %H:%M} UTC"

    def refusal(self) -> str:
        """The one sentence a suspended name is told when it signs in."""
        return f"{self.name} is suspended {self.until_text()} ({self.reason})."


class Moderation:
    """The moderation tables of one store (SQLite or PostgreSQL); every method blocks."""

    def __init__(self, store: Any, postgres: bool) -> None:
        self._store = store
        self._postgres = postgres
        self._mark = "%s" if postgres else "?"

    @staticmethod
    def of(store: Store) -> Moderation | None:
        """The moderation of `store`, or None for a store that keeps none."""
        if isinstance(store, SqliteStore):
            return Moderation(store, postgres=False)
        if type(store).__module__ == f"{__package__}.postgres":
            return Moderation(store, postgres=True)
        return None

    @contextlib.contextmanager
    def _db(self) -> Iterator[Any]:
        """The store's connection in a write transaction."""
        with self._store._transaction() as db:
            yield db

    def _rows(self, query: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read (no write transaction: SQLite's reader does not wait for
        the rooms' writes)."""
        if not self._postgres:
            return [tuple(row) for row in self._store._read(query, tuple(parameters))]
        with postgres_failures(), self._store.pool.connection() as db:
            rows = db.execute(query.replace("?", "%s").encode(), tuple(parameters)).fetchall()
        return [tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in rows]

    def _count(self, query: str, parameters: Sequence[object]) -> int:
        query = query.replace("?", self._mark)
        with self._db() as db:
            cursor = db.execute(query.encode() if self._postgres else query, tuple(parameters))
            return int(cursor.rowcount)

    # -- mutes and blocks -------------------------------------------------------------------

    def relations(self, name: str) -> Relations:
        """Whom `name` mutes and blocks, and who blocks them."""
        rows = self._rows(
            "SELECT name, other, kind FROM relations WHERE name = ? OR (other = ? AND kind = ?)",
            (name, name, BLOCK),
        )
        mine = [(other, kind) for who, other, kind in rows if who == name]
        return Relations(
            frozenset(other for other, kind in mine if kind == MUTE),
            frozenset(other for other, kind in mine if kind == BLOCK),
            frozenset(who for who, other, kind in rows if other == name and kind == BLOCK),
        )

    def relate(self, name: str, other: str, kind: str, on: bool, at: float) -> bool:
        """Mute or block (`on`) `other` for `name`, or no longer; whether it changed."""
        if on:
            return bool(
                self._count(
                    "INSERT INTO relations (name, other, kind, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (name, other, kind) DO NOTHING",
                    (name, other, kind, at),
                )
            )
        return bool(
            self._count(
                "DELETE FROM relations WHERE name = ? AND other = ? AND kind = ?",
                (name, other, kind),
            )
        )

    # -- reports ------------------------------------------------------------------------------

    def report(self, report: Report, since: float) -> bool:
        """Keep `report` unless its reporter reported the same name at or after `since`;
        whether it was kept (checked and kept in one transaction)."""
        mark = self._mark
        query = (
            "INSERT INTO reports (reporter, reported, reason, at) SELECT ?, ?, ?, ? WHERE NOT "
            "EXISTS (SELECT 1 FROM reports WHERE reporter = ? AND reported = ? AND at >= ?)"
        ).replace("?", mark)
        values = (report.reporter, report.reported, report.reason, report.at)
        with self._db() as db:
            if self._postgres:  # one report at a time: two at once would both find none
                db.execute(b"LOCK TABLE reports IN SHARE ROW EXCLUSIVE MODE")
            cursor = db.execute(
                query.encode() if self._postgres else query,
                (*values, report.reporter, report.reported, since),
            )
            return bool(cursor.rowcount)

    def reports(self, limit: int) -> list[Report]:
        """The last `limit` reports, the newest first."""
        rows = self._rows(
            "SELECT reporter, reported, reason, at FROM reports ORDER BY at DESC LIMIT ?",
            (limit,),
        )
        return [Report(str(r[0]), str(r[1]), str(r[2]), float(r[3])) for r in rows]

    # -- suspensions ----------------------------------------------------------------------------

    def suspend(self, suspension: Suspension, at: float) -> None:
        """Suspend a name (a suspension it had is replaced)."""
        self._count(
            "INSERT INTO suspensions (name, until, reason, admin, at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET until = excluded.until, "
            "reason = excluded.reason, admin = excluded.admin, at = excluded.at",
            (suspension.name, suspension.until, suspension.reason, suspension.by, at),
        )

    def unsuspend(self, name: str) -> bool:
        """Lift `name`'s suspension; whether it had one."""
        return bool(self._count("DELETE FROM suspensions WHERE name = ?", (name,)))

    def suspension(self, name: str, now: float) -> Suspension | None:
        """`name`'s suspension running at `now`, if it has one."""
        found = self.suspended(now, name)
        return found[0] if found else None

    def suspended(self, now: float, name: str | None = None) -> list[Suspension]:
        """The suspensions running at `now` (of `name` only), by name."""
        query = "SELECT name, until, reason, admin FROM suspensions WHERE until > ?"
        parameters: list[object] = [now]
        if name is not None:
            query += " AND name = ?"
            parameters.append(name)
        rows = self._rows(query + " ORDER BY name", parameters)
        return [Suspension(str(r[0]), float(r[1]), str(r[2]), str(r[3])) for r in rows]

    # -- aborts ---------------------------------------------------------------------------------

    def aborts(self, name: str, since: float) -> list[float]:
        """When `name` aborted a game (the rooms' `Ended` events of how `aborted` by them)
        at or after `since`, the oldest first, in seconds since the epoch."""
        if self._postgres:
            rows = self._rows(
                "SELECT extract(epoch FROM at) FROM room_events WHERE kind = 'ended' "
                "AND data::jsonb ->> 'how' = 'aborted' AND data::jsonb ->> 'by' = ? "
                "AND at >= to_timestamp(?) ORDER BY at",
                (name, since),
            )
            return [float(row[0]) for row in rows]
        rows = self._rows(
            "SELECT at FROM room_events WHERE kind = 'ended' "
            "AND json_extract(data, '$.how') = 'aborted' AND json_extract(data, '$.by') = ? "
            "AND at >= ? ORDER BY at",
            (name, _sqlite_time(since)),
        )
        return [datetime.fromisoformat(str(row[0])).replace(tzinfo=UTC).timestamp() for row in rows]


@contextlib.contextmanager
def postgres_failures() -> Iterator[None]:
    """psycopg's errors as StoreError (imported only for a PostgreSQL store)."""
    from .postgres import failures

    with failures():
        yield


def _sqlite_time(at: float) -> str:
    """A moment as SQLite's `room_events.at` keeps it (`sqlite.event_time`)."""
    return datetime.fromtimestamp(at, UTC).isoformat(sep=" ", timespec="microseconds")[:26]
