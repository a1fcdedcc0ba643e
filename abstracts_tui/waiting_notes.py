"""What the waiting room of a room says of it besides its game and clock, on the full
screen and in line mode alike: the ratings that may accept it, as the lobby lists them
(`Open to ratings 1400-1600 only.`, a spread around the creator's rating read now), and
that a game with time odds is not rated (`Time odds: not rated.`: a room asked rated
with time odds is made casual, as lichess rates no game that starts unequal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rated import read_ratings
from .ratings import Rating
from .rooms.pairing import PairingError, parse_range
from .time_odds import has_odds

if TYPE_CHECKING:
    from .rooms.client import RoomClient, RoomView

ODDS_NOTE = "Time odds: not rated."


def notes_of(room: RoomView, creator: Rating | None) -> list[str]:
    """The notes of `room`, whose creator is rated `creator` in its game (None: unrated)."""
    notes = []
    try:
        allowed = parse_range(room.rating_range) if room.rating_range else None
    except PairingError:
        allowed = None
    if allowed is not None:
        notes.append(f"Open to {allowed.shown(creator)} only.")
    if has_odds(room.clock):
        notes.append(ODDS_NOTE)
    return notes


async def waiting_notes(client: RoomClient, room: RoomView) -> list[str]:
    """The notes of `room`, with its creator's rating read now (a store that cannot be
    read: the range is shown around an unrated player's)."""
    creator = None
    if room.rating_range:
        ratings = await read_ratings(client, {room.creator})
        creator = (ratings or {}).get((room.creator, room.game))
    return notes_of(room, creator)
