"""A new room as line mode's `new GAME ...` (or `challenge GAME ...`) asks for it: the
words read into a setup, whether rated and open, the creator's colour and the rating
range, or one sentence saying why not."""

from __future__ import annotations

from dataclasses import dataclass

from ..clock import ClockSpecError, TimeControl
from ..game_setup import Setup
from ..rooms.pairing import COLOURS, FIRST, PairingError, parse_range, range_text
from ..rules import CATALOGUE, RulesError
from ..rules.catalogue import find_game
from ..time_odds import has_odds

NEW_USAGE = (
    "Type new and a game, then if you like a size, clock and a time such as 5m+3s, rated, "
    "open, first, second or random, and range and a rating range such as 200 or 1400-1800: "
    "such as new pilo 6 clock 5m+3s open second range 200."
)


@dataclass(frozen=True)
class NewRoom:
    """A room as `new GAME ...` asks for it."""

    setup: Setup
    rated: bool
    open: bool
    colour: str = FIRST
    rating_range: str = ""


def new_room(words: list[str], user: str, rated: bool) -> NewRoom | str:
    """The room asked for by `new GAME ...`; or why not, a sentence."""
    if not words:
        return NEW_USAGE
    info = find_game(words[0])
    if info is None:
        names = ", ".join(info.name for info in CATALOGUE.values())
        return f"No game {words[0]}: the games are {names}."
    size: int | None = None
    variant: str | None = None
    clock: str | None = None
    is_open = False
    asked_rated = False
    colour = FIRST
    spread = ""
    rest = words[1:]
    while rest:
        word = rest.pop(0).lower()
        if word.isdigit():
            size = int(word)
        elif word in ("rated", "unrated"):
            rated = asked_rated = word == "rated"
        elif word == "open":
            is_open = True
        elif word in COLOURS:
            colour = word
        elif word == "range" and rest:
            try:
                spread = range_text(parse_range(rest.pop(0)))
            except PairingError as error:
                return f"Not made: {error}."
        elif (word == "clock" and rest) or word[:1].isdigit():  # `clock 5m+3s`, or `5m+3s`
            spec = rest.pop(0) if word == "clock" else word
            try:
                control = TimeControl.parse(spec)
            except ClockSpecError as error:
                return f"Not made: clock {spec}: {error}."
            clock = control.spec if control is not None else None
        elif word in info.variants:
            variant = word
        else:
            return (
                f"Not made: {word} is not a size, clock, rated, open, a colour or a range. "
                f"{NEW_USAGE}"
            )
    if has_odds(clock):
        if asked_rated:
            return (
                f"Not made: a game with time odds is never rated (clock {clock}): leave out rated."
            )
        rated = False
    try:
        info.options(size, variant, None)
    except RulesError as error:
        return f"Not made: {error}."
    setup = Setup(info.name, size=size, variant=variant, first=user, clock=clock)
    return NewRoom(setup, rated, is_open, colour, spread)
