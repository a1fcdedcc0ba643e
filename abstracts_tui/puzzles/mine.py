"""Mining puzzles from self-play: the engine plays itself at a modest level, seeded,
and every position of the game where the solver proves exactly one winning move
becomes a puzzle, graded by the depth of its winning line."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..engine.compiled_search import CompiledSearch
from ..engine.terms import Budget
from ..rules import SWAP, Game, new_game
from .line import winning_line
from .prove import MAX_WALKS, prove, unique_win
from .puzzle import Puzzle


@dataclass(frozen=True)
class Mining:
    """How puzzles are mined (see `scripts/make_puzzles.py`)."""

    playouts: int = 300
    """The self-play engine's playouts a move: weak enough to make mistakes, which is
    where one move alone wins."""
    opening: int = 2
    """Random moves (seeded) that open each self-play game: games differ, and the more
    there are the closer the endings, where one move alone wins."""
    max_walks: int = MAX_WALKS
    """The most walks the solver spends on one proof."""
    patience: int = 4
    """Positions in a row left unproven (walking back from the end) that end a game's
    mining."""
    per_game: int = 2
    """The most puzzles kept from one self-play game (the deepest of each grade)."""


def self_play(name: str, size: int, seed: int, mining: Mining) -> Game:
    """A finished game of the engine against itself, the same for the same seed."""
    game = new_game(name, size)
    rng = random.Random(seed)
    while not game.is_over():
        moves = [move for move in game.legal_moves() if move != SWAP]
        if len(game.moves) < mining.opening and moves:
            game.push(rng.choice(moves))
            continue
        search = CompiledSearch(game, rng.randrange(2**32), threads=1)
        search.run(Budget(playouts=mining.playouts))
        move = search.best_move()
        assert move is not None
        game.push(move)
    return game


def puzzles_of(game: Game, mining: Mining) -> Iterator[Puzzle]:
    """The puzzles along a finished game's moves, walking back from its end until
    `mining.patience` positions in a row are left unproven."""
    position = game.copy()
    unproven = 0
    for _ in range(len(game.moves)):
        position.undo()
        found = prove(position, mining.max_walks).value
        if found is None:
            unproven += 1
            if unproven >= mining.patience:
                return
            continue
        unproven = 0
        if found != "win":
            continue
        first = unique_win(position, mining.max_walks)
        if first is None:
            continue
        line = winning_line(position, first, mining.max_walks)
        if line is None:
            continue
        yield puzzle_at(position, line)


def puzzle_at(position: Game, line: list[int]) -> Puzzle:
    """The puzzle of `position` (a game played from its start) won by `line`."""
    start = type(position).from_position(position.start_position)  # its options, komi too
    names = []
    for move in position.moves:
        names.append(start.move_name(move))
        start.push(move)
    solution = []
    for move in line:
        solution.append(start.move_name(move))
        start.push(move)
    options = position.options
    return Puzzle(
        position.info.name,
        position.size,
        options.variant,
        options.komi,
        tuple(names),
        tuple(solution),
    )


def kept(found: list[Puzzle], per_game: int) -> list[Puzzle]:
    """The deepest puzzle of each grade, deepest first, at most `per_game` of them."""
    best: dict[str, Puzzle] = {}
    for puzzle in found:
        if puzzle.grade not in best or puzzle.depth > best[puzzle.grade].depth:
            best[puzzle.grade] = puzzle
    return sorted(best.values(), key=lambda p: -p.depth)[:per_game]


def mine(
    name: str, size: int, count: int, seed: int, games: int, mining: Mining = Mining()
) -> list[Puzzle]:
    """Up to `count` puzzles of `name` on `size` from at most `games` self-play games
    (seeded from `seed`), no position twice."""
    found: list[Puzzle] = []
    seen: set[tuple[str, ...]] = set()
    for number in range(games):
        if len(found) >= count:
            break
        game = self_play(name, size, seed * 100_003 + number, mining)
        for puzzle in kept(list(puzzles_of(game, mining)), mining.per_game):
            if puzzle.moves not in seen and len(found) < count:
                seen.add(puzzle.moves)
                found.append(puzzle)
    return found
