"""Results: how a record writes them (FF[4]'s `RE`) and the results decided off the board.

In a game, a result names a colour: `orange+13`, `blue+R` (a resignation), `orange+time`
(a loss on time), `draw`, `Void` (a game called off before it began), empty while the game
goes on. A record writes it as FF[4] does, by player: `B+13`, `W+R`, `B+T`, `Draw`,
`Void`, where B is the person who began with the first colour and W the other one (a swap
hands the colours over, so after one B holds the second colour). Reading takes every form
FF[4] gives (`B+Resign`, `W+Time`, `0`, `?`...) and the colour words of earlier versions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .timing import ON_TIME

RESIGNED = "R"
"""The margin of a resignation: `orange+R`."""
FORFEITED = "F"
"""The margin of a game won by forfeit (the other player left it, and it was claimed):
`orange+F`, FF[4]'s `W+F`."""
VOID = "Void"
"""The result of a game called off: no winner, no rating."""
DRAW = "draw"
"""A drawn game, as the rules say it."""
UNKNOWN = "?"
"""FF[4]'s unknown result: the game ended, how is not said."""

PLAYERS = "BW"
"""FF[4]'s letters of the two people: B began with the first colour, W with the second."""

_MARGINS = {
    "r": RESIGNED,
    "resign": RESIGNED,
    "t": ON_TIME,
    "time": ON_TIME,
    "f": FORFEITED,
    "forfeit": FORFEITED,
}
"""FF[4]'s words for a win off the board, and the margin a game's result gives it."""
_WRITTEN = {RESIGNED: "R", ON_TIME: "T", FORFEITED: "F"}
_PLAYER_RESULT = re.compile(r"([BWbw])\+(.*)", re.DOTALL)


class How(Enum):
    """How a game was decided off the board."""

    TIME = "time"
    RESIGNATION = "resignation"
    VOID = "void"
    AGREED = "agreed"
    """A draw the players agreed to (the result `draw` before the end of play)."""
    FORFEIT = "forfeit"
    """The other player left the game, and the one present claimed it."""


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
    if margin in ("f", "forfeit"):
        return Decided(How.FORFEIT, colours.index(name.lower()))
    return None


def resigned(colour_name: str) -> str:
    """The result of a game the other colour resigned, won by `colour_name`."""
    return f"{colour_name}+{RESIGNED}"


def forfeited(colour_name: str) -> str:
    """The result of a game claimed by `colour_name` from a player who left it."""
    return f"{colour_name}+{FORFEITED}"


def written(result: str, colours: tuple[str, ...], swapped: bool) -> str:
    """`result` as a record's `RE` holds it: `orange+13` is `W+13` (or `B+13` when a swap
    gave Orange to the person who began as Blue), `blue+R` `B+R`, `orange+time` `W+T`,
    `draw` `Draw`; `Void`, `?` and anything else as they are."""
    if result == DRAW:
        return "Draw"
    name, plus, margin = result.partition("+")
    if not plus or name not in colours:
        return result
    player = PLAYERS[colours.index(name) ^ swapped]
    return f"{player}+{_WRITTEN.get(margin, margin)}"


def read(text: str, colours: tuple[str, ...], swapped: bool) -> str:
    """The result a record's `RE[text]` says, as the game says it (`written` undone):
    every FF[4] form (`B+R`, `W+Resign`, `B+T`, `W+Time`, `B+3.5`, `0`, `Draw`, `Void`,
    `?`) and the colour words of earlier versions (`orange+R`, `blue+time`, `draw`)."""
    text = text.strip()
    lower = text.lower()
    if lower in ("0", "draw"):
        return DRAW
    if lower == VOID.lower():
        return VOID
    player = _PLAYER_RESULT.fullmatch(text)
    if player is not None:
        colour = colours[PLAYERS.index(player.group(1).upper()) ^ swapped]
        margin = player.group(2).strip()
        return f"{colour}+{_MARGINS.get(margin.lower(), margin)}"
    name, plus, margin = text.partition("+")
    if plus and name.lower() in colours:
        return f"{name.lower()}+{_MARGINS.get(margin.lower(), margin)}"
    return text
