"""Partitions: placement, dividing and fragment groups, scoring and the tie-break chain.

Boards are drawn as diagrams of the hex-hex board, top row first (row i on side 5), one
character per cell, spaces and indentation ignored: `w` White, `b` Black, `.` empty.
White moves when the number of pieces is even. On side 5 the rows a to i hold 5, 6, 7, 8,
9, 8, 7, 6, 5 cells; row e is the middle row.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.rules import (
    PASS,
    SWAP,
    IllegalMoveError,
    MoveSyntaxError,
    OptionError,
    Piece,
    PositionError,
)
from abstracts_tui.rules.partitions import BLACK, WHITE, PartitionGroup, Partitions

EMPTY5 = """
        . . . . .
       . . . . . .
      . . . . . . .
     . . . . . . . .
    . . . . . . . . .
     . . . . . . . .
      . . . . . . .
       . . . . . .
        . . . . .
"""


def board(diagram: str) -> str:
    """The board field of a position string for a diagram."""
    return "/".join(line.replace(" ", "") for line in diagram.strip().splitlines())


def setup(diagram: str) -> Partitions:
    """A game at the position drawn, with the side to move the piece count implies."""
    rows = board(diagram)
    size = (rows.count("/") + 2) // 2
    pieces = sum(ch in "wb" for ch in rows)
    side = "black" if pieces % 2 else "white"
    return Partitions.from_position(f"partitions size={size} {rows} {side} -")


def cells(game: Partitions, names: str) -> tuple[int, ...]:
    """The cells named, lowest first."""
    return tuple(sorted(game.geometry.parse(name) for name in names.split()))


def group_at(game: Partitions, name: str) -> PartitionGroup:
    """The group holding the cell named."""
    cell = game.geometry.parse(name)
    (group,) = [g for g in game.groups() if cell in g.cells]
    return group


# -- notation and adjacency --------------------------------------------------------------


def test_cells_are_named_by_row_letter_from_the_bottom_and_position_from_the_left() -> None:
    game = Partitions.new(5)
    assert game.geometry.cell_count == 61
    expected = {"a1": 0, "a5": 4, "b1": 5, "b6": 10, "e1": 26, "e9": 34, "i1": 56, "i5": 60}
    for name, cell in expected.items():
        assert game.move_name(cell) == name
        assert game.parse_move(name) == cell
        assert game.parse_move(f" {name.upper()} ") == cell


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a6", "a6 is off the board (rows a to i; row a has 5 cells, the middle row e has 9)"),
        ("e10", "e10 is off the board"),
        ("j1", "j1 is off the board"),
        ("a0", "a0 is off the board"),
        ("5a", "'5a' is not a cell name like c3"),
        ("", "no move given"),
        ("c3-d4", "Partitions has no moves from one cell to another"),
    ],
)
def test_malformed_moves_are_refused_with_the_board_extent(text: str, message: str) -> None:
    game = Partitions.new(5)
    with pytest.raises(MoveSyntaxError) as refused:
        game.play(text)
    assert message in str(refused.value)
    assert game.moves == []


def test_middle_row_cells_touch_the_shorter_rows_on_both_sides_alike() -> None:
    # Below the middle row, d4 touches e4 and e5 above it; above it, f4 touches e4 and e5
    # below it; e5 touches d4, d5, f4 and f5 but not d6 or f6.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . w . b . .
        . . . . w . . . .
         . . . w . w . .
          . . . . . . .
           . . . . . .
            . . . . .
    """)
    assert group_at(game, "e5").cells == cells(game, "d4 e5 f4")
    assert group_at(game, "d6").cells == cells(game, "d6")
    assert group_at(game, "f6").colour == BLACK
    assert group_at(game, "f6").size == 1


def test_the_end_of_the_middle_row_has_three_neighbours() -> None:
    # e1 touches only d1, e2 and f1 (d2 and f2 are not its neighbours), so those three
    # cut it off from the rest of the board.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         w . . . . . . .
        . w . . . . . . .
         w . . . . . . .
          . . . . . . .
           . . . . . .
            . . . . .
    """)
    corner = group_at(game, "e2")
    assert corner.cells == cells(game, "d1 e2 f1")
    assert corner.dividing


# -- moves ---------------------------------------------------------------------------------


def test_white_moves_first_and_the_colours_alternate() -> None:
    game = Partitions.new()
    assert game.size == 6
    assert game.turn == WHITE
    assert len(game.legal_moves()) == 91
    game.play("f6")
    assert game.turn == BLACK
    assert game.piece_at(game.geometry.parse("f6")) == Piece("stone", WHITE)
    assert game.piece_at(game.geometry.parse("f7")) is None
    assert game.white == 1 << game.geometry.parse("f6")
    game.play("a1")
    assert game.black == 1
    assert game.turn == WHITE
    assert len(game.legal_moves()) == 89
    assert game.position().endswith(" white -")


def test_legal_moves_are_the_empty_cells() -> None:
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . w . . . .
         . . . . . . . .
          . . . . . . .
           . . . . . .
            . . . . b
    """)
    moves = game.legal_moves()
    assert moves == [c for c in range(61) if c not in cells(game, "e5 a5")]


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("e5", "e5 is occupied"),
        ("pass", "there is no passing in Partitions: place a piece on any empty cell"),
        ("swap", "Partitions has no swap (no pie rule): place a piece on any empty cell"),
    ],
)
def test_illegal_moves_say_why(move: str, message: str) -> None:
    game = Partitions.new(5)
    game.play("e5")
    game.play("a1")
    with pytest.raises(IllegalMoveError) as refused:
        game.play(move)
    assert str(refused.value) == message
    assert game.moves == [game.geometry.parse("e5"), 0]


@pytest.mark.parametrize("code", [61, 62, 1000, -3, -99])
def test_move_codes_off_the_board_are_refused(code: int) -> None:
    game = Partitions.new(5)
    assert game.illegal_reason(code) == (
        f"{code} is not a move: place a piece on an empty cell from a1 to i5"
    )
    assert game.illegal_reason(PASS) is not None
    assert game.illegal_reason(SWAP) is not None


def test_the_game_ends_when_the_board_is_full() -> None:
    game = Partitions.new(5)
    rng = random.Random(5)
    while not game.is_over():
        assert game.outcome() is None
        game.play(rng.choice(game.legal_moves()))
    assert len(game.moves) == 61
    assert game.legal_moves() == []
    assert game.illegal_reason(0) == "the game is over: the board is full"
    assert game.illegal_reason(PASS) == "the game is over: the board is full"
    assert game.outcome() is not None
    # White placed moves 1, 3, ..., 61.
    assert game.white.bit_count() == 31
    assert game.black.bit_count() == 30


# -- dividing and fragment groups ------------------------------------------------------------


def test_a_wall_across_the_board_divides_it() -> None:
    # Row b from edge to edge cuts row a off from the rest.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . . . . . .
           w w w w w w
            . . . . .
    """)
    (wall,) = game.groups()
    assert wall.size == 6
    assert wall.dividing
    assert game.score().points == (0, 0)


def test_a_group_touching_one_edge_does_not_divide() -> None:
    # From the left edge to the middle of row c: the cells around it stay connected
    # around its tip.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          w w w w . . .
           . . . . . .
            . . . . .
    """)
    (line,) = game.groups()
    assert line.fragment
    assert game.score().points == (0, 4)


def test_a_group_along_the_edge_does_not_divide() -> None:
    # It touches the rim all along, but nothing lies between it and the rim.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . . . . . .
           . . . . . .
            b b b b b
    """)
    (row,) = game.groups()
    assert row.fragment
    assert game.score().points == (5, 0)


def test_a_ring_divides_whatever_it_holds_empty_or_not() -> None:
    # The white ring around c3 holds an empty cell, the black ring around g5 a white piece.
    game = setup("""
            . . . . .
           . . . b b .
          . . . b w b .
         . . . . b b . .
        . . . . . . . . .
         . . w w . . . .
          . w . w . . .
           . w w . . .
            . . . . .
    """)
    assert group_at(game, "c2").dividing
    assert group_at(game, "c2").size == 6
    assert group_at(game, "g4").dividing
    assert group_at(game, "g5").fragment
    assert game.score().points == (0, 1)


def test_a_group_that_covers_the_whole_board_is_a_fragment() -> None:
    # Removing it leaves nothing, not two parts.
    game = setup(EMPTY5.replace(".", "w"))
    assert game.is_over()
    (everything,) = game.groups()
    assert everything.size == 61
    assert everything.fragment
    score = game.score()
    assert score.points == (0, 61)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == BLACK
    assert outcome.reason == "White 0, Black 61"


def test_groups_of_two_never_divide() -> None:
    # Even beside a corner: a2 b2 touch two of a1's neighbours, a1 keeps the third, b1.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . . . . . .
           . b . . . .
            . b . . .
    """)
    (pair,) = game.groups()
    assert pair.cells == cells(game, "a2 b2")
    assert pair.fragment
    assert game.score().points == (2, 0)


def test_a_group_that_would_only_cut_off_allies_takes_them_in_and_stops_dividing() -> None:
    # The published note: "if all of the cells that a group divides are occupied by
    # allies, it is no longer a dividing group". Allies beyond a wall touch it, so they
    # are part of its group, and removing that group leaves one part.
    allies = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . . . . . .
           w w w w w w
            w w w w w
    """)
    (group,) = allies.groups()
    assert group.size == 11
    assert group.fragment
    assert allies.score().points == (0, 11)
    # One black piece behind the wall: now something else is cut off, so it divides.
    enemy = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . . . . . .
           w w w w w w
            w w b w w
    """)
    assert group_at(enemy, "b1").size == 10
    assert group_at(enemy, "b1").dividing
    assert group_at(enemy, "a3").fragment
    assert enemy.score().points == (1, 0)


def test_a_group_surrounding_one_enemy_piece_on_a_full_board_is_a_fragment() -> None:
    # Removing the white group leaves only e5: one part.
    game = setup(_with(EMPTY5.replace(".", "w"), {"e5": "b"}))
    white = group_at(game, "a1")
    assert white.size == 60
    assert white.fragment
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == BLACK
    assert outcome.reason == "White 1, Black 60"


def test_two_enemy_pieces_inside_make_the_same_group_divide() -> None:
    game = setup(_with(EMPTY5.replace(".", "w"), {"e5": "b", "c3": "b"}))
    assert group_at(game, "a1").dividing
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == WHITE
    assert outcome.reason == "White 2, Black 0"


def _with(diagram: str, changes: dict[str, str]) -> str:
    """The diagram with the cells named set to the pieces given (side 5)."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    for name, piece in changes.items():
        row = "abcdefghi".index(name[0])
        rows[8 - row][int(name[1:]) - 1] = piece
    return "\n".join(" ".join(row) for row in rows)


# -- scoring ---------------------------------------------------------------------------------


def test_each_side_scores_the_opponents_pieces_in_fragment_groups() -> None:
    # White: the corner wall a2 b1 b2 (dividing: it cuts off a1), e4 e5 and i3 (fragments,
    # 3 pieces for Black). Black: row h from edge to edge (dividing: it cuts off row i),
    # c5 and d1 d2 e1 (fragments, 4 pieces for White).
    game = setup("""
            . . w . .
           b b b b b b
          . . . . . . .
         . . . . . . . .
        b . . w w . . . .
         b b . . . . . .
          . . . . b . .
           w w . . . .
            . w . . .
    """)
    dividing = {g.cells for g in game.groups() if g.dividing}
    assert dividing == {cells(game, "a2 b1 b2"), cells(game, "h1 h2 h3 h4 h5 h6")}
    score = game.score()
    assert score.points == (4, 3)
    assert score.winner == WHITE
    assert score.steps == ()
    assert score.ending == "scores"
    assert score.decision == "White 4, Black 3"
    assert len(score.groups) == 6
    assert score.lines[0] == "the board is not full: this scores the position as it stands"
    assert "black fragment group of 3: d1 d2 e1" in score.lines
    assert "white dividing group of 3: a2 b1 b2" in score.lines
    assert score.lines[-1] == "White wins; White 4, Black 3"
    assert game.outcome() is None


def test_a_tie_break_of_two_steps_on_a_partial_board() -> None:
    # Corner walls: white a2 b1 b2 around a1, black a4 b5 b6 around a5. Black c2 touches
    # the white wall, white c6 the black wall, black d6 touches only c6; white h3 is alone.
    # First: White scores c2 d6 (2), Black scores c6 h3 (2): tied.
    # Step 1: c2 joins the white wall, c6 the black wall, d6 turns white and h3 black:
    # White scores h3 (1), Black scores d6 (1): tied.
    # Step 2: d6 joins the black wall, h3 turns white: White 0, Black 1.
    game = setup("""
            . . . . .
           . . w . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . b . .
          . b . . . w .
           w w . . b b
            . w . b .
    """)
    score = game.score()
    assert score.points == (2, 2)
    assert [(s.number, s.to_black, s.to_white, s.points, s.repeats) for s in score.steps] == [
        (1, cells(game, "c6 h3"), cells(game, "c2 d6"), (1, 1), None),
        (2, cells(game, "d6"), cells(game, "h3"), (0, 1), None),
    ]
    assert score.winner == BLACK
    assert score.ending == "scores"
    assert score.decision == (
        "tied 2-2: after 2 tie-break steps (every fragment piece changes colour) White 0, Black 1"
    )
    assert "step 1: 2 white to black (c6 h3), 2 black to white (c2 d6); White 1, Black 1" in (
        score.lines
    )
    # The groups listed are those of the first evaluation.
    assert group_at(game, "a4").dividing
    assert {g.cells for g in score.groups if g.fragment} == {
        cells(game, name) for name in ("c2", "c6", "d6", "h3")
    }


FULL_TWO_STEPS = """
        w b b w w
       w b w b w w
      w w b b w w w
     w w w w w w w w
    w w w w w w w w w
     b b b b b b b b
      b b w w b b b
       b w b w b b
        b w w b b
"""


def test_a_tie_break_of_two_steps_decides_a_full_board() -> None:
    # White holds rows e to i but for a black ring around h3 (white); Black holds rows a
    # to d but for a white ring around b3 (black).
    # First: each sea divides (the other half, and the ring inside it); each ring divides
    # (its centre); the centres are fragments: White scores b3, Black scores h3: 1-1.
    # Step 1: h3 turns black and fills its ring, b3 turns white and fills its ring; each
    # filled ring is a fragment of 7, each sea still divides: 7-7.
    # Step 2: the filled rings join the seas around them; rows a to d (26, black) and
    # rows e to i (35, white) are both fragments: White 26, Black 35.
    game = setup(FULL_TWO_STEPS)
    assert game.is_over()
    score = game.score()
    assert score.points == (1, 1)
    assert sorted((g.colour, g.size, g.dividing) for g in score.groups) == [
        (WHITE, 1, False),
        (WHITE, 6, True),
        (WHITE, 28, True),
        (BLACK, 1, False),
        (BLACK, 6, True),
        (BLACK, 19, True),
    ]
    first, second = score.steps
    assert (first.to_black, first.to_white, first.points) == (
        cells(game, "h3"),
        cells(game, "b3"),
        (7, 7),
    )
    assert second.to_black == cells(game, "a2 a3 b2 b3 b4 c3 c4")
    assert second.to_white == cells(game, "g3 g4 h2 h3 h4 i2 i3")
    assert second.points == (26, 35)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == BLACK
    assert outcome.reason == (
        "tied 1-1: after 2 tie-break steps (every fragment piece changes colour) White 26, Black 35"
    )
    assert score.lines[-1] == f"Black wins; {outcome.reason}"


def test_a_tie_break_that_returns_to_the_first_position_is_a_draw() -> None:
    # Two lone pieces: after one change of colour they tie again, after two the position
    # is the first one again.
    game = setup("""
            . . . . .
           . . . . . .
          . . b . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . w . . . .
           . . . . . .
            . . . . .
    """)
    score = game.score()
    assert score.points == (1, 1)
    assert [(s.to_black, s.to_white, s.points, s.repeats) for s in score.steps] == [
        (cells(game, "c3"), cells(game, "g3"), (1, 1), None),
        (cells(game, "g3"), cells(game, "c3"), (1, 1), 0),
    ]
    assert score.winner is None
    assert score.ending == "repeat"
    assert score.decision == (
        "tied 1-1: step 2 of the tie-break repeats the position scored first, a draw"
    )
    assert score.lines[-1] == f"draw; {score.decision}"


def test_a_tie_break_that_returns_to_a_later_position_is_a_draw() -> None:
    # A white ring around a black c3 and a black ring around a white g5.
    # First: 1-1 (the centres). Step 1: the centres fill their rings, two fragments of 7:
    # 7-7. Step 2: both blobs change colour: 7-7. Step 3: back to the position of step 1.
    game = setup("""
            . . . . .
           . . . b b .
          . . . b w b .
         . . . . b b . .
        . . . . . . . . .
         . . w w . . . .
          . w b w . . .
           . w w . . .
            . . . . .
    """)
    score = game.score()
    ring_white = cells(game, "b2 b3 c2 c3 c4 d3 d4")
    ring_black = cells(game, "f5 f6 g4 g5 g6 h4 h5")
    assert score.points == (1, 1)
    assert [(s.to_black, s.to_white, s.points, s.repeats) for s in score.steps] == [
        (cells(game, "g5"), cells(game, "c3"), (7, 7), None),
        (ring_white, ring_black, (7, 7), None),
        (ring_black, ring_white, (7, 7), 1),
    ]
    assert score.winner is None
    assert score.decision == (
        "tied 1-1: step 3 of the tie-break repeats the position of step 1, a draw"
    )


def test_no_fragment_group_left_to_change_is_a_draw() -> None:
    # The white corner wall divides; nothing else is on the board: 0-0 and nothing to
    # change.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . . . . . . .
           w w . . . .
            . w . . .
    """)
    score = game.score()
    assert score.points == (0, 0)
    assert score.steps == ()
    assert score.winner is None
    assert score.ending == "no fragment"
    assert score.decision == "tied 0-0: no fragment group is left to change colour, a draw"
    assert Partitions.new(5).score().decision == score.decision


def test_a_tie_break_of_one_step() -> None:
    # Black c2 touches the white corner wall and scores 1 for White; the lone white h3
    # scores 1 for Black. Step 1: c2 turns white and joins the wall, h3 turns black and
    # is still alone: White 1, Black 0.
    game = setup("""
            . . . . .
           . . w . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . b . . . . .
           w w . . . .
            . w . . .
    """)
    score = game.score()
    assert score.points == (1, 1)
    assert [s.points for s in score.steps] == [(1, 0)]
    assert score.winner == WHITE


def test_no_fragment_group_left_after_two_walls_absorb_their_neighbours() -> None:
    # Black c2 touches the white wall, white c6 the black wall: 1-1. Step 1: both join
    # the wall they touch; every group now divides: 0-0 and nothing left to change.
    game = setup("""
            . . . . .
           . . . . . .
          . . . . . . .
         . . . . . . . .
        . . . . . . . . .
         . . . . . . . .
          . b . . . w .
           w w . . b b
            . w . b .
    """)
    score = game.score()
    assert score.points == (1, 1)
    assert [(s.to_black, s.to_white, s.points) for s in score.steps] == [
        (cells(game, "c6"), cells(game, "c2"), (0, 0)),
    ]
    assert score.winner is None
    assert score.ending == "no fragment"
    assert score.decision == (
        "tied 1-1: no fragment group is left to change colour after 1 tie-break step, a draw"
    )


def test_scores_are_a_preview_before_the_board_is_full() -> None:
    game = Partitions.new(5)
    game.play("e5")
    score = game.score()
    assert score.points == (0, 1)
    assert score.winner == BLACK
    assert game.outcome() is None


# -- position strings ----------------------------------------------------------------------


def test_position_strings_have_no_counters() -> None:
    game = Partitions.new(5)
    game.play("a1")
    assert game.position() == (
        "partitions size=5 ...../....../......./......../........./"
        "......../......./....../w.... black -"
    )
    again = Partitions.from_position(game.position())
    assert again.position() == game.position()
    assert again.turn == BLACK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "partitions size=5 {empty} black -",
            "with 0 pieces on the board it is White's turn (White moves exactly when the "
            "number of pieces is even), not Black's",
        ),
        (
            "partitions size=5 {one} white -",
            "with 1 piece on the board it is Black's turn",
        ),
        ("partitions size=5 {empty} white passes=0", "unknown counter 'passes'"),
        ("partitions size=4 {empty} white -", "Partitions is played on sizes 5 to 10, not 4"),
        ("partitions size=5 {x} white -", "'x' is not a cell"),
        ("partitions size=5 {short} white -", "row 9 from the top must have 5 cells, not 4"),
        ("partitions size=5,komi=2 {empty} white -", "Partitions takes the options size"),
        ("partitions size=5 {empty} red -", "the side to move must be white or black"),
    ],
)
def test_bad_positions_are_rejected(text: str, message: str) -> None:
    empty = board(EMPTY5)
    filled = {
        "empty": empty,
        "one": empty[:-1] + "w",
        "x": empty[:-1] + "x",
        "short": empty[:-1],
    }
    with pytest.raises(PositionError) as refused:
        Partitions.from_position(text.format(**filled))
    assert message in str(refused.value)


def test_sizes_5_to_10() -> None:
    assert [Partitions.new(n).geometry.cell_count for n in range(5, 11)] == [
        61,
        91,
        127,
        169,
        217,
        271,
    ]
    with pytest.raises(OptionError):
        Partitions.new(11)


# -- properties --------------------------------------------------------------------------


def _random_position(rng: random.Random, size: int, fill: float) -> Partitions:
    """A board with cells filled at random (any colours, any counts)."""
    game = Partitions.new(size)
    rows = []
    for row in game.geometry.rows():
        rows.append(
            "".join(rng.choice("wb") if rng.random() < fill else "." for _ in range(len(row)))
        )
    text = "/".join(rows)
    pieces = sum(ch != "." for ch in text)
    side = "black" if pieces % 2 else "white"
    return Partitions.from_position(f"partitions size={size} {text} {side} -")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 10), fill=st.floats(0.2, 1.0))
def test_a_group_divides_exactly_when_a_flood_fill_of_the_rest_finds_two_parts(
    seed: int, size: int, fill: float
) -> None:
    game = _random_position(random.Random(seed), size, fill)
    geometry = game.geometry
    for group in game.groups():
        mask = sum(1 << c for c in group.cells)
        parts = geometry.components(geometry.full & ~mask)
        assert group.dividing == (len(parts) >= 2), [geometry.name(c) for c in group.cells]
        # A group is a maximal connected set of one colour.
        assert geometry.component(group.cells[0], mask) == mask
        stones = game.white if group.colour == WHITE else game.black
        around = 0
        for c in group.cells:
            around |= geometry.neighbour_masks[c]
        assert not around & stones & ~mask


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 7), fill=st.floats(0.0, 1.0))
def test_changing_every_colour_swaps_the_scores_and_the_winner(
    seed: int, size: int, fill: float
) -> None:
    game = _random_position(random.Random(seed), size, fill)
    text = game.position()
    fields = text.split()
    fields[2] = fields[2].translate(str.maketrans("wb", "bw"))
    swapped = Partitions.from_position(" ".join(fields)).score()
    score = game.score()
    assert swapped.points == (score.points[1], score.points[0])
    assert swapped.ending == score.ending
    assert len(swapped.steps) == len(score.steps)
    if score.winner is None:
        assert swapped.winner is None
    else:
        assert swapped.winner == 1 - score.winner


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 10))
def test_a_full_board_is_never_a_draw(seed: int, size: int) -> None:
    # The groups of a full board form a tree and the cell count is odd (see the module).
    game = Partitions.new(size)
    game.playout(random.Random(seed))
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner is not None
    score = game.score()
    assert score.winner == outcome.winner
    assert score.decision == outcome.reason
    assert sum(g.size for g in score.groups) == game.geometry.cell_count


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(5, 7), start=st.integers(0, 40))
def test_playout_pushes_the_moves_play_would_accept(seed: int, size: int, start: int) -> None:
    rng = random.Random(seed)
    game = Partitions.new(size)
    for _ in range(start):
        game.play(rng.choice(game.legal_moves()))
    before = game.position()
    game.playout(rng)
    assert game.is_over()
    replay = Partitions.new(size)
    for move in game.moves:
        replay.play(move)
    assert replay.position() == game.position()
    for _ in range(len(game.moves) - start):
        game.undo()
    assert game.position() == before


def test_playout_is_uniform_over_the_empty_cells() -> None:
    # From a board with three empty cells, each of the 3! orders should come up about
    # equally often.
    game = setup(_with(EMPTY5.replace(".", "w"), {"a1": ".", "e5": ".", "i5": "."}))
    assert len(game.legal_moves()) == 3
    counts: dict[tuple[int, ...], int] = {}
    rng = random.Random(11)
    for _ in range(3000):
        game.playout(rng)
        order = tuple(game.moves[-3:])
        counts[order] = counts.get(order, 0) + 1
        for _ in range(3):
            game.undo()
    assert len(counts) == 6
    assert all(400 < n < 600 for n in counts.values())
