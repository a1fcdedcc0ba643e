"""The winning line of a puzzle: the winner's moves and the defender's best replies,
each chosen from what the solver proves (`prove`)."""

from __future__ import annotations

from ..rules import Game, Move
from .prove import MAX_WALKS, move_values, winning_moves

MAX_LINE = 40
"""The longest winning line kept (plies); a longer one is given up."""


def winning_line(game: Game, first: Move, max_walks: int = MAX_WALKS) -> list[Move] | None:
    """The line that wins from `game` with `first`, first move first; None when the
    solver cannot prove it all the way.

    The winner plays a proven winning move, the quickest proof first (a move that ends
    the game before any other); the defender, every reply being proven lost, the one
    whose proof took the most walks (the stubbornest). The line stops at the end of the
    game, or where every move the winner may play wins (nothing is left to find), and it
    ends with a move of the winner.
    """
    winner = game.turn
    position = game.copy()
    position.push(first)
    line = [first]
    while not position.is_over():
        if len(line) >= MAX_LINE:
            return None
        values = move_values(position, max_walks)
        if position.turn == winner:
            winners = winning_moves(values)
            if not winners:
                return None
            if len(winners) == len(values):
                break
            move = min(winners, key=lambda m: values[m].walks)
        else:
            if any(found.value != "loss" for found in values.values()):
                return None
            move = max(values, key=lambda m: values[m].walks)
        position.push(move)
        line.append(move)
    if len(line) % 2 == 0:  # the defender's last reply leaves nothing to find
        line.pop()
    return line
