"""Egotzi: pushes, the pie rule, both scorings and the tie rules (docs/rules.md, Egotzi).

Boards are drawn as diagrams, top row first, one character per square (spaces ignored):
`b` Black, `w` White, `.` empty. Black moves when the number of stones is even.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.rules import SWAP, IllegalMoveError, PositionError
from abstracts_tui.rules.egotzi import Egotzi, EgotziScore, EgotziSquaredScore


def board(diagram: str) -> str:
    """The board field of a position string for a diagram."""
    return "/".join(line.replace(" ", "") for line in diagram.strip().splitlines())


def setup(
    diagram: str, variant: str = "standard", komi: int | None = None, swap: str = "no"
) -> Egotzi:
    """A game at the position drawn, with the side to move the stone count implies."""
    rows = board(diagram)
    size = rows.count("/") + 1
    stones = sum(ch in "bw" for ch in rows)
    side = "white" if stones % 2 else "black"
    options = f"size={size},variant={variant}" + (f",komi={komi}" if komi is not None else "")
    return Egotzi.from_position(f"egotzi {options} {rows} {side} swap={swap}")


def after(diagram: str, move: str) -> str:
    """The board field after `move` is played on the position drawn."""
    game = setup(diagram)
    game.play(move)
    return game.board_token()


# -- pushes ------------------------------------------------------------------------------


def test_straight_push_to_the_first_empty_square() -> None:
    before = """
        b . . . .
        . . . . .
        . . w . .
        . . . . .
        . . . . .
    """
    assert after(before, "d3") == board("""
        b . . . .
        . . . . .
        . w . b .
        . . . . .
        . . . . .
    """)


def test_push_jumps_over_stones_along_a_row() -> None:
    before = """
        . . . . .
        . . . . .
        . b w . .
        . . . . .
        . . . . .
    """
    assert after(before, "d3") == board("""
        . . . . .
        . . . . .
        w b . b .
        . . . . .
        . . . . .
    """)


def test_push_jumps_over_stones_up_a_column() -> None:
    before = """
        . . . . .
        . . b . .
        . . w . .
        . . b . .
        . . . . .
    """
    assert after(before, "c1") == board("""
        . . b . .
        . . b . .
        . . w . .
        . . . . .
        . . w . .
    """)


def test_wrapped_push_goes_to_the_farthest_empty_square_beyond_the_new_stone() -> None:
    # d3 meets the edge after e3; coming back in from the left edge, a3 is the first empty
    # square (the farthest from d3), not b3.
    before = """
        . . . . .
        . . . . .
        . . . w b
        . . . . .
        . . . . .
    """
    assert after(before, "c3") == board("""
        . . . . .
        . . . . .
        w . b . b
        . . . . .
        . . . . .
    """)


def test_wrapped_push_on_a_crowded_line_skips_the_stones_at_the_far_edge() -> None:
    # f4 finds nothing empty to its right; re-entering from the left edge it passes a4
    # (a stone) and stops at b4, the empty square farthest from it (d4 is nearer).
    before = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b . w . . w b
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """
    assert after(before, "e4") == board("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b w w . b . b
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)


def test_stone_with_no_empty_square_on_its_line_stays() -> None:
    before = """
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        b w . b w
    """
    assert after(before, "c1") == board("""
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        b w b b w
    """)


def test_straight_and_wrapped_push_onto_one_square_the_wrapped_stone_stays() -> None:
    # b3 goes straight to a3. d3 finds no empty square to its right and would wrap to
    # the farthest empty square to its left: a3 too (b3 is still full, since all pushes
    # are worked out before any stone moves). d3 wrapped, so it stays.
    before = """
        b . . . .
        . . . . .
        . w . b w
        . . . . .
        . . . . .
    """
    game = setup(before)
    game.play("c3")
    assert game.board_token() == board("""
        b . . . .
        . . . . .
        w . b b w
        . . . . .
        . . . . .
    """)
    assert game.turn == 1
    # What the move pushed: b3 to a3; d3 stayed, so it is not said.
    name = game.geometry.name
    c3 = game.geometry.parse("c3")
    assert [(name(a), name(b)) for a, b in setup(before).pushed(c3)] == [("b3", "a3")]


def test_collision_on_a_column_the_stone_pushed_down_wraps_and_stays() -> None:
    # c4 goes up to c5; c2 is blocked by c1 and would wrap to c5, the only empty square
    # of the column, so it stays.
    before = """
        . . . . .
        . . w . .
        . . . . .
        . . b . .
        b . w . .
    """
    assert after(before, "c3") == board("""
        . . w . .
        . . . . .
        . . b . .
        . . b . .
        b . w . .
    """)


def test_collision_on_a_crowded_line_where_the_wrap_skips_stones() -> None:
    # White plays e4. d4 goes straight to c4. f4 is blocked by g4 and re-enters from the
    # left: a4 and b4 are full, so its square would be c4, where d4 goes: f4 stays.
    before = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b w . b . w b
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """
    assert after(before, "e4") == board("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        b w b . w w b
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)


def test_corner_placement_one_stone_stuck_one_jumping() -> None:
    # a2 is pushed up into a full column; the only other square, a1, is the new stone:
    # it stays. b1 jumps over c1 to d1.
    before = """
        b . . . .
        w . . . .
        b . . . .
        w . . . .
        . b w . .
    """
    assert after(before, "a1") == board("""
        b . . . .
        w . . . .
        b . . . .
        w . . . .
        b . w b .
    """)


def test_stone_on_the_edge_wraps_while_its_opposite_neighbour_goes_straight() -> None:
    # a1 has nowhere to go leftwards and re-enters from the right edge at e1; c1 goes
    # straight to d1 (different squares, so both move); b2 goes up to b3.
    before = """
        . . . . b
        . . . . .
        . . . . .
        . w . . .
        w . b . .
    """
    assert after(before, "b1") == board("""
        . . . . b
        . . . . .
        . w . . .
        . . . . .
        . b . b w
    """)


def test_four_neighbours_pushed_at_once() -> None:
    # Row 4: c4 goes straight to b4; e4 is blocked by f4 and g4 and wraps to a4, the
    # farthest empty square (b4 is a different square, so both move). Column d: d5 jumps
    # d6 to d7; d3 goes down to d2.
    before = """
        . . . . . . .
        . . . b . . .
        . . . w . . .
        . . w . b w b
        . . . b . . .
        . . . . . . .
        . . . w . . .
    """
    assert after(before, "d4") == board("""
        . . . w . . .
        . . . b . . .
        . . . . . . .
        b w . b . w b
        . . . . . . .
        . . . b . . .
        . . . w . . .
    """)


def test_top_edge_placement_pushes_sideways_and_down() -> None:
    # White plays c5 on the top edge: b5 goes to a5, d5 to e5, and c4 jumps c3 to c2.
    before = """
        . b . b .
        . . w . .
        . . b . .
        . . . . .
        . . . . w
    """
    assert after(before, "c5") == board("""
        b . w . b
        . . . . .
        . . b . .
        . . w . .
        . . . . w
    """)


# -- the move list and illegal moves -------------------------------------------------


def test_legal_moves_are_the_empty_squares() -> None:
    game = setup("""
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        b w . . .
    """)
    assert game.legal_moves() == list(range(2, 25))


def test_illegal_moves_say_why() -> None:
    game = setup("""
        . . . . .
        . . . . .
        . . b . .
        . . . . .
        . . . . .
    """)
    assert game.illegal_reason(game.parse_move("c3")) == "c3 is occupied"
    assert game.illegal_reason(-1) == (
        "there is no passing in Egotzi: place a stone on an empty square"
    )
    for code in (25, -7, 10**12):
        assert game.illegal_reason(code) == (
            f"{code} is not a move: place a stone on an empty square from a1 to e5"
        )
    with pytest.raises(IllegalMoveError, match="c3 is occupied"):
        game.play("C3")
    assert game.position().endswith("white swap=no")


def test_no_move_on_a_full_board() -> None:
    game = setup("""
        b w b w b
        w b w b w
        b w b w b
        w b w b w
        b w b w b
    """)
    assert game.is_over()
    assert game.legal_moves() == []
    assert game.illegal_reason(0) == "the game is over: the board is full"


def test_every_game_lasts_exactly_one_placement_per_square() -> None:
    game = Egotzi.new(size=5, variant="squared")
    rng = random.Random(7)
    for _ in range(25):
        assert not game.is_over()
        game.play(rng.choice(game.legal_moves()))
    assert game.is_over()


# -- the pie rule ----------------------------------------------------------------------


def test_swap_only_as_the_second_move() -> None:
    game = Egotzi.new()
    assert SWAP not in game.legal_moves()
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"
    game.play("d4")
    assert SWAP in game.legal_moves()
    assert len(game.legal_moves()) == 49
    assert game.position() == (
        "egotzi size=7,variant=standard ......./......./......./...b.../......./......./......."
        " white swap=yes"
    )
    game.play("swap")
    # The board and the colour to move stay; the persons changed colours.
    assert game.position() == (
        "egotzi size=7,variant=standard ......./......./......./...b.../......./......./......."
        " white swap=no"
    )
    assert SWAP not in game.legal_moves()
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"
    game.play("d5")  # White places next, pushing d4 down
    assert game.board_token() == board("""
        . . . . . . .
        . . . . . . .
        . . . w . . .
        . . . . . . .
        . . . b . . .
        . . . . . . .
        . . . . . . .
    """)
    assert game.turn == 0
    assert game.undo() == game.parse_move("d5")
    assert game.undo() == SWAP
    assert game.position().endswith("white swap=yes")


def test_swap_not_after_the_second_stone() -> None:
    game = Egotzi.new()
    game.play("d4")
    game.play("a1")
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"


def test_squared_has_no_swap() -> None:
    game = Egotzi.new(variant="squared", komi=4)
    game.play("d4")
    assert SWAP not in game.legal_moves()
    assert game.illegal_reason(SWAP) == (
        "Egotzi squared is played with komi instead of the pie rule: no swap"
    )
    assert game.position().endswith("white swap=no")


# -- position strings ------------------------------------------------------------------

EMPTY5 = "...../...../...../...../....."
ONE5 = "...../...../..b../...../....."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            f"egotzi size=5,variant=standard {ONE5} black swap=no",
            "1 stone on the board it is White's turn",
        ),
        (
            f"egotzi size=5,variant=standard {EMPTY5} white swap=no",
            "0 stones on the board it is Black's turn",
        ),
        (
            "egotzi size=5,variant=standard ...../...../..w../...../..... white swap=no",
            "this board has 0 Black and 1 White",
        ),
        (
            "egotzi size=5,variant=standard ...../...../bbb../...../..w.. white swap=no",
            "this board has 3 Black and 1 White",
        ),
        (f"egotzi size=5,variant=squared,komi=2 {ONE5} white swap=yes", "squared has no pie rule"),
        (
            "egotzi size=5,variant=standard ...../...../bwb../...../..... white swap=yes",
            "swap=yes only right after Black's first stone",
        ),
        (f"egotzi size=5,variant=standard {EMPTY5} black swap=yes", "not with 0 stones"),
        (f"egotzi size=5,variant=standard {ONE5} white swap=maybe", "swap must be yes or no"),
        (f"egotzi size=5,variant=standard {ONE5} white -", "the counters must give swap"),
        ("egotzi size=5,variant=standard ...../...../..x../...../..... black swap=no", "'x'"),
        (f"egotzi size=4,variant=standard {EMPTY5} black swap=no", "sizes 5 to 9"),
        (f"egotzi size=5,variant=squared,komi=3 {EMPTY5} black swap=no", "even whole number"),
        (f"egotzi size=5,variant=standard,komi=2 {EMPTY5} black swap=no", "without komi"),
    ],
)
def test_bad_positions_are_rejected(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Egotzi.from_position(text)


def test_positions_after_the_first_stone_with_and_without_swap() -> None:
    pending = Egotzi.from_position(f"egotzi size=5,variant=standard {ONE5} white swap=yes")
    assert pending.legal_moves()[-1] == SWAP
    done = Egotzi.from_position(f"egotzi size=5,variant=standard {ONE5} white swap=no")
    assert SWAP not in done.legal_moves()
    assert done.turn == 1
    squared = Egotzi.from_position(f"egotzi size=5,variant=squared,komi=-4 {ONE5} white swap=no")
    assert squared.position() == f"egotzi size=5,variant=squared,komi=-4 {ONE5} white swap=no"


# -- scoring -----------------------------------------------------------------------------

# Black groups 3, 3, 3, 3, 1 (13 stones); White groups 4, 3, 2, 1, 1, 1 (12 stones).
FULL5 = """
    b b w w w
    b w b b w
    w w b w b
    b b w b w
    w b w b b
"""

# The right half is the left half mirrored with the colours exchanged, so every group
# has a partner: each colour has groups 7, 4, 3, 3, 1 (18 stones each).
FULL6 = """
    b b w b w w
    b w w b b w
    b b b w w w
    w w b w b b
    w b w b w b
    w b b w w b
"""


def test_standard_scoring_cancels_pairs_and_counts_the_biggest_group_left() -> None:
    game = setup(FULL5)
    score = game.score()
    assert isinstance(score, EgotziScore)
    assert [g.size for g in score.groups[0]] == [3, 3, 3, 3, 1]
    assert [g.size for g in score.groups[1]] == [4, 3, 2, 1, 1, 1]
    assert sorted((b.size, w.size) for b, w in score.cancelled) == [(1, 1), (3, 3)]
    assert sorted((g.colour, g.size) for g in score.left) == [
        (0, 3), (0, 3), (0, 3), (1, 1), (1, 1), (1, 2), (1, 4),
    ]  # fmt: skip
    assert score.points == (3, 4)
    assert score.lines == (
        "Black groups: 3, 3, 3, 3, 1",
        "White groups: 4, 3, 2, 1, 1, 1",
        "cancelled: 1 pair of size 3, 1 pair of size 1",
        "Black left: 3, 3, 3; biggest 3",
        "White left: 4, 2, 1, 1; biggest 4",
    )
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert outcome.reason == "Black 3, White 4 (biggest groups left after cancelling)"


def test_standard_all_groups_cancel_the_last_placer_loses() -> None:
    # 36 squares: White placed the 36th stone, so White loses.
    game = setup(FULL6)
    score = game.score()
    assert isinstance(score, EgotziScore)
    assert [g.size for g in score.groups[0]] == [7, 4, 3, 3, 1]
    assert [g.size for g in score.groups[1]] == [7, 4, 3, 3, 1]
    assert len(score.cancelled) == 5
    assert score.left == ()
    assert score.points == (0, 0)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 0
    assert outcome.reason == "every group cancelled (0-0): White placed the last stone and loses"


def test_squared_sums_the_squares() -> None:
    game = setup(FULL5, variant="squared", komi=0)
    score = game.score()
    assert isinstance(score, EgotziSquaredScore)
    assert score.squares == (37, 32)
    assert score.points == (37, 32)
    assert score.lines[2:] == (
        "Black: 3² + 3² + 3² + 3² + 1² = 37",
        "White: 4² + 3² + 2² + 1² + 1² + 1² = 32, plus komi 0 = 32",
    )
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason == "Black 37, White 32"


@pytest.mark.parametrize(
    ("komi", "white_points", "winner"),
    [(4, 36, 0), (6, 38, 1), (-2, 30, 0)],
)
def test_squared_komi_goes_to_white(komi: int, white_points: int, winner: int) -> None:
    game = setup(FULL5, variant="squared", komi=komi)
    assert game.score().points == (37, white_points)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == winner
    assert outcome.reason == f"Black 37, White {white_points} (komi {komi} included)"


def test_squared_equal_scores_are_a_draw() -> None:
    game = setup(FULL6, variant="squared", komi=0)
    assert game.score().points == (84, 84)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.reason == "tied: Black 84, White 84, a draw"


@pytest.mark.parametrize(("komi", "winner"), [(2, 1), (-2, 0)])
def test_squared_komi_breaks_the_symmetric_board(komi: int, winner: int) -> None:
    game = setup(FULL6, variant="squared", komi=komi)
    assert game.score().points == (84, 84 + komi)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == winner


def test_score_before_the_end_is_a_preview() -> None:
    game = setup("""
        b b . . .
        . . . . .
        . . w . .
        . . w . .
        b . . . w
    """)
    assert not game.is_over()
    assert game.outcome() is None
    # Black 2, 1; White 2, 1: everything cancels.
    assert game.score().points == (0, 0)
    squared = setup("""
        b b . . .
        . . . . .
        . . w . .
        . . w . .
        b . . . w
    """, variant="squared", komi=2)  # fmt: skip
    assert squared.score().points == (5, 7)


# -- properties over random games ------------------------------------------------------


def reference_place(
    cells: dict[tuple[int, int], int], size: int, at: tuple[int, int], colour: int
) -> None:
    """The push rules read literally, square by square, with no bitboards."""
    cells[at] = colour

    def on_board(square: tuple[int, int]) -> bool:
        return 0 <= square[0] < size and 0 <= square[1] < size

    moves: dict[tuple[int, int], tuple[tuple[int, int], bool]] = {}
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        stone = (at[0] + dc, at[1] + dr)
        if not on_board(stone) or stone not in cells:
            continue
        square = (stone[0] + dc, stone[1] + dr)
        while on_board(square) and square in cells:
            square = (square[0] + dc, square[1] + dr)
        if on_board(square):
            moves[stone] = (square, False)
            continue
        # Leave the board and come back in from the opposite edge, same direction.
        square = (
            stone[0] if dc == 0 else (0 if dc > 0 else size - 1),
            stone[1] if dr == 0 else (0 if dr > 0 else size - 1),
        )
        while square != stone and square in cells:
            square = (square[0] + dc, square[1] + dr)
        if square != stone:
            moves[stone] = (square, True)
    landing = Counter(square for square, _ in moves.values())
    for square, count in landing.items():
        if count > 1:
            # Only a straight and a wrapped push can meet; the wrapped stone stays.
            assert sorted(w for s, w in moves.values() if s == square) == [False, True]
    moves = {stone: m for stone, m in moves.items() if landing[m[0]] == 1 or not m[1]}
    colours = {stone: cells.pop(stone) for stone in moves}
    for stone, (square, _) in moves.items():
        cells[square] = colours[stone]


def cells_of(game: Egotzi) -> dict[tuple[int, int], int]:
    found = {}
    for cell in range(game.geometry.cell_count):
        piece = game.piece_at(cell)
        if piece is not None:
            assert piece.colour is not None
            found[game.geometry.coords(cell)] = piece.colour
    return found


@settings(max_examples=100, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    size=st.integers(5, 9),
    variant=st.sampled_from(["standard", "squared"]),
)
def test_every_move_adds_exactly_one_stone(rng: random.Random, size: int, variant: str) -> None:
    game = Egotzi.new(size=size, variant=variant)
    placements = 0
    while not game.is_over():
        before = cells_of(game)
        counts = Counter(before.values())
        mover = game.turn
        move = rng.choice(game.legal_moves())
        pushed = game.pushed(move)
        game.play(move)
        after_move = cells_of(game)
        if move == SWAP:
            assert after_move == before
            assert game.turn == mover
            continue
        placements += 1
        assert len(after_move) == len(before) + 1
        counts[mover] += 1
        assert Counter(after_move.values()) == counts
        assert game.turn == 1 - mover
        expected = dict(before)
        reference_place(expected, size, game.geometry.coords(move), mover)
        assert after_move == expected
        # The pushes said of the move (line mode says them) are what it did: each from a
        # neighbour of the new stone, all together.
        said = dict(before)
        coords = game.geometry.coords
        moving = {coords(source): said.pop(coords(source)) for source, _ in pushed}
        for source, target in pushed:
            assert source in game.geometry.neighbours[move]
            said[coords(target)] = moving[coords(source)]
        said[coords(move)] = mover
        assert said == expected
    assert placements == size * size


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.integers(5, 9),
    variant=st.sampled_from(["standard", "squared"]),
    start=st.integers(0, 3),
)
def test_playout_plays_the_moves_push_would(seed: int, size: int, variant: str, start: int) -> None:
    game = Egotzi.new(size=size, variant=variant)
    rng = random.Random(seed)
    for _ in range(start):
        game.push(rng.choice(game.legal_moves()))
    opening = game.position()
    game.playout(rng)
    assert game.is_over()
    replay = Egotzi.new(size=size, variant=variant)
    positions = [replay.position()]
    for move in game.moves:
        replay.play(move)
        positions.append(replay.position())
    assert replay.position() == game.position()
    assert positions[start] == opening
    for expected in reversed(positions[:-1]):
        game.undo()
        assert game.position() == expected


def test_playout_is_uniform_over_the_legal_moves() -> None:
    rng = random.Random(11)
    first: Counter[int] = Counter()
    for _ in range(5000):
        game = Egotzi.new(size=5)
        game.playout(rng)
        first[game.moves[0]] += 1
    assert set(first) == set(range(25))
    assert all(120 <= count <= 280 for count in first.values())  # 200 expected each
    # After Black's first stone White has 24 squares and swap: swap 1 time in 25.
    swaps = 0
    for _ in range(2500):
        game = Egotzi.new(size=5)
        game.push(12)
        game.playout(rng)
        swaps += game.moves[1] == SWAP
    assert 60 <= swaps <= 140  # 100 expected
