"""The compiled core (`_core`, a C extension built at install when a C compiler is
present) and its positions made from games; `core_status` says whether it is here.

The Python rules stay the reference: a compiled position is built from a Python game's
own state (its bitboards, in its own layout) and must then agree with it move for move,
which the differential test checks. `ABSTRACTS_TUI_CORE=python` makes the program use
the pure-Python engine even when the compiled one is built (for comparisons and tests).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, cast

from ..rules import Egotzi, Game, Linage, Partitions, Petrify, Pilo
from .core_status import MISSING_NOTICE

if TYPE_CHECKING:
    from ._core import Position

_core: ModuleType | None
try:
    from . import _core
except ImportError:  # built without a C compiler: the pure-Python engine plays
    _core = None

GAME_IDS = {"petrify": 0, "pilo": 1, "egotzi": 2, "linage": 3, "partitions": 4}
_BOARD_BYTES = 48
"""Bitboards go to the core as little-endian bytes; 384 bits hold every board."""


def module() -> ModuleType:
    """The compiled module; RuntimeError if it was not built."""
    if _core is None:
        raise RuntimeError(MISSING_NOTICE)
    return _core


def _bits(value: int) -> bytes:
    return value.to_bytes(_BOARD_BYTES, "little")


PositionArgs = tuple[int, int, int, float, tuple[bytes, ...], tuple[bytes, ...], int, int, int, int]
"""What makes a compiled position: game, size, pie, komi, boards, levels, turn, passes,
last mover, swap allowed (the order of `Position`'s arguments)."""


def position_of(game: Game) -> Position:
    """A compiled `Position` equal to `game`'s current position."""
    position: Position = module().Position(*position_args(game))
    return position


def position_args(game: Game) -> PositionArgs:
    """The arguments of a compiled position equal to `game`'s current position (also
    given to the tests' native check of the search, which has no Python)."""
    name = game.info.name
    pie = int(game.info.has_pie_rule(game.options.variant))
    komi = float(game.options.komi)
    levels: tuple[bytes, ...] = ()
    boards: tuple[bytes, ...]
    turn = passes = swap = 0
    last = -1
    # Each game's own state tuple, read as its `_state()` documents it.
    state = cast(tuple[object, ...], game._state())
    if isinstance(game, Petrify):
        p0, p1, blocks, _forbidden, turn, passes, last, swap = cast(tuple[int, ...], state)
        boards = (_bits(p0), _bits(p1), _bits(blocks))
    elif isinstance(game, Pilo):
        p0, p1, blocks, tall = cast(tuple[int, int, int, int], state[:4])
        levels = tuple(_bits(level) for level in cast(tuple[int, ...], state[4]))
        turn, passes, last, swap = cast(tuple[int, int, int, int], state[5:])
        boards = (_bits(p0), _bits(p1), _bits(blocks), _bits(tall))
    elif isinstance(game, Egotzi):
        black, white, swap_ok = cast(tuple[int, int, bool], state)
        boards = (_bits(black), _bits(white))
        swap = int(swap_ok)
    elif isinstance(game, Linage):
        empty, turn, passes = cast(tuple[int, int, int], state)
        boards = (_bits(empty),)
    elif isinstance(game, Partitions):
        white, black, turn = cast(tuple[int, int, int], state)
        boards = (_bits(white), _bits(black))
    else:  # pragma: no cover - every game is one of the five
        raise ValueError(f"the compiled core does not know {name}")
    return (GAME_IDS[name], game.size, pie, komi, boards, levels, turn, passes, last, swap)
