"""The players' ratings as the lobbies show them, by screen and by lines: `ann 1662?`
beside a name, `Pilo 1662?, Petrify 1540` for the person's own (no Textual here: line
mode's lobby uses them too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .ratings import Rating
from .store import StoreError

if TYPE_CHECKING:
    from .rooms.client import RoomClient

Ratings = Mapping[tuple[str, str], Rating]
"""(name, game) -> rating."""


def rated_name(name: str, game: str, ratings: Ratings) -> str:
    """`ann 1662?` (`?`: provisional), or the name alone while it has no rating."""
    rating = ratings.get((name, game))
    return name if rating is None else f"{name} {rating.text()}"


def own_ratings(user: str, ratings: Ratings) -> str:
    """`Pilo 1662?, Petrify 1540`: the person's rating in each game they have one in."""
    from .rules import GAMES

    found = [
        f"{cls.info.title} {rating.text()}"
        for name, cls in GAMES.items()
        if (rating := ratings.get((user, name))) is not None
    ]
    return ", ".join(found)


async def read_ratings(client: RoomClient, names: set[str]) -> Ratings | None:
    """The ratings of `names` in every game; None when the store cannot be read now."""
    try:
        found = await client.ratings(None, names)
    except StoreError:
        return None
    return {(rating.name, rating.game): rating.rating for rating in found}
