"""What is known of a player, as the desk answers a lobby's `ProfileOf` request: ratings,
their histories, games counted, last games (`standings.py` says it as text)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ratings import PlayerRating, RatingPoint, Tally
from .kept import StoredRoom


@dataclass(frozen=True)
class Profile:
    """What is known of a player: ratings, their histories, games counted, last games."""

    name: str
    ratings: list[PlayerRating] = field(default_factory=list)
    history: list[RatingPoint] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    recent: list[StoredRoom] = field(default_factory=list)

    @property
    def known(self) -> bool:
        """Whether the player has played here at all."""
        return bool(self.ratings or self.tally.played or self.recent)

    def points(self, game: str) -> list[float]:
        """The rating after each rated game of `game`, the oldest first."""
        return [point.rating.value for point in self.history if point.game == game]
