"""A game's view (`Game.view()`): its kind, and each field as `rules.views` documents it,
checked against what the game says through its own public methods, over random games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.rules import (
    GAMES,
    SWAP,
    Egotzi,
    EgotziView,
    Game,
    Linage,
    LinageView,
    Partitions,
    PartitionsView,
    Petrify,
    PetrifyView,
    Pilo,
    PiloView,
    load_position,
    new_game,
)

KINDS = {
    Petrify: PetrifyView,
    Pilo: PiloView,
    Egotzi: EgotziView,
    Linage: LinageView,
    Partitions: PartitionsView,
}


@st.composite
def games_part_played(draw: st.DrawFn) -> Game:
    """A game of any kind, a small size, any variant and komi, after random moves."""
    name = draw(st.sampled_from(sorted(GAMES)))
    info = GAMES[name].info
    size = draw(st.sampled_from(list(info.sizes)[:3]))
    variant = draw(st.sampled_from(info.variants)) if info.variants else None
    komi = None
    if info.takes_komi(variant or ""):
        komi = draw(st.integers(-20, 20)) * info.komi_step
    game = new_game(name, size, variant, komi)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 200))):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def square_bit(size: int, cell: int) -> int:
    """The padded square layout's bit of a cell (Petrify, Pilo)."""
    col, row = cell % size, cell // size
    return 1 << ((row + 1) * (size + 3) + col + 1)


def ring(size: int) -> int:
    """The ring of blocks around a padded square board."""
    stride = size + 3
    return sum(
        1 << (row * stride + col)
        for row in range(size + 2)
        for col in range(size + 2)
        if row in (0, size + 1) or col in (0, size + 1)
    )


def expected_view(game: Game) -> object:
    """The view the documentation describes, built from the game's public methods."""
    cells = range(game.geometry.cell_count)
    pieces = [game.piece_at(cell) for cell in cells]
    size = game.size
    if isinstance(game, Petrify | Pilo):
        coloured = [0, 0]
        blocks = ring(size)
        for cell, piece in zip(cells, pieces, strict=True):
            if piece is None:
                continue
            if piece.colour is None:
                blocks |= square_bit(size, cell)
            else:
                coloured[piece.colour] |= square_bit(size, cell)
        counters = (game.turn, game.passes, game.last_board_play, game.can_swap)
        if isinstance(game, Petrify):
            return PetrifyView(coloured[0], coloured[1], blocks, *counters)
        levels = [0] * (game.max_height + 2)
        for cell, piece in zip(cells, pieces, strict=True):
            if piece is not None and piece.height > 1:
                levels[piece.height] |= square_bit(size, cell)
        return PiloView(coloured[0], coloured[1], blocks, sum(levels), tuple(levels), *counters)
    dense = [0, 0]
    for cell, piece in zip(cells, pieces, strict=True):
        if piece is not None and piece.colour is not None:
            dense[piece.colour] |= 1 << cell
    if isinstance(game, Egotzi):
        return EgotziView(dense[0], dense[1], SWAP in game.legal_moves())
    if isinstance(game, Partitions):
        return PartitionsView(dense[0], dense[1], game.turn)
    assert isinstance(game, Linage)
    empty = sum(
        1 << (cell // size * (size + 1) + cell % size)
        for cell, piece in zip(cells, pieces, strict=True)
        if piece is None
    )
    return LinageView(empty, game.turn, game.passes)


@settings(max_examples=60, deadline=None)
@given(game=games_part_played())
def test_a_view_holds_the_position_as_documented(game: Game) -> None:
    view = game.view()
    assert type(view) is KINDS[type(game)]
    assert view == expected_view(game), game.position()
    assert view.turn == game.turn


@settings(max_examples=40, deadline=None)
@given(game=games_part_played())
def test_equal_positions_have_equal_views(game: Game) -> None:
    view = game.view()
    assert load_position(game.position()).view() == view
    if not game.is_over():
        game.push(game.legal_moves()[0])
        assert game.view() != view
        game.undo()
    assert game.view() == view
