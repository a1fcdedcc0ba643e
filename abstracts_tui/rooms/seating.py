"""How a room seats its two players by the creator's colour, and who may take its open
seat: the rooms' side of `pairing` (the colour drawn, the rating range checked against
the store's ratings). No store driver, terminal or Textual here: the ratings come
through the reader the server gives the rooms."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from ..commands import Join
from ..game_setup import Setup
from ..ratings import PlayerRating, Rating
from ..rules import game_class
from ..time_odds import swapped_spec
from .live import Refused
from .pairing import FIRST, SECOND, PairingError, check_colour, draw, parse_range, range_text
from .room import Room, RoomError
from .rows import OPEN_SEAT, RoomFileError

log = logging.getLogger(__name__)

RatingsReader = Callable[[str, Collection[str]], Sequence[PlayerRating]]
"""The store's ratings of a game for some names (`Store.ratings`), read on a thread."""


def takes_komi(setup: Setup) -> bool:
    """Whether `setup`'s game has komi and sides chosen in the game."""
    info = game_class(setup.game).info
    return info.takes_komi(info.options(setup.size, setup.variant, setup.komi).variant)


def checked(setup: Setup, colour: str, rating_range: str) -> tuple[str, str]:
    """The colour and the range (as a room keeps it) of a room to be made with `setup`;
    raises RoomError with one sentence."""
    try:
        return check_colour(colour, takes_komi(setup)), range_text(parse_range(rating_range))
    except PairingError as error:
        raise RoomError(str(error)) from None


def kept_pairing(colour: str, rating_range: str) -> tuple[str, str]:
    """A stored room's colour and range, checked (a row may come from anywhere); raises
    RoomFileError."""
    try:
        return check_colour(colour), range_text(parse_range(rating_range))
    except PairingError as error:
        raise RoomFileError(f"its colour or rating range cannot be used: {error}") from None


def seated(setup: Setup, creator: str, colour: str) -> Setup:
    """The setup a new room's session starts from: the creator in the second seat if
    they play second, else in the first (a random room's draw comes with the join)."""
    if colour == SECOND:  # time odds follow the people: the creator's is the second now
        return replace(setup, first=OPEN_SEAT, second=creator, clock=swapped_spec(setup.clock))
    return replace(setup, first=creator, second=OPEN_SEAT)


def rematch_colour(room: Room) -> str:
    """The colour of a rematch's creator (the joiner of `room`): the colours reversed,
    so they play first where the room's creator played first (in a game whose sides
    are chosen in it, they set komi, as before)."""
    if takes_komi(room.setup):
        return FIRST
    return FIRST if room.session.people[0] == room.creator else SECOND


async def joining(room: Room, name: str, reader: RatingsReader | None) -> Join:
    """The join of `name` into `room`'s open seat, its colours drawn if the room left them
    to chance; raises Refused (one sentence) if the room's rating range leaves `name`
    out. Without a reader every player counts as unrated."""
    found = parse_range(room.rating_range) if room.rating_range else None
    if found is not None and name not in room.players:
        game = room.setup.game
        ratings: dict[str, Rating] = {}
        if reader is not None:
            try:
                read = await asyncio.to_thread(reader, game, {room.creator, name})
            except Exception as error:  # the store's trouble: nobody joins unchecked
                log.warning("room %s: the ratings cannot be read: %s", room.code, error)
                raise Refused(
                    "the ratings cannot be read now, so the challenge's rating range "
                    "cannot be checked: try again"
                ) from None
            ratings = {rating.name: rating.rating for rating in read if rating.game == game}
        title = game_class(game).info.title
        refusal = found.refusal(ratings.get(room.creator), ratings.get(name), title)
        if refusal is not None:
            raise Refused(refusal)
    return Join(draw(room.colour))
