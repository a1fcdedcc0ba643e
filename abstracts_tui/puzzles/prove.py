"""What the compiled core's solver proves of a position and of each of its moves.

A puzzle is only as good as its proof, so everything here asks the solver (the
MCTS-solver with its exact solver of positions with few moves, `engine/compiled_search`)
and takes nothing else for an answer: a move is said to win, lose or draw only once the
solver has proven it. Searches are seeded and run on one thread, so the same position
gets the same answer on every run.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.compiled_search import CompiledSearch
from ..engine.terms import Budget, Proof
from ..rules import SWAP, Game, Move

STEP = 100
"""Walks between two looks at whether the search has proven its root."""
MAX_WALKS = 20_000
"""The most walks spent on one proof before giving up (the position is then unknown)."""
SEED = 1
"""The seed of every proving search."""

_FLIP: dict[Proof, Proof] = {"win": "loss", "loss": "win", "draw": "draw"}


@dataclass(frozen=True)
class Proved:
    """What the solver found of one position or move."""

    value: Proof | None
    """`win`, `loss` or `draw` for the side it is told for; None when not proven."""
    walks: int
    """The walks of the tree the proof took (0 for a finished game): how hard it was."""


def final_value(game: Game, colour: int) -> Proof:
    """A finished game's result for `colour`."""
    outcome = game.outcome()
    assert outcome is not None, "the game is not over"
    if outcome.winner is None:
        return "draw"
    return "win" if outcome.winner == colour else "loss"


def prove(game: Game, max_walks: int = MAX_WALKS) -> Proved:
    """The value of `game`'s position for the side to move, as soon as it is proven
    (searched `STEP` walks at a time, at most `max_walks`)."""
    if game.is_over():
        return Proved(final_value(game, game.turn), 0)
    search = CompiledSearch(game, SEED, threads=1)
    while search.playouts < max_walks:
        search.run(Budget(playouts=STEP))
        if search.proven is not None:
            break
    return Proved(search.proven, search.playouts)


def prove_move(game: Game, move: Move, max_walks: int = MAX_WALKS) -> Proved:
    """The value of playing `move` in `game`, for the side that plays it."""
    mover = game.turn
    after = game.copy()
    after.push(move)
    found = prove(after, max_walks)
    if found.value is None or after.turn == mover:
        return found
    return Proved(_FLIP[found.value], found.walks)


def move_values(game: Game, max_walks: int = MAX_WALKS) -> dict[Move, Proved]:
    """Every legal move's value for the side to move, in the order of `legal_moves()`."""
    return {move: prove_move(game, move, max_walks) for move in game.legal_moves()}


def winning_moves(values: dict[Move, Proved]) -> list[Move]:
    """The moves proven to win."""
    return [move for move, found in values.items() if found.value == "win"]


def all_proven(values: dict[Move, Proved]) -> bool:
    """Whether every move's value is proven."""
    return all(found.value is not None for found in values.values())


def unique_win(game: Game, max_walks: int = MAX_WALKS) -> Move | None:
    """The one winning move when the solver proves that exactly one move wins and every
    other loses or draws; None otherwise (no win, several, or a move left unproven).
    A position where the pie rule's swap may be chosen is never one."""
    moves = game.legal_moves()
    if len(moves) < 2 or SWAP in moves:
        return None
    winners = []
    for move in moves:  # stops at a second win or a move left unproven
        value = prove_move(game, move, max_walks).value
        if value is None:
            return None
        if value == "win":
            winners.append(move)
            if len(winners) > 1:
                return None
    return winners[0] if winners else None


def refutation(game: Game, move: Move, max_walks: int = MAX_WALKS) -> Move | None:
    """The opponent's answer that keeps `move` from winning: a reply proven to win or
    draw for the opponent (a win first); None when the solver finds none."""
    after = game.copy()
    after.push(move)
    if after.is_over() or after.turn == game.turn:
        return None
    search = CompiledSearch(after, SEED, threads=1)
    while search.playouts < max_walks and search.proven is None:
        search.run(Budget(playouts=STEP))
    for wanted in ("win", "draw"):
        for candidate in search.candidates():
            if candidate.proven == wanted:
                return candidate.move
    return None
