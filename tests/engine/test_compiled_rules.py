"""The compiled rules against the Python rules (the reference), over seeded random games.

At every ply of every game: the same legal moves, side to move and end of the game, both
for a compiled position built afresh from the Python state and for one that played the
same moves itself; scores along the way and the winner at the end. The compiled random
playouts must play only legal moves and end where the Python rules end.
"""

from __future__ import annotations

import random

import pytest

from abstracts_tui.engine._core import Position
from abstracts_tui.engine.compiled import position_of
from abstracts_tui.rules import GAMES, Game, new_game
from tests.engine.compiled_support import needs_core

pytestmark = needs_core


def configurations() -> list[tuple[str, int, str | None]]:
    """Every game at its smallest, default and largest size, each variant."""
    found = []
    for name, cls in GAMES.items():
        info = cls.info
        sizes = sorted({info.sizes.start, info.default_size, info.sizes.stop - 1})
        for size in sizes:
            for variant in info.variants or (None,):
                found.append((name, size, variant))
    return found


def komi_for(name: str, variant: str | None, seed: int) -> float | None:
    info = GAMES[name].info
    if not info.takes_komi(variant or ""):
        return None
    return info.komi_step * (seed % 3 - 1)  # negative, zero and positive komi


def same_position(game: Game, position: Position, where: str) -> None:
    legal = sorted(game.legal_moves())
    assert sorted(position.legal_moves()) == legal, where
    assert position.turn() == game.turn, where
    assert position.is_over() == game.is_over(), where


@pytest.mark.parametrize(("name", "size", "variant"), configurations())
def test_random_games_agree_ply_by_ply(name: str, size: int, variant: str | None) -> None:
    plies = 0
    for seed in range(3):
        game = new_game(name, size=size, variant=variant, komi=komi_for(name, variant, seed))
        rng = random.Random(seed)
        played = position_of(game)
        while True:
            where = f"{name} {game.position()} after {len(game.moves)} moves (seed {seed})"
            same_position(game, position_of(game), where)
            same_position(game, played, where)
            if len(game.moves) % 5 == 0 or game.is_over():
                points = tuple(float(p) for p in game.score().points)
                assert played.points() == points, where
            if game.is_over():
                outcome = game.outcome()
                assert outcome is not None
                assert played.winner() == outcome.winner, where
                break
            move = rng.choice(game.legal_moves())
            game.push(move)
            played.play(move)
            plies += 1
    assert plies > 3 * 10


@pytest.mark.parametrize(("name", "size", "variant"), configurations())
def test_compiled_playouts_play_legal_games(name: str, size: int, variant: str | None) -> None:
    for seed in range(4):
        game = new_game(name, size=size, variant=variant, komi=komi_for(name, variant, seed))
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 12)):
            game.push(rng.choice(game.legal_moves()))
        position = position_of(game)
        moves = position.playout(seed)
        for move in moves:
            assert move in game.legal_moves(), f"{game.position()}: {move}"
            game.push(move)
        assert game.is_over()
        outcome = game.outcome()
        assert outcome is not None
        assert position.winner() == outcome.winner
        assert position.points() == tuple(float(p) for p in game.score().points)


def test_a_position_refuses_an_illegal_move() -> None:
    game = new_game("egotzi", size=5)
    game.play("c3")
    position = position_of(game)
    with pytest.raises(ValueError, match="not a legal move"):
        position.play(game.parse_move("c3"))
    assert sorted(position.legal_moves()) == sorted(game.legal_moves())
