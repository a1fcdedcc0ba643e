"""Pilo's rules, ruling by ruling: hand-built positions, one move, the expected result.

Diagrams are written like the position string: rows from the top (row 6 of a 6x6 board
first), columns a to f from the left; `b2` a Blue stack of height 2, `o1` an Orange
stack of height 1, `x` a block. In every reachable position the stacks' heights account
for the blocks exactly (a stack of height h took 2^(h-1)-1 captures, each leaving one
block), so the diagrams below carry as many blocks as their stacks need.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.rules import PASS, SWAP, IllegalMoveError, Piece, Pilo, PositionError
from abstracts_tui.rules.base import capture
from abstracts_tui.rules.squares import PatchScore

OTHER = {"blue": "orange", "orange": "blue"}


def board_token(diagram: str) -> str:
    return "/".join("".join(line.split()) for line in diagram.strip().splitlines())


def position(
    diagram: str,
    turn: str = "blue",
    passes: int = 0,
    last: str | None = None,
    swap: str = "no",
) -> str:
    """A position string for a diagram; `last` follows from the turn and passes by default."""
    board = board_token(diagram)
    size = board.count("/") + 1
    if last is None:
        empty = set(board) <= {".", "/"}
        last = "none" if empty else turn if passes == 1 else OTHER[turn]
    return f"pilo size={size} {board} {turn} passes={passes},last={last},swap={swap}"


def pilo(
    diagram: str, turn: str = "blue", passes: int = 0, last: str | None = None, swap: str = "no"
) -> Pilo:
    return Pilo.from_position(position(diagram, turn, passes, last, swap))


def code(game: Pilo, text: str) -> int:
    return game.parse_move(text)


def captures(game: Pilo) -> list[str]:
    n = game.geometry.cell_count
    return sorted(game.move_name(m) for m in game.legal_moves() if m >= n)


# -- placing ------------------------------------------------------------------------


def test_a_placement_is_a_stack_of_height_one() -> None:
    game = Pilo.new()
    assert game.size == 8
    assert game.side_to_move() == "blue"
    assert game.legal_moves() == list(range(64))
    game.play("d4")
    assert game.piece_at(game.geometry.parse("d4")) == Piece("stack", 0, 1)
    assert game.board_token().split("/")[4] == "...b1...."
    assert game.side_to_move() == "orange"


def test_placing_on_an_occupied_square_is_refused() -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  .  o2 x  .  .
        .  .  b1 .  .  .
        .  .  .  .  .  .
        """
    )
    assert game.illegal_reason(code(game, "c3")) == "c3 is occupied by an Orange stack"
    assert game.illegal_reason(code(game, "d3")) == "d3 is occupied by a block"
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.play("c2")


# -- captures ----------------------------------------------------------------------------


def test_a_stack_captures_a_stack_of_its_height_and_grows() -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  o1 .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  b1 .  .  .  .
        .  .  .  .  .  .
        """
    )
    assert captures(game) == ["b2-b5"]
    game.play("b2-b5")
    assert game.position() == position(
        """
        .  .  .  .  .  .
        .  b2 .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  x  .  .  .  .
        .  .  .  .  .  .
        """,
        turn="orange",
    )
    assert game.height_at(game.geometry.parse("b5")) == 2


def test_a_stack_of_a_different_height_cannot_be_captured() -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  o2 .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  b1 .  .  .  .
        .  .  .  .  .  x
        """
    )
    assert captures(game) == []
    assert game.illegal_reason(code(game, "b2-b5")) == (
        "the Orange stack on b5 has height 2 but yours on b2 has height 1: "
        "a stack captures only a stack of its own height"
    )


def test_two_stacks_of_height_two_make_one_of_height_three() -> None:
    game = pilo(
        """
        .  .  .  .  x  .
        .  o2 .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  b2 .  .  .  .
        .  .  .  .  x  .
        """
    )
    game.play("b2-b5")
    assert game.position() == position(
        """
        .  .  .  .  x  .
        .  b3 .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  x  .  .  .  .
        .  .  .  .  x  .
        """,
        turn="orange",
    )


def test_a_stack_slides_over_friendly_stacks_of_any_height() -> None:
    game = pilo(
        """
        .  .  .  .  x  .
        .  o1 .  .  .  .
        .  .  .  .  .  .
        .  b3 .  .  x  .
        .  b1 .  .  .  .
        .  .  .  .  x  .
        """
    )
    # b3's own slide up meets the o1, which is not its height.
    assert captures(game) == ["b2-b5"]
    game.play("b2-b5")
    assert game.piece_at(game.geometry.parse("b5")) == Piece("stack", 0, 2)
    assert game.piece_at(game.geometry.parse("b3")) == Piece("stack", 0, 3)
    assert game.piece_at(game.geometry.parse("b2")) == Piece("block", None)


def test_the_first_enemy_stack_stops_a_slide_even_when_it_cannot_be_captured() -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  o1 .  .  .  .
        .  .  .  .  .  .
        .  o2 .  .  .  .
        .  b1 .  .  .  .
        .  .  .  .  .  x
        """
    )
    assert captures(game) == []
    assert game.illegal_reason(code(game, "b2-b5")) == (
        "the way from b2 to b5 is blocked by an Orange stack on b3"
    )


def test_a_block_stops_a_slide() -> None:
    game = pilo(
        """
        .  .  .  .  .  b2
        .  o1 .  .  .  .
        .  .  .  .  .  .
        .  x  .  .  .  .
        .  b1 .  .  .  .
        .  .  .  .  .  .
        """
    )
    assert captures(game) == []
    assert game.illegal_reason(code(game, "b2-b5")) == (
        "the way from b2 to b5 is blocked by a block on b3"
    )


def test_stacks_move_along_rows_and_columns_only() -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  o1 .  o1 .  o1
        .  .  .  .  .  .
        .  o1 .  b1 .  o1
        .  .  .  .  .  .
        .  o1 .  o1 .  o1
        """
    )
    assert captures(game) == ["d3-b3", "d3-d1", "d3-d5", "d3-f3"]
    assert game.illegal_reason(code(game, "d3-f5")) == (
        "d3-f5 is not along a row or a column: stacks move only orthogonally"
    )


def test_there_is_no_mound_or_barricade_rule() -> None:
    game = pilo(
        """
        .  .  .  .  .  b2
        .  .  .  .  .  .
        .  .  .  .  .  .
        o1 .  .  .  .  .
        .  .  .  .  .  .
        b1 x  .  .  .  .
        """
    )
    assert captures(game) == ["a1-a3"]
    game.play("a1-a3")  # a block on a corner, beside another on the edge
    assert game.piece_at(0) == Piece("block", None)


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("b2-b2", "a move must go somewhere: b2-b2 ends where it starts"),
        (
            "b2-b4",
            "b4 is empty: a move must end on an enemy stack "
            "(to place a disk there, give just the square)",
        ),
        ("b2-e2", "e2 holds your own stack: a move must end on an enemy stack"),
        ("d4-b4", "the stack on d4 is Orange's; it is Blue's turn"),
        ("c3-d3", "there is no stack on c3 to move"),
    ],
)
def test_malformed_captures_are_refused_with_a_reason(move: str, reason: str) -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  .  .  o1 .  .
        .  .  .  .  .  .
        .  b1 .  .  b1 .
        .  .  .  .  .  .
        """
    )
    assert game.illegal_reason(code(game, move)) == reason


# -- passing and the end of the game -----------------------------------------------------

STUCK = """
    o1 o1 o1 o1 x  x
    o1 o1 o1 o1 o1 o1
    o1 o1 o1 o1 o1 o1
    o1 o1 o1 o1 o1 o1
    o2 o1 o1 o1 o1 o1
    b1 o2 o1 o1 o1 o1
"""


def test_a_player_without_a_board_play_must_pass() -> None:
    game = pilo(STUCK)
    assert game.legal_moves() == [PASS]
    game.play("pass")
    assert game.side_to_move() == "orange"
    # Orange's height-one stacks slide over their own height-two stacks to the Blue one.
    assert captures(game) == [
        "a3-a1",
        "a4-a1",
        "a5-a1",
        "a6-a1",
        "c1-a1",
        "d1-a1",
        "e1-a1",
        "f1-a1",
    ]
    assert game.illegal_reason(PASS) == "you may pass only when you have no board play"
    game.play("c1-a1")
    assert game.passes == 0
    assert game.piece_at(0) == Piece("stack", 1, 2)


def test_passing_with_a_board_play_is_refused() -> None:
    game = Pilo.new()
    with pytest.raises(IllegalMoveError, match="you may pass only when you have no board play"):
        game.play("pass")


TIE = """
    b1 b1 b1 x  o1 o1 o1
    b1 b1 b1 x  o1 o1 o1
    b1 b1 b1 x  o1 o1 o1
    b1 b1 b1 x  o1 o1 o1
    b2 b1 b1 x  o1 o1 o1
    b3 b1 b1 x  o1 o1 o1
    b3 b1 b1 x  o1 o1 o1
"""


@pytest.mark.parametrize(
    ("first", "loser", "winner"), [("blue", "orange", 0), ("orange", "blue", 1)]
)
def test_two_passes_end_the_game_and_a_tie_goes_against_the_last_board_play(
    first: str, loser: str, winner: int
) -> None:
    game = pilo(TIE, turn=first)
    game.play("pass")
    assert not game.is_over()
    game.play("pass")
    assert game.is_over()
    assert game.legal_moves() == []
    assert game.score().points == (21, 21)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == winner
    assert outcome.reason == f"tied 21-21: {loser.capitalize()} made the last board play and loses"


# -- scoring ------------------------------------------------------------------------------


def test_group_sizes_count_squares_not_disks() -> None:
    game = pilo(
        """
        .  x  .  x  .  x
        .  .  .  .  .  .
        .  .  .  .  .  .
        o1 .  .  .  .  .
        .  .  .  .  .  .
        b3 .  o1 o1 .  b1
        """
    )
    score = game.score()
    assert isinstance(score, PatchScore)
    assert score.points == (0, 33)
    assert score.lines == (
        "patch of 33 at a1: Orange (biggest left: Orange 2, Blue 1; cancelled: 1 pair of size 1)",
    )
    (patch,) = score.patches
    assert sorted((g.colour, g.size) for g in patch.left) == [(0, 1), (1, 2)]


def test_empty_and_fully_cancelled_patches_are_owned_by_nobody() -> None:
    game = pilo(
        """
        .  .  .  .  .  .
        .  .  .  .  o2 .
        .  .  .  .  .  .
        .  .  b2 .  .  .
        x  .  .  .  .  .
        .  x  .  .  .  .
        """
    )
    score = game.score()
    assert score.points == (0, 0)
    assert [(p.size, p.owner) for p in score.patches] == [(1, None), (33, None)]
    assert score.lines == (
        "patch of 1 at a1: nobody (no groups)",
        "patch of 33 at c1: nobody (every group cancelled: 1 pair of size 1)",
    )


# -- the pie rule ---------------------------------------------------------------------------


def test_swap_is_legal_only_as_the_second_move_and_orange_stays_to_move() -> None:
    game = Pilo.new(size=6)
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"
    game.play("c3")
    assert game.legal_moves()[-1] == SWAP
    game.play("swap")
    assert game.side_to_move() == "orange"
    assert game.position() == position(
        """
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  .  b1 .  .  .
        .  .  .  .  .  .
        .  .  .  .  .  .
        """,
        turn="orange",
    )
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"


# -- position strings --------------------------------------------------------------------

FINE = """
    .  .  .  .  .  .
    .  .  .  .  .  .
    .  .  .  .  .  .
    .  .  o1 .  .  .
    .  .  b1 .  .  .
    .  .  .  .  .  .
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (position(FINE.replace("b1", "b2")), "took 1 capture to build .* has 0 blocks"),
        (
            position(FINE.replace("b1", "b3").replace(".  .\n", "x  .\n", 1)),
            "took 3 captures .* has 1 block,",
        ),
        (position(FINE.replace("b1", "b7")), "has height 7, .* no stack can be taller than 6"),
        (position(FINE).replace("b1", "b0"), "a stack is its colour's letter and its height"),
        (position(FINE).replace("b1", "b"), "a stack is its colour's letter and its height"),
        (position(FINE).replace("b1", "x2"), "'x2' is not a cell"),
        (position(FINE, passes=1), "passes=1, but Orange, who passed last, has a board play"),
        (position(FINE, turn="orange", swap="yes"), "swap=yes needs the position after"),
    ],
)
def test_invalid_positions_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Pilo.from_position(text)


# -- properties over random games -----------------------------------------------------------

FOUR = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def expected_captures(game: Pilo) -> set[int]:
    """The captures of the side to move, worked out square by square from the rules."""
    n = game.size

    def at(col: int, row: int) -> Piece | None:
        if 0 <= col < n and 0 <= row < n:
            return game.piece_at(row * n + col)
        return Piece("block", None)  # beyond the edge: nothing to slide over

    found = set()
    for row in range(n):
        for col in range(n):
            mover = at(col, row)
            if mover is None or mover.colour != game.turn:
                continue
            for dc, dr in FOUR:
                c, r = col + dc, row + dr
                while (piece := at(c, r)) is None or piece.colour == game.turn:
                    c, r = c + dc, r + dr
                if piece.colour is not None and piece.height == mover.height:
                    found.add(capture(row * n + col, r * n + c, n * n))
    return found


def heights_account_for_blocks(game: Pilo) -> bool:
    pieces = [game.piece_at(c) for c in range(game.geometry.cell_count)]
    blocks = sum(1 for p in pieces if p is not None and p.colour is None)
    needed = sum(
        (1 << (p.height - 1)) - 1 for p in pieces if p is not None and p.colour is not None
    )
    return blocks == needed


@settings(max_examples=30, deadline=None)
@given(size=st.sampled_from([6, 7, 8, 9, 10]), seed=st.integers(0, 2**32 - 1))
def test_captures_follow_the_rules_in_random_games(size: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Pilo.new(size=size)
    n2 = size * size
    while not game.is_over():
        legal = game.legal_moves()
        assert {m for m in legal if m >= n2} == expected_captures(game)
        game.push(rng.choice(legal))
        assert heights_account_for_blocks(game)


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from([6, 8, 10]), seed=st.integers(0, 2**32 - 1))
def test_a_playout_is_a_game_of_legal_moves(size: int, seed: int) -> None:
    game = Pilo.new(size=size)
    game.playout(random.Random(seed))
    assert game.is_over()
    assert heights_account_for_blocks(game)
    replay = Pilo.new(size=size)
    for move in game.moves:
        replay.play(move)
    assert replay.position() == game.position()


def first_moves(start: str, runs: int) -> Counter[int]:
    counts: Counter[int] = Counter()
    for seed in range(runs):
        trial = Pilo.from_position(start)
        trial.playout(random.Random(seed))
        counts[trial.moves[0]] += 1
    return counts


def test_playout_picks_uniformly_among_placements_and_swap() -> None:
    game = Pilo.new(size=6)
    game.play("c3")
    legal = game.legal_moves()  # 35 placements and the swap
    counts = first_moves(game.position(), 3600)
    assert set(counts) == set(legal)
    assert all(60 < counts[m] < 140 for m in legal), counts


def test_playout_picks_uniformly_among_captures() -> None:
    game = pilo(STUCK)
    game.play("pass")
    counts = first_moves(game.position(), 1600)
    assert set(counts) == set(game.legal_moves())
    assert len(counts) == 8
    assert all(140 < count < 260 for count in counts.values()), counts


def few_mixed_moves(size: int = 6) -> str:
    """A position from a random game with 3 to 6 legal moves, placements and captures."""
    n2 = size * size
    for seed in range(1000):
        rng = random.Random(seed)
        game = Pilo.new(size=size)
        while not game.is_over():
            legal = game.legal_moves()
            placements = any(0 <= m < n2 for m in legal)
            if 3 <= len(legal) <= 6 and placements and any(m >= n2 for m in legal):
                return game.position()
            game.push(rng.choice(legal))
    raise AssertionError("no such position in 1000 random games")


def test_playout_picks_uniformly_between_placements_and_captures() -> None:
    start = few_mixed_moves()
    legal = Pilo.from_position(start).legal_moves()
    runs = 400 * len(legal)
    counts: Counter[int] = Counter()
    for seed in range(runs):
        trial = Pilo.from_position(start)
        trial.playout(random.Random(seed))
        counts[trial.moves[0]] += 1
    assert set(counts) == set(legal)
    assert all(300 < counts[m] < 500 for m in legal), counts
