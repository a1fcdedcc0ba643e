"""Fit the calibration of the search's win rates to the results they foretell, and print
how well it holds on positions it was not fitted on.

Plays self-play games with the compiled core (both sides at `--move-playouts` a move, the
tree kept along the game), then evaluates `--positions` positions drawn at random from
each game with a fresh one-thread search of `--eval-playouts` playouts (by default the
review's budget, 10,000: what the review and the first seconds of a hint or an analysis
show) and keeps the root's raw win rate for the person to move (that of the best move,
as every front end shows it) beside whether that person went on to win the game (a draw
counts half). Positions the search proves are left out: a proof is never calibrated.

Each game gets a logistic map on the logit, `shown = sigmoid(slope * logit(raw) +
offset)`, fitted by maximum likelihood and drawn towards the map of all games together
(`--prior-weight`: a game with few positions keeps near it; of the weights tried,
positions not fitted on were foretold best the nearer the maps kept to the common one, so
the games' own data moves them little). A map is monotone (its slope is kept positive)
and has two numbers. The shipped maps are fitted on all the samples and written as
package data (`abstracts_tui/engine/calibration.json`, read by `engine/calibration.py`).

How well such maps foretell games they did not see is measured by cross-fitting: the
self-play games are dealt, whole, into `--folds` folds, and each fold's positions are
shown through maps fitted the same way on the other folds only, so that every position
is foretold by a map that never saw its game. The script prints the reliability table
of those figures, per game and all games together, before and after calibration (each
bin of ten points of the reported figure: the mean reported there, the share of
positions won, how many positions and games), then the Brier score (mean squared error)
of both; and it writes the positions with their folds and the folds' maps
(`tests/engine/calibration_heldout.json`), which the tests check again, together with
how near the shipped maps lie to the folds' maps.

Every game is seeded from `--seed` and its number, so a run is the same with any
`--jobs`. The samples can be kept (`--samples FILE`) and fitted again without playing
(`--from-samples FILE`). `--check` fits nothing and writes nothing: it prints how the
shipped maps foretell the games played (or read), e.g. at another size.

Examples:
    python scripts/calibrate.py --games 120 --jobs 2 --samples /tmp/calibration.jsonl
    python scripts/calibrate.py --from-samples /tmp/calibration.jsonl
    python scripts/calibrate.py --games 120 --first 120 --samples /tmp/more.jsonl
    python scripts/calibrate.py --from-samples /tmp/calibration.jsonl /tmp/more.jsonl
    python scripts/calibrate.py --from-samples /tmp/calibration.jsonl --folds 5
    python scripts/calibrate.py --check --game linage --size 7 --games 40
Run it under `nice -n 19` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP_FILE = ROOT / "abstracts_tui" / "engine" / "calibration.json"
HELD_OUT_FILE = ROOT / "tests" / "engine" / "calibration_heldout.json"
MIN_SLOPE, MAX_SLOPE = 0.1, 10.0
"""The fitted slope is kept within these: positive (a monotone map), and finite when a
few positions happen to be separated perfectly."""
EPSILON = 1e-3
"""Raw win rates are read within [EPSILON, 1 - EPSILON] before taking their logit."""


@dataclass(frozen=True)
class Sample:
    """One evaluated position of a self-play game."""

    game: str
    size: int
    number: int
    """The self-play game it comes from (the split keeps each game's positions together)."""
    ply: int
    winrate: float
    """The search's raw win rate for the person to move."""
    result: float
    """1 if the person to move won the game, 0 if they lost, 0.5 for a draw."""


def game_seed(seed: int, name: str, number: int) -> int:
    """A seed of its own for each game, the same whatever the order games are played in."""
    return random.Random(f"{seed}:{name}:{number}").randrange(2**32)


def play_one(task: tuple[str, int | None, int, int, int, int, int]) -> list[Sample]:
    """Play self-play game `number` of `name` and evaluate positions drawn from it."""
    from abstracts_tui.engine.search import Budget, Search
    from abstracts_tui.rules import SWAP, new_game

    name, size, number, seed, move_playouts, eval_playouts, positions = task
    rng = random.Random(game_seed(seed, name, number))
    game = new_game(name, size)
    start = game.copy()
    moves = []
    swapped = 0
    search: Search | None = None
    while not game.is_over():
        if search is None or not search.follow(game):
            search = Search(game, rng.randrange(2**32), threads=1)
        search.run(Budget(playouts=move_playouts))
        move = search.best_move()
        assert move is not None
        swapped ^= move == SWAP
        moves.append(move)
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None
    # The people take turns (a swap too): person ply % 2 moves at each ply, and holds at
    # the end the colour of their number, exchanged by a swap.
    winner = None if outcome.winner is None else outcome.winner ^ swapped
    plies = sorted(rng.sample(range(len(moves)), min(positions, len(moves))))
    found = []
    replay = start.copy()
    done = 0
    for ply in plies:
        while done < ply:
            replay.push(moves[done])
            done += 1
        search = Search(replay, rng.randrange(2**32), threads=1)
        search.run(Budget(playouts=eval_playouts))
        winrate = search.winrate()
        if search.proven is not None or winrate is None:
            continue
        result = 0.5 if winner is None else float(winner == ply % 2)
        found.append(Sample(name, game.size, number, ply, round(winrate, 4), result))
    return found


def play(
    names: Sequence[str],
    size: int | None,
    games: int,
    seed: int,
    move_playouts: int,
    eval_playouts: int,
    positions: int,
    jobs: int,
    keep: Path | None = None,
    first: int = 0,
) -> list[Sample]:
    """Every game's samples, in order of game and number (also written to `keep` as
    each game ends, so that a run cut short leaves what it found). The games are numbered
    from `first`: a later run from where an earlier one ended plays new games, and the
    two runs' samples fitted together are those of one longer run."""
    tasks = [
        (name, size, number, seed, move_playouts, eval_playouts, positions)
        for name in names
        for number in range(first, first + games)
    ]
    samples: list[Sample] = []
    started = time.monotonic()
    out = None if keep is None else keep.open("w")
    with ProcessPoolExecutor(jobs) as pool:
        for index, found in enumerate(pool.map(play_one, tasks, chunksize=1), start=1):
            samples.extend(found)
            if out is not None:
                out.writelines(json.dumps(asdict(s)) + "\n" for s in found)
                out.flush()
            if index % 20 == 0 or index == len(tasks):
                took = time.monotonic() - started
                print(f"{index}/{len(tasks)} games, {took:.0f} s", file=sys.stderr)
    if out is not None:
        out.close()
    return samples


def logit(p: float) -> float:
    p = min(1 - EPSILON, max(EPSILON, p))
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def fit_logistic(
    pairs: Sequence[tuple[float, float]],
    prior: tuple[float, float] = (1.0, 0.0),
    weight: float = 0.0,
) -> tuple[float, float]:
    """(slope, offset) maximising the likelihood of the results given the raw win rates
    through `sigmoid(slope * logit(raw) + offset)` (Newton's method, a draw counting
    half), less `weight / 2` times the squared distance of the two numbers from
    `prior`'s: with a weight, a game with few positions keeps near the prior map. The
    prior, the identity by default, for no data."""
    slope, offset = prior
    xs = [logit(p) for p, _ in pairs]
    for _ in range(100):
        g_a, g_b = weight * (slope - prior[0]), weight * (offset - prior[1])
        h_aa = h_bb = weight
        h_ab = 0.0
        for x, (_, y) in zip(xs, pairs, strict=True):
            q = sigmoid(slope * x + offset)
            r = q - y
            w = q * (1 - q)
            g_a += r * x
            g_b += r
            h_aa += w * x * x
            h_ab += w * x
            h_bb += w
        det = h_aa * h_bb - h_ab * h_ab
        if det <= 1e-12:
            break
        d_a = (h_bb * g_a - h_ab * g_b) / det
        d_b = (h_aa * g_b - h_ab * g_a) / det
        slope, offset = min(MAX_SLOPE, max(MIN_SLOPE, slope - d_a)), offset - d_b
        if abs(d_a) + abs(d_b) < 1e-9:
            break
    return slope, offset


Position = tuple[float, float, str]
"""A position foretold: its figure, its result, and the self-play game it comes from."""


def reliability(positions: Iterable[Position]) -> list[tuple[int, float, float, int, int]]:
    """(bin, mean reported, observed, positions, games) for each bin of ten points
    holding a position; bin 5 holds 0.5 to 0.6 (and bin 9 holds 1)."""
    bins: dict[int, list[Position]] = {}
    for position in positions:
        bins.setdefault(min(9, int(position[0] * 10)), []).append(position)
    table = []
    for index in sorted(bins):
        held = bins[index]
        mean = sum(p for p, _, _ in held) / len(held)
        observed = sum(y for _, y, _ in held) / len(held)
        table.append((index, mean, observed, len(held), len({g for _, _, g in held})))
    return table


def table_text(title: str, positions: Sequence[Position]) -> str:
    lines = [title, f"  {'bin':<9}{'reported':>9}{'observed':>9}{'positions':>10}{'games':>7}"]
    for index, mean, observed, count, games in reliability(positions):
        span = f"{10 * index}-{10 * index + 10}%"
        lines.append(f"  {span:<9}{mean:>9.1%}{observed:>9.1%}{count:>10}{games:>7}")
    return "\n".join(lines)


def folds_of(samples: Sequence[Sample], folds: int, seed: int) -> dict[tuple[str, int], int]:
    """The fold (0 to `folds` - 1) of each self-play game, (name, number): of each game,
    whole self-play games dealt at random into folds of equal size."""
    fold: dict[tuple[str, int], int] = {}
    for name in sorted({s.game for s in samples}):
        numbers = sorted({s.number for s in samples if s.game == name})
        random.Random(f"{seed}:{name}").shuffle(numbers)
        fold |= {(name, n): index % folds for index, n in enumerate(numbers)}
    return fold


def pairs_of(samples: Iterable[Sample]) -> list[tuple[float, float]]:
    return [(s.winrate, s.result) for s in samples]


def map_key(name: str, size: int) -> str:
    """The key of a map in the data: the game's name at its default size (the map then
    serves every size without one of its own), else `game:size`."""
    from abstracts_tui.rules import GAMES

    return name if size == GAMES[name].info.default_size else f"{name}:{size}"


def merged(path: Path, games: dict[str, object], **fields: object) -> str:
    """The JSON of `path`'s data with `games` written over its entries of the same keys
    (the maps of the other games and sizes kept) and `fields` set."""
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update(fields)
    data["games"] = {**data.get("games", {}), **games}
    data["games"] = dict(sorted(data["games"].items()))
    return json.dumps(data, indent=1 if path == MAP_FILE else None) + "\n"


Maps = dict[str, tuple[float, float]]


def fit_maps(samples: Sequence[Sample], weight: float) -> tuple[tuple[float, float], Maps]:
    """The map of all games together and each game's (and size's) own, drawn towards it."""
    pooled = fit_logistic(pairs_of(samples))
    maps = {}
    for name, size in sorted({(s.game, s.size) for s in samples}):
        ours = [s for s in samples if (s.game, s.size) == (name, size)]
        maps[map_key(name, size)] = fit_logistic(pairs_of(ours), pooled, weight)
    return pooled, maps


def calibrate(
    samples: Sequence[Sample], folds: int, seed: int, eval_playouts: int, weight: float
) -> None:
    """Fit the maps of the games (and sizes) of `samples` on all of them and write them;
    print how maps fitted the same way foretell games they did not see (cross-fitting:
    each fold's positions shown through the maps fitted on the other folds), and write
    those positions with each fold's maps for the tests."""
    fold = folds_of(samples, folds, seed)
    fitted = [
        fit_maps([s for s in samples if fold[(s.game, s.number)] != k], weight)[1]
        for k in range(folds)
    ]
    pooled, shipped = fit_maps(samples, weight)
    maps: dict[str, object] = {}
    heldout: dict[str, object] = {}
    before: list[Position] = []
    after: list[Position] = []
    print(f"all games: slope {pooled[0]:.3f}, offset {pooled[1]:+.3f}, {len(samples)} positions")
    print(f"each position shown through the maps fitted without its game ({folds} folds)")
    for name, size in sorted({(s.game, s.size) for s in samples}):
        key = map_key(name, size)
        ours = [s for s in samples if (s.game, s.size) == (name, size)]
        slope, offset = shipped[key]
        maps[key] = {
            "slope": round(slope, 4),
            "offset": round(offset, 4),
            "size": size,
            "positions": len(ours),
            "games": len({s.number for s in ours}),
        }
        theirs = [(s.winrate, s.result, f"{key}:{s.number}") for s in ours]
        shown = []
        for s in ours:
            a, b = fitted[fold[(s.game, s.number)]][key]
            shown.append((sigmoid(a * logit(s.winrate) + b), s.result, f"{key}:{s.number}"))
        heldout[key] = {
            "game": name,
            "size": size,
            "folds": [[round(v, 4) for v in maps_k[key]] for maps_k in fitted],
            "positions": [[s.winrate, s.result, s.number, fold[(s.game, s.number)]] for s in ours],
        }
        before += theirs
        after += shown
        games = len({s.number for s in ours})
        print(
            f"\n{name} {size}: slope {slope:.3f}, offset {offset:+.3f}, "
            f"fitted on {len(ours)} positions of {games} games"
        )
        print(table_text(" raw:", theirs))
        print(table_text(" calibrated, each game unseen by its map:", shown))
    print(table_text(f"\nall games, {len(before)} positions, raw:", before))
    print(table_text("all games, calibrated, each game unseen by its map:", after))
    brier = [sum((p - y) ** 2 for p, y, _ in held) / len(held) for held in (before, after)]
    print(f"Brier score: raw {brier[0]:.4f}, calibrated (unseen) {brier[1]:.4f}")
    form = "shown = sigmoid(slope * logit(raw) + offset)"
    MAP_FILE.write_text(merged(MAP_FILE, maps, form=form, playouts=eval_playouts))
    HELD_OUT_FILE.write_text(
        merged(HELD_OUT_FILE, heldout, playouts=eval_playouts, form=form, folds=folds)
    )
    print(f"\nwrote {MAP_FILE.relative_to(ROOT)} and {HELD_OUT_FILE.relative_to(ROOT)}")


def check(samples: Sequence[Sample]) -> None:
    """Print how the shipped maps foretell `samples` (all of them held out), per game and
    size; write nothing."""
    from abstracts_tui.engine.calibration import calibrated

    for name, size in sorted({(s.game, s.size) for s in samples}):
        mine = [s for s in samples if s.game == name and s.size == size]
        raw = [(s.winrate, s.result, str(s.number)) for s in mine]
        shown = [(calibrated(name, size, p), y, g) for p, y, g in raw]
        games = len({s.number for s in mine})
        print(f"\n{name} {size}: {len(mine)} positions of {games} games")
        print(table_text(" raw:", raw))
        print(table_text(" calibrated by the shipped map:", shown))
        brier = [sum((p - y) ** 2 for p, y, _ in held) / len(held) for held in (raw, shown)]
        print(f" Brier score: raw {brier[0]:.4f}, calibrated {brier[1]:.4f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default="all", help="games' names separated by commas, or all (default)"
    )
    parser.add_argument("--size", type=int, help="the board size (default: each game's own)")
    parser.add_argument("--games", type=int, default=120, help="self-play games per game")
    parser.add_argument(
        "--first", type=int, default=0, help="the first game's number (to add games to a run)"
    )
    parser.add_argument("--positions", type=int, default=6, help="positions evaluated a game")
    parser.add_argument("--move-playouts", type=int, default=1000, help="a move's search")
    parser.add_argument(
        "--eval-playouts", type=int, default=10_000, help="a sampled position's search"
    )
    parser.add_argument(
        "--folds", type=int, default=2, help="folds of games, each foretold by the others' fit"
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the games and the split")
    parser.add_argument(
        "--prior-weight",
        type=float,
        default=300.0,
        help="how strongly each game's map keeps to that of all games together",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games")
    parser.add_argument("--samples", type=Path, help="also write the samples here (JSON lines)")
    parser.add_argument(
        "--from-samples", type=Path, nargs="+", help="fit these samples' files; play nothing"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="print how the shipped maps foretell the samples; fit and write nothing",
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from abstracts_tui.engine.core_status import core_name
    from abstracts_tui.rules import GAMES

    if args.from_samples is not None:
        lines = [line for path in args.from_samples for line in path.read_text().splitlines()]
        samples = [Sample(**json.loads(line)) for line in lines if line.strip()]
        if args.game != "all":
            samples = [s for s in samples if s.game in args.game.split(",")]
    else:
        if core_name() != "compiled":
            parser.error("the compiled core is not built: the fit is of its figures")
        names = list(GAMES) if args.game == "all" else args.game.split(",")
        samples = play(
            names,
            args.size,
            args.games,
            args.seed,
            args.move_playouts,
            args.eval_playouts,
            args.positions,
            args.jobs,
            args.samples,
            args.first,
        )
    if args.check:
        check(samples)
    else:
        calibrate(samples, args.folds, args.seed, args.eval_playouts, args.prior_weight)


if __name__ == "__main__":
    main()
