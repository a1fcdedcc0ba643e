"""The clock in a record, as FF[4] writes it where FF[4] has a property for it.

At the root, `TM[300]` is the main time in seconds and `OT[3s fischer]` or
`OT[3x30s byo-yomi]` the overtime (no OT: main time only); with time odds these are the
first colour's, and `TIMEODDS[1m+2s]`, a private property, the second colour's own time
control as a spec. In the node of a move,
`BL[287.5]` (or `WL`) is the time the mover had left after it, under the letter of the
move's own property, and `PERIODS[2]`, a private property, its byo-yomi periods left:
FF[4]'s `OB`/`OW` count stones left in a period, which these clocks do not have. Records
of earlier versions wrote the periods as `O` and the mover's letter (`OB[2]`, `OV[2]`); a
record without the `COLOURS` property of this version's records is read with them. A
game lost on time has the result `<winner's colour>+time` (FF[4]'s `B+T`, see `results`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..clock import MAX_TIME_LEFT, ClockSpecError, TimeControl, days, format_duration
from ..rules import format_number, shown
from ..rules.catalogue import read_float, read_int
from .errors import RecordError

ODDS = "TIMEODDS"
"""The private property of the second colour's own time control (time odds)."""
TIME_KEYS = ("TM", "OT", ODDS)
ON_TIME = "time"
"""The margin of a game lost on time: `orange+time`."""
PERIODS = "PERIODS"
"""The private property of the byo-yomi periods the mover had left after a move."""
_TIME_LEFT = re.compile(r"[A-Z]L", re.ASCII)
_EARLIER_PERIODS = re.compile(r"O[A-Z]", re.ASCII)


@dataclass(frozen=True)
class TimeLeft:
    """The mover's clock after a move: its colour (0 or 1), seconds of main time and
    byo-yomi periods left."""

    colour: int
    seconds: float
    periods: int = 0


def control_properties(control: TimeControl) -> dict[str, list[str]]:
    """`TM` and `OT` of the root for `control`."""
    props = {"TM": [format_number(round(control.main, 1))]}
    if control.periods:
        props["OT"] = [f"{control.periods}x{format_duration(control.period)} byo-yomi"]
    elif control.increment:
        props["OT"] = [f"{format_duration(control.increment)} fischer"]
    if control.odds is not None:
        props[ODDS] = [control.odds.spec]
    return props


def read_control(
    main: str | None, overtime: str | None, line: int, odds: str | None = None
) -> TimeControl | None:
    """The time control of a root's `TM` and `OT` (None if neither), with the second
    colour's `odds` (`TIMEODDS`); raises RecordError."""
    if main is None and overtime is None:
        if odds is not None:
            raise RecordError(f"{ODDS}[...] (time odds) needs TM[seconds] (the main time)", line)
        return None
    control = _read_control(main, overtime, line)
    if odds is None:
        return control
    try:
        return TimeControl.with_odds(f"{control.spec}/{odds}")
    except ClockSpecError as error:
        raise RecordError(f"the time odds {ODDS}[{shown(odds)}]: {error}", line) from None


def _read_control(main: str | None, overtime: str | None, line: int) -> TimeControl:
    """The time control of `TM` and `OT`, one of them given; raises RecordError."""
    if main is None:
        raise RecordError("OT[...] (overtime) needs TM[seconds] (the main time)", line)
    seconds = read_float(main)
    if seconds is None or seconds < 0:
        raise RecordError(f"the main time TM must be seconds, not '{shown(main)}'", line)
    amount = None
    if overtime is not None:
        amount, _, kind = overtime.strip().partition(" ")
        if kind not in ("fischer", "byo-yomi") or ("x" in amount) != (kind == "byo-yomi"):
            raise RecordError(
                f"the overtime OT must be like '3s fischer' or '3x30s byo-yomi', "
                f"not '{shown(overtime)}'",
                line,
            )
    try:  # the bounds of every clock, as for a spec typed (clock.py)
        return TimeControl.with_overtime(seconds, amount.lower() if amount is not None else None)
    except ClockSpecError as error:
        raise RecordError(f"the time control TM/OT: {error}", line) from None


def time_left_properties(letter: str, left: TimeLeft) -> dict[str, list[str]]:
    """`BL[287.5]` and, in byo-yomi, `PERIODS[2]` for the mover whose move is written
    under `letter`."""
    props = {f"{letter}L": [format_number(round(left.seconds, 1))]}
    if left.periods:
        props[PERIODS] = [str(left.periods)]
    return props


def read_time_left(
    properties: dict[str, list[str]],
    letters: str,
    mover: str | None,
    colour: int,
    control: TimeControl | None,
    line: int,
    earlier: bool = False,
) -> TimeLeft | None:
    """The time left in a node's properties (None if none); `letters` are the letters a
    move may be written under, `mover` the one of the node's move (of colour `colour`).
    `earlier`: the periods may be written as earlier versions did (`OB[2]`). Raises
    RecordError for a time of another player, of a node without a move, of a record
    without a clock, or that is not a number."""
    keys = [
        key
        for key in properties
        if _TIME_LEFT.fullmatch(key)
        or key == PERIODS
        or (earlier and _EARLIER_PERIODS.fullmatch(key))
    ]
    if not keys:
        return None
    periods_key = PERIODS
    for key in keys:
        letter = key[0] if key[1] == "L" else key[1]
        quoted = f"{key}[{shown(properties[key][0])}]"
        if key != PERIODS and letter not in letters:
            raise RecordError(f"{quoted} is not a property of this game's records", line)
        if mover is None or (key != PERIODS and letter != mover):
            raise RecordError(
                f"the time left {quoted} belongs in the node of its colour's move", line
            )
        if control is None:
            raise RecordError(
                f"the time left {quoted} needs a time control TM[...] at the root", line
            )
        if key[1] != "L":
            periods_key = key
    seconds_text = properties.get(f"{mover}L", [None])[0]
    periods_text = properties.get(periods_key, [None])[0]
    seconds = read_float(seconds_text) if seconds_text is not None else 0.0
    if seconds is None or seconds < 0:
        raise RecordError(
            f"the time left {mover}L must be seconds, not '{shown(seconds_text or '')}'", line
        )
    if not seconds <= MAX_TIME_LEFT:
        raise RecordError(
            f"the time left {mover}L is at most {days(MAX_TIME_LEFT)}, "
            f"not '{shown(seconds_text or '')}'",
            line,
        )
    periods = read_int(periods_text) if periods_text is not None else 0
    assert control is not None and mover is not None
    if periods is None or not 0 <= periods <= control.periods:
        raise RecordError(
            f"the periods left {periods_key} must be a whole number from 0 to "
            f"{control.periods}, not '{shown(periods_text or '')}'",
            line,
        )
    return TimeLeft(colour, seconds, periods)


def time_winner(result: str, colours: tuple[str, ...]) -> int | None:
    """The colour that won on time by a result such as `orange+time`, else None."""
    name, plus, margin = result.partition("+")
    if not plus or margin.lower() != ON_TIME or name.lower() not in colours:
        return None
    return colours.index(name.lower())
