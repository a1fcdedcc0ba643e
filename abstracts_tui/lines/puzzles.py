"""Puzzles in line mode: the position is said, the player types the winning move; a
right move is played with the defender's reply until the winning line is done, a wrong
one is said why it does not win, and the player tries again or types `show`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..puzzles.puzzle import Puzzle
from ..puzzles.trial import Trial
from ..words import board_words, legal_words

Say = Callable[[str], None]
Read = Callable[[], "str | None"]

HELP = """\
Type the move that wins, in the game's notation (such as d4, b3-e3 or pass).
board (b): the board again, row by row. legal (l): the legal moves.
show: play the solution's next move for you. next (n): the next puzzle.
help (?): this list. quit (q): leave."""

COMMANDS = ("board", "legal", "show", "next", "help", "quit")


def completions(trial: Trial) -> list[str]:
    """What Tab completes: the commands and the legal moves of the puzzle's position."""
    game = trial.game
    return [*COMMANDS, *(game.move_name(move) for move in game.legal_moves())]


def say_position(trial: Trial, say: Say) -> None:
    """The board row by row and the last move played."""
    for line in board_words(trial.game):
        say(line)
    game = trial.game
    if game.moves:
        before = game.copy()
        last = before.undo()
        say(f"Last move: {before.move_name(last)}.")


def run_puzzles(
    puzzles: Sequence[Puzzle],
    say: Say,
    read: Read,
    started: Callable[[Trial], object] | None = None,
) -> int:
    """Offer `puzzles` one after another until they are done, `quit` or the end of input;
    the number solved without `show`. `started` is told of each puzzle as it starts (the
    reader's completions follow it)."""
    solved = 0
    for number, puzzle in enumerate(puzzles, start=1):
        trial = Trial(puzzle)
        if started is not None:
            started(trial)
        say(f"Puzzle {number} of {len(puzzles)}. {trial.task()}")
        say_position(trial, say)
        outcome = _solve(trial, say, read)
        if outcome is None:
            say(f"Left: {solved} of {len(puzzles)} puzzles solved.")
            return solved
        solved += outcome
    say(f"That was the last puzzle: {solved} of {len(puzzles)} solved.")
    return solved


def _solve(trial: Trial, say: Say, read: Read) -> bool | None:
    """Answer lines about one puzzle: True once solved by the player, False once solved
    with `show` or left with `next`, None on `quit` or the end of input."""
    while True:
        line = read()
        if line is None:
            return None
        text = " ".join(line.split())
        word = text.lower()
        if not word:
            continue
        if word in ("q", "quit", "exit"):
            return None
        if word in ("?", "help", "h"):
            say(HELP)
            continue
        if word in ("b", "board"):
            say_position(trial, say)
            continue
        if word in ("l", "legal"):
            say(legal_words(trial.game))
            continue
        if word in ("n", "next"):
            say(f"Skipped: the solution was {' '.join(trial.puzzle.solution)}.")
            return False
        answer = trial.show() if word == "show" else trial.attempt(text)
        say(answer.said)
        if answer.solved:
            return not trial.helped
