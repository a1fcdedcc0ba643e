"""Hostile records, clocks and engine protocol input, at larger counts than the tests
(`tests/hostile/test_inputs.py`) send them, with the figures:

    python scripts/hostile_inputs.py [--scale N]

- mutated records (with clocks and the times left, huge numbers inserted), clock specs
  and protocol lines, through `fuzz.py`: each read, or refused with one sentence;
- huge clock numbers on the command line (`play --clock`) and in records (`check`):
  refused with one sentence naming the bound, never a traceback;
- a 16 MiB record of every shape of `record_shapes.py`, read by `abstracts-tui check`:
  read or refused in under `MAX_CHECK_SECONDS` of CPU;
- protocol lines of up to 100 MB, refused without being held;
- `quit` and the end of input during searches (`analyze 40`, a `genmove` of an hour,
  searches queued behind one): the time from either to the engine's exit.

`run(scale)` returns the figures `scripts/hostile.py` prints: `worst_stall_ms` is the
longest time from `quit` or the end of input to the engine's exit, `peak_mib` the most
memory a `check` or an engine process took.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz
import record_shapes

from abstracts_tui.engine.protocol_input import MAX_LINE

MAX_CHECK_SECONDS = 2.0
"""The CPU seconds `check` may take on a 16 MiB record of any shape, start-up included."""
MAX_STOP_SECONDS = 0.2
"""How soon `quit` or the end of input ends the engine during a search (the issue's bound;
the tests allow more on a loaded machine)."""

HUGE = "9" * 309
"""A number that float() reads as infinity."""
LONG = "9" * 4301
"""More digits than int() reads."""
CLOCK_SPECS = {
    f"1m+{HUGE}s": "the increment is at most 1 day (1d)",
    f"1m+{LONG}x30s": "byo-yomi has at most 100 periods",
    "1m+99999999999999999999s": "the increment is at most 1 day (1d)",
    "1m+3x2d": "a byo-yomi period lasts at most 1 day (1d)",
    f"{HUGE}m": "the main time is at most 100 days (100d)",
    "101d": "the time per move is at most 100 days (100d)",
}
"""Clocks past their bounds, as `play --clock` is given them, and the sentence of each."""
HEAD = "(;FF[4]GM[1000]GA[petrify]SZ[6]"
RECORDS = {
    f"{HEAD}TM[300]OT[{HUGE}s fischer];B[c3])": "line 1: the time control TM/OT: the increment",
    f"{HEAD}TM[300]OT[{LONG}x30s byo-yomi];B[c3])": "line 1: the time control TM/OT: byo-yomi",
    f"{HEAD}TM[1e999];B[c3])": "line 1: the time control TM/OT: the main time is at most",
    f"{HEAD}TM[300]OT[3s fischer]\n;B[c3]BL[1e999])": "line 2: the time left BL is at most",
    f"{HEAD}TM[300]OT[3x30s byo-yomi]\n;B[c3]BL[1]OB[{LONG}])": "line 2: the periods left OB",
    f"{HEAD}KM[1e999];B[c3])": "line 1: Petrify is played without komi",
    f"(;FF[4]GM[1000]GA[linage]SZ[5]KM[{HUGE}])": "line 1: the komi KM must be a number",
    f"(;FF[4]GM[1000]GA[petrify]SZ[{LONG}])": "line 1: the board size SZ must be a whole number",
}
"""Records with huge numbers, and the start of what `check` says of each."""


PEAK_VARIABLE = "HOSTILE_INPUTS_PEAK"
PROGRAM = f"""
import atexit, os

def peak():  # this program's own peak, since it started (VmHWM), into the file named
    with open("/proc/self/status") as status:
        kib = next(line.split()[1] for line in status if line.startswith("VmHWM"))
    with open(os.environ["{PEAK_VARIABLE}"], "w") as out:
        out.write(kib)

atexit.register(peak)
from abstracts_tui.cli import main
main(prog_name="abstracts-tui")
"""
"""`abstracts-tui` that writes its peak memory at its exit: the peak the kernel gives a
parent for its child counts the parent's own memory too (inherited over fork and exec)."""


def command() -> list[str]:
    """The `abstracts-tui` command, telling its peak memory (see PROGRAM)."""
    return [sys.executable, "-c", PROGRAM]


def peak_of(path: Path) -> float:
    """The MiB a program run by `command()` wrote to `path` at its exit (0 if none)."""
    try:
        return int(path.read_text()) / 1024
    except (OSError, ValueError):
        return 0.0


@dataclass
class Finished:
    """A process run to its end: its exit status, output, and what it cost."""

    status: int
    out: str
    err: str
    wall: float
    cpu: float
    """User and system seconds."""
    peak_mib: float
    """Its largest resident memory."""


def finish(process: subprocess.Popen[bytes], started: float, timeout: float) -> tuple[int, Any]:
    """Wait for `process` (killed after `timeout` seconds) with its resource usage."""
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage


def run_program(args: list[str], stdin: IO[bytes] | None = None, timeout: float = 120) -> Finished:
    """`abstracts-tui ARGS` with `stdin` (none: empty); its output in files, so that only
    the program itself is measured."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryDirectory() as folder,
    ):
        peak = Path(folder) / "peak"
        started = time.monotonic()
        process = subprocess.Popen(
            [*command(), *args],
            stdin=stdin or subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env={**os.environ, PEAK_VARIABLE: str(peak)},
        )
        status, usage = finish(process, started, timeout)
        wall = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Finished(
            status,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            wall,
            usage.ru_utime + usage.ru_stime,
            peak_of(peak),
        )


def one_sentence(text: str) -> bool:
    lines = text.strip().splitlines()
    return "Traceback" not in text and len(lines) >= 1 and len(lines[-1]) < 400


def clock_options() -> list[str]:
    """`play --clock` with each of CLOCK_SPECS; the failures."""
    failures = []
    for spec, sentence in CLOCK_SPECS.items():
        done = run_program(["play", "petrify", "--clock", spec])
        if done.status != 2 or sentence not in done.err or not one_sentence(done.err):
            failures.append(f"play --clock {spec[:20]}... said {done.err[-200:]!r} ({done.status})")
    return failures


def checked_records(folder: Path) -> list[str]:
    """`check` of each of RECORDS; the failures."""
    failures = []
    for number, (text, sentence) in enumerate(RECORDS.items()):
        path = folder / f"huge-{number}.sgf"
        path.write_text(text)
        done = run_program(["check", str(path)])
        if done.status != 1 or sentence not in done.err or not one_sentence(done.err):
            failures.append(f"check {text[:40]!r}... said {done.err[-200:]!r} ({done.status})")
    return failures


@dataclass
class ShapeRead:
    shape: str
    size: int
    done: Finished


def read_shapes(folder: Path, shapes: tuple[str, ...] = record_shapes.SHAPES) -> list[ShapeRead]:
    """`check` of a 16 MiB record of each shape."""
    found = []
    for shape in shapes:
        path = folder / f"{shape}.sgf"
        text = record_shapes.of_size(shape)
        path.write_text(text, encoding="utf-8")
        found.append(ShapeRead(shape, len(text.encode()), run_program(["check", str(path)])))
        path.unlink()
    return found


def shape_failures(reads: list[ShapeRead]) -> list[str]:
    failures = []
    for read in reads:
        done = read.done
        if done.status not in (0, 1) or (done.status == 1 and not one_sentence(done.err)):
            failures.append(f"check of the {read.shape} record said {done.err[-200:]!r}")
        if done.cpu > MAX_CHECK_SECONDS:
            failures.append(
                f"check of the 16 MiB {read.shape} record took {done.cpu:.2f} s of CPU "
                f"(at most {MAX_CHECK_SECONDS:g})"
            )
    return failures


def long_lines(sizes: list[int]) -> tuple[Finished, list[str]]:
    """The engine fed a line of each of `sizes` bytes (`7 name xxx...`), each followed by
    `name`; its run and the failures. The lines stream through a pipe: nothing holds
    them whole but the engine, if it did."""
    folder = tempfile.TemporaryDirectory()
    peak = Path(folder.name) / "peak"
    process = subprocess.Popen(
        [*command(), "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, PEAK_VARIABLE: str(peak)},
    )
    assert process.stdin is not None and process.stdout is not None
    started = time.monotonic()
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.append(process.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    chunk = b"x" * (1 << 20)
    try:
        for size in sizes:
            line = b"7 name "
            process.stdin.write(line)
            left = size - len(line)
            while left > 0:
                process.stdin.write(chunk[: min(left, len(chunk))])
                left -= len(chunk)
            process.stdin.write(b"\nname\n")
        process.stdin.write(b"quit\n")
        process.stdin.close()
    except BrokenPipeError:
        pass
    status, usage = finish(process, started, 300)
    reader.join()
    done = Finished(
        status,
        b"".join(output).decode(errors="replace"),
        "",
        time.monotonic() - started,
        usage.ru_utime + usage.ru_stime,
        peak_of(peak),
    )
    folder.cleanup()
    expected = []
    for size in sizes:
        if size > MAX_LINE:
            expected.append(f"?7 line too long ({size:,} bytes, at most {MAX_LINE:,})")
        else:
            expected.append("?7 this command takes no arguments, not 'xxx")
        expected.append("= abstracts-tui")
    answers = done.out.split("\n\n")
    failures = []
    for number, start in enumerate(expected):
        if number >= len(answers) or not answers[number].startswith(start):
            got = answers[number][:80] if number < len(answers) else "nothing"
            failures.append(f"a line of {sizes[number // 2]:,} bytes: {got!r}, not {start!r}")
            break
    if done.status != 0:
        failures.append(f"the engine fed long lines exited with {done.status}")
    return done, failures


SEARCHES = {
    "analyze 40": ["analyze 40"],
    "genmove of an hour": ["time_per_move 3600", "genmove"],
    "searches queued": ["time_per_move 3600", "analyze 40", "genmove", "analyze"],
}


def stop_time(core: str, search: str, how: str) -> tuple[float, str | None]:
    """Seconds from `quit` (or the end of input, `how` = `eof`) to the engine's exit,
    sent while `search` runs on `core`; and a failure, if any."""
    env = {**os.environ, "ABSTRACTS_TUI_CORE": core, PEAK_VARIABLE: os.devnull}
    for name in ("ABSTRACTS_TUI_PLAYOUTS", "ABSTRACTS_TUI_SEED"):
        env.pop(name, None)
    process = subprocess.Popen(
        [*command(), "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    assert process.stdin is not None and process.stdout is not None
    lines = ["newgame pilo size=8", "name", *SEARCHES[search]]
    process.stdin.write(("\n".join(lines) + "\n").encode())
    process.stdin.flush()
    seen = b""
    while b"= abstracts-tui\n\n" not in seen:  # the search starts right after
        more = process.stdout.read1(4096)
        if not more:
            break
        seen += more
    output: list[bytes] = []
    reader = threading.Thread(target=lambda: output.append(process.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    time.sleep(0.3)  # well into the search
    started = time.monotonic()
    if how == "quit":
        process.stdin.write(b"quit\n")
        process.stdin.flush()
    process.stdin.close()
    status, _ = finish(process, started, 120)
    seconds = time.monotonic() - started
    reader.join()
    answers = (seen + b"".join(output)).decode().split("\n\n")
    # newgame, name, then one answer a search line (time_per_move included), quit's.
    expected = 2 + len(SEARCHES[search]) + (how == "quit")
    failure = None
    if status != 0 or len(answers) - 1 != expected:
        failure = f"{how} during {search} ({core}): exit {status}, {len(answers) - 1} answers"
    return seconds, failure


def stop_times(repeat: int) -> tuple[list[tuple[str, float]], list[str]]:
    from abstracts_tui.engine.core_status import built

    cores = ["compiled", "python"] if built() else ["python"]
    times, failures = [], []
    for _ in range(repeat):
        for core in cores:
            for search in SEARCHES:
                for how in ("quit", "eof"):
                    seconds, failure = stop_time(core, search, how)
                    times.append((f"{how} during {search} ({core})", seconds))
                    if failure:
                        failures.append(failure)
                    elif seconds > MAX_STOP_SECONDS:
                        failures.append(
                            f"{how} during {search} ({core}) took {seconds * 1000:.0f} ms "
                            f"(at most {MAX_STOP_SECONDS * 1000:.0f})"
                        )
    return times, failures


def counted(found: Counter[str], good: tuple[str, ...], what: str) -> list[str]:
    return [f"{what}: {n} {outcome}" for outcome, n in found.items() if outcome not in good]


def run(scale: int) -> dict[str, object]:
    """Every hostile input of this area, `scale` times the tests' counts."""
    scale = max(1, scale)
    failures: list[str] = []
    cases = 0
    rng = random.Random(21)
    records = fuzz.fuzz_records(300 * scale, rng, 2.0)
    clocks = fuzz.fuzz_clocks(500 * scale, rng, 2.0)
    lines = fuzz.fuzz_lines(500 * scale, rng, 2.0)
    processes = fuzz.fuzz_process(max(1, scale // 2), rng)
    failures += counted(records, ("read", "refused"), "mutated records")
    failures += counted(clocks, ("read", "refused"), "mutated clocks")
    failures += counted(lines, ("answered", "refused", "ignored"), "mutated protocol lines")
    failures += counted(processes, ("process ok", "internal error answers"), "engine sessions")
    if processes["internal error answers"]:
        failures.append(f"{processes['internal error answers']} internal errors in sessions")
    cases += sum(records.values()) + sum(clocks.values()) + sum(lines.values())
    cases += processes["process ok"] + processes["process failed"]
    print(f"mutated: {records}, {clocks}, {lines}, {processes}")

    failures += clock_options()
    cases += len(CLOCK_SPECS)
    with tempfile.TemporaryDirectory(prefix="hostile-inputs-") as folder:
        failures += checked_records(Path(folder))
        cases += len(RECORDS)
        reads = read_shapes(Path(folder))
    failures += shape_failures(reads)
    cases += len(reads)
    for read in reads:
        done = read.done
        said = done.err.strip().splitlines()[-1] if done.err.strip() else "nothing"
        outcome = "read" if done.status == 0 else said.partition(".sgf: ")[2][:90]
        print(
            f"check {read.shape:<11} {read.size / 2**20:5.1f} MiB  cpu {done.cpu:5.2f} s  "
            f"wall {done.wall:5.2f} s  peak {done.peak_mib:5.0f} MiB  {outcome}"
        )

    sizes = [MAX_LINE, MAX_LINE + 1, 16 << 20, *[100_000_000] * max(1, scale // 10)]
    engine, found = long_lines(sizes)
    failures += found
    cases += len(sizes)
    print(f"long lines {sizes}: engine peak {engine.peak_mib:.0f} MiB, {engine.wall:.2f} s")

    times, found = stop_times(max(1, scale // 5))
    failures += found
    cases += len(times)
    for what, seconds in times:
        print(f"{what:<45} {seconds * 1000:6.0f} ms")

    return {
        "area": "inputs",
        "cases": cases,
        "failures": failures,
        "worst_stall_ms": max(seconds for _, seconds in times) * 1000,
        "peak_mib": max([engine.peak_mib, *(read.done.peak_mib for read in reads)]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=10, help="counts, as a multiple")
    args = parser.parse_args()
    report = run(args.scale)
    print(
        f"cases {report['cases']:,}, failures {len(report['failures'])}, "  # type: ignore[arg-type]
        f"worst stall {report['worst_stall_ms']:.0f} ms, peak {report['peak_mib']:.0f} MiB"
    )
    for failure in report["failures"]:  # type: ignore[attr-defined]
        print(f"- {failure}")
    sys.exit(1 if report["failures"] else 0)


if __name__ == "__main__":
    main()
