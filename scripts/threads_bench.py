"""How well the compiled search's threads share its one tree: for each game, playouts a
second with 1 thread and with K, and how many of one thread's playouts a CPU second each
thread does then (1.00: the threads cost each other nothing; less: the time lost to the
counters they share), and the share of the K threads' walks that took a move below the
root while another walk was under way through it ("walks met": the virtual loss keeps
it down, so that the threads spread over the tree). With `--build PATH` another build of
the core (a `_core*.so` or `.pyd`) runs in turn with the installed one, in the same
process, and the ratio of the two at K threads is printed: the way to tell a change to
the tree's sharing from the machine's noise.

Each round searches the start and a position after 8 random moves (seeded) for
`--seconds` each; the figures are the medians of `--rounds` rounds.

Examples:
    python scripts/threads_bench.py --threads 2
    python scripts/threads_bench.py --threads 16 --game egotzi --rounds 9
    python scripts/threads_bench.py --threads 2 --build /tmp/old/_core.abi3.so
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from abstracts_tui.engine import compiled  # noqa: E402  (path set above)
from abstracts_tui.engine.compiled_search import MAX_THREADS, CompiledSearch  # noqa: E402
from abstracts_tui.engine.search import Budget  # noqa: E402
from abstracts_tui.rules import GAMES, Game, new_game  # noqa: E402


def load_build(path: str) -> ModuleType:
    """Another build of the compiled core, under a name of its own."""
    spec = importlib.util.spec_from_file_location("abstracts_tui_other._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path} is not a Python extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def positions(name: str, seed: int) -> list[Game]:
    """The start, and the position after 8 random moves."""
    rng = random.Random(seed)
    later = new_game(name)
    for _ in range(8):
        moves = later.legal_moves()
        if not moves:
            break
        later.play(later.move_name(rng.choice(moves)))
    return [new_game(name), later]


def searched(
    core: ModuleType, game: Game, threads: int, seconds: float
) -> tuple[float, float, float | None]:
    """Playouts a wall second and a CPU second of one search, and the share of its walks
    that met another under way below the root (None from a build that does not count
    them)."""
    installed = compiled._core
    compiled._core = core
    try:
        search = CompiledSearch(game, 5, threads=threads)
    finally:
        compiled._core = installed
    cpu, wall = cpu_seconds(), time.perf_counter()
    search.run(Budget(seconds=seconds))
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    met = getattr(search._searcher, "met", None)
    share = None if met is None else met / max(search.playouts, 1)
    return search.playouts / wall, search.playouts / max(cpu, 1e-9), share


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2, help="K, the threads against 1")
    parser.add_argument("--game", default="all", help="a game's name, or all (default)")
    parser.add_argument("--seconds", type=float, default=0.3, help="each search's time")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (medians of them)")
    parser.add_argument("--build", help="another build of the core, to compare with")
    parser.add_argument("--seed", type=int, default=3, help="seed of the random moves")
    args = parser.parse_args(argv)
    if not 2 <= args.threads <= MAX_THREADS:
        parser.error(f"--threads is from 2 to {MAX_THREADS}")
    names = list(GAMES) if args.game == "all" else [args.game]
    if any(name not in GAMES for name in names):
        parser.error(f"--game is one of {', '.join(GAMES)} or all")
    try:
        installed = compiled.module()
    except RuntimeError as error:
        raise SystemExit(str(error)) from None
    cores = [("installed", installed)]
    if args.build:
        cores.append(("--build", load_build(args.build)))
    k = args.threads
    print(f"playouts a second, 1 and {k} threads; per CPU second at {k}, against 1 thread")
    for name in names:
        games = positions(name, args.seed)
        walls: dict[tuple[str, int], list[float]] = {}
        cpus: dict[tuple[str, int], list[float]] = {}
        met: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for label, core in cores:  # in turn, so that the machine's changes fall on both
                for threads in (1, k):
                    for game in games:
                        wall, cpu, walks_met = searched(core, game, threads, args.seconds)
                        walls.setdefault((label, threads), []).append(wall)
                        cpus.setdefault((label, threads), []).append(cpu)
                        if threads > 1 and walks_met is not None:
                            met.setdefault(label, []).append(walks_met)
        line = []
        for label, _core in cores:
            one = statistics.median(walls[(label, 1)])
            many = statistics.median(walls[(label, k)])
            share = statistics.median(cpus[(label, k)]) / statistics.median(cpus[(label, 1)])
            shares = met.get(label)
            walks = f", walks met {statistics.median(shares):.0%}" if shares else ""
            line.append(
                f"{label}: {one:,.0f} and {many:,.0f} ({many / one:.2f}x), {share:.2f}{walks}"
            )
        if len(cores) == 2:
            ratio = statistics.median(walls[("installed", k)]) / statistics.median(
                walls[("--build", k)]
            )
            line.append(f"installed / --build at {k}: {ratio:.3f}")
        print(f"{name:11s} " + "; ".join(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
