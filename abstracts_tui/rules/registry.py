"""The registry of game classes, and games made by name or from a position string."""

from __future__ import annotations

from .base import Game
from .egotzi import Egotzi
from .errors import OptionError, PositionError, shown
from .linage import Linage
from .partitions import Partitions
from .petrify import Petrify
from .pilo import Pilo

GAMES: dict[str, type[Game]] = {
    cls.info.name: cls for cls in (Petrify, Pilo, Egotzi, Linage, Partitions)
}
"""The registry: every game class by its name."""


def game_class(name: str) -> type[Game]:
    """The class of the game called `name` (case-insensitive); `OptionError` if unknown."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise OptionError(
            f"unknown game '{shown(name)}'; the games are {', '.join(GAMES)}"
        ) from None


def new_game(
    name: str, size: int | None = None, variant: str | None = None, komi: float | None = None
) -> Game:
    """A new game; raises `OptionError` on an unknown game or a bad option."""
    return game_class(name).new(size, variant, komi)


def load_position(text: str) -> Game:
    """The game described by a position string; raises `PositionError` if it is invalid."""
    name = text.split(maxsplit=1)[0] if text.strip() else ""
    if name.lower() not in GAMES:
        raise PositionError(
            f"a position string starts with the game's name ({', '.join(GAMES)}); "
            f"not '{shown(name)}'"
        )
    return GAMES[name.lower()].from_position(text)
