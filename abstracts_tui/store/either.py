"""A transaction of either store (SQLite or PostgreSQL) for the tables kept beside the
rooms (notices, replies kept ready, puzzles): their modules write one query for both,
with `?` for each value, and `sql` puts in the store's own placeholder."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Protocol

from .base import Store, StoreError
from .schema import now
from .sqlite import SqliteStore


class Db(Protocol):
    """A connection in a transaction, of either store."""

    def execute(self, query: Any, parameters: Any = ...) -> Any: ...


@contextmanager
def writing(store: Store, keeps: str) -> Iterator[tuple[Db, str, object]]:
    """A transaction of `store`, its placeholder (`?` or `%s`) and its time now (as the
    store keeps times); `keeps`, what the tables hold, names them in the StoreError of a
    store of another kind."""
    if isinstance(store, SqliteStore):
        with store._transaction() as db:
            yield db, "?", now()
        return
    from .postgres import PostgresStore

    if not isinstance(store, PostgresStore):
        raise StoreError(f"a {type(store).__name__} keeps no {keeps}")
    with store._transaction() as db:
        yield db, "%s", datetime.now(UTC)


def sql(query: str, mark: str) -> str:
    """`query` with the placeholder `mark` for each `?`."""
    return query.replace("?", mark)
