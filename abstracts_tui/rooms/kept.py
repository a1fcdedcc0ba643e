"""What a store keeps of a room: its setup, a save of it whole, and the row read back.

The rooms' own types (a store is given them and gives them back), here so that the rooms
need nothing of the stores: the stores (`..store`) implement the rooms' protocols.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..ratings import Rating
from .events import Rated, RatingChange, Stamped


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
    colour: str = "first"
    """The creator's colour: `first`, `second` or `random` (`pairing.COLOURS`)."""
    rating_range: str = ""
    """The ratings that may accept it (`±200`, `1400-1800`; `pairing.parse_range`); "":
    anyone."""


RECENT_CHANGES = 64
"""How many of a room's last changes are read for its offers and chat when it is read
whole (and kept for that by a store that keeps no changes): an offer followed by more
changes than that (chat lines) is not found again."""


@dataclass(frozen=True)
class Recent:
    """A room's last changes, kept with the room by a store that keeps no changes of its
    own (SQLite's, of one process): what a restart reads its chat lines and its offers
    waiting from. Each change is (kind, value, by), as `commands.encode` gives them and
    `rooms.live.Change` holds them; the last one made the room's `version`."""

    version: int
    changes: tuple[tuple[str, str, str | None], ...]


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
    recent: Recent | None = None
    """The room's last changes, for a store that keeps none (None: those kept stay)."""
    events: tuple[Stamped, ...] = ()
    """The events of the change this save is made by, kept with it (a save made by no
    change, or one whose events were kept already, has none)."""


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
    recent: Recent | None = None

    @property
    def players(self) -> tuple[str, ...]:
        creator = self.setup.creator
        return (creator,) if self.joiner is None else (creator, self.joiner)


def rated_event(changes: Sequence[tuple[str, Rating, Rating]]) -> Rated:
    """The `Rated` event of a game's rating changes: (name, before, after) of each player,
    as the lobby shows ratings (`Rating.text`)."""
    return Rated(tuple(RatingChange(name, old.text(), new.text()) for name, old, new in changes))
