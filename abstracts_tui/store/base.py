"""What the server keeps, and the interface every store offers.

A store keeps rooms (each a row: code, setup, the record's SGF, a version that grows with
every change, when it was created, changed and finished, and the result), which are the
archive once finished; the key each name first logged in with; and each player's rating
per game. `SqliteStore` keeps them in one file; a shared database can implement the same
`Store` for several server processes (a room's version is what tells them a room changed).

Every method blocks (on a disk now, on a network later): the server calls them off its
event loop, on the autosave's writer thread for a room's saves and on worker threads for
the queries, except while it starts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Protocol, TypeVar

from ..files import SaveError
from ..ratings import PlayerRating, Rating, RatingPoint, Tally, after_game
from ..records.results import VOID
from ..rooms.events import EventError, Stamped, Unknown, decode, encode
from ..rooms.kept import (
    RECENT_CHANGES,
    Finish,
    Recent,
    RoomSave,
    RoomSetup,
    StoredRoom,
    rated_event,
)

T = TypeVar("T")

__all__ = [  # the rows a store deals in
    "RECENT_CHANGES",
    "Finish",
    "PlayerRating",
    "RatingPoint",
    "Recent",
    "RoomSave",
    "RoomSetup",
    "StoredRoom",
    "Tally",
    "rated_event",
]


class StoreError(SaveError):
    """The store cannot do what was asked; the message says why, in a player's words."""


class Store(Protocol):
    """Rooms, the archive, names and ratings, kept for the server."""

    location: str
    """Where the store is, as the players and the log are told: its file."""

    def save_room(self, room: RoomSave) -> int:
        """Save the room whole (made if new) with its events (`room.events`) in one
        transaction; returns its version after it (its event count). The first save with
        a finish marks the room finished and, if it is rated, updates both players'
        ratings, and adds the game's `Rated` event as the room's next: once, however
        often it is saved after."""
        ...

    def keep_room(self, room: RoomSave) -> tuple[int, list[Stamped]]:
        """As `save_room`, with the events the store added (the game's `Rated`)."""
        ...

    def events(self, code: str, after: int, limit: int) -> list[Stamped]:
        """Room `code`'s events after version `after`, in order, at most `limit`."""
        ...

    def import_room(self, room: RoomSave, when: datetime) -> bool:
        """Add a room kept elsewhere before (made and last changed at `when`); False if
        a room with its code is there already (it is left as it is)."""
        ...

    def room(self, code: str) -> StoredRoom | None: ...

    def keep_seen(self, name: str, code: str, version: int) -> None:
        """A screen of `name`'s showed room `code` up to `version`: kept, unless a later
        version is kept for them already."""
        ...

    def seen(self, name: str, code: str) -> int | None:
        """The last version of room `code` a screen of `name`'s showed (None: none)."""
        ...

    def rooms(
        self,
        *,
        finished: bool | None = None,
        player: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        challenges: bool = False,
    ) -> list[StoredRoom]:
        """Rooms, the most recently changed first: finished ones only (True), unfinished
        ones only (False) or both (None); of one player, or of everyone; a page of
        `limit` from `offset`; with `challenges`, the open challenges nobody has
        accepted yet only."""
        ...

    def codes(self) -> set[str]:
        """Every room code in use, finished rooms' too (a code names one game forever)."""
        ...

    def discard_room(self, code: str) -> bool:
        """Delete room `code` if nobody joined it (its creator called it off: one player,
        no move, nothing of it worth keeping in the archive); whether it was deleted. A
        room somebody joined is never deleted."""
        ...

    def name_key(self, name: str) -> str | None:
        """The key `name` first logged in with, else the key of the first name kept that
        looks like it (the same `names.skeleton`), if there is one."""
        ...

    def keep_name(
        self, name: str, key: str, most: int | None = None, alike: bool = True
    ) -> str | None:
        """Keep `key` for `name` unless the name has a key already (with `alike`, unless
        a name that looks like it has one), or `key` has `most` names already; returns
        the key `name_key` gives now (None: none, since `key` has its `most`)."""
        ...

    def key_names(self, key: str) -> list[str]:
        """The names kept for `key`, the first kept first."""
        ...

    def look_alikes(self) -> list[list[str]]:
        """The names that look alike (the same skeleton) and are kept for different keys,
        in groups: kept before names were compared by their skeletons."""
        ...

    def ratings(
        self, game: str | None = None, names: Collection[str] | None = None
    ) -> list[PlayerRating]:
        """Every rating (of one game; of these names only), by game, then the highest
        first."""
        ...

    def rating_history(self, name: str, game: str | None = None) -> list[RatingPoint]:
        """`name`'s rating after each rated game they played (of one game), by game, then
        the oldest first."""
        ...

    def tally(self, name: str) -> Tally:
        """How many games `name` finished with somebody else, won and lost (not counting
        those called off)."""
        ...

    def close(self) -> None: ...


def history_query(game: str | None, mark: str) -> tuple[str, list[object]]:
    """The query of `Store.rating_history` for one player (the first parameter, left for
    the caller) and `game` (None: every game), with `mark` the database's placeholder:
    its rows are game, code, finished, value and deviation after."""
    query = (
        "SELECT c.game, c.code, r.finished, c.value_after, c.deviation_after "
        f"FROM rating_changes c JOIN rooms r ON r.code = c.code WHERE c.name = {mark}"
    )
    parameters: list[object] = []
    if game is not None:
        query += f" AND c.game = {mark}"
        parameters.append(game)
    return query + " ORDER BY c.game, r.finished, c.code", parameters


def tally_query(mark: str) -> str:
    """The query of `Store.tally`, with `mark` the database's placeholder: its parameters
    are the name four times; its one row is the games played, won and lost."""
    return (
        "SELECT count(*), "
        f"coalesce(sum(CASE WHEN winner = {mark} THEN 1 ELSE 0 END), 0), "
        f"coalesce(sum(CASE WHEN winner IS NOT NULL AND winner <> {mark} THEN 1 ELSE 0 END), 0) "
        "FROM rooms WHERE finished IS NOT NULL AND joiner IS NOT NULL AND joiner <> creator "
        f"AND (creator = {mark} OR joiner = {mark}) "
        f"AND lower(coalesce(result, '')) <> '{VOID.lower()}'"
    )


def room_filter(
    finished: bool | None, player: str | None, mark: str, challenges: bool = False
) -> tuple[str, list[object]]:
    """The WHERE clause of `Store.rooms` for `finished`, `player` and `challenges` (empty
    for none), with `mark` the database's placeholder, and its parameters."""
    conditions = []
    parameters: list[object] = []
    if challenges:
        conditions.append(f"open_challenge = {mark} AND joiner IS NULL AND finished IS NULL")
        parameters.append(True)
    if finished is not None:
        conditions.append("finished IS NOT NULL" if finished else "finished IS NULL")
    if player is not None:
        conditions.append(f"(creator = {mark} OR joiner = {mark})")
        parameters += [player, player]
    return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), parameters


def rating_filter(
    game: str | None, names: Collection[str] | None, mark: str
) -> tuple[str, list[object]]:
    """The WHERE clause of `Store.ratings` for `game` and `names` (empty for neither), with
    `mark` the database's placeholder, and its parameters."""
    conditions = []
    parameters: list[object] = []
    if game is not None:
        conditions.append(f"game = {mark}")
        parameters.append(game)
    if names is not None:
        names = sorted(set(names))
        conditions.append(f"name IN ({', '.join([mark] * len(names))})" if names else "FALSE")
        parameters += names
    return (f"WHERE {' AND '.join(conditions)}" if conditions else ""), parameters


def changes_ratings(result: str) -> bool:
    """Whether a rated room that ended with `result` changes its players' ratings: not
    one whose game was called off (`Void`: aborted before each side had moved)."""
    return result.strip().lower() != VOID.lower()


def rated_after(
    first: Rating, second: Rating, players: Sequence[str], winner: str | None
) -> tuple[Rating, Rating]:
    """The two players' ratings after their game (`players`: the first's name, then the
    second's; `winner`: one of them, or None for a draw)."""
    score = 0.5 if winner is None else 1.0 if winner == players[0] else 0.0
    return after_game(first, second, score)


def event_row(stamped: Stamped, time_of: Callable[[float], T]) -> tuple[int, str, str, T]:
    """An event as a row of `room_events` keeps it: version, kind, data (JSON), and its
    time as `time_of` gives it for the store."""
    kind, data = encode(stamped.event)
    return stamped.version, kind, data, time_of(stamped.at)


def stamped_of(version: int, kind: str, data: str, at: float) -> Stamped:
    """An event read back from its row: one that cannot be read is told as one this
    version does not know (`Unknown`), not a failure of the room."""
    try:
        event = decode(kind, data)
    except EventError:
        event = Unknown(kind[:40])
    return Stamped(int(version), at, event)
