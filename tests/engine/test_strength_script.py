"""`scripts/strength.py`, which plays two settings of the compiled search against each
other and prints the first one's score with its 95% interval (the README's strength
tables come from it): run as a user runs it, in a process of its own."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.engine.compiled_support import needs_core

pytestmark = needs_core

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "strength.py"


def strength(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300
    )


def test_a_match_prints_each_game_and_the_score_with_its_interval() -> None:
    done = strength(
        "--game", "egotzi", "--size", "5", "--games", "2",
        "--first", "threads=1,playouts=300,bias=0.001,exploration=0.1,ref=20",
        "--second", "threads=2,playouts=50",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("A = threads=1,playouts=300,bias=0.001")
    games = [line for line in lines if line.startswith("egotzi 5 game ")]
    assert [line.split(":")[0] for line in games] == ["egotzi 5 game 1/2", "egotzi 5 game 2/2"]
    assert "A first" in games[0] and "A second" in games[1]
    # Each player's playouts a move: the budget (a move proven sooner stops sooner).
    a_line = next(line for line in lines if line.startswith("  A ("))
    found = re.search(r"\): ([\d,]+) playouts", a_line)
    assert found is not None, a_line
    assert 0 < int(found[1].replace(",", "")) <= 300
    row = lines[-1].split()
    assert row[:3] == ["egotzi", "5", "2"]
    wins, draws, losses = (int(n) for n in row[3:6])
    assert wins + draws + losses == 2
    assert row[6] == f"{100 * (wins + draws / 2) / 2:.1f}%"
    assert " ".join(row[7:]).endswith("%") and " to " in " ".join(row[7:])


def test_a_wrong_setting_is_refused_in_one_sentence() -> None:
    for setting, says in [
        ("threads=1,playouts=100,bias=-1", "the search's terms are not negative"),
        ("threads=1,playouts=100,ref=x", "threads, playouts and ref are whole numbers"),
        ("threads=1,playouts=100,depth=3", "a setting is threads=K"),
    ]:
        done = strength(
            "--game", "egotzi", "--games", "1", "--first", setting, "--second", "playouts=10"
        )
        assert done.returncode == 2, done.stdout
        assert says in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
