"""Peak memory of a long analysis through the engine protocol, against the stated bound.

Runs `abstracts-tui engine` in a subprocess, starts a game, analyses the start position
for SECONDS, and prints the process's peak resident memory (ru_maxrss of the child), the
memory of the engine alone before the search (the baseline), the playouts, and the bound
of the compiled search's trees (`compiled_search.DEFAULT_MAX_BYTES`).

    python scripts/analysis_memory.py --game partitions --size 10 --seconds 60
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from abstracts_tui.engine.compiled_search import DEFAULT_MAX_BYTES  # noqa: E402

MIB = 1024 * 1024


def peak_of(commands: list[str]) -> tuple[int, str]:
    """(peak resident bytes of an engine process that ran `commands`, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "engine"],
        input="\n".join([*commands, "quit"]) + "\n",
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of the children is the largest of any child so far, in KiB on Linux.
    if after <= before:
        raise SystemExit("measure each case in a fresh process: run the smaller one first")
    return after * 1024, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="partitions")
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    newgame = f"newgame {args.game} size={args.size}"
    baseline, _ = peak_of([newgame, "legal_moves"])
    peak, output = peak_of([newgame, f"analyze {args.seconds}", "search_info"])
    info = [line for line in output.splitlines() if line.startswith("= core")]
    print(f"{args.game} {args.size}, analyze {args.seconds:g} s: {info[0][2:] if info else '?'}")
    print(f"engine process before searching: {baseline / MIB:.0f} MiB")
    print(f"peak during the analysis: {peak / MIB:.0f} MiB")
    print(
        f"bound: the trees at most {DEFAULT_MAX_BYTES / MIB:.0f} MiB, so the process at most "
        f"{(baseline + DEFAULT_MAX_BYTES) / MIB:.0f} MiB"
    )
    return 0 if peak <= baseline + DEFAULT_MAX_BYTES else 1


if __name__ == "__main__":
    sys.exit(main())
