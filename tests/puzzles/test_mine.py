"""Mining: self-play is the same for the same seed, and what it mines is a puzzle the
solver proves; a puzzle's JSON object keeps it whole."""

from __future__ import annotations

from abstracts_tui.puzzles.mine import Mining, mine, self_play
from abstracts_tui.puzzles.prove import move_values, unique_win, winning_moves
from abstracts_tui.puzzles.puzzle import Puzzle, grade_of

QUICK = Mining(playouts=100, max_walks=3_000)


def test_self_play_is_the_same_for_the_same_seed() -> None:
    first = self_play("linage", 5, 7, QUICK)
    again = self_play("linage", 5, 7, QUICK)
    assert first.is_over()
    assert first.moves == again.moves


def test_mined_puzzles_have_one_proven_winning_move() -> None:
    found = mine("egotzi", 5, 2, seed=3, games=6, mining=QUICK)
    assert found
    for puzzle in found:
        position = puzzle.start()
        first = unique_win(position, QUICK.max_walks)
        assert first is not None
        assert position.move_name(first) == puzzle.solution[0]
        others = move_values(position, QUICK.max_walks)
        assert winning_moves(others) == [first]
        assert all(v.value in ("loss", "draw") for m, v in others.items() if m != first)


def test_a_puzzle_survives_its_json_line() -> None:
    puzzle = Puzzle("egotzi", 5, "standard", 0.0, ("c3", "b2"), ("d3", "a1", "e5"))
    line = puzzle.to_json()
    assert Puzzle.from_json(line) == puzzle
    data = puzzle.to_dict()
    assert list(data) == [
        "game", "size", "options", "moves", "solution", "value", "depth", "grade",
    ]  # fmt: skip
    assert data["depth"] == 3 and data["grade"] == "medium"


def test_grades_follow_the_depth() -> None:
    assert [grade_of(d) for d in (1, 3, 5, 7, 11)] == [
        "easy", "medium", "medium", "hard", "hard",
    ]  # fmt: skip
