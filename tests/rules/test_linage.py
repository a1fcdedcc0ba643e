"""Linage: regions, lines, legal placements, passing and scoring.

Positions are diagrams with the top row first, as in position strings: `x` is a stone,
`.` an empty point; columns a.. from the left, rows 1.. from the bottom.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.rules.base import PASS, SWAP
from abstracts_tui.rules.errors import IllegalMoveError, PositionError
from abstracts_tui.rules.linage import HORIZONTAL, VERTICAL, Linage, LinageScore, Region


def board(diagram: str, side: str = "vertical", passes: int = 0, komi: str = "0") -> Linage:
    """The game at a diagram (rows from the top, points separated by spaces)."""
    rows = ["".join(line.split()) for line in diagram.strip().splitlines()]
    text = f"linage size={len(rows)},komi={komi} {'/'.join(rows)} {side} passes={passes}"
    return Linage.from_position(text)


def names(game: Linage, cells: Iterable[int]) -> set[str]:
    return {game.geometry.name(c) for c in cells}


def placements(game: Linage) -> set[str]:
    """The legal placements by name (pass left out)."""
    return {game.move_name(m) for m in game.legal_moves() if m != PASS}


def empty_points(game: Linage) -> set[str]:
    return {game.geometry.name(c) for c in range(game.geometry.cell_count) if not game.piece_at(c)}


def region_of(game: Linage, name: str) -> Region:
    cell = game.geometry.parse(name)
    return next(r for r in game.regions() if cell in r.cells)


# -- a naive reading of the rules, to check the fast code against -----------------------


def naive_lines(size: int, part: set[int]) -> tuple[bool, bool]:
    """Whether a set of points holds a horizontal line, and a vertical one."""
    across = any(c % size <= size - 3 and {c, c + 1, c + 2} <= part for c in part)
    down = any({c, c + size, c + 2 * size} <= part for c in part)
    return across, down


def naive_regions(size: int, empty: set[int]) -> list[set[int]]:
    regions = []
    left = set(empty)
    while left:
        todo = [left.pop()]
        found = set(todo)
        while todo:
            c = todo.pop()
            col = c % size
            for d in (c - size, c + size, c - 1 if col else -1, c + 1 if col < size - 1 else -1):
                if d in left:
                    left.discard(d)
                    found.add(d)
                    todo.append(d)
        regions.append(found)
    return regions


def naive_legal(game: Linage) -> set[int]:
    size = game.size
    empty = {c for c in range(size * size) if game.piece_at(c) is None}
    legal = set()
    for region in naive_regions(size, empty):
        if not all(naive_lines(size, region)):
            continue
        for p in region:
            parts = naive_regions(size, region - {p})
            if all(any(naive_lines(size, part)) for part in parts):
                legal.add(p)
    return legal


def naive_owners(game: Linage) -> dict[int, int | None]:
    size = game.size
    empty = {c for c in range(size * size) if game.piece_at(c) is None}
    owners: dict[int, int | None] = {}
    for region in naive_regions(size, empty):
        across, down = naive_lines(size, region)
        assert across or down, "a region without a line"
        owner = None if across and down else (HORIZONTAL if across else VERTICAL)
        for c in region:
            owners[c] = owner
    return owners


# -- the start -------------------------------------------------------------------------


def test_start_every_point_and_pass_legal_vertical_first() -> None:
    game = Linage.new()
    assert game.size == 11
    assert game.side_to_move() == "vertical"
    assert game.legal_moves() == [*range(121), PASS]
    assert game.position() == "linage size=11,komi=0 " + "/".join(["." * 11] * 11) + (
        " vertical passes=0"
    )


def test_start_region_is_free_and_scores_nothing() -> None:
    game = Linage.new(size=5, komi=2.5)
    (region,) = game.regions()
    assert region.owner is None and region.size == 25
    assert game.score().points == (0.0, 2.5)
    assert game.outcome() is None


# -- placements next to the walls, in 1- and 2-wide corridors ---------------------------

BOTTOM_CORRIDOR = """
. . . . .
. . . . .
. . . . .
x x x x .
. . . . .
"""


def test_corridor_along_the_bottom_wall() -> None:
    game = board(BOTTOM_CORRIDOR)
    top = {f"{c}{r}" for c in "abcde" for r in (3, 4, 5)}
    # d1 cuts off a1 b1 c1, a line; c1 and b1 would cut off two points or one.
    assert placements(game) == top | {"e2", "e1", "d1", "a1"}
    assert game.illegal_reason(game.parse_move("b1")) == (
        "a stone on b1 would cut off a1 with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("c1")) == (
        "a stone on c1 would cut off a1 b1 with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("d2")) == "d2 is occupied"


def test_closing_the_corridor_makes_it_horizontal() -> None:
    game = board(BOTTOM_CORRIDOR)
    game.play("e2")
    row = region_of(game, "a1")
    assert row.owner == HORIZONTAL
    assert names(game, row.cells) == {"a1", "b1", "c1", "d1", "e1"}
    assert game.side_to_move() == "horizontal"
    reason = (
        "a1 is in Horizontal's region (it has no vertical line); stones go only in free regions"
    )
    assert game.illegal_reason(game.parse_move("a1")) == reason
    with pytest.raises(IllegalMoveError, match="Horizontal's region"):
        game.play("c1")
    assert "c1" not in placements(game)


def test_corridor_along_the_left_wall() -> None:
    game = board(
        """
        . x . . .
        . x . . .
        . x . . .
        . x . . .
        . . . . .
        """
    )
    assert game.illegal_reason(game.parse_move("a4")) == (
        "a stone on a4 would cut off a5 with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("a3")) == (
        "a stone on a3 would cut off a4 a5 with no line of three empty points"
    )
    # a2 and b1 cut off a column that still holds a vertical line.
    assert {"a2", "a1", "b1", "a5"} <= placements(game)
    game.play("b1")
    assert region_of(game, "a3").owner == VERTICAL


TWO_WIDE = """
. . . . . .
. . . . . .
. . . . . .
x x x x . .
. . x . . .
. . . . . .
"""


def test_two_wide_corridor() -> None:
    game = board(TWO_WIDE)
    assert placements(game) == empty_points(game) - {"b1", "c1"}
    assert game.illegal_reason(game.parse_move("c1")) == (
        "a stone on c1 would cut off a1 b1 a2 b2 with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("b1")) == (
        "a stone on b1 would cut off a1 a2 b2 with no line of three empty points"
    )


def test_two_wide_corridor_split_leaving_a_line_is_legal() -> None:
    game = board(TWO_WIDE)
    game.play("d1")  # cuts off a1 b1 c1 a2 b2, which holds the line a1 b1 c1
    pocket = region_of(game, "a1")
    assert names(game, pocket.cells) == {"a1", "b1", "c1", "a2", "b2"}
    assert pocket.owner == HORIZONTAL


def test_ring_around_a_pocket() -> None:
    game = board(
        """
        . . . . .
        . x x x .
        . x . x .
        . x . x .
        . . . . .
        """
    )
    # a3 looks like a cut point from its neighbours, but the ring goes round the other way.
    assert "a3" in placements(game)
    assert "c3" in placements(game)
    assert game.illegal_reason(game.parse_move("c1")) == (
        "a stone on c1 would cut off c2 c3 with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("c2")) == (
        "a stone on c2 would cut off c3 with no line of three empty points"
    )


def test_every_line_through_one_point_that_cuts_nothing() -> None:
    game = board(
        """
        x x x x x
        x x x x x
        . x x x x
        . . x x x
        . . . x x
        """
    )
    # The only lines are a1 b1 c1 and a1 a2 a3: a stone on a1 keeps the rest connected
    # but leaves it with no line.
    assert region_of(game, "a1").owner is None
    assert placements(game) == {"c1", "b2", "a3"}
    assert game.illegal_reason(game.parse_move("a1")) == (
        "a stone on a1 would leave the rest of its region (b1 c1 a2 b2 a3) "
        "with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("b1")) == (
        "a stone on b1 would cut off c1 with no line of three empty points"
    )
    assert game.illegal_reason(game.parse_move("a2")) == (
        "a stone on a2 would cut off a3 with no line of three empty points"
    )
    game.play("c1")
    assert region_of(game, "a1").owner == VERTICAL


def test_plus_shaped_region() -> None:
    game = board(
        """
        x x x x x
        x x . x x
        x . . . x
        x x . x x
        x x x x x
        """
    )
    assert placements(game) == {"c4", "c2", "b3", "d3"}
    assert game.illegal_reason(game.parse_move("c3")) == (
        "a stone on c3 would cut off c2 with no line of three empty points"
    )
    game.play("c4")
    assert region_of(game, "c3").owner == HORIZONTAL
    assert game.legal_moves() == [PASS]


@pytest.mark.parametrize(("played", "owner"), [("c3", HORIZONTAL), ("e1", VERTICAL)])
def test_l_shaped_region(played: str, owner: int) -> None:
    game = board(
        """
        x x x x x
        x x x x x
        x x . x x
        x x . x x
        x x . . .
        """
    )
    assert placements(game) == {"c3", "e1"}
    assert "cut off" in (game.illegal_reason(game.parse_move("c1")) or "")
    game.play(played)
    assert region_of(game, "c1").owner == owner
    assert region_of(game, "c1").size == 4


# -- ownership ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("diagram", "point", "owner", "size"),
    [
        # A staircase: two horizontal lines, no vertical one.
        ("xxxxx/xxxxx/xxxxx/xx.../...xx", "a1", HORIZONTAL, 6),
        # Two wide, three high: only vertical lines.
        ("..xxx/..xxx/..xxx/xxxxx/xxxxx", "a5", VERTICAL, 6),
        # Two high, full width: only horizontal lines.
        ("xxxxx/xxxxx/xxxxx/...../.....", "c1", HORIZONTAL, 10),
        # A comb: a row with teeth two high above it holds both.
        (".x.x./.x.x./...../xxxxx/xxxxx", "c3", None, 11),
        # A single column of three.
        ("xx.xx/xx.xx/xx.xx/xxxxx/xxxxx", "c4", VERTICAL, 3),
        # A single row of three next to a corner.
        ("xxxxx/xxxxx/xxxxx/xxxxx/...xx", "b1", HORIZONTAL, 3),
    ],
)
def test_region_owner_by_shape(diagram: str, point: str, owner: int | None, size: int) -> None:
    game = board("\n".join(diagram.split("/")))
    region = region_of(game, point)
    assert region.owner == owner
    assert region.size == size
    if owner is not None:
        assert placements(game) == set()
        assert game.legal_moves() == [PASS]
        colour = "Vertical" if owner == VERTICAL else "Horizontal"
        assert f"in {colour}'s region" in (game.illegal_reason(game.parse_move(point)) or "")


# -- passing and the end --------------------------------------------------------------------


def test_pass_is_always_legal_and_two_end_the_game() -> None:
    game = Linage.new(size=5)
    assert game.illegal_reason(PASS) is None
    game.play("pass")
    assert game.position().endswith(" horizontal passes=1")
    assert not game.is_over() and game.outcome() is None
    game.play("c3")
    assert game.position().endswith(" vertical passes=0")
    game.play("pass")
    assert not game.is_over()
    game.play("pass")
    assert game.is_over()
    assert game.position().endswith(" vertical passes=2")
    assert game.legal_moves() == []
    assert game.illegal_reason(PASS) == "the game is over: both players passed in a row"
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play("a1")
    game.undo()
    assert not game.is_over()
    assert game.legal_moves()[-1] == PASS


def test_pass_is_legal_while_placements_remain() -> None:
    game = board(TWO_WIDE, side="horizontal", passes=1)
    assert PASS in game.legal_moves()
    game.play(PASS)
    assert game.is_over()


def test_loaded_with_two_passes_is_over() -> None:
    game = board(SCORING, passes=2)
    assert game.is_over()
    assert game.outcome() is not None


def test_moves_that_are_not_linage_moves() -> None:
    game = Linage.new(size=5)
    assert game.illegal_reason(SWAP) == (
        "Linage has no swap: the second player chooses sides before the game"
    )
    assert game.illegal_reason(25) == (
        "Linage has no moves from one point to another: give a point, or pass"
    )
    assert game.illegal_reason(999) == "999 is not a move of Linage size 5"
    assert game.illegal_reason(-7) == "-7 is not a move of Linage size 5"


# -- scoring -------------------------------------------------------------------------------

SCORING = """
. x . x .
. x . x .
. x . x .
x x x x x
. . . . .
"""


@pytest.mark.parametrize(
    ("komi", "points", "winner", "reason"),
    [
        ("0", (9.0, 5.0), VERTICAL, "Vertical 9, Horizontal 5"),
        ("6.5", (9.0, 11.5), HORIZONTAL, "Vertical 9, Horizontal 11.5"),
        ("4.5", (9.0, 9.5), HORIZONTAL, "Vertical 9, Horizontal 9.5"),
        ("3.5", (9.0, 8.5), VERTICAL, "Vertical 9, Horizontal 8.5"),
        ("-6", (9.0, -1.0), VERTICAL, "Vertical 9, Horizontal -1"),
        ("-0.5", (9.0, 4.5), VERTICAL, "Vertical 9, Horizontal 4.5"),
        ("4", (9.0, 9.0), None, "tied 9-9: equal scores are a draw"),
    ],
)
def test_final_score_with_komi(
    komi: str, points: tuple[float, float], winner: int | None, reason: str
) -> None:
    game = board(SCORING, passes=2, komi=komi)
    score = game.score()
    assert isinstance(score, LinageScore)
    assert score.points == points
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == winner
    assert outcome.reason == reason


def test_score_breakdown() -> None:
    game = board(SCORING, passes=2, komi="6.5")
    score = game.score()
    assert [(names(game, r.cells), r.owner) for r in score.regions] == [
        ({"a1", "b1", "c1", "d1", "e1"}, HORIZONTAL),
        ({"a3", "a4", "a5"}, VERTICAL),
        ({"c3", "c4", "c5"}, VERTICAL),
        ({"e3", "e4", "e5"}, VERTICAL),
    ]
    assert score.komi == 6.5
    assert score.lines == (
        "Horizontal 5: a1 b1 c1 d1 e1 (no vertical line)",
        "Vertical 3: a3 a4 a5 (no horizontal line)",
        "Vertical 3: c3 c4 c5 (no horizontal line)",
        "Vertical 3: e3 e4 e5 (no horizontal line)",
        "Vertical 9",
        "Horizontal 5 + komi 6.5 = 11.5",
    )


def test_draw_without_komi() -> None:
    game = board(
        """
        . . . x .
        x x x x .
        x x x x .
        x x x x x
        x x x x x
        """,
        passes=2,
    )
    assert game.score().points == (3.0, 3.0)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.reason == "tied 3-3: equal scores are a draw"


def test_score_before_the_end_is_a_preview_where_free_regions_count_nothing() -> None:
    game = board(
        """
        . x . . .
        . x . . .
        . x . . .
        x x . . .
        . . . . .
        """,
        komi="0.5",
    )
    score = game.score()
    # a3 a4 a5 is Vertical's; the rest (17 points) is free.
    assert score.points == (3.0, 0.5)
    assert score.lines[:2] == (
        "free: 17 points from a1 to e5 (lines both ways)",
        "Vertical 3: a3 a4 a5 (no horizontal line)",
    )
    assert game.outcome() is None


# -- position strings ---------------------------------------------------------------------


def test_position_round_trip_with_stones_and_passes() -> None:
    game = board(TWO_WIDE, side="horizontal", passes=1, komi="-2.5")
    text = "linage size=6,komi=-2.5 ....../....../....../xxxx../..x.../...... horizontal passes=1"
    assert game.position() == text
    assert game.turn == HORIZONTAL
    assert game.passes == 1


def test_position_with_a_region_without_a_line_is_refused() -> None:
    with pytest.raises(PositionError) as error:
        board(
            """
            . . x . .
            . . x . .
            x x x . .
            . . . . .
            . . . . .
            """
        )
    assert str(error.value) == (
        "the region a4 b4 a5 b5 has no line of three empty points; in Linage every region keeps one"
    )
    with pytest.raises(PositionError, match="the region e5 has no line"):
        board("x x x x ./x x x x x/x x x x x/. . . . ./. . . . .".replace("/", "\n"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("linage size=5,komi=0 v..../...../...../...../..... vertical passes=0", "neutral"),
        ("linage size=5,komi=0 ...../...../...../...../..... vertical passes=3", "0, 1 or 2"),
        ("linage size=5,komi=0 ...../...../...../...../..... vertical passes=x", "0, 1 or 2"),
        ("linage size=5,komi=0.3 ...../...../...../...../..... vertical passes=0", "komi"),
        ("linage size=4,komi=0 ..../..../..../.... vertical passes=0", "sizes 5 to 19"),
        ("linage size=5,komi=0 ...../...../...../...../..... vertical -", "passes"),
    ],
)
def test_malformed_positions(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Linage.from_position(text)


# -- random games ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 8))
def test_random_games_keep_a_line_in_every_region(seed: int, size: int) -> None:
    rng = random.Random(seed)
    game = Linage.new(size=size)
    owned: dict[int, int | None] = {}
    while not game.is_over():
        owners = naive_owners(game)  # asserts that every region holds a line
        # A point once owned stays empty and keeps its owner.
        for cell, owner in owned.items():
            if owner is not None:
                assert owners.get(cell) == owner
        owned = owners
        legal = game.legal_moves()
        assert set(legal) - {PASS} == naive_legal(game)
        # Passing is rare here so that games reach their end by filling the board.
        board_moves = legal[:-1]
        move = rng.choice(board_moves) if board_moves and rng.random() < 0.97 else PASS
        game.play(move)
    vertical = sum(1 for o in owned.values() if o == VERTICAL)
    horizontal = sum(1 for o in owned.values() if o == HORIZONTAL)
    assert game.score().points == (vertical, horizontal)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([5, 6, 11, 19]))
def test_playout_plays_legal_moves_to_the_end(seed: int, size: int) -> None:
    game = Linage.new(size=size, komi=0.5)
    game.playout(random.Random(seed))
    assert game.is_over()
    assert game.moves[-2:] == [PASS, PASS]
    replay = Linage.new(size=size, komi=0.5)
    for move in game.moves:
        replay.play(move)
    assert replay.position() == game.position()
    naive_owners(game)
    # At the end no free region is left with a legal placement.
    game.undo()
    assert set(game.legal_moves()) - {PASS} == naive_legal(game)


def test_big_board_edges() -> None:
    game = Linage.new(size=19)
    assert game.legal_moves() == [*range(361), PASS]
    rng = random.Random(19)
    for _ in range(200):
        game.push(rng.choice(game.legal_moves()[:-1]))
    assert set(game.legal_moves()) - {PASS} == naive_legal(game)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([5, 8, 11, 19]))
def test_one_placement_is_judged_as_the_whole_list_of_legal_moves_judges_it(
    seed: int, size: int
) -> None:
    # A move played in a position whose legal moves were never listed is checked on its
    # own (a record read, a game replayed); it must agree with the list in every case.
    rng = random.Random(seed)
    game = Linage.new(size=size)
    while not game.is_over():
        position = game.position()
        fresh = Linage.from_position(position)
        judged = {
            cell for cell in range(game.geometry.cell_count) if fresh.illegal_reason(cell) is None
        }
        assert judged == set(game.legal_moves()) - {PASS}, position
        game.play(rng.choice(game.legal_moves()[:-1] or [PASS]))
