"""Hostile records, clocks and engine protocol input, at counts the test suite can afford
(`scripts/hostile_inputs.py` sends the same at larger counts and prints the figures):
mutated records and clock specs, huge numbers wherever a clock or a record takes one,
records of 16 MiB in every costly shape, protocol lines of any length, and `quit` or the
end of input during searches. Everything goes through the real program where a user
would meet it: `abstracts-tui check`, `play --clock`, `play --load`, `engine`."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from abstracts_tui.engine.core_status import built
from abstracts_tui.engine.protocol_input import MAX_LINE
from tests.tmux import Tmux, needs_tmux

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def script(name: str) -> ModuleType:
    """A module of scripts/ (`fuzz`, `record_shapes`, `hostile_inputs`)."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return importlib.import_module(name)


hostile = script("hostile_inputs")
fuzz = script("fuzz")
record_shapes = script("record_shapes")

CORES = ["compiled", "python"] if built() else ["python"]
STOP_SECONDS = 1.0
"""How soon `quit` or the end of input must end a search here: the goal is 0.2 s (about
0.1 s measured); a loaded machine gets room."""


def test_mutated_records_with_clocks_and_huge_numbers_are_read_or_refused() -> None:
    found = fuzz.fuzz_records(300, random.Random(1), bound=5.0)
    assert set(found) <= {"read", "refused"}, found
    assert found["read"] and found["refused"]


def test_mutated_clock_specs_are_read_within_bounds_or_refused() -> None:
    found = fuzz.fuzz_clocks(1000, random.Random(2), bound=5.0)
    assert set(found) <= {"read", "refused"}, found
    assert found["read"] and found["refused"]


@pytest.mark.parametrize("spec", list(hostile.CLOCK_SPECS), ids=range(len(hostile.CLOCK_SPECS)))
def test_play_refuses_a_clock_past_its_bounds_in_one_sentence(spec: str) -> None:
    done = hostile.run_program(["play", "petrify", "--clock", spec])
    assert done.status == 2
    assert hostile.CLOCK_SPECS[spec] in done.err
    assert "Traceback" not in done.err and len(done.err.splitlines()[-1]) < 200


@pytest.mark.parametrize("text", list(hostile.RECORDS), ids=range(len(hostile.RECORDS)))
def test_check_refuses_a_record_with_a_huge_number_in_one_sentence(
    text: str, tmp_path: Path
) -> None:
    path = tmp_path / "huge.sgf"
    path.write_text(text)
    done = hostile.run_program(["check", str(path)])
    assert done.status == 1
    (line,) = done.err.splitlines()
    assert line.startswith(f"Error: {path}: {hostile.RECORDS[text]}"), line
    assert len(line) < 300


@needs_tmux
def test_play_load_of_a_record_with_a_huge_clock_says_why_and_stops(tmp_path: Path) -> None:
    (tmp_path / "huge.sgf").write_text(
        f"(;FF[4]GM[1000]GA[petrify]SZ[6]TM[300]OT[{hostile.HUGE}s fischer];B[c3])"
    )
    # The terminal's own size: not COLUMNS and LINES, which other tests may have set.
    command = (
        f"env -u COLUMNS -u LINES XDG_DATA_HOME={tmp_path} "
        f"{sys.executable} -m abstracts_tui play --load huge.sgf"
    )
    terminal = Tmux(command + "; echo exit=$?; sleep 30", 160, 40, cwd=tmp_path)
    try:
        screen = terminal.wait_for("exit=", 30)  # one sentence, before any screen opens
        assert "increment is at most" in screen.replace("\n", " "), screen
        assert "exit=2" in screen and "Traceback" not in screen, screen
    finally:
        terminal.close()


@pytest.mark.parametrize("shape", record_shapes.SHAPES)
def test_a_16_mib_record_of_any_shape_is_read_or_refused_in_time(
    shape: str, tmp_path: Path
) -> None:
    (read,) = hostile.read_shapes(tmp_path, (shape,))
    assert read.size > 16_000_000
    assert hostile.shape_failures([read]) == []
    done = read.done
    if done.status:  # over a limit: one sentence naming it
        assert "a record holds at most" in done.err, done.err
    assert done.peak_mib < 300


def test_protocol_lines_over_a_mebibyte_are_refused_without_being_held() -> None:
    sizes = [MAX_LINE, MAX_LINE + 1, 100_000_000]
    done, failures = hostile.long_lines(sizes)
    assert failures == []
    assert "?7 line too long (100,000,000 bytes, at most 1,048,576)" in done.out
    assert done.peak_mib < 80  # about 20 MiB: the line is never held
    assert done.out.endswith("=\n\n")  # quit after them all


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("search", list(hostile.SEARCHES))
@pytest.mark.parametrize("how", ["quit", "eof"])
def test_quit_or_the_end_of_input_ends_a_search_at_once(core: str, search: str, how: str) -> None:
    seconds, failure = hostile.stop_time(core, search, how)
    assert failure is None
    assert seconds < STOP_SECONDS, f"{seconds:.2f} s"
