"""Hostile clients and inputs at larger counts than the tests use, with the figures:
`python scripts/hostile.py [--scale N] [AREA ...]`.

Each area is a script of its own (`scripts/hostile_AREA.py`, also runnable alone) whose
`run(scale)` sends its hostile inputs to the real program and says what held: the SSH
server (`ssh`), the browser mode (`web`), records, clocks and the engine protocol
(`inputs`), and the server's store and files (`store`). This prints one line an area:
how many hostile inputs were sent, how many did not hold (each named below the table),
the worst delay a quiet client saw meanwhile, and the peak memory of the program under
attack. The exit status is 1 when anything did not hold.

The tests (`tests/hostile/`) run the same at small counts in CI.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

AREAS = ("ssh", "web", "inputs", "store")


def figure(value: float | None, unit: str) -> str:
    return "-" if value is None else f"{value:,.0f} {unit}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("areas", nargs="*", metavar="AREA", help=f"of {', '.join(AREAS)}")
    parser.add_argument("--scale", type=int, default=10, help="counts, as a multiple")
    options = parser.parse_args()
    unknown = sorted(set(options.areas) - set(AREAS))
    if unknown:
        parser.error(f"no area {', '.join(unknown)}: the areas are {', '.join(AREAS)}")
    sys.path.insert(0, str(Path(__file__).parent))
    print(f"{'area':<8} {'cases':>8} {'failed':>7} {'worst stall':>12} {'peak memory':>12}  time")
    failures: list[str] = []
    for area in options.areas or AREAS:
        started = time.monotonic()
        report = importlib.import_module(f"hostile_{area}").run(options.scale)
        failed = list(report["failures"])
        failures += [f"{area}: {failure}" for failure in failed]
        print(
            f"{area:<8} {report['cases']:>8,} {len(failed):>7} "
            f"{figure(report['worst_stall_ms'], 'ms'):>12} "
            f"{figure(report['peak_mib'], 'MiB'):>12}  {time.monotonic() - started:.0f} s"
        )
    for failure in failures:
        print(f"- {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
