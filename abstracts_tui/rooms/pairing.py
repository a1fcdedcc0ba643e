"""Who plays which colour in a room, and whose rating may accept an open challenge.

A room's creator chooses their colour when they make it: first, second, or random (the
server draws it when the second player joins, and tells both). A game whose sides are
chosen in the game (one sets komi, the other takes a side) has no colour chosen
beforehand. An open challenge may have a rating range: only a player whose rating in its
game lies inside it may accept it; a player with no rating counts as a new one does
(`ratings.Rating()`, 1500). No store, terminal or Textual here.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from ..ratings import Rating

FIRST = "first"
SECOND = "second"
RANDOM = "random"
COLOURS = (FIRST, SECOND, RANDOM)
"""The creator's colour as a room keeps it (`first` for rooms of earlier versions)."""

SPREAD_LIMITS = (10, 1000)
"""The narrowest and widest `±N` of a relative range."""
RATING_LIMITS = (0, 4000)
"""The lowest and highest bound of a range given as `MIN-MAX`."""
RANGE_TEXT_LIMIT = 20
"""The longest range text read (anything longer is refused unread)."""

_RELATIVE = re.compile(r"(?:±|\+-|\+/-)?(\d{1,4})")
_ABSOLUTE = re.compile(r"(\d{1,4})\s*-\s*(\d{1,4})")


class PairingError(ValueError):
    """A colour or a rating range that cannot be used (the message says why, in one
    sentence without its full stop)."""


def check_colour(colour: str, takes_komi: bool = False) -> str:
    """`colour` if a room may be made with it (in a game where komi and sides are chosen
    in the game, only `first`); raises PairingError."""
    if colour not in COLOURS:
        raise PairingError(f"the colour is first, second or random, not {colour[:20]!r}")
    if takes_komi and colour != FIRST:
        raise PairingError(
            "in this game one player sets komi and the other then chooses a side, "
            "so no colour is chosen beforehand"
        )
    return colour


def draw(colour: str) -> str:
    """The creator's colour as a joining decides it: a random room's drawn now (`first`
    or `second`), and "" for a room whose colour was chosen when it was made."""
    return secrets.choice((FIRST, SECOND)) if colour == RANDOM else ""


def colour_note(colour: str) -> str:
    """What a lobby adds to the creator's name: `plays second`, `colour at random`, or
    nothing for `first` (the creator moves first, as rooms always did)."""
    if colour == SECOND:
        return "plays second"
    if colour == RANDOM:
        return "colour at random"
    return ""


def drawn_words(creator: str, drawn: str) -> str:
    """`Colours drawn at random: ann plays second.`"""
    return f"Colours drawn at random: {creator} plays {drawn}."


@dataclass(frozen=True)
class RatingRange:
    """The ratings that may accept an open challenge: around the creator's own
    (`spread`: ±200), or between two bounds (`low`, `high`)."""

    spread: int | None = None
    low: int | None = None
    high: int | None = None

    def text(self) -> str:
        """`±200` or `1400-1800`: how the room keeps it and the commands take it."""
        if self.spread is not None:
            return f"±{self.spread}"
        return f"{self.low}-{self.high}"

    def bounds(self, creator: Rating | None) -> tuple[int, int]:
        """The lowest and highest rating admitted, with the creator's rating now."""
        if self.spread is not None:
            centre = round((creator or Rating()).value)
            return max(0, centre - self.spread), centre + self.spread
        assert self.low is not None and self.high is not None
        return self.low, self.high

    def shown(self, creator: Rating | None) -> str:
        """`ratings 1300-1700`: what a lobby lists beside the challenge."""
        low, high = self.bounds(creator)
        return f"ratings {low}-{high}"

    def refusal(self, creator: Rating | None, player: Rating | None, title: str) -> str | None:
        """Why a player rated `player` in the game (`title`: `Pilo`) may not accept the
        challenge (None: they may), in one sentence without its full stop."""
        low, high = self.bounds(creator)
        value = round((player or Rating()).value)
        if low <= value <= high:
            return None
        yours = f"yours is {value}" if player is not None else f"you count as {value}, unrated"
        return f"this challenge is for players rated {low} to {high} in {title}, and {yours}"


def parse_range(text: str) -> RatingRange | None:
    """The range of `200`, `±200`, `+-200` (around the creator's rating) or `1400-1800`;
    None for "", `any` or `none`. Raises PairingError saying what is allowed."""
    text = text.strip()
    if len(text) > RANGE_TEXT_LIMIT:
        raise PairingError(f"a rating range is at most {RANGE_TEXT_LIMIT} characters")
    if text.lower() in ("", "any", "none", "-"):
        return None
    usage = "a rating range is ±N (such as ±200) or MIN-MAX (such as 1400-1800)"
    if match := _RELATIVE.fullmatch(text):
        spread = int(match.group(1))
        lowest, widest = SPREAD_LIMITS
        if not lowest <= spread <= widest:
            raise PairingError(f"a rating range is ±{lowest} to ±{widest}, not ±{spread}")
        return RatingRange(spread=spread)
    if match := _ABSOLUTE.fullmatch(text):
        low, high = int(match.group(1)), int(match.group(2))
        lowest, highest = RATING_LIMITS
        if low > high:
            raise PairingError(f"{usage}, its lower bound first")
        if high > highest or low < lowest:
            raise PairingError(f"a rating range lies between {lowest} and {highest}")
        return RatingRange(low=low, high=high)
    raise PairingError(usage)


def range_text(found: RatingRange | None) -> str:
    """How a room keeps its range: `±200`, `1400-1800`, or "" for none."""
    return "" if found is None else found.text()


def drawn_notice(colour: str, creator: str, people: tuple[str, ...], moved: bool) -> str | None:
    """What a player entering a room whose colours were drawn is told before its first
    move (`Colours drawn at random: ann plays second.`); None otherwise."""
    if colour != RANDOM or moved or len(people) != 2 or creator not in people:
        return None
    return drawn_words(creator, FIRST if people[0] == creator else SECOND)
