"""How the time to read a record grows with its size, for the shapes that cost the reader
most (see `record_shapes.py`): many variations (`wide`), a long chain of setup nodes
(`chain`), variations nested inside variations (`nested`), whole Linage games (`moves`),
Pilo setups (`setups`); the shapes of one node (`comment`, `properties`, `values`) take
their size in pieces, properties or values instead of nodes.

For each shape and size it prints:
- `read s`: `Record.from_sgf` plus the main line's game and the count of variations, as
  `abstracts-tui check` does (CPU seconds, the best of --repeat runs); a record over a
  limit (`MAX_NODES`, `MAX_SETUPS`, `MAX_VALUES`, 16 MiB) is refused, shown by `(r)`;
- `us/node` and `growth`: that time per node, and its ratio to the size before (sizes
  grow 4x: linear reading gives about 4.0);
- `read MiB`: the most memory Python allocations took while reading (tracemalloc);
- `write s`: `Record.to_sgf` of the record read (what the autosave does after a move);
- `check s`, `check MiB`: `abstracts-tui check FILE` in a process of its own once, its
  wall time and peak memory (a file over the 16 MiB limit is refused, in a blink).

    python scripts/bench_records.py
    python scripts/bench_records.py --sizes 500 2000 --shapes chain --repeat 1 --no-process
"""

from __future__ import annotations

import argparse
import gc
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from record_shapes import SHAPES, make

from abstracts_tui.records import Record, RecordError


def read_like_check(text: str) -> Record | None:
    """The record as `check` reads it; None if it is refused."""
    try:
        record = Record.from_sgf(text)
    except RecordError:
        return None
    record.main_game()
    sum(max(0, len(node.children) - 1) for node in record.root.walk())
    return record


def best_cpu(action: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The least CPU time of `repeat` calls of `action`, and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        result = action()
        best = min(best, time.process_time() - start)
    return best, result


CHECK = """
import atexit, sys
from abstracts_tui.cli import main

def peak():  # the process's own peak, since it started this program (VmHWM)
    with open("/proc/self/status") as status:
        kib = next(line.split()[1] for line in status if line.startswith("VmHWM"))
    print(f"peak {int(kib) / 1024:.0f}", file=sys.stderr)

atexit.register(peak)
main(prog_name="abstracts-tui")
"""
"""`abstracts-tui check` as its console script runs it, telling its peak memory."""


def check_process(path: Path) -> tuple[float, str, int]:
    """Wall seconds, peak MiB and exit status of `abstracts-tui check path`."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHECK, "check", str(path)], capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    peak = done.stderr.splitlines()[-1].removeprefix("peak ")
    return seconds, peak, done.returncode


def peak_memory(action: Callable[[], object]) -> float:
    """The MiB that Python allocations of `action` reached at most (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1] / 1024 / 1024
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3_000, 12_000, 48_000])
    parser.add_argument("--shapes", nargs="+", choices=SHAPES, default=list(SHAPES))
    parser.add_argument("--repeat", type=int, default=3, help="runs in process (best kept)")
    parser.add_argument("--no-process", action="store_true", help="skip the check process")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-records-"))
    print(
        f"{'shape':<11}{'nodes':>9}{'KiB':>8}{'read s':>9}{'us/node':>9}{'growth':>8}"
        f"{'read MiB':>10}{'write s':>9}{'check s':>9}{'check MiB':>11}"
    )
    try:
        for shape in args.shapes:
            before: tuple[int, float] | None = None
            for nodes in args.sizes:
                text = make(shape, nodes)
                read, record = best_cpu(lambda text=text: read_like_check(text), args.repeat)
                write = 0.0
                if isinstance(record, Record):
                    write, _ = best_cpu(record.to_sgf, args.repeat)
                del record
                memory = peak_memory(lambda text=text: read_like_check(text))
                growth = "" if before is None else f"{read / before[1]:.2f}"
                before = (nodes, read)
                size = len(text.encode())
                check = peak = ""
                if not args.no_process:
                    path = folder / f"{shape}-{nodes}.sgf"
                    path.write_text(text, encoding="utf-8")
                    seconds, peak, status = check_process(path)
                    check = f"{seconds:.2f}" + (" (r)" if status else "")
                    path.unlink()
                print(
                    f"{shape:<11}{nodes:>9,}{size // 1024:>8,}{read:>9.3f}"
                    f"{read / nodes * 1e6:>9.1f}{growth:>8}{memory:>10.1f}{write:>9.3f}"
                    f"{check:>9}{peak:>11}",
                    flush=True,
                )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
