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

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from ..files import SaveError
from ..ratings import Rating, after_game
from ..records.results import VOID


class StoreError(SaveError):
    """The store cannot do what was asked; the message says why, in a player's words."""


@dataclass(frozen=True)
class RoomSetup:
    """What a room is made with and keeps: the game, its options, who made it, whether
    it is rated."""

    game: str
    size: int | None = None
    variant: str | None = None
    komi: float | None = None
    creator: str = ""
    rated: bool = False
    clock: str | None = None
    """The time control's spec; None: no clock."""
    open: bool = False
    """An open challenge: listed in every lobby until somebody accepts it (joins)."""


@dataclass(frozen=True)
class Finish:
    """How a room's game ended."""

    result: str
    """The record's result: `Blue+3`, `draw`."""
    winner: str | None
    """The winner's name; None for a draw."""
    at: datetime | None = None
    """When; None: now, by the store's clock."""


@dataclass(frozen=True)
class RoomSave:
    """A room as it is at one moment, saved whole (so that only the newest one matters)."""

    code: str
    setup: RoomSetup
    joiner: str | None
    sgf: str | None
    """The record; None while it has none (komi and sides are still being chosen): the
    one stored, if any, is kept."""
    finish: Finish | None = None
    """Set once the game is over: the first save that has it finishes the room (and rates
    it, if rated); later ones leave the finish as it is."""
    phase: str = "play"
    """Before the record starts: `komi` (the creator sets it) or `side` (the joiner
    chooses); a store shared by several processes keeps it, the SQLite store starts
    those steps again at a restart."""
    komi_chosen: float | None = None
    """The komi set in the `komi` step, while the side is being chosen."""
    clock_main: tuple[float, ...] | None = None
    """Each person's main time left when their clock last stopped or started (a store
    shared by several processes keeps it, with when the running clock started)."""
    clock_periods: tuple[int, ...] | None = None
    """Each person's byo-yomi periods left, likewise."""


@dataclass(frozen=True)
class StoredRoom:
    """A room as the store has it."""

    code: str
    setup: RoomSetup
    joiner: str | None
    sgf: str | None
    version: int
    created: datetime
    updated: datetime
    finished: datetime | None
    result: str | None
    winner: str | None
    phase: str = "play"
    komi_chosen: float | None = None
    turn_started: datetime | None = None
    """When the running clock started, by the database's clock."""
    clock_main: tuple[float, ...] | None = None
    clock_periods: tuple[int, ...] | None = None

    @property
    def players(self) -> tuple[str, ...]:
        creator = self.setup.creator
        return (creator,) if self.joiner is None else (creator, self.joiner)


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in one game, and how many rated games it comes from."""

    name: str
    game: str
    rating: Rating
    games: int


class Store(Protocol):
    """Rooms, the archive, names and ratings, kept for the server."""

    location: str
    """Where the store is, as the players and the log are told: its file."""

    def save_room(self, room: RoomSave) -> int:
        """Save the room whole (made if new) in one transaction; returns its new version.
        The first save with a finish marks the room finished and, if it is rated,
        updates both players' ratings: once, however often it is saved after."""
        ...

    def import_room(self, room: RoomSave, when: datetime) -> bool:
        """Add a room kept elsewhere before (made and last changed at `when`); False if
        a room with its code is there already (it is left as it is)."""
        ...

    def room(self, code: str) -> StoredRoom | None: ...

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

    def name_key(self, name: str) -> str | None:
        """The key `name` first logged in with, if it has one."""
        ...

    def keep_name(self, name: str, key: str) -> str:
        """Keep `key` for `name` unless it has one already; returns the name's key."""
        ...

    def ratings(
        self, game: str | None = None, names: Collection[str] | None = None
    ) -> list[PlayerRating]:
        """Every rating (of one game; of these names only), by game, then the highest
        first."""
        ...

    def close(self) -> None: ...


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
