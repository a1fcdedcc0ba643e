"""Game clocks: specs, Fischer increments, byo-yomi periods, days per move, flags."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from abstracts_tui.clock import (
    DAY,
    MAX_TIME_LEFT,
    Clock,
    ClockSpecError,
    TimeControl,
    first_move_seconds,
    format_duration,
    parse_duration,
    thinking_time,
)

HUGE = "9" * 309
"""A number float() reads as infinity."""
LONG = "9" * 4301
"""More digits than int() reads."""


@pytest.mark.parametrize(
    ("spec", "control"),
    [
        ("5m+3s", TimeControl(300, increment=3)),
        ("10m+3x30s", TimeControl(600, periods=3, period=30)),
        ("1h30m", TimeControl(5400)),
        ("3d", TimeControl(0, periods=1, period=3 * 86400)),
        ("90+5", TimeControl(90, increment=5)),
        (" 2M+1X10S ", TimeControl(120, periods=1, period=10)),
    ],
)
def test_specs_are_read(spec: str, control: TimeControl) -> None:
    assert TimeControl.parse(spec) == control


@pytest.mark.parametrize("spec", ["none", "NONE", ""])
def test_no_clock(spec: str) -> None:
    assert TimeControl.parse(spec) is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("5 minutes", "is not a time like 30s"),
        ("5m+x30s", "byo-yomi is PERIODSxTIME"),
        ("5m+3x0s", "period must last more than 0"),
        ("0s", "the main time must be more than 0"),
        ("5m+٣s", "is not a time"),
        ("500d", "at most 100 days"),
        ("+3s", "a time is missing"),
    ],
)
def test_bad_specs_say_what_is_accepted(spec: str, message: str) -> None:
    with pytest.raises(ClockSpecError, match=message):
        TimeControl.parse(spec)


@given(
    st.sampled_from(["5m", "1h30m", "45s", "2d"]),
    st.one_of(st.none(), st.sampled_from(["3s", "10s", "1m"])),
    st.one_of(st.none(), st.tuples(st.integers(1, 10), st.sampled_from(["30s", "1m", "1d"]))),
)
def test_a_spec_reads_back_the_same(
    main: str, increment: str | None, byoyomi: tuple[int, str] | None
) -> None:
    spec = main
    if byoyomi is not None:
        spec += f"+{byoyomi[0]}x{byoyomi[1]}"
    elif increment is not None:
        spec += f"+{increment}"
    control = TimeControl.parse(spec)
    assert control is not None
    assert TimeControl.parse(control.spec) == control


def test_durations_are_written_shortest() -> None:
    assert [format_duration(s) for s in (3, 60, 90, 5400, 86400 * 2 + 3600, 0)] == [
        "3s",
        "1m",
        "1m30s",
        "1h30m",
        "2d1h",
        "0s",
    ]
    assert parse_duration("1h30m") == 5400


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("101d", "the time per move is at most 100 days (100d)"),
        ("2401h", "the main time is at most 100 days (100d)"),
        (HUGE, "the main time is at most 100 days (100d)"),
        ("5m+25h", "the increment is at most 1 day (1d)"),
        (f"1m+{HUGE}s", "the increment is at most 1 day (1d)"),
        ("1m+999999999999999999999s", "the increment is at most 1 day (1d)"),
        ("10m+101x30s", "byo-yomi has at most 100 periods"),
        (f"1m+{LONG}x30s", "byo-yomi has at most 100 periods"),
        ("10m+3x2d", "a byo-yomi period lasts at most 1 day (1d)"),
        (f"10m+3x{HUGE}s", "a byo-yomi period lasts at most 1 day (1d)"),
        (f"{HUGE}d", "the time per move is at most 100 days (100d)"),
    ],
)
def test_every_number_of_a_spec_is_bounded(spec: str, message: str) -> None:
    with pytest.raises(ClockSpecError) as refused:
        TimeControl.parse(spec)
    assert str(refused.value) == message


@pytest.mark.parametrize("spec", ["100d", "100d+1d", "100d+100x1d", "1m+100x1d", "0+1x100d"])
def test_the_bounds_themselves_are_accepted(spec: str) -> None:
    control = TimeControl.parse(spec)
    assert control is not None and TimeControl.parse(control.spec) == control


def test_a_long_spec_is_cut_short_in_its_message() -> None:
    with pytest.raises(ClockSpecError) as refused:
        TimeControl.parse("5minutes" * 10_000)
    assert len(str(refused.value)) < 100


def test_increments_never_fill_a_clock_past_its_bound() -> None:
    clock = Clock(TimeControl(100 * DAY, increment=DAY))
    clock.start(0, now=0)
    for move in range(1000):
        assert clock.moved(now=move, next_side=0)
    assert clock.sides[0].main == MAX_TIME_LEFT
    assert clock.face(0, now=999) == "1000d 0h"


def test_fischer_adds_the_increment_after_each_move_in_time() -> None:
    clock = Clock(TimeControl(60, increment=5))
    clock.start(0, now=0)
    assert clock.moved(now=10, next_side=1)  # side 0 used 10 s: 50 + 5
    assert clock.sides[0].main == 55
    assert clock.face(1, now=13) == "0:57"
    assert clock.moved(now=40, next_side=0)  # side 1 used 30 s: 30 + 5
    assert clock.sides[1].main == 35
    assert clock.flagged(now=94) is None
    assert clock.flagged(now=95) == 0  # 55 s after it started
    assert not clock.moved(now=96, next_side=1)  # too late: nothing is added
    assert clock.sides[0].out and clock.running is None


def test_byo_yomi_keeps_a_period_whole_and_loses_the_ones_run_out() -> None:
    clock = Clock(TimeControl(10, periods=3, period=30))
    clock.start(0, now=0)
    assert clock.face(0, now=4) == "0:06.0 +3x30s"
    assert clock.moved(now=25, next_side=1)  # 10 s main + 15 s of a period: kept whole
    assert clock.sides[0].main == 0 and clock.sides[0].periods == 3
    clock.start(0, now=100)
    assert clock.face(0, now=105) == "0:25 (3x30s)"
    assert clock.moved(now=175, next_side=1)  # 75 s: two periods lost, the third kept
    assert clock.sides[0].periods == 1
    clock.start(0, now=200)
    assert clock.low(0, now=221) and not clock.low(0, now=215)
    assert clock.flagged(now=229.9) is None
    assert clock.flagged(now=230) == 0
    assert clock.seconds_to_flag(now=220) == pytest.approx(10)


def test_days_per_move_for_correspondence() -> None:
    clock = Clock(TimeControl(0, periods=1, period=3 * 86400))
    clock.start(0, now=0)
    assert clock.face(0, now=3600) == "2d 23h"
    assert clock.moved(now=2 * 86400, next_side=1)  # within three days: the next is full
    clock.start(0, now=10 * 86400)
    assert clock.face(0, now=10 * 86400) == "3d 0h"
    assert clock.flagged(now=13 * 86400) == 0


def test_stopping_charges_the_time_used_so_far() -> None:
    clock = Clock(TimeControl(60))
    clock.start(1, now=5)
    clock.stop(now=15)
    assert clock.running is None and clock.sides[1].main == 50
    assert clock.face(1, now=1000) == "0:50"  # a stopped clock does not run


def test_the_computer_thinks_within_its_time() -> None:
    clock = Clock(TimeControl(60, increment=2))
    clock.start(0, now=0)
    spent = thinking_time(clock, 0, now=0, moves_left=30)
    assert 1.5 < spent < 60 / 8
    clock = Clock(TimeControl(0.5, increment=0))
    clock.start(0, now=0)
    assert thinking_time(clock, 0, now=0, moves_left=30) <= 0.25
    byoyomi = Clock(TimeControl(0, periods=3, period=10))
    byoyomi.start(0, now=0)
    assert thinking_time(byoyomi, 0, now=0, moves_left=30) <= 8


def test_the_time_for_a_first_move_follows_the_length_of_the_game() -> None:
    """30 seconds for a game of minutes, a minute up to 2 hours a side, 5 past that, and
    the time per move of a correspondence game (see docs/server.md)."""
    seconds = {
        spec: first_move_seconds(control)
        for spec in ("1m", "5m+3s", "15m+10s", "30m", "1h+30s", "3h", "90m+1m", "3d")
        if (control := TimeControl.parse(spec)) is not None
    }
    assert seconds == {
        "1m": 30.0,
        "5m+3s": 30.0,
        "15m+10s": 30.0,
        "30m": 60.0,
        "1h+30s": 60.0,
        "3h": 300.0,
        "90m+1m": 300.0,
        "3d": 3 * 86400.0,
    }
