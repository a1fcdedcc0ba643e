"""Win rates that match outcomes: maps fitted as the shipped calibration is, shown on the
self-play positions they did not see (`calibration_heldout.json`, written by
`scripts/calibrate.py` with the map: each fold of games foretold by the maps fitted on
the others), foretell the results; the shipped maps lie near those; each is monotone
and bounded, leaves a game without a map and every proof alone, and is what the
protocol's `analyze` prints."""

from __future__ import annotations

import json
import math
from importlib import metadata, resources
from itertools import pairwise
from pathlib import Path

import pytest

from abstracts_tui.engine.calibration import (
    Calibration,
    calibrated,
    candidate_winrate,
    maps,
    read_maps,
    shown_winrate,
)
from abstracts_tui.engine.protocol import analyze_line
from abstracts_tui.engine.terms import SHOWN_WINRATE_BOUNDS, Candidate
from abstracts_tui.rules import GAMES, new_game
from tests.cli.test_install import editable
from tests.engine.test_proofs import ANALYZE_LINE
from tests.engine.test_protocol_ai import talk

HELD_OUT = json.loads((Path(__file__).with_name("calibration_heldout.json")).read_text())
"""Per map (`game` or `game:size`): the game, the board size, the maps fitted without
each fold of games (`folds`: slope, offset) and every position (raw win rate, result,
the number of the self-play game it comes from, that game's fold)."""
ENOUGH = 100
"""A bin of the reliability table that holds this many games is checked."""
TOLERANCE = 0.05
GRID = [i / 1000 for i in range(1001)]

Position = tuple[float, float, str]


def unseen(key: str, fold: int) -> Calibration:
    """The map of `key` fitted without the games of `fold`."""
    slope, offset = HELD_OUT["games"][key]["folds"][fold]
    return Calibration(slope, offset)


def held_out(keys: list[str]) -> list[Position]:
    """The positions of the maps `keys`, each shown through the map fitted without its
    game."""
    found = []
    for key in keys:
        for raw, result, number, fold in HELD_OUT["games"][key]["positions"]:
            found.append((unseen(key, fold)(raw), result, f"{key}:{number}"))
    return found


def full_bins(positions: list[Position]) -> list[tuple[int, float, float, int]]:
    """The bins of ten points of the figure shown that hold `ENOUGH` games or more:
    (bin, mean shown, share won, games)."""
    bins: dict[int, list[Position]] = {}
    for position in positions:
        bins.setdefault(min(9, int(position[0] * 10)), []).append(position)
    found = []
    for index, held in sorted(bins.items()):
        games = len({game for _, _, game in held})
        if games >= ENOUGH:
            shown = sum(p for p, _, _ in held) / len(held)
            won = sum(y for _, y, _ in held) / len(held)
            found.append((index, shown, won, games))
    return found


def misses(positions: list[Position]) -> list[tuple[int, float, float, int]]:
    """The `full_bins` whose mean figure is further from the share won than both
    `TOLERANCE` and twice the share's standard error, counted by games (the positions
    of one game share its result)."""
    return [
        (index, shown, won, games)
        for index, shown, won, games in full_bins(positions)
        if abs(shown - won) > max(TOLERANCE, 2 * math.sqrt(won * (1 - won) / games))
    ]


def test_every_game_has_a_shipped_map() -> None:
    assert set(maps()) >= set(GAMES)
    assert (resources.files("abstracts_tui.engine") / "calibration.json").is_file()
    if not editable():  # a regular install lists the files it put in place
        files = [str(f) for f in metadata.files("abstracts-tui") or []]
        assert "abstracts_tui/engine/calibration.json" in files


def test_positions_unseen_by_their_map_are_won_as_often_as_shown() -> None:
    everything = held_out(sorted(HELD_OUT["games"]))
    assert len(full_bins(everything)) >= 8
    assert [
        (i, shown, won)
        for i, shown, won, _ in full_bins(everything)
        if abs(shown - won) > TOLERANCE
    ] == []
    for key in HELD_OUT["games"]:
        assert misses(held_out([key])) == []


def test_the_shipped_maps_lie_near_the_maps_fitted_without_each_fold() -> None:
    """The shipped map of each game is fitted on every fold; shown figures differ from
    those of the maps checked above by at most three points."""
    for key, held in HELD_OUT["games"].items():
        for fold in range(len(held["folds"])):
            theirs = unseen(key, fold)
            for raw in GRID[1:-1]:
                assert abs(calibrated(held["game"], held["size"], raw) - theirs(raw)) <= 0.03


def test_the_calibration_does_better_than_the_raw_figures_on_held_out_positions() -> None:
    """The squared error of the shown figures against the results, all games together, is
    below that of the raw ones."""
    raw_error = shown_error = 0.0
    for key, held in HELD_OUT["games"].items():
        for raw, result, _, fold in held["positions"]:
            raw_error += (raw - result) ** 2
            shown_error += (unseen(key, fold)(raw) - result) ** 2
    assert shown_error < raw_error


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_calibration_is_monotone_and_bounded(name: str) -> None:
    low, high = SHOWN_WINRATE_BOUNDS
    size = GAMES[name].info.default_size
    shown = [calibrated(name, size, p) for p in GRID]
    assert all(a <= b for a, b in pairwise(shown))
    assert all(low <= p <= high for p in shown)
    assert shown[0] < 0.5 < shown[-1]


def test_a_game_without_a_map_shows_its_raw_figure_within_the_bounds() -> None:
    assert calibrated("nosuchgame", 7, 0.37) == 0.37
    assert calibrated("nosuchgame", 7, 1.0) == SHOWN_WINRATE_BOUNDS[1]
    assert calibrated("nosuchgame", 7, 0.0) == SHOWN_WINRATE_BOUNDS[0]


def test_a_map_of_a_size_is_read_before_that_of_the_game() -> None:
    text = json.dumps(
        {
            "games": {
                "pilo": {"slope": 2.0, "offset": 0.0},
                "pilo:6": {"slope": 1.0, "offset": 0.0},
                "linage": {"slope": -1.0, "offset": 0.0},  # not monotone: left out
            }
        }
    )
    read = read_maps(text)
    assert read == {"pilo": Calibration(2.0, 0.0), "pilo:6": Calibration(1.0, 0.0)}
    assert read["pilo:6"](0.7) == pytest.approx(0.7)
    assert read["pilo"](0.7) > 0.8


def test_proofs_are_never_calibrated() -> None:
    game = new_game("linage")
    assert shown_winrate(game, 1.0, "win") == 1.0
    assert shown_winrate(game, 0.0, "loss") == 0.0
    assert shown_winrate(game, 0.5, "draw") == 0.5
    low, high = SHOWN_WINRATE_BOUNDS
    assert low <= shown_winrate(game, 1.0) <= high < 1.0
    assert 0.0 < low <= shown_winrate(game, 0.0) <= high


def test_a_candidate_shows_the_calibrated_figure_and_analyze_prints_it() -> None:
    game = new_game("pilo")
    move = game.legal_moves()[0]
    seen = Candidate(move, 500, 0.62, (move,))
    shown = candidate_winrate(seen, game)
    assert shown == calibrated("pilo", game.size, 0.62)
    assert shown is not None and shown != 0.62  # the map of Pilo is not the identity
    assert f" winrate {shown:.3f} " in analyze_line(game, seen)
    proven = Candidate(move, 3, 1.0, (move,), "win")
    assert candidate_winrate(proven, game) == 1.0
    assert analyze_line(game, proven).endswith(" proven win")
    assert candidate_winrate(Candidate(move, 3, 0.9, (move,)), game) is None


def test_analyze_is_still_well_formed() -> None:
    answers, _ = talk(["newgame linage size=7", "analyze"], playouts="3000")
    assert all(a.ok for a in answers)
    low, high = SHOWN_WINRATE_BOUNDS
    for line in answers[1].text.split("\n"):
        found = ANALYZE_LINE.fullmatch(line)
        assert found, line
        winrate, proof = found.group(3), found.group(5)
        assert winrate == "-" or proof is not None or low <= float(winrate) <= high
