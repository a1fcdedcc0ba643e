"""`python -m abstracts_tui.engine.search --bench`: both cores, at the default and the
largest size, and their ratio (the figures themselves go in the README, not in tests)."""

from __future__ import annotations

import subprocess
import sys


def test_the_benchmark_prints_both_cores_and_their_ratio() -> None:
    command = [sys.executable, "-m", "abstracts_tui.engine.search", "--bench", "egotzi"]
    done = subprocess.run(
        [*command, "--seconds", "0.05"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split()[:5] == ["game", "size", "root", "moves", "python/s"]
    games = [row.split()[:2] for row in rows if row.startswith("egotzi")]
    assert games == [["egotzi", "7"], ["egotzi", "9"]]  # the default size and the largest
    if "compiled/s" in header:  # two ratios: wall time and CPU time
        assert all(row.count("x") == 2 for row in rows if row.startswith("egotzi"))
