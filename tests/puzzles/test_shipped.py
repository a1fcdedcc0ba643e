"""Every shipped puzzle, proven again by the solver: one move alone wins, and it is the
solution's first, and each of the winner's moves in the solution wins; the whole
solution is legal and the grade follows its depth."""

from __future__ import annotations

import pytest

from abstracts_tui.puzzles.prove import prove, prove_move, unique_win
from abstracts_tui.puzzles.puzzle import grade_of
from abstracts_tui.puzzles.shipped import counts, load, load_all, shipped_sizes

SMALL_SIZES = [("petrify", 6), ("pilo", 6), ("egotzi", 5), ("linage", 5), ("partitions", 5)]


def test_every_small_size_ships_puzzles() -> None:
    found = counts()
    for pair in SMALL_SIZES:
        assert sum(found[pair].values()) >= 5, pair


@pytest.mark.parametrize("game, size", shipped_sizes())
def test_each_shipped_puzzle_has_one_winning_move_the_solutions_first(game: str, size: int) -> None:
    puzzles = load(game, size)
    assert puzzles
    for puzzle in puzzles:
        position = puzzle.start()
        assert prove(position).value == "win", puzzle.moves
        first = unique_win(position)
        assert first is not None, f"not one winning move: {puzzle.to_json()}"
        assert position.move_name(first) == puzzle.solution[0]
        for ply, name in enumerate(puzzle.solution):  # each of the winner's moves wins
            move = position.parse_move(name)
            if ply % 2 == 0:
                assert prove_move(position, move).value == "win", (puzzle.to_json(), ply)
            position.play(move)


def test_each_solution_is_legal_and_graded_by_its_depth() -> None:
    for puzzle in load_all():
        assert puzzle.value == "win"
        assert puzzle.depth % 2 == 1  # it ends with a move of the winner
        assert puzzle.grade == grade_of(puzzle.depth)
        position = puzzle.start()
        for move in puzzle.solution:
            position.play(move)  # raises on an illegal move
