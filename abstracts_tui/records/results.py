"""Results decided off the board: on time, by resignation, and none (a game called off).

By SGF's conventions with the project's colour names: a game lost on time is
`orange+time` (SGF writes `B+T`, see `timing`), a resignation `orange+R` (SGF's `B+R`;
`orange+Resign` and `orange+resign` are read as one too), and a game called off before
it began `Void` (SGF's "no result"). The rules' own results (`orange+3`, `draw`) are not
these: the position says them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .timing import ON_TIME

RESIGNED = "R"
"""The margin of a resignation: `orange+R`."""
VOID = "Void"
"""The result of a game called off: no winner, no rating."""


class How(Enum):
    """How a game was decided off the board."""

    TIME = "time"
    RESIGNATION = "resignation"
    VOID = "void"


@dataclass(frozen=True)
class Decided:
    """A result decided off the board: how, and the colour that won (None: void)."""

    how: How
    winner: int | None


def decided(result: str, colours: tuple[str, ...]) -> Decided | None:
    """What `result` says when it is decided off the board (`orange+time`, `blue+R`,
    `Void`), for a game of `colours`; None for any other result (or none)."""
    if result.strip().lower() == VOID.lower():
        return Decided(How.VOID, None)
    name, plus, margin = result.partition("+")
    if not plus or name.lower() not in colours:
        return None
    margin = margin.lower()
    if margin == ON_TIME:
        return Decided(How.TIME, colours.index(name.lower()))
    if margin in ("r", "resign"):
        return Decided(How.RESIGNATION, colours.index(name.lower()))
    return None


def resigned(colour_name: str) -> str:
    """The result of a game the other colour resigned, won by `colour_name`."""
    return f"{colour_name}+{RESIGNED}"
