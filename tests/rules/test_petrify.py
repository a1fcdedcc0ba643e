"""Petrify's rules, ruling by ruling: hand-built positions, one move, the expected result.

Diagrams are written like the position string: rows from the top (row 6 of a 6x6 board
first), columns a to f from the left; `b` Blue disk, `o` Orange disk, `x` block.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracts_tui.rules import (
    PASS,
    SWAP,
    IllegalMoveError,
    Petrify,
    Piece,
    PositionError,
)
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
    return f"petrify size={size} {board} {turn} passes={passes},last={last},swap={swap}"


def petrify(
    diagram: str, turn: str = "blue", passes: int = 0, last: str | None = None, swap: str = "no"
) -> Petrify:
    return Petrify.from_position(position(diagram, turn, passes, last, swap))


def code(game: Petrify, text: str) -> int:
    return game.parse_move(text)


def captures(game: Petrify) -> list[str]:
    n = game.geometry.cell_count
    return sorted(game.move_name(m) for m in game.legal_moves() if m >= n)


# -- placing ------------------------------------------------------------------------


def test_blue_moves_first_and_may_place_anywhere_on_an_empty_board() -> None:
    game = Petrify.new()
    assert game.size == 8
    assert game.side_to_move() == "blue"
    assert game.legal_moves() == list(range(64))
    game.play("d4")
    assert game.piece_at(game.geometry.parse("d4")) is not None
    assert game.side_to_move() == "orange"


def test_placing_on_an_occupied_square_is_refused() -> None:
    game = petrify(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        . . o x . .
        . . b . . .
        . . . . . .
        """
    )
    assert game.illegal_reason(code(game, "c3")) == "c3 is occupied by an Orange disk"
    assert game.illegal_reason(code(game, "d3")) == "d3 is occupied by a block"
    assert game.illegal_reason(code(game, "c2")) == "c2 is occupied by a Blue disk"
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.play("d3")


# -- sliding captures ------------------------------------------------------------------


def test_a_capture_slides_over_friendly_disks_and_leaves_a_block() -> None:
    game = petrify(
        """
        . . . . . .
        . o . . . .
        . . . . . .
        . b . . . .
        . b . . . .
        . . . . . .
        """
    )
    game.play("b2-b5")
    assert game.position() == position(
        """
        . . . . . .
        . b . . . .
        . . . . . .
        . b . . . .
        . x . . . .
        . . . . . .
        """,
        turn="orange",
    )


def test_captures_go_in_all_eight_directions() -> None:
    game = petrify(
        """
        . . . . . .
        . o . o . o
        . . . . . .
        . o . b . o
        . . . . . .
        . o . o . o
        """
    )
    assert captures(game) == sorted(
        ["d3-b1", "d3-d1", "d3-f1", "d3-b3", "d3-f3", "d3-b5", "d3-d5", "d3-f5"]
    )
    game.play("d3-f5")
    assert game.position() == position(
        """
        . . . . . .
        . o . o . b
        . . . . . .
        . o . x . o
        . . . . . .
        . o . o . o
        """,
        turn="orange",
    )


def test_only_the_first_enemy_disk_in_a_direction_can_be_captured() -> None:
    game = petrify(
        """
        . . . . . .
        . o . . . .
        . o . . . .
        . . . . . .
        . b . . . .
        . . . . . .
        """
    )
    assert captures(game) == ["b2-b4"]
    assert (
        game.illegal_reason(code(game, "b2-b5"))
        == "the way from b2 to b5 is blocked by an Orange disk on b4"
    )


def test_a_block_stops_a_slide() -> None:
    game = petrify(
        """
        . . . . . .
        . o . . . .
        . . . . . .
        . x . . . .
        . b . . . .
        . . . . . .
        """
    )
    assert captures(game) == []
    assert (
        game.illegal_reason(code(game, "b2-b5"))
        == "the way from b2 to b5 is blocked by a block on b3"
    )


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("b2-c4", "b2-c4 is not a straight line: disks move along rows, columns and diagonals"),
        ("b2-b2", "a move must go somewhere: b2-b2 ends where it starts"),
        (
            "b2-b3",
            "b3 is empty: a move must end on an enemy disk "
            "(to place a disk there, give just the square)",
        ),
        ("b2-e2", "e2 holds your own disk: a move must end on an enemy disk"),
        ("b2-b1", "b1 is a block: a move must end on an enemy disk"),
        ("d4-b4", "the disk on d4 is Orange's; it is Blue's turn"),
        ("c3-d4", "there is no disk on c3 to move"),
        ("b1-b2", "b1 is a block: only a disk can move"),
    ],
)
def test_malformed_captures_are_refused_with_a_reason(move: str, reason: str) -> None:
    game = petrify(
        """
        . . . . . .
        . . . . . .
        . . . o . .
        . . . . . .
        . b . . b .
        . x . . . .
        """
    )
    assert game.illegal_reason(code(game, move)) == reason


def test_move_codes_out_of_range_are_refused_not_raised() -> None:
    game = Petrify.new(size=6)
    for move in (-3, 36 + 36 * 36, 10**9, -(10**9)):
        assert game.illegal_reason(move) == f"{move} is not a move code of Petrify size 6"


# -- the ring of blocks: mounds and barricades --------------------------------------------


def test_a_disk_on_a_corner_can_never_capture() -> None:
    game = petrify(
        """
        . . . . . .
        . . . . . .
        . . . . . .
        o . o . . .
        . . . . . .
        b . . . . .
        """
    )
    assert captures(game) == []
    for move in ("a1-a3", "a1-c3"):
        assert game.illegal_reason(code(game, move)) == (
            f"{move} would leave a block on a1 completing a mound with the edge of the board"
        )


@pytest.mark.parametrize(
    ("diagram", "move", "other"),
    [
        (  # bottom edge
            """
            . . . . . .
            . . . . . .
            . . o . . .
            . . . . . .
            . . . . . .
            . x b . . .
            """,
            "c1-c4",
            "b1",
        ),
        (  # top edge
            """
            . x b . . .
            . . . . . .
            . . . . . .
            . . o . . .
            . . . . . .
            . . . . . .
            """,
            "c6-c3",
            "b6",
        ),
        (  # left edge
            """
            . . . . . .
            . . . . . .
            . . . . . .
            b . . o . .
            x . . . . .
            . . . . . .
            """,
            "a3-d3",
            "a2",
        ),
        (  # right edge
            """
            . . . . . .
            . . . . . x
            . . o . . b
            . . . . . .
            . . . . . .
            . . . . . .
            """,
            "f4-c4",
            "f5",
        ),
    ],
)
def test_two_blocks_side_by_side_along_an_edge_are_a_mound(
    diagram: str, move: str, other: str
) -> None:
    game = petrify(diagram)
    frm = move.split("-")[0]
    assert game.illegal_reason(code(game, move)) == (
        f"{move} would leave a block on {frm} completing a mound with the block on {other} "
        f"and the edge of the board"
    )
    assert captures(game) == []


@pytest.mark.parametrize(
    ("diagram", "move", "other"),
    [
        (  # bottom edge, block up and to the right
            """
            . . . . . .
            . . . . . .
            . o . . . .
            . . . . . .
            . . x . . .
            . b . . . .
            """,
            "b1-b4",
            "c2",
        ),
        (  # bottom edge, block up and to the left
            """
            . . . . . .
            . . . . . .
            . . . . o .
            . . . . . .
            . . . x . .
            . . . . b .
            """,
            "e1-e4",
            "d2",
        ),
        (  # left edge
            """
            . . . . . .
            . . . . . .
            . x . . . .
            b . . o . .
            . . . . . .
            . . . . . .
            """,
            "a3-d3",
            "b4",
        ),
        (  # top edge
            """
            . . b . . .
            . . . x . .
            . . . . . .
            . . o . . .
            . . . . . .
            . . . . . .
            """,
            "c6-c3",
            "d5",
        ),
        (  # right edge
            """
            . . . . . .
            . . . . . o
            . . . . . .
            . . . . x .
            . . . . . b
            . . . . . .
            """,
            "f2-f5",
            "e3",
        ),
    ],
)
def test_an_edge_block_with_a_block_diagonally_inward_is_a_barricade(
    diagram: str, move: str, other: str
) -> None:
    game = petrify(diagram)
    frm = move.split("-")[0]
    assert game.illegal_reason(code(game, move)) == (
        f"{move} would leave a block on {frm} completing a barricade with the block on "
        f"{other} and the edge of the board"
    )


def test_a_block_two_steps_diagonally_inward_from_an_edge_block_is_fine() -> None:
    game = petrify(
        """
        . . . . . .
        . . . . . .
        . o . . . .
        . . . x . .
        . . . . . .
        . b . . . .
        """
    )
    assert captures(game) == ["b1-b4"]


def test_a_single_block_on_an_edge_is_fine() -> None:
    game = petrify(
        """
        . . . . . .
        . . . . . .
        . . o . . .
        . . . . . .
        . . . . . .
        . . b . . .
        """
    )
    game.play("c1-c4")
    assert game.piece_at(game.geometry.parse("c1")) == Piece("block", None)


@pytest.mark.parametrize(
    ("diagram", "move", "others"),
    [
        (  # the new block would be the square's bottom left corner
            """
            . . . . . .
            . . . x x .
            . . . b x .
            . . . . . .
            . . . . . .
            . . . o . .
            """,
            "d4-d1",
            "d5, e4 and e5",
        ),
        (  # bottom right
            """
            . . . . . .
            . . x x . .
            . . x b . .
            . . . . . .
            . . . . . .
            . . . o . .
            """,
            "d4-d1",
            "c4, c5 and d5",
        ),
        (  # top left
            """
            . . . o . .
            . . . . . .
            . . . b x .
            . . . x x .
            . . . . . .
            . . . . . .
            """,
            "d4-d6",
            "d3, e3 and e4",
        ),
        (  # top right
            """
            . . . o . .
            . . . . . .
            . . x b . .
            . . x x . .
            . . . . . .
            . . . . . .
            """,
            "d4-d6",
            "c3, c4 and d3",
        ),
    ],
)
def test_a_capture_that_would_complete_a_mound_is_refused(
    diagram: str, move: str, others: str
) -> None:
    game = petrify(diagram)
    assert game.illegal_reason(code(game, move)) == (
        f"{move} would leave a block on d4 completing a mound with the blocks on {others}"
    )
    assert captures(game) == []


def test_a_capture_that_would_complete_a_barricade_is_refused() -> None:
    middle = petrify(
        """
        . . . o . .
        . . . . x .
        . . . b . .
        . . x . . .
        . . . . . .
        . . . . . .
        """
    )
    assert middle.illegal_reason(code(middle, "d4-d6")) == (
        "d4-d6 would leave a block on d4 completing a barricade with the blocks on c3 and e5"
    )
    end = petrify(
        """
        . . . o . .
        . . . . . .
        . . . b . .
        . . x . . .
        . x . . . .
        . . . . . .
        """
    )
    assert end.illegal_reason(code(end, "d4-d6")) == (
        "d4-d6 would leave a block on d4 completing a barricade with the blocks on b2 and c3"
    )


def test_three_blocks_in_a_straight_orthogonal_line_are_allowed() -> None:
    game = petrify(
        """
        . . . o . .
        . . . . . .
        . . x b x .
        . . . . . .
        . . . . . .
        . . . . . .
        """
    )
    assert captures(game) == ["d4-d6"]
    game.play("d4-d6")


# -- passing and the end of the game -----------------------------------------------------

CORNERS = """
    b o o o o b
    o o o o o o
    o o o o o o
    o o o o o o
    o o o o o o
    b o o o o b
"""


def test_a_player_without_a_board_play_must_pass() -> None:
    game = petrify(CORNERS)
    assert game.legal_moves() == [PASS]
    assert game.illegal_reason(code(game, "a1-b1")) == (
        "a1-b1 would leave a block on a1 completing a mound with the edge of the board"
    )
    game.play("pass")
    assert game.side_to_move() == "orange"
    assert game.passes == 1
    assert not game.is_over()
    assert PASS not in game.legal_moves()
    assert game.illegal_reason(PASS) == "you may pass only when you have no board play"
    game.play("b1-a1")
    assert game.passes == 0
    assert game.position().endswith("blue passes=0,last=orange,swap=no")


def test_passing_with_a_board_play_is_refused() -> None:
    game = Petrify.new()
    with pytest.raises(IllegalMoveError, match="you may pass only when you have no board play"):
        game.play("pass")


TIE = """
    b b b x o o o
    b b b x o o o
    b b b x o o o
    b b b x o o o
    b b b x o o o
    b b b x o o o
    b b b x o o o
"""


@pytest.mark.parametrize(
    ("first", "loser", "winner"), [("blue", "orange", 0), ("orange", "blue", 1)]
)
def test_two_passes_end_the_game_and_a_tie_goes_against_the_last_board_play(
    first: str, loser: str, winner: int
) -> None:
    game = petrify(TIE, turn=first)
    assert game.legal_moves() == [PASS]
    game.play("pass")
    assert not game.is_over()
    assert game.outcome() is None
    assert game.legal_moves() == [PASS]
    game.play("pass")
    assert game.is_over()
    assert game.legal_moves() == []
    assert game.illegal_reason(PASS) == "the game is over"
    assert game.illegal_reason(0) == "the game is over"
    assert game.score().points == (21, 21)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == winner
    assert outcome.reason == f"tied 21-21: {loser.capitalize()} made the last board play and loses"


def test_the_higher_score_wins() -> None:
    game = petrify(
        """
        b b b b b b
        b b x b b b
        b b b b b b
        b b b b x b
        b b b b b b
        b b b b b b
        """,
        passes=1,
    )
    assert game.legal_moves() == [PASS]
    game.play("pass")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (0, "Blue 34, Orange 0")


# -- scoring ------------------------------------------------------------------------------


def test_groups_of_the_same_size_cancel_in_pairs_and_the_biggest_left_owns_the_patch() -> None:
    game = petrify(
        """
        b b b . . .
        . . . . o o
        o o o . . .
        . . . . . b
        b . o . . .
        . . . . . .
        """
    )
    score = game.score()
    assert isinstance(score, PatchScore)
    assert score.points == (0, 36)
    (patch,) = score.patches
    assert patch.size == 36
    assert patch.owner == 1
    assert sorted((g.colour, g.size) for g in patch.groups) == [
        (0, 1),
        (0, 1),
        (0, 3),
        (1, 1),
        (1, 2),
        (1, 3),
    ]
    assert sorted((a.size, b.size) for a, b in patch.cancelled) == [(1, 1), (3, 3)]
    assert sorted((g.colour, g.size) for g in patch.left) == [(0, 1), (1, 2)]
    assert score.lines == (
        "patch of 36 at a1: Orange (biggest left: Orange 2, Blue 1; "
        "cancelled: 1 pair of size 3, 1 pair of size 1)",
    )
    assert game.outcome() is None  # a score before the end is only a preview


ENCLOSED = """
    . . . . . .
    . . . . . .
    . . . . . .
    x x . . b b
    . . x . . o
    . . x . . .
"""


def test_an_empty_patch_is_owned_by_nobody() -> None:
    game = petrify(ENCLOSED)
    score = game.score()
    assert score.points == (28, 0)
    assert [(p.size, p.owner) for p in score.patches] == [(4, None), (28, 0)]
    assert score.lines == (
        "patch of 4 at a1: nobody (no groups)",
        "patch of 28 at d1: Blue (biggest left: Blue 2, Orange 1)",
    )


def test_a_patch_where_every_group_cancels_is_owned_by_nobody() -> None:
    diagram = ENCLOSED.replace(". . x . . .\n", "b . x . . .\n").replace(
        ". . x . . o\n", ". o x . . o\n"
    )
    game = petrify(diagram)
    score = game.score()
    assert score.points == (28, 0)
    assert score.patches[0].owner is None
    assert len(score.patches[0].cancelled) == 1
    assert score.lines[0] == "patch of 4 at a1: nobody (every group cancelled: 1 pair of size 1)"


# -- the pie rule ---------------------------------------------------------------------------


def test_swap_is_legal_only_as_the_second_move_and_orange_stays_to_move() -> None:
    game = Petrify.new(size=6)
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"
    game.play("c3")
    assert SWAP in game.legal_moves()
    assert game.position().endswith("orange passes=0,last=blue,swap=yes")
    board = game.board_token()
    game.play("swap")
    assert game.board_token() == board
    assert game.side_to_move() == "orange"
    assert game.position().endswith("orange passes=0,last=blue,swap=no")
    assert SWAP not in game.legal_moves()
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"
    game.play("d4")
    assert game.side_to_move() == "blue"
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"
    assert [game.move_name(m) for m in game.moves] == ["c3", "swap", "d4"]
    game.undo()
    game.undo()
    assert game.position().endswith("orange passes=0,last=blue,swap=yes")


def test_swap_is_no_longer_possible_once_orange_has_placed() -> None:
    game = Petrify.new(size=6)
    game.play("c3")
    game.play("d4")
    game.play("e5")
    assert SWAP not in game.legal_moves()
    assert game.illegal_reason(SWAP) == "swap is allowed only as the second move of the game"


# -- position strings --------------------------------------------------------------------

FINE = """
    . . . . . .
    . . . . . .
    . . . . . .
    . . o . . .
    . . b . . .
    . . . . . .
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            position(
                """
                . . . . . .
                . . . . . .
                . . . . . .
                . . x x b .
                . . x x o .
                . . . . . .
                """
            ),
            "completes a mound with the blocks on",
        ),
        (
            position(
                """
                . . . . . .
                . . . . . .
                . . . . . .
                . . . x b .
                . . x . o .
                . x . . . .
                """
            ),
            "completes a barricade with the blocks on",
        ),
        (
            position(
                """
                . . . . . .
                . . . . . .
                . . . . . .
                . . b . . .
                . . o . . .
                x . . . . .
                """
            ),
            "the block on a1 completes a mound with the edge of the board",
        ),
        (
            position(
                """
                . . . . . .
                . . . . . .
                . . . . . .
                . . b . . .
                . . o . . .
                . x x . . .
                """
            ),
            "a mound with the block on",
        ),
        (
            position(
                """
                . . . . . .
                . . . . . .
                . . . . . .
                . . b . . .
                . x o . . .
                x . . . . .
                """
            ),
            "completes",
        ),
        (position(FINE, passes=3), "the counter passes must be 0, 1 or 2, not '3'"),
        (position(FINE, last="green"), "the counter last must be blue, orange or none"),
        (position(FINE, swap="maybe"), "the counter swap must be yes or no"),
        (position(FINE, last="blue"), "last=blue does not fit"),
        (position(FINE, last="none"), "last=none, but the board is not empty"),
        (position(FINE, swap="yes"), "swap=yes, but it is Blue's turn"),
        (position(FINE, turn="orange", swap="yes"), "swap=yes needs the position after"),
        (position(FINE, passes=1), "passes=1, but Orange, who passed last, has a board play"),
        (position(CORNERS, passes=2), "passes=2, but Orange, who passed last"),
        (position(FINE.replace("o", "."), last="orange"), "Orange has no disk on the board"),
        (position(FINE.replace("o", ".").replace("b", "."), last="blue"), "the board is empty"),
        (position(FINE.replace("o", ".").replace("b", "."), turn="orange"), "Blue's turn"),
        (position(FINE).replace("b", "b2", 1), "is not a cell"),
        (position(FINE).replace("size=6", "size=11"), "sizes 6 to 10"),
    ],
)
def test_invalid_positions_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(")):
        Petrify.from_position(text)


def test_a_valid_position_round_trips() -> None:
    text = position(FINE)
    assert Petrify.from_position(text).position() == text
    after_first = position(FINE.replace("o", "."), turn="orange", swap="yes")
    assert Petrify.from_position(after_first).legal_moves()[-1] == SWAP


# -- properties over random games -----------------------------------------------------------

EIGHT = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def grid_of(game: Petrify) -> dict[tuple[int, int], str]:
    """Every square of the board and of the ring around it: `b`, `o`, `x` or `.`."""
    n = game.size
    grid = {}
    for col in range(-1, n + 1):
        for row in range(-1, n + 1):
            if 0 <= col < n and 0 <= row < n:
                piece = game.piece_at(row * n + col)
                if piece is None:
                    grid[col, row] = "."
                elif piece.colour is None:
                    grid[col, row] = "x"
                else:
                    grid[col, row] = "bo"[piece.colour]
            else:
                grid[col, row] = "x"  # the ring of blocks
    return grid


def formations(grid: dict[tuple[int, int], str]) -> list[list[tuple[int, int]]]:
    """Every mound and barricade on a grid, straight from the definitions."""
    found = []
    for col, row in grid:
        shapes = [
            [(col, row), (col + 1, row), (col, row + 1), (col + 1, row + 1)],
            [(col, row), (col + 1, row + 1), (col + 2, row + 2)],
            [(col, row), (col + 1, row - 1), (col + 2, row - 2)],
        ]
        for shape in shapes:
            if all(grid.get(square) == "x" for square in shape):
                found.append(shape)
    return found


def completes(grid: dict[tuple[int, int], str], col: int, row: int) -> bool:
    """Whether the block on (col, row) is part of a mound or a barricade."""
    shapes = [
        [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)]
        for c in (col - 1, col)
        for r in (row - 1, row)
    ]
    for dc, dr in ((1, 1), (1, -1)):
        shapes += [
            [(col + k * dc, row + k * dr) for k in (start, start + 1, start + 2)]
            for start in (-2, -1, 0)
        ]
    return any(all(grid.get(square) == "x" for square in shape) for shape in shapes)


def expected_captures(game: Petrify) -> set[int]:
    """The captures of the side to move, worked out square by square from the rules."""
    n = game.size
    grid = grid_of(game)
    mine, theirs = ("b", "o") if game.turn == 0 else ("o", "b")
    found = set()
    for (col, row), what in grid.items():
        if what != mine:
            continue
        for dc, dr in EIGHT:
            c, r = col + dc, row + dr
            while grid[c, r] in (".", mine):
                c, r = c + dc, r + dr
            if grid[c, r] != theirs:
                continue
            after = dict(grid)
            after[col, row] = "x"
            after[c, r] = mine
            if not completes(after, col, row):
                found.add(capture(row * n + col, r * n + c, n * n))
    return found


@settings(max_examples=30, deadline=None)
@given(size=st.sampled_from([6, 7, 8, 9, 10]), seed=st.integers(0, 2**32 - 1))
def test_no_mound_or_barricade_ever_exists_and_captures_follow_the_rules(
    size: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = Petrify.new(size=size)
    n2 = size * size
    while not game.is_over():
        assert formations(grid_of(game)) == []
        legal = game.legal_moves()
        listed = {m for m in legal if m >= n2}
        assert listed == expected_captures(game)
        game.push(rng.choice(legal))
    assert formations(grid_of(game)) == []


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from([6, 8, 10]), seed=st.integers(0, 2**32 - 1))
def test_playouts_never_form_a_mound_or_barricade(size: int, seed: int) -> None:
    game = Petrify.new(size=size)
    game.playout(random.Random(seed))
    assert game.is_over()
    replay = Petrify.new(size=size)
    for move in game.moves:
        replay.play(move)
        assert formations(grid_of(replay)) == []


def test_playout_picks_uniformly_among_the_legal_moves() -> None:
    game = Petrify.new(size=6)
    game.play("c3")
    legal = game.legal_moves()  # 35 placements and the swap
    start = game.position()
    runs = 3600
    first: Counter[int] = Counter()
    for seed in range(runs):
        trial = Petrify.from_position(start)
        trial.playout(random.Random(seed))
        first[trial.moves[0]] += 1
    assert set(first) == set(legal)
    expected = runs / len(legal)  # 100 each
    assert all(0.6 * expected < first[m] < 1.4 * expected for m in legal), first


def few_mixed_moves(size: int = 6) -> str:
    """A position from a random game with 3 to 6 legal moves, placements and captures."""
    n2 = size * size
    for seed in range(1000):
        rng = random.Random(seed)
        game = Petrify.new(size=size)
        while not game.is_over():
            legal = game.legal_moves()
            placements = any(0 <= m < n2 for m in legal)
            if 3 <= len(legal) <= 6 and placements and any(m >= n2 for m in legal):
                return game.position()
            game.push(rng.choice(legal))
    raise AssertionError("no such position in 1000 random games")


def test_playout_picks_uniformly_between_placements_and_captures() -> None:
    start = few_mixed_moves()
    legal = Petrify.from_position(start).legal_moves()
    runs = 400 * len(legal)
    counts: Counter[int] = Counter()
    for seed in range(runs):
        trial = Petrify.from_position(start)
        trial.playout(random.Random(seed))
        counts[trial.moves[0]] += 1
    assert set(counts) == set(legal)
    assert all(300 < counts[m] < 500 for m in legal), counts
