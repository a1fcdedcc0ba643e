"""`abstracts-tui check FILE`: the real command in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_prints_the_main_line_and_the_board(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(
        "(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]PV[Ann]PH[Bob]\n;V[c3]\n(;H[pass];V[pass])\n(;H[a1]))"
    )
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Linage size=5,komi=0.5"
    assert "Vertical at the start: Ann" in lines
    assert "moves: c3 pass pass" in lines
    assert "variations: 1" in lines
    assert "3 . . x . ." in lines
    assert lines[-1].startswith("result: ")


def test_check_names_the_line_of_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text("(;FF[4]GM[1000]GA[linage]SZ[5]\n;V[c3]\n;H[c3])")
    done = run("check", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert f"Error: {path}: line 3: the move H[c3]: c3 is occupied" in done.stderr


def test_check_a_missing_file(tmp_path: Path) -> None:
    done = run("check", str(tmp_path / "none.sgf"))
    assert done.returncode == 1
    assert "No such file" in done.stderr
