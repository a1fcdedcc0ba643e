"""One try at a puzzle, for any front end: the position, the move typed, right or wrong
and why, the defender's replies from the winning line.

The player finds the winner's moves of the solution; each right one is played with the
reply that follows it. A move other than the solution's is proven by the solver: after
the first move (the only one that wins) another winning move solves the puzzle too; a
move that does not win is said so, with the opponent's answer that refutes it when the
solver finds one, and is not played.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Game, RulesError
from ..words import colour
from .prove import prove_move, refutation
from .puzzle import Puzzle


@dataclass(frozen=True)
class Answer:
    """What a move typed came to."""

    right: bool
    """Whether the move was played (it wins)."""
    said: str
    """One or two sentences for the player."""
    reply: str | None = None
    """The defender's reply played after it, in notation."""
    solved: bool = False
    """Whether the puzzle is done."""
    wrong: bool = False
    """Whether it was a legal move that does not win (a rated try is lost by it)."""


class Trial:
    """One puzzle being solved."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.game: Game = puzzle.start()
        self.step = 0
        """The index in the solution of the next move to find."""
        self.solved = False
        self.helped = False
        """Whether `show` played a move for the player."""
        self.winner = self.game.turn

    def task(self) -> str:
        """What the player is asked: `Blue to play and win (Petrify 6, medium).`"""
        puzzle = self.puzzle
        side = colour(self.game, self.winner).capitalize()
        moves = (puzzle.depth + 1) // 2
        count = "one move" if moves == 1 else f"{moves} moves"
        return (
            f"{side} to play and win ({puzzle.title}, {puzzle.grade}: the win takes "
            f"{count} of {side})."
        )

    def expected(self) -> str | None:
        """The next move of the solution in notation; None once solved."""
        if self.solved:
            return None
        return self.puzzle.solution[self.step]

    def show(self) -> Answer:
        """Play the next move of the solution for the player (and its reply)."""
        expected = self.expected()
        if expected is None:
            return Answer(False, "The puzzle is solved.", solved=True)
        self.helped = True
        return self._advance(expected, f"The move is {expected}.")

    def attempt(self, text: str) -> Answer:
        """The player's move `text`: played with its reply when it is right, else why it
        does not win."""
        if self.solved:
            return Answer(False, "The puzzle is solved.", solved=True)
        game = self.game
        try:
            move = game.parse_move(text.strip())
        except RulesError as error:
            return Answer(False, f"{error}.".replace("..", "."))
        reason = game.illegal_reason(move)
        if reason is not None:
            return Answer(False, f"{reason}.".replace("..", "."))
        name = game.move_name(move)
        if name == self.expected():
            return self._advance(name, "Right.")
        value = prove_move(game, move).value
        if value == "win":
            game.push(move)
            self.solved = True
            return Answer(True, f"{name} wins too: solved.", solved=True)
        return Answer(False, self._why_not(move, name, value), wrong=True)

    def _why_not(self, move: int, name: str, value: str | None) -> str:
        """Why `move` does not win, with the refutation when the solver has one."""
        answer = refutation(self.game, move)
        opponent = colour(self.game, 1 - self.winner).capitalize()
        after = f" ({opponent} answers {self._name_after(move, answer)})" if answer else ""
        if value == "loss":
            why = f"{name} loses by force{after}"
        elif value == "draw":
            why = f"{name} only draws{after}"
        else:
            why = f"{name} is not proven to win"
        return f"{why}. Try again, or type show."

    def _name_after(self, move: int, answer: int) -> str:
        after = self.game.copy()
        after.push(move)
        return after.move_name(answer)

    def _advance(self, name: str, said: str) -> Answer:
        """Play the solution's move `name` and the reply after it, if any."""
        solution = self.puzzle.solution
        self.game.play(name)
        self.step += 1
        reply = None
        if self.step < len(solution):
            reply = solution[self.step]
            self.game.play(reply)
            self.step += 1
        if self.step >= len(solution):
            self.solved = True
            return Answer(True, f"{said} Solved.", reply, solved=True)
        opponent = colour(self.game, 1 - self.winner).capitalize()
        return Answer(True, f"{said} {opponent} answers {reply}; your move.", reply)
