"""The rules of the five games: pure Python, no user interface.

Use `new_game("petrify", size=8)` or a game class (`Petrify.new()`), then
`legal_moves()`, `play()`, `undo()`, `score()`, `outcome()` and `position()`;
`view()` gives the position as a typed value of the game's own kind (`rules.views`).

The games' modules are imported on first use of a name that needs them (`GAMES`, a game
class, `new_game`...), so that what only needs the catalogue of games (names, titles,
sizes, options: `rules.catalogue`) starts without the cost of the rules.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .catalogue import CATALOGUE, GameInfo, Options, format_number
from .errors import (
    IllegalMoveError,
    MoveSyntaxError,
    OptionError,
    PositionError,
    RulesError,
    UndoError,
    shown,
)

if TYPE_CHECKING:
    from .base import PASS, SWAP, Game, Move, Outcome, Piece, Score
    from .egotzi import Egotzi
    from .linage import Linage
    from .partitions import Partitions
    from .petrify import Petrify
    from .pilo import Pilo
    from .registry import GAMES, game_class, load_position, new_game
    from .views import (
        EgotziView,
        GameView,
        LinageView,
        PartitionsView,
        PetrifyView,
        PiloView,
    )

_LAZY = {
    "PASS": "base",
    "SWAP": "base",
    "Game": "base",
    "Move": "base",
    "Outcome": "base",
    "Piece": "base",
    "Score": "base",
    "Egotzi": "egotzi",
    "Linage": "linage",
    "Partitions": "partitions",
    "Petrify": "petrify",
    "Pilo": "pilo",
    "GAMES": "registry",
    "game_class": "registry",
    "load_position": "registry",
    "new_game": "registry",
    "EgotziView": "views",
    "GameView": "views",
    "LinageView": "views",
    "PartitionsView": "views",
    "PetrifyView": "views",
    "PiloView": "views",
}
"""The module of each name imported on first use."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # looked up once
    return value


__all__ = [
    "CATALOGUE",
    "GAMES",
    "PASS",
    "SWAP",
    "Egotzi",
    "EgotziView",
    "Game",
    "GameInfo",
    "GameView",
    "IllegalMoveError",
    "Linage",
    "LinageView",
    "Move",
    "MoveSyntaxError",
    "OptionError",
    "Options",
    "Outcome",
    "Partitions",
    "PartitionsView",
    "Petrify",
    "PetrifyView",
    "Piece",
    "Pilo",
    "PiloView",
    "PositionError",
    "RulesError",
    "Score",
    "UndoError",
    "format_number",
    "game_class",
    "load_position",
    "new_game",
    "shown",
]
