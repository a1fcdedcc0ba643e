"""A puzzle: a position from the start of a game where one move wins, and the line that
wins from it; kept one JSON object a line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..rules import Game, new_game
from ..rules.catalogue import CATALOGUE

GRADES = ("easy", "medium", "hard")
"""The grades, easiest first."""


def grade_of(depth: int) -> str:
    """The grade of a winning line of `depth` plies: `easy` wins at once (one move),
    `medium` takes the winner two or three moves, `hard` four or more."""
    if depth <= 1:
        return "easy"
    if depth <= 5:
        return "medium"
    return "hard"


@dataclass(frozen=True)
class Puzzle:
    """A position where the side to move wins with exactly one move, as the solver
    proves, and the line that wins from it."""

    game: str
    size: int
    variant: str
    komi: float
    moves: tuple[str, ...]
    """The moves from the start to the puzzle's position, in notation."""
    solution: tuple[str, ...]
    """The winning line, first move first: the winner's moves and the defender's
    replies in turn, ending with the winner's last move that still needs finding."""
    value: str = "win"

    @property
    def depth(self) -> int:
        """The winning line's length in plies: how deep the proof is."""
        return len(self.solution)

    @property
    def grade(self) -> str:
        return grade_of(self.depth)

    @property
    def title(self) -> str:
        """The game's title and size, e.g. `Petrify 6`."""
        return f"{CATALOGUE[self.game].title} {self.size}"

    def start(self) -> Game:
        """A game at the puzzle's position (its moves played from the start)."""
        game = new_game(self.game, self.size, self.variant or None, self._komi())
        for move in self.moves:
            game.play(move)
        return game

    def _komi(self) -> float | None:
        return self.komi if CATALOGUE[self.game].takes_komi(self.variant) else None

    def to_dict(self) -> dict[str, Any]:
        """The puzzle's JSON object: `game`, `size`, `options` (variant, komi), `moves`,
        `solution`, `value`, `depth` and `grade`."""
        return {
            "game": self.game,
            "size": self.size,
            "options": {"variant": self.variant, "komi": self.komi},
            "moves": list(self.moves),
            "solution": list(self.solution),
            "value": self.value,
            "depth": self.depth,
            "grade": self.grade,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        options = data.get("options", {})
        return cls(
            game=str(data["game"]),
            size=int(data["size"]),
            variant=str(options.get("variant", "")),
            komi=float(options.get("komi", 0.0)),
            moves=tuple(str(move) for move in data["moves"]),
            solution=tuple(str(move) for move in data["solution"]),
            value=str(data.get("value", "win")),
        )

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        return cls.from_dict(json.loads(line))
