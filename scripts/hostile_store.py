"""The server's store and files under hostile conditions, at larger counts than the tests:
`python scripts/hostile_store.py [--scale N]`.

Store files damaged in every way before the start (each refused in one sentence, never
written to), stores damaged while the server runs (told to the players, logged once, left
alone; a quiet player meanwhile not kept waiting), starts under open and closed umasks
(the players' folders 0700, files 0600), temporary files left by killed writers, and
outages of the PostgreSQL database under two server processes (the players connected
again, their moves through), and rooms' clocks through outages and another program's
locks of the store (held on every screen, run on after, nobody lost on time). The cases
are the tests' (`tests/hostile/store_cases.py`); `run(scale)` gives the figures to
`scripts/hostile.py`.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile import store_cases  # noqa: E402
from tests.hostile.store_cases import Report  # noqa: E402

UMASKS = [0o000, 0o002, 0o022, 0o027, 0o077]


def database_outages(folder: Path, outages: int) -> Report:
    """The outages of 10 seconds, as reported; none where PostgreSQL is not installed."""
    try:
        return store_cases.database_outages(folder, outages, seconds=10)
    except BaseException as error:  # pytest's skip: no PostgreSQL (or psycopg) here
        if type(error).__name__ != "Skipped":
            raise
        print(f"no database outages: {error}", file=sys.stderr)
        return Report()


def clocks_through_outages(folder: Path, outages: int) -> Report:
    """Clocks through outages of 14 seconds; none where PostgreSQL is not installed."""
    try:
        return store_cases.clocks_through_outages(folder, outages, seconds=14)
    except BaseException as error:  # pytest's skip: no PostgreSQL (or psycopg) here
        if type(error).__name__ != "Skipped":
            raise
        print(f"no clocks through outages: {error}", file=sys.stderr)
        return Report()


def run(scale: int) -> dict[str, Any]:
    """Every case at `scale` times the tests' counts or so; the figures."""
    logging.disable(logging.ERROR)  # the in-process starts log what they refuse
    report = Report()
    with tempfile.TemporaryDirectory(prefix="hostile-store-") as temporary:
        folder = Path(temporary)
        steps = {
            "files": lambda where: store_cases.damaged_store_files(where, count=50 * scale),
            "running": lambda where: store_cases.damage_while_running(where, runs=max(4, scale)),
            "umasks": lambda where: store_cases.umask_starts(where, UMASKS),
            "stale": lambda where: store_cases.stale_temporary_files(where, count=20 * scale),
            "outages": lambda where: database_outages(where, outages=max(1, scale // 3)),
            "clock outages": lambda where: clocks_through_outages(where, max(2, scale // 3)),
            "clock locks": lambda where: store_cases.clocks_through_locks(
                where, locks=max(2, scale // 3), seconds=14
            ),
        }
        for name, step in steps.items():
            where = folder / name
            where.mkdir()
            report.add(step(where))
    logging.disable(logging.NOTSET)
    return {
        "area": "store",
        "cases": report.cases,
        "failures": report.failures,
        "worst_stall_ms": report.worst_stall_ms,
        "peak_mib": report.peak_mib,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10, help="counts, as a multiple")
    figures = run(parser.parse_args().scale)
    stall, peak = figures["worst_stall_ms"], figures["peak_mib"]
    print(f"cases: {figures['cases']:,}")
    print(f"failures: {len(figures['failures'])}")
    print("worst stall of a quiet player: " + ("-" if stall is None else f"{stall:,.0f} ms"))
    print("peak memory of a server: " + ("-" if peak is None else f"{peak:,.0f} MiB"))
    for failure in figures["failures"]:
        print(f"- {failure}")
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
