"""Puzzles mined from games played (a server's archive): walking back from a finished
game's end, every position where the solver proves exactly one winning move, on the
boards small enough for it to settle, within a time bound per game."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..records.errors import RecordError
from ..records.record import Record
from ..rules import Game, RulesError
from .line import winning_line
from .mine import Mining, puzzle_at
from .prove import prove, unique_win
from .puzzle import Puzzle
from .shipped import shipped_sizes

SECONDS = 20.0
"""The most seconds spent on one game by default."""
MINING = Mining()
"""How games are mined: as self-play is."""
MOST_A_GAME = 8
"""The most puzzles kept from one game."""


def settled_sizes() -> dict[str, int]:
    """The largest size of each game whose positions the solver settles: the largest the
    shipped set has puzzles of."""
    largest: dict[str, int] = {}
    for game, size in shipped_sizes():
        largest[game] = max(size, largest.get(game, 0))
    return largest


def minable(game: str, size: int) -> bool:
    """Whether games of `game` on `size` are mined (small enough to settle)."""
    return size <= settled_sizes().get(game, 0)


def game_of(sgf: str) -> Game | None:
    """The main line of a record as a game from its start; None when it cannot be read
    or sets up a position (a puzzle is a position reached from the start)."""
    try:
        record = Record.from_sgf(sgf)
        if record.root.setup is not None:
            return None
        if any(node.setup is not None for node in record.root.mainline()):
            return None
        return record.main_game()
    except (RecordError, RulesError, ValueError):
        return None


def puzzles_in_game(
    game: Game,
    seconds: float = SECONDS,
    mining: Mining = MINING,
    clock: Callable[[], float] = time.monotonic,
) -> list[Puzzle]:
    """The puzzles along `game`'s moves, walking back from its end until
    `mining.patience` positions in a row are left unproven, `seconds` have passed (the
    position being proven is finished), or `MOST_A_GAME` are found."""
    deadline = clock() + seconds
    position = game.copy()
    found: list[Puzzle] = []
    unproven = 0
    for _ in range(len(game.moves)):
        if clock() > deadline or len(found) >= MOST_A_GAME:
            break
        position.undo()
        value = prove(position, mining.max_walks).value
        if value is None:
            unproven += 1
            if unproven >= mining.patience:
                break
            continue
        unproven = 0
        if value != "win":
            continue
        first = unique_win(position, mining.max_walks)
        if first is None:
            continue
        line = winning_line(position, first, mining.max_walks)
        if line is not None:
            found.append(puzzle_at(position, line))
    return found
