"""The computer's decisions in a game: its move, the komi it sets and the side it takes.

A `Thinker` makes one decision at a time and may be stopped from another thread (the
app's key handler): a stopped move search answers with the best move found so far.
"""

from __future__ import annotations

import random
import statistics
import threading

from ..rules import Game, Move, Options
from ..rules.catalogue import parse_komi
from .search import Budget, Search


class Thinker:
    """Runs the searches behind the computer's decisions; `stop()` is thread-safe."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.search: Search | None = None
        """The move search under way (the app reads its candidates while it runs)."""
        self._stopped = threading.Event()

    def stop(self) -> None:
        """End the decision under way as soon as possible, with what it has found."""
        self._stopped.set()
        search = self.search
        if search is not None:
            search.stop()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def move(self, game: Game, budget: Budget) -> Move:
        """The move to play for the side to move (ValueError if the game is over)."""
        moves = game.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        search = Search(game, self.rng.randrange(2**32))
        self.search = search
        if not self.stopped:
            search.run(budget)
        move = search.best_move()
        assert move is not None
        return move

    def komi(self, game: Game, budget: Budget) -> float:
        """A komi that makes the game even: the median margin of the first colour over
        random games from the start (played without komi), rounded to the komi step.

        The other person then chooses a side, so the fairer the komi, the less the
        chooser gains; a median of random games is a rough but unbiased guess.
        """
        info = game.info
        options = Options(game.size, game.options.variant, 0.0)
        start = type(game)(options)
        count = budget.playouts if budget.playouts is not None else 1000
        margins: list[float] = []
        for _ in range(max(count, 20)):
            if self.stopped and len(margins) >= 20:
                break
            played = start.copy()
            played.playout(self.rng)
            points = played.score().points
            margins.append(points[0] - points[1])
        step = info.komi_step
        komi = round(statistics.median(margins) / step) * step
        return parse_komi(komi, step)

    def side(self, game: Game, budget: Budget) -> int:
        """The colour to take (0 moves first) with the komi set: the one the search
        thinks wins more often from the start."""
        search = Search(game, self.rng.randrange(2**32))
        self.search = search
        if not self.stopped:
            search.run(budget)
        winrate = search.winrate()
        return 0 if winrate is None or winrate >= 0.5 else 1
