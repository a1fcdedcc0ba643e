"""Speed of the rules layer: `python -m abstracts_tui.bench [GAME ...] [--seconds S]`.

For each game at its default size it prints:
- random whole games per second (uniformly random legal moves, final score and outcome
  included);
- full legal-move listings per second, on every position of a set of random games;
- the time of the final scoring (score and outcome of a finished game).

Times are CPU time of this process (`time.process_time`), which a busy machine disturbs
less than wall time; compare figures taken in one run.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from .rules import GAMES, Game, Move

TARGETS = {
    "petrify": "games >= 500/s",
    "pilo": "games >= 1,000/s",
    "egotzi": "games >= 2,000/s",
    "linage": "listing <= 0.5 ms",
    "partitions": "games >= 1,000/s",
}


@dataclass
class Figures:
    game: str
    size: int
    games_per_s: float
    mean_plies: float
    listing_ms: float
    listings_per_s: float
    scoring_ms: float


def random_games(name: str, seconds: float, seed: int) -> tuple[float, float, list[list[Move]]]:
    """Play random games for about `seconds`; (games/s, mean plies, the games' moves)."""
    cls = GAMES[name]
    rng = random.Random(seed)
    played: list[list[Move]] = []
    spent = 0.0
    while spent < seconds or len(played) < 5:
        start = time.process_time()
        game = cls.new()
        game.playout(rng)
        game.score()
        game.outcome()
        spent += time.process_time() - start
        played.append(game.moves)
    plies = sum(len(moves) for moves in played) / len(played)
    return len(played) / spent, plies, played


def listing_time(name: str, games: list[list[Move]], seconds: float) -> tuple[float, int]:
    """(Mean seconds per full legal-move listing, how many were timed)."""
    cls = GAMES[name]
    spent = 0.0
    count = 0
    for moves in games:
        game: Game = cls.new()
        for move in moves:
            start = time.process_time()
            game.legal_moves()
            spent += time.process_time() - start
            count += 1
            game.push(move)
        if spent > seconds:
            break
    return spent / max(count, 1), count


def scoring_time(name: str, games: list[list[Move]]) -> float:
    """Mean seconds of score() and outcome() on finished games, each on a fresh object."""
    cls = GAMES[name]
    finished = []
    for moves in games[:50]:
        game = cls.new()
        for move in moves:
            game.push(move)
        finished.append(game.position())
    spent = 0.0
    for text in finished:
        game = cls.from_position(text)
        start = time.process_time()
        game.score()
        game.outcome()
        spent += time.process_time() - start
    return spent / len(finished)


def measure(name: str, seconds: float, seed: int) -> Figures:
    games_per_s, plies, games = random_games(name, seconds, seed)
    listing, _ = listing_time(name, games, seconds)
    scoring = scoring_time(name, games)
    return Figures(
        name,
        GAMES[name].info.default_size,
        games_per_s,
        plies,
        listing * 1e3,
        1 / listing if listing else float("inf"),
        scoring * 1e3,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.games or list(GAMES)
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]}; the games are {', '.join(GAMES)}")
    header = (
        f"{'game':<11}{'size':>5}{'games/s':>10}{'plies':>7}{'listing ms':>12}"
        f"{'listings/s':>12}{'score ms':>10}  target"
    )
    print(header)
    for name in names:
        f = measure(name, args.seconds, args.seed)
        print(
            f"{f.game:<11}{f.size:>5}{f.games_per_s:>10,.0f}{f.mean_plies:>7.0f}"
            f"{f.listing_ms:>12.3f}{f.listings_per_s:>12,.0f}{f.scoring_ms:>10.3f}  "
            f"{TARGETS[name]}",
            flush=True,
        )


if __name__ == "__main__":
    main()
