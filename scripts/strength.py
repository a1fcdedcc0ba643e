"""How much stronger one setting of the compiled search is than another: N games per game
between two players in this process, colours alternating, and the first player's score
with its 95% interval (Wilson's; a draw counts half).

A player is a comma-separated list of settings:
- `threads=K`: threads searching the one shared tree (default: every core);
- `playouts=N`: a playout budget per move (equal playouts: the same on any machine);
- `seconds=S`: a time per move (equal time: what this machine gives);
- `reuse=0`: each move's search starts afresh instead of keeping the tree below the
  moves played since the last one;
- `build=PATH`: another build of the compiled core (a `_core*.so` or `.pyd` file), to
  compare two versions of the search; by default the installed one;
- `bias=B`, `exploration=C`, `ref=R`: the search's terms (GRAVE's bias, the exploration
  constant, the playouts a node needs to be its descendants' AMAF reference), to try
  other values than the program's (`abstracts_tui/engine/terms.py`).

Each move is searched as the engine protocol does it (the tree kept along the game), the
search stopping at the budget or once the position is proven. A pie-rule swap exchanges
the players' colours for the rest of the game, as in `scripts/match.py`.

Examples:
    python scripts/strength.py --game linage --games 40 \\
        --first threads=8,playouts=80000 --second threads=1,playouts=10000
    python scripts/strength.py --game all --games 40 \\
        --first threads=2,seconds=0.3 --second threads=1,seconds=0.3
Run long matches under `nice -n 19` on a shared machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from abstracts_tui.engine import compiled  # noqa: E402  (path set above)
from abstracts_tui.engine.compiled_search import MAX_THREADS, CompiledSearch  # noqa: E402
from abstracts_tui.engine.search import Budget  # noqa: E402
from abstracts_tui.rules import GAMES, SWAP, Game, new_game  # noqa: E402

TERMS: dict[str, type[int] | type[float]] = {"bias": float, "exploration": float, "ref": int}
"""The search's terms a setting may give, and their types."""


@dataclass(frozen=True)
class Setting:
    """One player's search: its threads, its budget per move, and which core."""

    text: str
    threads: int
    playouts: int | None
    seconds: float | None
    reuse: bool
    build: str | None
    terms: tuple[tuple[str, float], ...] = ()
    """The search's terms given (bias, exploration, ref), as keyword arguments."""


def parse_setting(text: str) -> Setting:
    """A player's settings; ValueError saying what is wrong."""
    values: dict[str, str] = {}
    for part in text.split(","):
        key, equals, value = part.strip().partition("=")
        if not equals or key not in ("threads", "playouts", "seconds", "reuse", "build", *TERMS):
            raise ValueError(
                f"{part!r}: a setting is threads=K, playouts=N, seconds=S, reuse=0, "
                "build=PATH, bias=B, exploration=C or ref=R"
            )
        values[key] = value
    try:
        threads = int(values.get("threads", os.cpu_count() or 1))
        playouts = int(values["playouts"]) if "playouts" in values else None
        seconds = float(values["seconds"]) if "seconds" in values else None
        terms = tuple((key, TERMS[key](values[key])) for key in TERMS if key in values)
    except ValueError:
        raise ValueError(
            f"{text!r}: threads, playouts and ref are whole numbers, seconds, bias and "
            "exploration numbers"
        ) from None
    if any(value < 0 for _key, value in terms):
        raise ValueError(f"{text!r}: the search's terms are not negative")
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"{text!r}: threads must be between 1 and {MAX_THREADS}")
    if playouts is None and seconds is None:
        raise ValueError(f"{text!r}: give a budget, playouts=N or seconds=S")
    if (playouts is not None and playouts < 1) or (seconds is not None and not seconds > 0):
        raise ValueError(f"{text!r}: the budget must be positive")
    build = values.get("build")
    if build is not None and not Path(build).is_file():
        raise ValueError(f"{text!r}: no such file {build}")
    reuse = values.get("reuse", "1") != "0"
    return Setting(text, threads, playouts, seconds, reuse, build, terms)


def load_build(path: str, index: int) -> ModuleType:
    """Another build of the compiled core, under a name of its own."""
    spec = importlib.util.spec_from_file_location(f"abstracts_tui_build{index}._core", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Player:
    """One setting playing: its search of the game so far, kept from move to move."""

    def __init__(self, setting: Setting, seed: int, build: ModuleType | None) -> None:
        self.setting = setting
        self.rng = random.Random(seed)
        self.build = build
        self.search: CompiledSearch | None = None
        self.moves = 0
        self.seconds = 0.0
        self.playouts = 0

    def new_game(self) -> None:
        self.search = None

    def _new_search(self, game: Game) -> CompiledSearch:
        seed = self.rng.randrange(2**63)
        terms = dict(self.setting.terms)
        if self.build is None:
            return CompiledSearch(game, seed, threads=self.setting.threads, **terms)
        # The position and the searcher both come from the other build's module.
        installed = compiled._core
        compiled._core = self.build
        try:
            return CompiledSearch(game, seed, threads=self.setting.threads, **terms)
        finally:
            compiled._core = installed

    def choose(self, game: Game) -> int:
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        start = time.perf_counter()
        search = self.search
        if search is None or not self.setting.reuse or not search.follow(game):
            search = self._new_search(game)
        before = search.playouts
        search.run(Budget(seconds=self.setting.seconds, playouts=self.setting.playouts))
        move = search.best_move()
        assert move is not None
        self.search = search
        self.seconds += time.perf_counter() - start
        self.playouts += search.playouts - before
        self.moves += 1
        return move


def play_game(game: Game, players: tuple[Player, Player]) -> int | None:
    """Play to the end, players[0] moving first: the winner's index, None for a draw."""
    for player in players:
        player.new_game()
    owner = [0, 1]  # colour -> player
    while not game.is_over():
        mover = owner[game.turn]
        move = players[mover].choose(game)
        game.push(move)
        if move == SWAP:
            owner.reverse()
    outcome = game.outcome()
    assert outcome is not None
    return None if outcome.winner is None else owner[outcome.winner]


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a rate `score` out of `games` (Wilson's score interval)."""
    if games == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    game: str
    size: int
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def run_match(args: argparse.Namespace, name: str, first: Setting, second: Setting) -> Tally:
    size = args.size if args.size is not None else GAMES[name].info.default_size
    builds = [load_build(s.build, i) if s.build else None for i, s in enumerate((first, second))]
    a = Player(first, args.seed, builds[0])
    b = Player(second, args.seed + 1, builds[1])
    tally = Tally(name, size)
    for number in range(args.games):
        a_first = number % 2 == 0
        order = (a, b) if a_first else (b, a)
        start = time.perf_counter()
        winner = play_game(new_game(name, size=size), order)
        if winner is None:
            tally.draws += 1
            result = "draw"
        elif order[winner] is a:
            tally.wins += 1
            result = "A wins"
        else:
            tally.losses += 1
            result = "B wins"
        low, high = wilson(tally.score, tally.games)
        print(
            f"{name} {size} game {number + 1}/{args.games}: A {'first' if a_first else 'second'},"
            f" {result} ({time.perf_counter() - start:.0f}s); A so far"
            f" {tally.wins}-{tally.draws}-{tally.losses}, {100 * tally.score:.0f}%"
            f" [{100 * low:.0f}%, {100 * high:.0f}%]",
            flush=True,
        )
    for label, player in (("A", a), ("B", b)):
        if player.moves:
            print(
                f"  {label} ({player.setting.text}): {player.playouts / player.moves:,.0f}"
                f" playouts and {player.seconds / player.moves:.2f}s a move over"
                f" {player.moves} moves",
                flush=True,
            )
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all", help="a game's name, or all (default)")
    parser.add_argument("--size", type=int, help="board size (default: each game's own)")
    parser.add_argument("--games", type=int, default=40, help="games per game (default 40)")
    parser.add_argument("--first", required=True, help="player A's settings")
    parser.add_argument("--second", required=True, help="player B's settings")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' searches")
    args = parser.parse_args(argv)
    names = list(GAMES) if args.game == "all" else [args.game]
    if any(name not in GAMES for name in names):
        parser.error(f"unknown game {args.game!r}: use one of {', '.join(GAMES)} or all")
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        first, second = parse_setting(args.first), parse_setting(args.second)
    except ValueError as error:
        parser.error(str(error))
    print(f"A = {first.text}; B = {second.text}; colours alternate, A first in game 1")
    tallies = [run_match(args, name, first, second) for name in names]
    print()
    print(
        f"{'game':<11}{'size':>5}{'games':>6}{'A wins':>8}{'draws':>6}{'B wins':>8}"
        f"{'A score':>9}{'95% interval':>16}"
    )
    for t in tallies:
        low, high = wilson(t.score, t.games)
        print(
            f"{t.game:<11}{t.size:>5}{t.games:>6}{t.wins:>8}{t.draws:>6}{t.losses:>8}"
            f"{100 * t.score:>8.1f}%{f'{100 * low:.0f}% to {100 * high:.0f}%':>16}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
