"""Play matches between two players through the engine protocol and print the results.

Every player, and a referee that holds the authoritative game, is a real
`python -m abstracts_tui engine` subprocess. Colours alternate from game to game: the
first player moves first in games 1, 3, 5, ...; a pie-rule swap exchanges the players'
colours for the rest of the game.

Players:
- `engine:SECONDS`: the engine's `genmove` at that time per move;
- `level:NAME`: the engine at one of the app's strength levels (easy, medium, hard,
  strongest): a playout budget or a time per move;
- either with `@compiled` or `@python` after it (`engine:1@python`): the engine on that
  search core (`ABSTRACTS_TUI_CORE`); without, the compiled core when it is built;
  and with `~solver`, `~exact` or `~reuse` after that (`engine:0.2@compiled~reuse`): the compiled
  search without that improvement (`ABSTRACTS_TUI_WITHOUT`), to measure it;
- `random`: a uniformly random move of `legal_moves`;
- `greedy`: one ply: each legal move is played, `scores` read and the move undone; the
  best score difference for the mover wins, ties broken at random.

Which package plays: the one this Python has installed (`pip install .` or `-e .`), as a
user gets it; `--checkout` puts this checkout first on the players' path instead (its
compiled core only if it was built in place). Each player's package and search core are
printed before the first game, and a player that asks for `@compiled` where the core is
not built stops the match with that sentence rather than measure the pure-Python one.

Examples:
    python scripts/match.py --game petrify --games 6 --first engine:0.2 --second random
    python scripts/match.py --game all --games 2 --first engine:0.05 --second greedy
    python scripts/match.py --game egotzi --games 10 --first level:medium --second level:easy
    python scripts/match.py --game all --games 20 --first engine:1@compiled --second engine:1@python
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKOUT = "--checkout" in sys.argv[1:]
"""Whether the players run this checkout rather than the installed package."""
if CHECKOUT:
    sys.path.insert(0, str(ROOT))
elif sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "scripts":
    sys.path.pop(0)  # this folder, not a package

from abstracts_tui.engine.levels import LEVELS, level_table  # noqa: E402  (path set above)
from abstracts_tui.rules import GAMES  # noqa: E402


class ProtocolError(Exception):
    """An engine process refused a command that had to succeed, or died."""


class EngineProcess:
    """One `abstracts_tui engine` subprocess spoken to one command at a time."""

    def __init__(
        self,
        label: str,
        seed: int | None = None,
        playouts: int | None = None,
        core: str | None = None,
    ) -> None:
        env = dict(os.environ)
        core, *left_out = (core or "").split("~")
        if core:
            env["ABSTRACTS_TUI_CORE"] = core
        if left_out:
            env["ABSTRACTS_TUI_WITHOUT"] = ",".join(left_out)
        if CHECKOUT:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.pop("ABSTRACTS_TUI_PLAYOUTS", None)
        if playouts is not None:
            env["ABSTRACTS_TUI_PLAYOUTS"] = str(playouts)
        if seed is not None:
            env["ABSTRACTS_TUI_SEED"] = str(seed)
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, "-m", "abstracts_tui", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT if CHECKOUT else None,
        )
        self.version = self.must("version")
        """The package's version and its search core, as the engine says them."""
        if core == "compiled" and "compiled search core" not in self.version:
            self.close()
            raise ProtocolError(f"{label}: asked for @compiled, but it runs the {self.version}")

    def ask(self, command: str) -> tuple[bool, str]:
        """Send one command; (whether it succeeded, the answer's text)."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except BrokenPipeError:
            raise ProtocolError(f"{self.label}: the engine process has died") from None
        lines = []
        while True:
            line = stdout.readline()
            if not line:
                raise ProtocolError(f"{self.label}: the engine process has died")
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        if not lines or lines[0][:1] not in "=?":
            raise ProtocolError(f"{self.label}: malformed answer to {command!r}: {lines!r}")
        text = "\n".join([lines[0][1:].lstrip(" "), *lines[1:]])
        return lines[0][0] == "=", text

    def must(self, command: str) -> str:
        """Send a command that must succeed; its answer's text."""
        ok, text = self.ask(command)
        if not ok:
            raise ProtocolError(f"{self.label}: {command!r} was refused: {text}")
        return text

    def close(self) -> None:
        with contextlib.suppress(ProtocolError):
            self.ask("quit")
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Player:
    """A player with its own engine process, which follows every move of the game."""

    def __init__(
        self,
        spec: str,
        label: str,
        seed: int,
        playouts: int | None = None,
        core: str | None = None,
    ) -> None:
        self.spec = spec
        self.label = label
        self.rng = random.Random(seed)
        self.engine = EngineProcess(label, seed, playouts, core)
        self.seconds = 0.0
        """Time spent choosing moves, over the whole match."""
        self.moves = 0

    def new_game(self, newgame: str) -> None:
        self.engine.must(newgame)

    def choose(self) -> str:
        """The player's move for the side to move (already played on its own engine)."""
        start = time.perf_counter()
        move = self._choose()
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return move

    def _choose(self) -> str:
        raise NotImplementedError

    def told(self, move: str) -> None:
        """The opponent played `move`."""
        self.engine.must(f"play {move}")

    def close(self) -> None:
        self.engine.close()


class RandomPlayer(Player):
    """`random`: a uniformly random legal move."""

    def _choose(self) -> str:
        move = self.rng.choice(self.engine.must("legal_moves").split())
        self.engine.must(f"play {move}")
        return move


class EnginePlayer(Player):
    """`engine:SECONDS` or `level:NAME`: the engine's own `genmove`."""

    def __init__(
        self,
        spec: str,
        label: str,
        seed: int,
        seconds: float | None,
        playouts: int | None,
        core: str | None,
    ) -> None:
        super().__init__(spec, label, seed, playouts, core)
        if seconds is not None:
            self.engine.must(f"time_per_move {seconds}")

    def _choose(self) -> str:
        return self.engine.must("genmove")


class GreedyPlayer(Player):
    """`greedy`: the best score preview one ply ahead, ties broken at random."""

    def _choose(self) -> str:
        engine = self.engine
        me = engine.must("side_to_move")
        best: list[str] = []
        best_value = float("-inf")
        for move in engine.must("legal_moves").split():
            engine.must(f"play {move}")
            words = engine.must("scores").split()
            engine.must("undo")
            points = {words[0]: float(words[1]), words[2]: float(words[3])}
            # After a swap the mover owns the other colour.
            mine = me if move != "swap" else next(c for c in points if c != me)
            value = points[mine] - sum(v for c, v in points.items() if c != mine)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        move = self.rng.choice(best)
        engine.must(f"play {move}")
        return move


CORES = ("compiled", "python")


def parse_spec(spec: str) -> tuple[float | None, int | None, str | None] | None:
    """(seconds, playouts, core) of an engine player's move, None for `random` or
    `greedy`; core is None when the spec names none.

    Raises ValueError for anything else.
    """
    if spec in ("random", "greedy"):
        return None
    body, at, core = spec.partition("@")
    name, *left_out = core.split("~")
    if at and (name not in CORES or any(f not in ("solver", "exact", "reuse") for f in left_out)):
        raise ValueError(
            f"unknown core {core!r} in {spec!r}: use @compiled or @python, "
            f"then ~solver, ~exact or ~reuse to leave one out"
        )
    kind, _, value = body.partition(":")
    if kind == "level" and value in LEVELS:
        seconds, playouts = level_table(name or None)[value]
        return seconds, playouts, core or None
    if kind == "engine":
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if 0 < seconds < 86400:
            return seconds, None, core or None
    raise ValueError(
        f"unknown player {spec!r}: use engine:SECONDS, level:NAME "
        f"({', '.join(LEVELS)}), either with @compiled or @python, random or greedy"
    )


def check_spec(spec: str) -> str:
    """argparse type: a player spec."""
    try:
        parse_spec(spec)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return spec


def make_player(spec: str, label: str, seed: int) -> Player:
    """The player described by `spec`; ValueError if it is not one."""
    budget = parse_spec(spec)
    if budget is not None:
        return EnginePlayer(spec, label, seed, *budget)
    if spec == "greedy":
        return GreedyPlayer(spec, label, seed)
    return RandomPlayer(spec, label, seed)


@dataclass
class Tally:
    """Results of the first player in one game type."""

    game: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: list[str] = field(default_factory=list)
    plies: int = 0
    seconds: float = 0.0
    by_seat: dict[str, list[int]] = field(default_factory=dict)
    """'first' / 'second' (who moved first) -> [wins, draws, losses] of the first player."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class GameResult:
    """How one game ended."""

    winner: int | None
    """Index of the winner in the order of play (0 moved first); None for a draw."""
    plies: int
    reason: str
    forfeit: bool = False
    """Whether the loser lost by playing a move the referee refused."""


def play_game(
    referee: EngineProcess, players: tuple[Player, Player], newgame: str, colours: tuple[str, str]
) -> GameResult:
    """Play one game to the end; players[0] moves first."""
    referee.must(newgame)
    for player in players:
        player.new_game(newgame)
    owner = {colours[0]: 0, colours[1]: 1}
    plies = 0
    while referee.must("game_over") == "false":
        side = referee.must("side_to_move")
        mover = owner[side]
        move = players[mover].choose()
        ok, text = referee.ask(f"play {move}")
        if not ok:
            reason = f"{players[mover].label} played {move}: {text}"
            return GameResult(1 - mover, plies, reason, forfeit=True)
        players[1 - mover].told(move)
        if move == "swap":
            owner = {colours[0]: owner[colours[1]], colours[1]: owner[colours[0]]}
        plies += 1
    winner = referee.must("winner")
    reason = referee.must("gogui-rules_final_result")
    return GameResult(None if winner == "draw" else owner[winner], plies, reason)


def run_match(args: argparse.Namespace, name: str) -> Tally:
    info = GAMES[name].info
    size = args.size if args.size is not None else info.default_size
    newgame = f"newgame {name} size={size}"
    if args.variant:
        newgame += f" variant={args.variant}"
    if args.komi is not None:
        newgame += f" komi={args.komi}"
    tally = Tally(name, by_seat={"first": [0, 0, 0], "second": [0, 0, 0]})
    referee = EngineProcess("referee")
    first = make_player(args.first, f"A={args.first}", args.seed)
    second = make_player(args.second, f"B={args.second}", args.seed + 1)
    try:
        if name == args.first_game:
            for player in (first, second):
                print(f"{player.label}: abstracts-tui {player.engine.version}", flush=True)
        referee.must(newgame)  # a bad option fails here, before any game
        for number in range(args.games):
            a_first = number % 2 == 0
            order = (first, second) if a_first else (second, first)
            start = time.perf_counter()
            played = play_game(referee, order, newgame, info.colours)
            winner, plies, reason = played.winner, played.plies, played.reason
            spent = time.perf_counter() - start
            tally.plies += plies
            tally.seconds += spent
            seat = tally.by_seat["first" if a_first else "second"]
            if winner is None:
                tally.draws += 1
                seat[1] += 1
                result = "draw"
            elif order[winner] is first:
                tally.wins += 1
                seat[0] += 1
                result = f"{first.label} wins"
            else:
                tally.losses += 1
                seat[2] += 1
                result = f"{second.label} wins"
            if played.forfeit:
                tally.forfeits.append(reason)
            print(
                f"{name} {number + 1}/{args.games}: {order[0].label} first; {result} "
                f"({reason}); {plies} plies, {spent:.1f}s",
                flush=True,
            )
    finally:
        for process in (first, second):
            process.close()
        referee.close()
    for player in (first, second):
        if player.moves and isinstance(player, EnginePlayer):
            print(
                f"  {player.label}: {player.seconds / player.moves:.3f}s per move "
                f"over {player.moves} moves",
                flush=True,
            )
    return tally


def print_table(args: argparse.Namespace, tallies: list[Tally]) -> None:
    print()
    print(f"A = {args.first}, B = {args.second}; results of A (colours alternated)")
    header = (
        f"{'game':<11}{'size':>5}{'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}"
        f"{'A win %':>9}{'A first':>10}{'A second':>10}{'plies':>7}{'s/game':>8}"
    )
    print(header)
    for t in tallies:
        size = args.size if args.size is not None else GAMES[t.game].info.default_size
        first = "-".join(str(n) for n in t.by_seat["first"])
        second = "-".join(str(n) for n in t.by_seat["second"])
        print(
            f"{t.game:<11}{size:>5}{t.games:>6}{t.wins:>6}{t.draws:>6}{t.losses:>7}"
            f"{100 * t.rate:>8.0f}%{first:>10}{second:>10}"
            f"{t.plies / max(t.games, 1):>7.0f}{t.seconds / max(t.games, 1):>8.1f}"
        )
        for forfeit in t.forfeits:
            print(f"  forfeit: {forfeit}")
    print("(A first / A second: wins-draws-losses of A when A moved first / second)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--game",
        default="all",
        help=f"a game, a comma-separated list, or all (default): {', '.join(GAMES)}",
    )
    parser.add_argument("--size", type=int, help="board size (default: each game's default)")
    parser.add_argument("--variant", help="variant, for a game that has them")
    parser.add_argument("--komi", help="komi, for a game that takes it")
    parser.add_argument("--games", type=int, default=2, help="games per game type (default 2)")
    parser.add_argument("--first", type=check_spec, default="engine:1", help="player A")
    parser.add_argument("--second", type=check_spec, default="random", help="player B")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--checkout",
        action="store_true",
        help="run this checkout's package rather than the installed one",
    )
    args = parser.parse_args(argv)
    names = list(GAMES) if args.game == "all" else [n.strip() for n in args.game.split(",")]
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; the games are {', '.join(GAMES)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    args.first_game = names[0]
    tallies = []
    started = time.perf_counter()
    try:
        for name in names:
            tallies.append(run_match(args, name))
    except ProtocolError as error:
        print(f"match.py: {error}", file=sys.stderr)
        return 1
    finally:
        if tallies:
            print_table(args, tallies)
    print(f"total {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
