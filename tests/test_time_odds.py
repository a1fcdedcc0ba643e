"""Time odds without a terminal: a spec giving each side its own time control read and
refused (one sentence each), each side's clock running with its own control, the
odds kept in a game's record, and line mode's `new` reading them."""

from __future__ import annotations

import re

import pytest

from abstracts_tui.clock import Clock, ClockSpecError, TimeControl, first_move_seconds
from abstracts_tui.lines.new_room import NewRoom, new_room
from abstracts_tui.records import Record, RecordError
from abstracts_tui.time_odds import has_odds, spec_words, swapped_spec


@pytest.mark.parametrize(
    ("spec", "written", "words"),
    [
        ("5m+3s/1m+2s", "5m+3s/1m+2s", "5m+3s vs 1m+2s"),
        ("10M+3X30S / 90s", "10m+3x30s/1m30s", "10m+3x30s vs 1m30s"),
        ("1h/5m+5s", "1h/5m+5s", "1h vs 5m+5s"),
        ("5m+3s/5m+3s", "5m+3s", "5m+3s"),  # the same for both: no odds
    ],
)
def test_a_spec_with_odds_reads_back_as_written(spec: str, written: str, words: str) -> None:
    control = TimeControl.parse(spec)
    assert control is not None and control.spec == written and control.text == words
    assert TimeControl.parse(control.spec) == control
    assert spec_words(written) == words


@pytest.mark.parametrize(
    ("spec", "sentence"),
    [
        ("5m/1m/30s", "time odds are two times with one / between, e.g. 5m+3s/1m+2s"),
        ("5m+3s/", "each side of time odds needs a time, e.g. 5m+3s/1m+2s"),
        ("none/5m", "each side of time odds needs a time, e.g. 5m+3s/1m+2s"),
        (
            "3d/1d",
            "days per move cannot be given as time odds: both sides have the same time per move",
        ),
        (
            "5m/3d",
            "days per move cannot be given as time odds: both sides have the same time per move",
        ),
        ("5m/2x", "'2x' is not a time like 30s, 5m, 1h30m or 3d"),
        ("5m/2401h", "the main time is at most 100 days (100d)"),
        ("5m+3s/1m+2d", "the increment is at most 1 day (1d)"),
    ],
)
def test_a_bad_spec_with_odds_is_refused_in_one_sentence(spec: str, sentence: str) -> None:
    with pytest.raises(ClockSpecError) as refused:
        TimeControl.parse(spec)
    assert str(refused.value) == sentence


def test_each_side_runs_with_its_own_time_control() -> None:
    control = TimeControl.parse("5m+3s/1m+2x10s")
    assert control is not None
    clock = Clock(control)
    assert [side.main for side in clock.sides] == [300.0, 60.0]
    assert clock.face(0, 0) == "5:00" and clock.face(1, 0) == "1:00 +2x10s"
    clock.start(0, 0.0)
    assert clock.moved(10.0, 1)  # the first side gets its increment, 3 seconds
    assert clock.sides[0].main == 293.0
    assert clock.moved(75.0, 0)  # the second used 65 s: its main time, then a period
    assert clock.sides[1].main == 0.0 and clock.sides[1].periods == 2
    assert clock.face(1, 75.0) == "0:10 (2x10s)"  # a period kept whole
    clock.moved(80.0, 1)
    assert clock.seconds_to_flag(80.0) == 20.0  # two periods of 10 s, no main time
    assert clock.flagged(101.0) == 1
    assert clock.left(0, 101.0).main == 291.0  # 293 - 5 + 3, standing still since


def test_the_first_move_waits_as_long_as_the_slower_sides_would() -> None:
    fast, slow = TimeControl.parse("1m"), TimeControl.parse("1h")
    odds = TimeControl.parse("1m/1h")
    assert fast is not None and slow is not None and odds is not None
    assert first_move_seconds(fast) == 30.0
    assert first_move_seconds(odds) == first_move_seconds(slow) == 60.0


def test_a_swap_gives_each_control_to_the_other_side() -> None:
    assert swapped_spec("5m+3s/1m+2s") == "1m+2s/5m+3s"
    assert swapped_spec("5m+3s") == "5m+3s" and swapped_spec(None) is None
    assert has_odds("5m/1m") and not has_odds("5m") and not has_odds(None)


def test_a_record_keeps_both_sides_time_controls() -> None:
    record = Record.from_sgf("(;GM[1000]FF[4]GA[pilo]SZ[6]PB[ann]PW[bob])")
    record.clock = TimeControl.parse("5m+3s/1m+3x30s")
    text = record.to_sgf()
    assert "TM[300]" in text and "OT[3s fischer]" in text and "TIMEODDS[1m+3x30s]" in text
    again = Record.from_sgf(text)
    assert again.clock == record.clock and "TIMEODDS" not in again.extra


@pytest.mark.parametrize(
    ("properties", "sentence"),
    [
        ("TIMEODDS[1m]", "TIMEODDS[...] (time odds) needs TM[seconds] (the main time)"),
        ("TM[300]TIMEODDS[1m/2m]", "the time odds TIMEODDS[1m/2m]: time odds are two times"),
        ("TM[300]TIMEODDS[3d]", "the time odds TIMEODDS[3d]: days per move cannot be given"),
    ],
)
def test_a_record_with_bad_time_odds_is_refused(properties: str, sentence: str) -> None:
    with pytest.raises(RecordError, match=re.escape(sentence)):
        Record.from_sgf(f"(;GM[1000]FF[4]GA[pilo]SZ[6]{properties})")


def test_line_modes_new_makes_an_unrated_room_with_time_odds() -> None:
    made = new_room(["pilo", "6", "clock", "5m+3s/1m+2s"], "ann", rated=True)
    assert isinstance(made, NewRoom)
    assert made.setup.clock == "5m+3s/1m+2s" and not made.rated
    refused = new_room(["pilo", "5m/1m", "rated"], "ann", rated=False)
    assert refused == (
        "Not made: a game with time odds is never rated (clock 5m/1m): leave out rated."
    )
    bad = new_room(["pilo", "5m/3d"], "ann", rated=False)
    assert bad == (
        "Not made: clock 5m/3d: days per move cannot be given as time odds: "
        "both sides have the same time per move."
    )
