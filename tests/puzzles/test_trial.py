"""One try at a puzzle, and puzzles in line mode: a right move is played with the
defender's reply, a wrong one is said why it does not win and is not played."""

from __future__ import annotations

from abstracts_tui.lines.puzzles import completions, run_puzzles
from abstracts_tui.puzzles.prove import prove_move
from abstracts_tui.puzzles.puzzle import Puzzle
from abstracts_tui.puzzles.shipped import load_all
from abstracts_tui.puzzles.trial import Trial


def deep_puzzle() -> Puzzle:
    """A shipped puzzle whose solution has a reply in it."""
    return next(p for p in load_all() if p.depth >= 3)


def a_wrong_move(trial: Trial) -> str:
    """A legal move of the position that is not the solution's first."""
    game = trial.game
    names = [game.move_name(m) for m in game.legal_moves()]
    return next(name for name in names if name != trial.puzzle.solution[0])


def test_a_right_move_is_played_with_the_reply() -> None:
    puzzle = deep_puzzle()
    trial = Trial(puzzle)
    answer = trial.attempt(puzzle.solution[0])
    assert answer.right and not answer.solved
    assert answer.reply == puzzle.solution[1]
    assert f"answers {puzzle.solution[1]}" in answer.said
    assert trial.game.moves[-2:] == [
        puzzle.start().parse_move(puzzle.solution[0]),
        trial.game.moves[-1],
    ]
    assert trial.expected() == puzzle.solution[2]


def test_a_wrong_move_is_said_why_and_not_played() -> None:
    puzzle = deep_puzzle()
    trial = Trial(puzzle)
    wrong = a_wrong_move(trial)
    value = prove_move(trial.game, trial.game.parse_move(wrong)).value
    answer = trial.attempt(wrong)
    assert not answer.right and not answer.solved
    said = {"loss": "loses by force", "draw": "only draws"}[str(value)]
    assert answer.said.startswith(f"{wrong} {said}")
    assert answer.said.endswith("Try again, or type show.")
    assert len(trial.game.moves) == len(puzzle.moves)


def test_a_move_not_in_the_notation_is_said_so() -> None:
    trial = Trial(deep_puzzle())
    answer = trial.attempt("zz99")
    assert not answer.right
    assert answer.said.endswith(".")
    assert len(trial.game.moves) == len(trial.puzzle.moves)


def test_show_plays_the_solution_to_the_end() -> None:
    puzzle = deep_puzzle()
    trial = Trial(puzzle)
    answers = []
    while not trial.solved:
        answers.append(trial.show())
    assert answers[-1].solved and answers[-1].said.endswith("Solved.")
    played = [trial.game.move_name(m) for m in trial.game.moves]  # names after the fact
    assert len(played) == len(puzzle.moves) + puzzle.depth


def test_line_mode_says_the_position_and_takes_the_solution() -> None:
    puzzle = deep_puzzle()
    trial = Trial(puzzle)
    wrong = a_wrong_move(trial)
    typed = iter(["board", wrong, *puzzle.solution[::2], "quit"])
    said: list[str] = []
    solved = run_puzzles([puzzle, puzzle], said.append, lambda: next(typed, None))
    assert said[0].startswith("Puzzle 1 of 2.") and "to play and win" in said[0]
    assert any(line.startswith("row ") for line in said)
    assert any(line.startswith(f"{wrong} ") and "Try again" in line for line in said)
    assert any(line.endswith("Solved.") for line in said)
    assert any(line.startswith("Puzzle 2 of 2.") for line in said)
    assert solved == 1
    assert said[-1] == "Left: 1 of 2 puzzles solved."


def test_after_the_first_move_another_winning_move_solves_it_too() -> None:
    for puzzle in load_all():
        if puzzle.depth < 3:
            continue
        trial = Trial(puzzle)
        trial.attempt(puzzle.solution[0])
        game = trial.game
        others = [m for m in game.legal_moves() if game.move_name(m) != puzzle.solution[2]]
        winning = [m for m in others if prove_move(game, m).value == "win"]
        if winning:
            name = game.move_name(winning[0])
            answer = trial.attempt(name)
            assert answer.right and answer.solved
            assert answer.said == f"{name} wins too: solved."
            return
    raise AssertionError("no shipped puzzle has a second winning move after its first")


def test_tab_completes_the_commands_and_the_legal_moves_of_the_puzzle() -> None:
    puzzle = deep_puzzle()
    trials: list[Trial] = []
    typed = iter(["quit"])
    run_puzzles([puzzle], lambda line: None, lambda: next(typed, None), started=trials.append)
    words = completions(trials[0])
    assert "show" in words and "next" in words
    assert puzzle.solution[0] in words
