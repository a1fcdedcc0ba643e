"""The compiled core (`_core`, a C extension built at install when a C compiler is
present) and its positions made from games; `core_status` says whether it is here.

The Python rules stay the reference: a compiled position is built from a Python game's
typed view of its state (`Game.view()`: its bitboards in its own layout, its counters)
and must then agree with it move for move, which the differential test checks.
`ABSTRACTS_TUI_CORE=python` makes the program use the pure-Python engine even when the
compiled one is built (for comparisons and tests).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, assert_never

from ..rules.views import EgotziView, LinageView, PartitionsView, PetrifyView, PiloView
from .core_status import MISSING_NOTICE

if TYPE_CHECKING:
    from ..rules import Game
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
    info = game.info
    pie = int(info.has_pie_rule(game.options.variant))
    komi = float(game.options.komi)
    boards: tuple[bytes, ...]
    levels: tuple[bytes, ...] = ()
    turn = passes = swap = 0
    last = -1
    # The core takes each game's bitboards in the game's own layout, as its view has them.
    view = game.view()
    match view:
        case PetrifyView():
            boards = (_bits(view.blue), _bits(view.orange), _bits(view.blocks))
            turn, passes, last, swap = view.turn, view.passes, _mover(view.last), int(view.swap)
        case PiloView():
            boards = (_bits(view.blue), _bits(view.orange), _bits(view.blocks), _bits(view.tall))
            levels = tuple(_bits(level) for level in view.levels)
            turn, passes, last, swap = view.turn, view.passes, _mover(view.last), int(view.swap)
        case EgotziView():
            boards = (_bits(view.black), _bits(view.white))
            swap = int(view.swap)
        case LinageView():
            boards = (_bits(view.empty),)
            turn, passes = view.turn, view.passes
        case PartitionsView():
            boards = (_bits(view.white), _bits(view.black))
            turn = view.turn
        case _:
            assert_never(view)
    return (GAME_IDS[info.name], game.size, pie, komi, boards, levels, turn, passes, last, swap)


def _mover(colour: int | None) -> int:
    """A view's last mover as the core takes it: -1 before any board play."""
    return -1 if colour is None else colour
