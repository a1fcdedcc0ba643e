"""Write the shipped set of puzzles: abstracts_tui/puzzles/data/GAME-SIZE.jsonl.

For each game and size of the plan below, the engine plays itself (a few random opening
moves, then a few hundred playouts a move, all seeded from `--seed`), and every position of
those games where the solver proves that exactly one move wins becomes a puzzle, with
its winning line (see abstracts_tui/puzzles/mine.py); at most two are kept from one game,
the deepest of each grade, and at most `--count` per game and size. The same options give
the same files on every run.

    python scripts/make_puzzles.py                       # the whole plan (a few minutes)
    python scripts/make_puzzles.py --only egotzi:5 --games 40 --count 30
    python scripts/make_puzzles.py --out /tmp/puzzles    # elsewhere than the package

Options:
    --only GAME:SIZE   only these (repeatable); GAME:SIZE outside the plan is mined with
                       the plan's defaults
    --games N          self-play games per game and size (default: the plan's)
    --count N          the most puzzles kept per game and size (default 20)
    --seed N           the seed of the self-play games (default 1)
    --playouts N       the self-play engine's playouts a move (default: the plan's)
    --max-walks N      the most walks of one proof before a position counts as unknown
                       (default: the plan's)
    --out DIR          where to write (default: the package's data folder)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from abstracts_tui.puzzles.mine import Mining, mine  # noqa: E402
from abstracts_tui.puzzles.shipped import file_name  # noqa: E402

DATA = ROOT / "abstracts_tui" / "puzzles" / "data"

PLAN: dict[tuple[str, int], tuple[int, int, int, int]] = {
    # (game, size): (self-play games, random opening moves, self-play playouts a move,
    #                most walks of a proof)
    ("petrify", 6): (50, 10, 300, 5_000),
    ("pilo", 6): (20, 20, 300, 3_000),
    ("egotzi", 5): (50, 4, 300, 5_000),
    ("linage", 5): (60, 3, 50, 5_000),
    ("partitions", 5): (120, 44, 300, 5_000),
    ("egotzi", 6): (50, 6, 300, 5_000),
    ("partitions", 6): (200, 72, 300, 5_000),
}
"""What is mined by default. The random opening moves make the endings close (where one
move alone wins): Partitions, whose engine games are decided long before the solver can
see the end, needs most of its board filled at random, and Linage 5, decided from its
first moves, a weaker engine."""


def parse_only(text: str) -> tuple[str, int]:
    game, _, size = text.partition(":")
    if not size.isdigit():
        raise argparse.ArgumentTypeError(f"GAME:SIZE such as egotzi:5, not {text!r}")
    return game.lower(), int(size)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", type=parse_only, action="append")
    parser.add_argument("--games", type=int)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int)
    parser.add_argument("--max-walks", type=int)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for game, size in args.only or list(PLAN):
        games, opening, playouts, walks = PLAN.get((game, size), (20, 2, 300, 5_000))
        mining = Mining(
            playouts=args.playouts or playouts, opening=opening, max_walks=args.max_walks or walks
        )
        began = time.monotonic()
        found = mine(game, size, args.count, args.seed, args.games or games, mining)
        path = args.out / file_name(game, size)
        path.write_text("".join(p.to_json() + "\n" for p in found), encoding="utf-8")
        grades = ", ".join(
            f"{g} {sum(p.grade == g for p in found)}" for g in ("easy", "medium", "hard")
        )
        seconds = time.monotonic() - began
        print(f"{game} {size}: {len(found)} puzzles ({grades}) in {seconds:.0f} s -> {path}")


if __name__ == "__main__":
    main()
