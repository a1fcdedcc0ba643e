"""`play --clock SPEC` refused before the screen opens; `check` and `review` name a game
lost on time; the real command in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("spec", "sentence"),
    [
        ("5minutes", "--clock 5minutes: '5minutes' is not a time like 30s, 5m, 1h30m or 3d"),
        ("5m+x30s", "--clock 5m+x30s: 'x30s': byo-yomi is PERIODSxTIME, e.g. 3x30s"),
        ("0s", "--clock 0s: the main time must be more than 0 (e.g. 5m+3s)"),
        ("1m+" + "9" * 309 + "s", "--clock 1m+" + "9" * 36 + "…: the increment is at most 1 day"),
        ("1m+" + "9" * 4301 + "x30s", ": byo-yomi has at most 100 periods"),
        ("200d", "--clock 200d: the time per move is at most 100 days (100d)"),
    ],
)
def test_a_wrong_clock_is_refused_with_what_is_accepted(spec: str, sentence: str) -> None:
    done = run("play", "petrify", "--clock", spec)
    assert done.returncode == 2
    assert sentence in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr) < 400


def test_a_clock_with_a_record_is_refused() -> None:
    done = run("play", "--load", "game.sgf", "--clock", "5m")
    assert done.returncode == 2
    assert "a record keeps its own clock" in done.stderr


GAME = (
    "(;FF[4]GM[1000]GA[petrify]SZ[6]PB[Ann]PO[Bob]RE[blue+time]TM[60]OT[2s fischer]"
    ";B[c3]BL[55];O[d4]OL[40];B[e5]BL[30])"
)


def test_check_and_review_name_a_game_lost_on_time(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(GAME)
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    assert "clock: 1m+2s" in done.stdout
    assert "result: Blue wins (Orange lost on time)" in done.stdout
    done = run("review", str(path), "--playouts", "50")
    assert done.returncode == 0, done.stderr
    assert "Result: blue+time (Bob lost on time)" in done.stdout
