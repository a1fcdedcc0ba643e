"""A room's terms beside its game: the offers waiting for an answer, the rematch agreed,
and who keeps the game.

The game itself (record, node, clock) is the room's `Session`, as any local game's; what
only a shared game has lives here, held by the room (`Room.terms`), by the gateway's
copies that check and commit a command, and by each replica a screen shows
(`client.Shown.terms`). Every command changes both the same way (`apply.apply`, with
`play.apply` for the offers), so a replica follows the room with the same commands. The
terms are plain values: a replica's crosses to a session's process as they are, its
keeper then the store's last word (`link.Kept`), never the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Offer:
    """An offer made in a shared game (a take-back, a rematch), waiting for the other
    player's answer: who made it, and how many moves the game had then (any move made
    since makes it void, so no offer outlives the position it was made in)."""

    by: str
    moves: int


class Keeper(Protocol):
    """Who keeps a room's game (its store, or a replica's word of it)."""

    location: str
    """Where the game is kept, as the player is told."""

    @property
    def trouble(self) -> str | None:
        """Why the game is not being kept now; None while it is."""


@dataclass
class RoomTerms:
    """What a room adds to its game: the offers waiting, the rematch agreed, its keeper."""

    offers: dict[str, Offer] = field(default_factory=dict)
    """Offers waiting for an answer, by kind (`takeback`, `rematch`): see `rooms.play`."""
    rematch: str | None = None
    """The room of this game's rematch, once both players agreed to one."""
    keeper: Keeper | None = None
    """Who keeps the game (the room's store; a replica's word of it), if anybody."""

    def copy(self) -> RoomTerms:
        """A copy that shares no offer list with this one (the keeper is the same)."""
        return RoomTerms(dict(self.offers), self.rematch, self.keeper)

    def take(self, other: RoomTerms) -> None:
        """Become what `other` is (a room read again, a replica copied again), in place:
        whoever holds these terms sees the new ones."""
        self.offers, self.rematch, self.keeper = dict(other.offers), other.rematch, other.keeper

    @property
    def trouble(self) -> str | None:
        """Why the game is not being kept now (None while it is, or nobody keeps it)."""
        return self.keeper.trouble if self.keeper is not None else None

    @property
    def location(self) -> str | None:
        """Where the game is kept, as the player is told (None: nobody keeps it)."""
        return self.keeper.location if self.keeper is not None else None
