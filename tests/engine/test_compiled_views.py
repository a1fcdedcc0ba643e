"""The compiled core reads a game through its view (`Game.view()`): a position built from
the view of a game after random moves has the view's bits and counters, agrees with the
game, and goes on agreeing move for move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.engine.compiled import GAME_IDS, position_args, position_of
from abstracts_tui.rules import (
    GAMES,
    EgotziView,
    Game,
    GameView,
    LinageView,
    PartitionsView,
    PetrifyView,
    PiloView,
    new_game,
)
from tests.engine.compiled_support import needs_core

pytestmark = needs_core


@st.composite
def games_part_played(draw: st.DrawFn) -> Game:
    """A game of any kind, size, variant and komi, after random moves."""
    name = draw(st.sampled_from(sorted(GAMES)))
    info = GAMES[name].info
    size = draw(st.sampled_from(list(info.sizes)))
    variant = draw(st.sampled_from(info.variants)) if info.variants else None
    komi = None
    if info.takes_komi(variant or ""):
        komi = draw(st.integers(-20, 20)) * info.komi_step
    game = new_game(name, size, variant, komi)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 120))):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def core_fields(view: GameView) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]:
    """What the core should be given for `view`: boards, levels, turn, passes, last mover
    (-1 for none) and swap, as the core's argument order has them."""
    boards: tuple[int, ...]
    match view:
        case PetrifyView():
            last = -1 if view.last is None else view.last
            boards = (view.blue, view.orange, view.blocks)
            return boards, (), view.turn, view.passes, last, int(view.swap)
        case PiloView():
            last = -1 if view.last is None else view.last
            boards = (view.blue, view.orange, view.blocks, view.tall)
            return boards, view.levels, view.turn, view.passes, last, int(view.swap)
        case EgotziView():
            return (view.black, view.white), (), 0, 0, -1, int(view.swap)
        case LinageView():
            return (view.empty,), (), view.turn, view.passes, -1, 0
        case PartitionsView():
            return (view.white, view.black), (), view.turn, 0, -1, 0


def agree(game: Game, where: str) -> None:
    position = position_of(game)
    assert sorted(position.legal_moves()) == sorted(game.legal_moves()), where
    assert position.turn() == game.turn, where
    assert position.is_over() == game.is_over(), where
    assert position.points() == tuple(float(p) for p in game.score().points), where
    outcome = game.outcome()
    assert position.winner() == (-1 if outcome is None else outcome.winner), where


@settings(max_examples=60, deadline=None)
@given(game=games_part_played(), seed=st.integers(0, 2**32 - 1))
def test_a_position_built_from_a_view_agrees_with_the_game(game: Game, seed: int) -> None:
    name, size, pie, komi, boards, levels, turn, passes, last, swap = position_args(game)
    assert (name, size, komi) == (GAME_IDS[game.info.name], game.size, game.options.komi)
    assert pie == game.info.has_pie_rule(game.options.variant)
    decoded = tuple(int.from_bytes(board, "little") for board in boards)
    heights = tuple(int.from_bytes(level, "little") for level in levels)
    assert (decoded, heights, turn, passes, last, swap) == core_fields(game.view())
    rng = random.Random(seed)
    for _ in range(6):
        agree(game, game.position())
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
