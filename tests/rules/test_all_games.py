"""Properties every game must keep, checked over random games of all five."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.records import Record
from abstracts_tui.rules import (
    GAMES,
    PASS,
    SWAP,
    Game,
    IllegalMoveError,
    MoveSyntaxError,
    load_position,
    new_game,
)
from abstracts_tui.rules.base import capture

NAMES = sorted(GAMES)


def games_with_options() -> st.SearchStrategy[Game]:
    """A new game of any kind, size, variant and komi."""

    @st.composite
    def build(draw: st.DrawFn) -> Game:
        name = draw(st.sampled_from(NAMES))
        info = GAMES[name].info
        size = draw(st.sampled_from(list(info.sizes)[:3]))  # small boards keep the run short
        variant = draw(st.sampled_from(info.variants)) if info.variants else None
        komi = None
        if info.takes_komi(variant or ""):
            komi = draw(st.integers(-20, 20)) * info.komi_step
        return new_game(name, size, variant, komi)

    return build()


def conceivable_moves(game: Game) -> list[int]:
    """Every move code the notation can express on this board."""
    n = game.geometry.cell_count
    moves = [PASS, SWAP, *range(n)]
    if game.info.captures:
        moves += [capture(f, t, n) for f in range(n) for t in range(n)]
    return moves


def random_line(game: Game, rng: random.Random, limit: int = 400) -> list[int]:
    """Play random legal moves with `play` (checked) and return them."""
    played = []
    while not game.is_over() and len(played) < limit:
        move = rng.choice(game.legal_moves())
        game.play(move)
        played.append(move)
    return played


@settings(max_examples=40, deadline=None)
@given(game=games_with_options(), seed=st.integers(0, 2**32 - 1))
def test_undo_restores_the_exact_previous_position(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    before = [game.position()]
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
        before.append(game.position())
    assert game.legal_moves() == []
    while game.moves:
        before.pop()
        game.undo()
        assert game.position() == before[-1]


@settings(max_examples=40, deadline=None)
@given(game=games_with_options(), seed=st.integers(0, 2**32 - 1))
def test_position_strings_round_trip(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while True:
        text = game.position()
        loaded = load_position(text)
        assert loaded.position() == text
        assert type(loaded) is type(game)
        assert loaded.turn == game.turn
        assert loaded.is_over() == game.is_over()
        assert sorted(loaded.legal_moves()) == sorted(game.legal_moves())
        assert loaded.score() == game.score()
        if game.is_over():
            assert loaded.outcome() == game.outcome()
            break
        game.play(rng.choice(game.legal_moves()))


@settings(max_examples=15, deadline=None)
@given(game=games_with_options(), seed=st.integers(0, 2**32 - 1))
def test_exactly_the_listed_moves_are_accepted(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    conceivable = conceivable_moves(game)
    while True:
        legal = game.legal_moves()
        assert len(legal) == len(set(legal)), "a move is listed twice"
        listed = set(legal)
        text = game.position()
        for move in conceivable:
            accepted = game.illegal_reason(move) is None
            assert accepted == (move in listed), game.move_name(move)
        for move in rng.sample(conceivable, min(30, len(conceivable))):
            if move in listed:
                game.play(move)
                game.undo()
            else:
                with pytest.raises(IllegalMoveError) as refused:
                    game.play(move)
                assert str(refused.value)  # a reason a player can read
            assert game.position() == text
        if game.is_over():
            break
        # Skip ahead a few random moves so that a run sees positions from the whole game.
        for _ in range(rng.randint(1, 6)):
            if not game.is_over():
                game.play(rng.choice(game.legal_moves()))


@settings(max_examples=30, deadline=None)
@given(game=games_with_options(), seed=st.integers(0, 2**32 - 1))
def test_move_names_round_trip_in_any_case(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over():
        for move in game.legal_moves():
            name = game.move_name(move)
            assert name == name.lower()
            assert game.parse_move(name) == move
            assert game.parse_move(f"  {name.upper()} ") == move
        game.play(rng.choice(game.legal_moves()))


@settings(max_examples=30, deadline=None)
@given(game=games_with_options(), seed=st.integers(0, 2**32 - 1))
def test_records_round_trip(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    random_line(game, rng, limit=rng.randint(0, 120))
    record = Record.from_game(game, players=("Ann", "Bob"), date="2026-11-21")
    loaded = Record.from_sgf(record.to_sgf())
    again = loaded.main_game()
    assert again.moves == game.moves
    assert again.position() == game.position()
    assert loaded.players == ("Ann", "Bob")
    assert loaded.options == game.options
    assert loaded.result == record.result
    assert loaded.to_sgf() == record.to_sgf()


@settings(max_examples=30, deadline=None)
@given(game=games_with_options(), seed=st.integers(0, 2**32 - 1))
def test_playout_plays_a_legal_finished_game(game: Game, seed: int) -> None:
    game.playout(random.Random(seed))
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None and outcome.reason
    replay = type(game)(game.options)
    for move in game.moves:
        replay.play(move)  # raises if the playout made an illegal move
    assert replay.position() == game.position()


@pytest.mark.parametrize("name", NAMES)
def test_copy_is_independent(name: str) -> None:
    game = new_game(name)
    random_line(game, random.Random(7), limit=10)
    other = game.copy()
    assert other.position() == game.position()
    assert other.moves == game.moves
    other.play(other.legal_moves()[0])
    assert other.position() != game.position()
    assert len(game.moves) == 10


@pytest.mark.parametrize("name", NAMES)
def test_undo_at_the_start_is_refused(name: str) -> None:
    from abstracts_tui.rules import UndoError

    game = new_game(name)
    with pytest.raises(UndoError, match="no move to take back"):
        game.undo()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", ["", "   ", "z99", "c3c4", "3c", "c-", "-c3", "c3-", "swapp"])
def test_malformed_moves_get_a_syntax_error(name: str, text: str) -> None:
    game = new_game(name)
    before = game.position()
    with pytest.raises(MoveSyntaxError):
        game.play(text)
    assert game.position() == before


@pytest.mark.parametrize("name", NAMES)
def test_a_cell_off_the_board_names_the_extent(name: str) -> None:
    game = new_game(name)
    with pytest.raises(MoveSyntaxError, match="off the board"):
        game.play("z9")


@pytest.mark.parametrize("name", NAMES)
def test_side_to_move_names(name: str) -> None:
    expected = {
        "petrify": ("blue", "orange"),
        "pilo": ("blue", "orange"),
        "egotzi": ("black", "white"),
        "linage": ("vertical", "horizontal"),
        "partitions": ("white", "black"),
    }[name]
    game = new_game(name)
    assert game.side_to_move() == expected[0]
    game.play(game.legal_moves()[0])
    assert game.side_to_move() == expected[1]
