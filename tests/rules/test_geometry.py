"""Cell notation and adjacency (docs/rules.md, Notation)."""

from __future__ import annotations

import pytest

from abstracts_tui.rules.errors import MoveSyntaxError
from abstracts_tui.rules.geometry import HexGrid, SquareGrid


def test_square_names_count_columns_from_the_left_and_rows_from_the_bottom() -> None:
    grid = SquareGrid(8)
    assert grid.name(0) == "a1"
    assert grid.name(7) == "h1"
    assert grid.name(8) == "a2"
    assert grid.name(63) == "h8"
    assert grid.parse(" C3 ") == grid.cell(2, 2)


def test_nineteen_points_use_letters_without_skipping() -> None:
    grid = SquareGrid(19)
    assert [grid.name(c) for c in range(19)][7:10] == ["h1", "i1", "j1"]
    assert grid.name(360) == "s19"


@pytest.mark.parametrize("text", ["i1", "a9", "a0", "z26"])
def test_square_cells_off_the_board_name_the_extent(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match=r"off the board \(columns a to h, rows 1 to 8"):
        SquareGrid(8).parse(text)


@pytest.mark.parametrize("text", ["", "c", "3", "cc3", "c3x", "c 3"])
def test_square_malformed_names(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="not a cell name"):
        SquareGrid(8).parse(text)


def test_square_neighbours_are_orthogonal() -> None:
    grid = SquareGrid(5)
    assert sorted(grid.name(c) for c in grid.neighbours[grid.parse("a1")]) == ["a2", "b1"]
    assert sorted(grid.name(c) for c in grid.neighbours[grid.parse("c3")]) == [
        "b3",
        "c2",
        "c4",
        "d3",
    ]


def test_hex_rows_grow_to_the_middle_and_shrink() -> None:
    grid = HexGrid(5)
    assert grid.row_lengths == (5, 6, 7, 8, 9, 8, 7, 6, 5)
    assert grid.cell_count == 61
    assert grid.name(0) == "a1"
    assert grid.name(4) == "a5"
    assert grid.name(5) == "b1"
    assert grid.parse("e9") == grid.cell(4, 8)
    assert grid.name(60) == "i5"


def test_hex_neighbours_follow_the_notation() -> None:
    grid = HexGrid(5)

    def near(name: str) -> list[str]:
        return sorted(grid.name(c) for c in grid.neighbours[grid.parse(name)])

    # Bottom row: the row above is longer, so a cell touches k and k+1 there.
    assert near("a1") == ["a2", "b1", "b2"]
    assert near("a3") == ["a2", "a4", "b3", "b4"]
    # Middle row e (9 cells): both neighbouring rows are shorter: k-1 and k.
    assert near("e5") == ["d4", "d5", "e4", "e6", "f4", "f5"]
    assert near("e1") == ["d1", "e2", "f1"]
    assert near("e9") == ["d8", "e8", "f8"]
    # Above the middle the row below is longer: k and k+1 there.
    assert near("f1") == ["e1", "e2", "f2", "g1"]
    assert near("i5") == ["h5", "h6", "i4"]


def test_hex_adjacency_is_symmetric_and_corners_have_three() -> None:
    for side in range(5, 11):
        grid = HexGrid(side)
        for cell, near in enumerate(grid.neighbours):
            for other in near:
                assert cell in grid.neighbours[other]
        degrees = sorted(len(near) for near in grid.neighbours)
        assert degrees[:6] == [3] * 6
        assert degrees.count(6) == grid.cell_count - 6 * (side - 1)


def test_hex_off_board_names_the_row_lengths() -> None:
    with pytest.raises(MoveSyntaxError, match=r"off the board \(rows a to k"):
        HexGrid(6).parse("a7")


def test_components_split_a_set() -> None:
    grid = SquareGrid(4)
    left = sum(1 << grid.cell(0, r) for r in range(4))
    right = sum(1 << grid.cell(3, r) for r in range(4))
    assert sorted(grid.components(left | right)) == sorted([left, right])
