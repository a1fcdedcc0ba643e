"""Replies kept ready in days-per-move rooms (conditional moves), in either store (SQLite
or PostgreSQL): table `kept_replies` (SQLite migration 10, PostgreSQL migration 13).

They are secret: kept here, never in a room's events until one is played. A player's
replies in a room are taken (read and deleted in one transaction) when the other player
moves, so that however many processes hear of the move, one alone plays the reply.
`StoredReplies` is what `rooms.conditional.Conditions` is given: the blocking calls run
off the event loop, and a store that fails says so in one sentence (`Refused`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..rooms.conditional import Reply
from ..rooms.live import Refused
from .base import Store, StoreError
from .either import Db, sql, writing

T = TypeVar("T")


def _rows(db: Db, mark: str, code: str, name: str) -> list[Reply]:
    query = (
        "SELECT named, reply, moves FROM kept_replies WHERE code = ? AND name = ? "
        "ORDER BY at, named"
    )
    found: Sequence[Sequence[Any]] = db.execute(sql(query, mark), (code, name)).fetchall()
    return [Reply(str(named), str(reply), int(moves)) for named, reply, moves in found]


def kept(store: Store, code: str, name: str) -> list[Reply]:
    """`name`'s replies kept in room `code`, in the order they were kept."""
    with writing(store, "replies") as (db, mark, _):
        return _rows(db, mark, code, name)


def keep(store: Store, code: str, name: str, replies: Sequence[Reply]) -> None:
    """Keep `replies` as all of `name`'s in room `code` (those before are replaced)."""
    with writing(store, "replies") as (db, mark, moment):
        db.execute(sql("DELETE FROM kept_replies WHERE code = ? AND name = ?", mark), (code, name))
        for reply in replies:
            db.execute(
                sql(
                    "INSERT INTO kept_replies (code, name, named, reply, moves, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    mark,
                ),
                (code, name, reply.named, reply.reply, reply.moves, moment),
            )


def take(store: Store, code: str, name: str) -> list[Reply]:
    """`name`'s replies in room `code`, deleted in the same transaction: the one caller
    that finds them has them."""
    with writing(store, "replies") as (db, mark, _):
        found = _rows(db, mark, code, name)
        db.execute(sql("DELETE FROM kept_replies WHERE code = ? AND name = ?", mark), (code, name))
        return found


def clear(store: Store, code: str) -> None:
    """Forget every reply kept in room `code` (its game ended)."""
    with writing(store, "replies") as (db, mark, _):
        db.execute(sql("DELETE FROM kept_replies WHERE code = ?", mark), (code,))


class StoredReplies:
    """The replies of a store, as `rooms.conditional.Replies` (coroutines, run on a
    thread; a store that fails raises Refused)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        try:
            return await asyncio.to_thread(work, self.store, *args)
        except StoreError as error:
            raise Refused(f"the replies kept ready cannot be reached now: {error}") from None

    async def kept(self, code: str, name: str) -> list[Reply]:
        return await self._run(kept, code, name)

    async def keep(self, code: str, name: str, replies: Sequence[Reply]) -> None:
        await self._run(keep, code, name, replies)

    async def take(self, code: str, name: str) -> list[Reply]:
        return await self._run(take, code, name)

    async def clear(self, code: str) -> None:
        await self._run(clear, code)
