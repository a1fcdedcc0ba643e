"""What a search's win rate means: the calibration of its raw figure to the share of games
won from such positions, per game, and the one function that makes every figure shown.

A search's raw win rate is the mean result of its playouts, which play at random: it
ranks positions well but, as a number, is timid (a position the search puts at 65% is won
far more often than that by players who play on as the computer does). The map of each
game, fitted on self-play by `scripts/calibrate.py` and kept in `calibration.json` beside
this module, is `sigmoid(slope * logit(raw) + offset)`: monotone, two numbers a game. It
applies to every size of the game, unless the data holds a map of its own for a size
(the key `game:size`); a game without one shows the raw figure. docs/computer.md gives the
reliability table of the positions the fit did not see.

A proof is never calibrated: 1 and 0 are proofs only, and every other figure shown lies
within `SHOWN_WINRATE_BOUNDS`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .terms import PROOF_WINRATES, SHOWN_WINRATE_BOUNDS, Candidate, Proof

if TYPE_CHECKING:
    from ..rules import Game

DATA_FILE = Path(__file__).with_name("calibration.json")
EPSILON = 1e-3
"""A raw win rate is read within [EPSILON, 1 - EPSILON] before its logit is taken."""


@dataclass(frozen=True)
class Calibration:
    """One game's map: `sigmoid(slope * logit(raw) + offset)`."""

    slope: float
    offset: float

    def __call__(self, winrate: float) -> float:
        p = min(1 - EPSILON, max(EPSILON, winrate))
        x = self.slope * math.log(p / (1 - p)) + self.offset
        return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def read_maps(text: str) -> dict[str, Calibration]:
    """The maps of a calibration file's `text`, by `game` or `game:size`; a map whose
    slope is not positive (which would not be monotone) is left out."""
    games = json.loads(text).get("games", {})
    maps = {}
    for key, entry in games.items():
        slope, offset = float(entry["slope"]), float(entry["offset"])
        if slope > 0 and math.isfinite(slope) and math.isfinite(offset):
            maps[key] = Calibration(slope, offset)
    return maps


@cache
def maps() -> dict[str, Calibration]:
    """The shipped maps, read once; none if the file is missing."""
    try:
        return read_maps(DATA_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def calibrated(game: str, size: int, winrate: float) -> float:
    """The raw `winrate` of a search in `game` at `size`, calibrated (unchanged where no
    map exists), within `SHOWN_WINRATE_BOUNDS`."""
    found = maps().get(f"{game}:{size}") or maps().get(game)
    shown = winrate if found is None else found(winrate)
    low, high = SHOWN_WINRATE_BOUNDS
    return min(high, max(low, shown))


def shown_winrate(game: Game, winrate: float, proven: Proof | None = None) -> float:
    """The figure to show for a search's raw `winrate` of the side to move in `game`:
    exactly the proof's where `proven`, else calibrated. Every front end shows this."""
    if proven is not None:
        return PROOF_WINRATES[proven]
    return calibrated(game.info.name, game.size, winrate)


def candidate_winrate(candidate: Candidate, game: Game) -> float | None:
    """The win rate to show of `candidate`, a move of `game` (the root's position): a
    proof's exactly, None for one of too few visits (`Candidate.few_visits`), else
    calibrated, within `SHOWN_WINRATE_BOUNDS` (never 1 or 0 without a proof)."""
    if candidate.few_visits:
        return None
    return shown_winrate(game, candidate.winrate, candidate.proven)
