"""Game clocks: Fischer increments, byo-yomi periods, and days per move.

A time control is written as a short spec, the same on the command line, the selection
screen, room options and in records:

- `5m+3s`: Fischer. 5 minutes of main time; each move made in time adds 3 seconds.
- `10m+3x30s`: byo-yomi. 10 minutes of main time, then 3 periods of 30 seconds: a move
  made within a period keeps it whole for the next move; a period run out is lost and
  the next begins; the last one run out loses the game.
- `3d`: correspondence, 3 days per move (byo-yomi with no main time and one period).
- `none`: no clock.

Units: `s`, `m`, `h`, `d` (a number alone is seconds; `1h30m` adds up). The clock is a
plain object fed with times (`time.monotonic()` in the app, the database's clock on a
server), so it can be tested without waiting and kept by whoever owns the game.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_AMOUNT = re.compile(r"(\d+(?:\.\d+)?)([smhd]?)", re.ASCII)
LOW_TIME = 10.0
"""Seconds left below which the panel marks a clock as low (or one period left)."""


class ClockSpecError(ValueError):
    """A time control that cannot be read; the message says what is accepted."""


def parse_duration(text: str) -> float:
    """`1h30m` -> 5400.0; raises ClockSpecError."""
    text = text.strip().lower()
    total = 0.0
    position = 0
    while position < len(text):
        match = _AMOUNT.match(text, position)
        if match is None:
            raise ClockSpecError(f"'{text}' is not a time like 30s, 5m, 1h30m or 3d")
        total += float(match.group(1)) * UNITS[match.group(2) or "s"]
        position = match.end()
    if not text:
        raise ClockSpecError("a time is missing (e.g. 5m)")
    return total


def format_duration(seconds: float) -> str:
    """5400 -> `1h30m`, 3 -> `3s`, 0 -> `0s`: the shortest spec that reads back the same."""
    seconds = round(seconds, 1)
    parts = []
    for unit in "dhm":
        size = UNITS[unit]
        if seconds >= size:
            count = math.floor(seconds / size + 1e-9)
            parts.append(f"{count}{unit}")
            seconds = round(seconds - count * size, 1)
    if seconds or not parts:
        parts.append(f"{seconds:g}s")
    return "".join(parts)


@dataclass(frozen=True)
class TimeControl:
    """Main time, then a Fischer increment or byo-yomi periods (never both)."""

    main: float
    """Seconds of main time for each side."""
    increment: float = 0.0
    """Fischer: seconds added after each move made in time."""
    periods: int = 0
    """Byo-yomi: how many periods follow the main time."""
    period: float = 0.0
    """Byo-yomi: seconds of each period."""

    @classmethod
    def parse(cls, spec: str) -> TimeControl | None:
        """A spec (see the module's text) -> a time control, or None for `none`."""
        text = spec.strip().lower()
        if text in ("none", "", "off"):
            return None
        main_text, plus, extra = text.partition("+")
        if not plus and main_text.endswith("d") and "x" not in main_text:
            days = parse_duration(main_text)  # correspondence: days per move
            control = cls(0.0, periods=1, period=days)
        elif "x" in extra:
            count_text, _, period_text = extra.partition("x")
            if not count_text.isascii() or not count_text.isdigit():
                raise ClockSpecError(f"'{extra}': byo-yomi is PERIODSxTIME, e.g. 3x30s")
            control = cls(
                parse_duration(main_text),
                periods=int(count_text),
                period=parse_duration(period_text),
            )
        else:
            control = cls(parse_duration(main_text), increment=parse_duration(extra) if plus else 0)
        control.check()
        return control

    def check(self) -> None:
        if self.periods and self.period <= 0:
            raise ClockSpecError("a byo-yomi period must last more than 0 seconds")
        if self.main <= 0 and not self.periods:
            raise ClockSpecError("the main time must be more than 0 (e.g. 5m+3s)")
        if self.main > 100 * UNITS["d"] or self.period > 100 * UNITS["d"] or self.periods > 100:
            raise ClockSpecError("a time control of at most 100 days and 100 periods")

    @property
    def spec(self) -> str:
        """The spec that reads back as this time control."""
        if self.periods:
            if self.main == 0 and self.periods == 1 and self.period % UNITS["d"] == 0:
                return format_duration(self.period)
            return f"{format_duration(self.main)}+{self.periods}x{format_duration(self.period)}"
        if self.increment:
            return f"{format_duration(self.main)}+{format_duration(self.increment)}"
        return format_duration(self.main)

    @property
    def correspondence(self) -> bool:
        """Days per move: no main time, one period of a day or more."""
        return self.main == 0 and self.periods == 1 and self.period >= UNITS["d"]


@dataclass(frozen=True)
class SideTime:
    """One side's time: main time left, byo-yomi periods left, and whether it ran out."""

    main: float
    """Seconds of main time left (0 once the periods have begun)."""
    periods: int
    """Byo-yomi periods left, the one in use included."""
    out: bool = False
    """The time ran out: the side lost on time."""


@dataclass
class Clock:
    """Both sides' clocks; at most one runs (the side to move's), from `started`.

    Times are the caller's seconds (any clock that only goes forward). `sides` holds each
    side's time as it was when its clock last stopped.
    """

    control: TimeControl
    sides: list[SideTime] = field(default_factory=list)
    running: int | None = None
    """The side whose clock runs; None while stopped."""
    started: float = 0.0
    """When the running clock was started."""

    def __post_init__(self) -> None:
        if not self.sides:
            control = self.control
            self.sides = [SideTime(control.main, control.periods) for _ in range(2)]

    def start(self, side: int, now: float) -> None:
        """Start `side`'s clock (a running one stops without being charged)."""
        self.running = side
        self.started = now

    def stop(self, now: float) -> None:
        """Stop the running clock, charging the time used so far (a pause)."""
        if self.running is not None:
            self.sides[self.running] = self.left(self.running, now)
            self.running = None

    def moved(self, now: float, next_side: int) -> bool:
        """The running side moved at `now`: charge its time (adding the increment, or
        keeping the period it was in whole) and start `next_side`'s clock. False, and
        nothing started, if its time had run out before."""
        side = self.running
        if side is not None:
            left = self.left(side, now)
            if left.out:
                self.sides[side] = left
                self.running = None
                return False
            if self.control.increment:
                left = SideTime(left.main + self.control.increment, left.periods)
            self.sides[side] = left
        self.start(next_side, now)
        return True

    def after(self, side: int, used: float) -> SideTime:
        """`side`'s time after `used` more seconds on its clock: main time first, then the
        periods (each one run out is lost; the one in use is whole again after a move)."""
        time = self.sides[side]
        control = self.control
        if not control.periods:
            main = time.main - used
            return SideTime(main, 0, out=time.out or main <= 0)
        if used <= time.main:
            return SideTime(time.main - used, time.periods, time.out)
        lost = math.floor((used - time.main) / control.period)
        if lost >= time.periods:
            return SideTime(0.0, 0, out=True)
        return SideTime(0.0, time.periods - lost, time.out)

    def used(self, side: int, now: float) -> float:
        """Seconds on `side`'s running clock since it started (0 if it is not running)."""
        return max(0.0, now - self.started) if side == self.running else 0.0

    def left(self, side: int, now: float) -> SideTime:
        """`side`'s time as it stands at `now`."""
        return self.after(side, self.used(side, now))

    def period_left(self, side: int, now: float) -> float:
        """Byo-yomi: seconds left of the period in use (a whole one during main time)."""
        period = self.control.period
        over = self.used(side, now) - self.sides[side].main
        return period if over <= 0 else period - over % period

    def flagged(self, now: float) -> int | None:
        """The running side, if its time has run out."""
        running = self.running
        return running if running is not None and self.left(running, now).out else None

    def seconds_to_flag(self, now: float) -> float | None:
        """How long until the running side's time runs out (to set a timer), else None."""
        if self.running is None:
            return None
        time = self.sides[self.running]
        total = max(0.0, time.main) + time.periods * self.control.period
        return max(0.0, total - self.used(self.running, now))

    def face(self, side: int, now: float) -> str:
        """`4:57`, `9:58 +3x30s` (main time), `0:28 (2x30s)` (in byo-yomi), `2d 3h`."""
        time = self.left(side, now)
        control = self.control
        if time.out:
            return "0:00"
        if not control.periods:
            return _clock_text(time.main)
        periods = f"{time.periods}x{format_duration(control.period)}"
        if time.main > 0:
            return f"{_clock_text(time.main)} +{periods}"
        if control.correspondence:
            return _clock_text(self.period_left(side, now))
        return f"{_clock_text(self.period_left(side, now))} ({periods})"

    def low(self, side: int, now: float) -> bool:
        """Whether `side` is short of time: under LOW_TIME seconds in its last stretch."""
        time = self.left(side, now)
        if time.out:
            return True
        if not self.control.periods:
            return time.main < LOW_TIME
        if time.main > 0 or time.periods > 1:
            return False
        return self.period_left(side, now) < min(LOW_TIME, self.control.period / 3)


def _clock_text(seconds: float) -> str:
    """4:57, 1:02:03, 2d 3h; tenths under ten seconds (9.4)."""
    if seconds < 10:
        return f"0:{math.floor(seconds * 10) / 10:04.1f}"
    whole = math.floor(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def thinking_time(clock: Clock, side: int, now: float, moves_left: int) -> float:
    """Seconds the computer may spend on `side`'s move: a share of the main time for the
    moves still to come plus most of the increment, or part of a period once the main
    time is gone; always well inside what is left."""
    time = clock.left(side, now)
    control = clock.control
    if control.periods:
        period = clock.period_left(side, now) if time.main <= 0 else control.period
        share = max(0.0, time.main) / max(8, moves_left)
        return max(0.05, min(share + period * 0.5, max(0.0, time.main) + period * 0.8))
    share = max(0.0, time.main) / max(8, moves_left) + control.increment * 0.8
    return max(0.05, min(share, max(0.0, time.main) * 0.5))
