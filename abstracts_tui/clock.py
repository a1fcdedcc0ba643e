"""Game clocks: Fischer increments, byo-yomi periods, and days per move.

A time control is written as a short spec, the same on the command line, the selection
screen, room options and in records:

- `5m+3s`: Fischer. 5 minutes of main time; each move made in time adds 3 seconds.
- `10m+3x30s`: byo-yomi. 10 minutes of main time, then 3 periods of 30 seconds: a move
  made within a period keeps it whole for the next move; a period run out is lost and
  the next begins; the last one run out loses the game.
- `3d`: correspondence, 3 days per move (byo-yomi with no main time and one period).
- `none`: no clock.
- `5m+3s/1m+2s`: time odds, each side its own time control (in a room the creator's
  first, the joiner's second; in a game's record the first colour's first). Either half
  is any spec above but days per move, which both sides share.

Units: `s`, `m`, `h`, `d` (a number alone is seconds; `1h30m` adds up). The clock is a
plain object fed with times (`time.monotonic()` in the app, the database's clock on a
server), so it can be tested without waiting and kept by whoever owns the game.

Every number of a time control is bounded here, where specs are read, for every place
that reads one (the command line, the selection screen, the room form, records): see
`MAX_MAIN` and the constants after it. A number past its bound is refused with a
sentence naming the bound, never taken (a huge one would overflow when written back).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

from .rules.errors import shown

UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
DAY = UNITS["d"]
_AMOUNT = re.compile(r"(\d+(?:\.\d+)?)([smhd]?)", re.ASCII)
LOW_TIME = 10.0
"""Seconds left below which the panel marks a clock as low (or one period left)."""

MAX_MAIN = 100 * DAY
"""The longest main time: 100 days."""
MAX_INCREMENT = DAY
"""The largest Fischer increment: 1 day."""
MAX_PERIODS = 100
"""The most byo-yomi periods."""
MAX_PERIOD = DAY
"""The longest byo-yomi period: 1 day (days per move, `3d`, have their own bound)."""
MAX_DAYS_PER_MOVE = 100 * DAY
"""The longest time per move of a correspondence clock (`3d`): 100 days."""
MAX_TIME_LEFT = 1000 * DAY
"""The most time a clock holds, increments added (and a record's time left may say):
1,000 days, which 100 days of main time reach only after 900 moves of 1 day's increment."""


FIRST_MOVE_FAST = 30.0
"""Seconds for a first move in an online game of an expected length under 30 minutes."""
FIRST_MOVE_SLOW = 60.0
"""...up to 2 hours."""
FIRST_MOVE_LONGEST = 300.0
"""...longer than that (a correspondence game has its time per move instead)."""


def first_move_seconds(control: TimeControl) -> float:
    """How long a side of an online game may take over its first move before the game
    is aborted, unrated (its clock does not run until each side has moved, as on
    lichess): 30 seconds when the game is expected to last under 30 minutes a side
    (main time plus 40 increments or every byo-yomi period), a minute up to 2 hours,
    5 minutes past that, and the time per move of a correspondence game."""
    if control.odds is not None:  # time odds: the longer of the two sides'
        first = first_move_seconds(replace(control, odds=None))
        return max(first, first_move_seconds(control.odds))
    if control.correspondence:
        return control.period
    expected = control.main + 40 * control.increment + control.periods * control.period
    if expected < 30 * UNITS["m"]:
        return FIRST_MOVE_FAST
    if expected <= 2 * UNITS["h"]:
        return FIRST_MOVE_SLOW
    return FIRST_MOVE_LONGEST


class ClockSpecError(ValueError):
    """A time control that cannot be read; the message says what is accepted."""


def parse_duration(text: str) -> float:
    """`1h30m` -> 5400.0, to a tenth of a second; raises ClockSpecError."""
    text = text.strip().lower()
    total = 0.0
    position = 0
    while position < len(text):
        match = _AMOUNT.match(text, position)
        if match is None:
            raise ClockSpecError(f"'{shown(text)}' is not a time like 30s, 5m, 1h30m or 3d")
        # float() reads any number of digits; one too large is infinite, and refused
        # by the bounds of `TimeControl.check`.
        total += float(match.group(1)) * UNITS[match.group(2) or "s"]
        position = match.end()
    if not text:
        raise ClockSpecError("a time is missing (e.g. 5m)")
    return round(total, 1)  # tenths, as a spec is written back (`format_duration`)


def days(seconds: float) -> str:
    """A bound in words and as a spec: `100 days (100d)`, `1 day (1d)`."""
    count = seconds / DAY
    return f"{count:,g} day{'' if count == 1 else 's'} ({format_duration(seconds)})"


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
    odds: TimeControl | None = None
    """Time odds: the second side's own time control (the numbers above are the first
    side's); None: both sides have the same."""

    @classmethod
    def parse(cls, spec: str) -> TimeControl | None:
        """A spec (see the module's text) -> a time control, or None for `none`; raises
        ClockSpecError, naming the bound for a number past it."""
        text = spec.strip().lower()
        if text in ("none", "", "off"):
            return None
        if "/" in text:
            return cls.with_odds(text)
        main_text, plus, extra = text.partition("+")
        if not plus and main_text.endswith("d") and "x" not in main_text:
            days = parse_duration(main_text)  # correspondence: days per move
            control = cls(0.0, periods=1, period=days)
            control.check()
            return control
        return cls.with_overtime(parse_duration(main_text), extra if plus else None)

    @classmethod
    def with_odds(cls, text: str) -> TimeControl:
        """`5m+3s/1m+2s`: each side's own time control (one alone if both are the same);
        raises ClockSpecError."""
        halves = text.split("/")
        if len(halves) != 2:
            raise ClockSpecError("time odds are two times with one / between, e.g. 5m+3s/1m+2s")
        controls = []
        for half in halves:
            control = cls.parse(half)
            if control is None:
                raise ClockSpecError("each side of time odds needs a time, e.g. 5m+3s/1m+2s")
            if control.correspondence:
                raise ClockSpecError(
                    "days per move cannot be given as time odds: "
                    "both sides have the same time per move"
                )
            controls.append(control)
        first, second = controls
        return first if first == second else replace(first, odds=second)

    @classmethod
    def with_overtime(cls, main: float, overtime: str | None) -> TimeControl:
        """`main` seconds, then the overtime `overtime` (`3s`: Fischer, `3x30s`:
        byo-yomi, None: none), checked; raises ClockSpecError."""
        if overtime is None:
            control = cls(main)
        elif "x" in overtime:
            count_text, _, period_text = overtime.partition("x")
            if not count_text.isascii() or not count_text.isdigit():
                raise ClockSpecError(f"'{shown(overtime)}': byo-yomi is PERIODSxTIME, e.g. 3x30s")
            # int() refuses more than 4,300 digits: a count that long is past the bound.
            periods = int(count_text) if len(count_text) <= 9 else MAX_PERIODS + 1
            control = cls(main, periods=periods, period=parse_duration(period_text))
        else:
            control = cls(main, increment=parse_duration(overtime))
        control.check()
        return control

    def check(self) -> None:
        """Raise ClockSpecError unless every number lies within its bound. The
        comparisons are written so that NaN fails them too."""
        if self.odds is not None:
            if self.odds.odds is not None or self.odds.correspondence or self.correspondence:
                raise ClockSpecError("time odds are two times with main time, e.g. 5m+3s/1m+2s")
            self.odds.check()
        if self.periods and not self.period > 0:
            raise ClockSpecError("a byo-yomi period must last more than 0 seconds")
        if not self.main > 0 and not self.periods:
            raise ClockSpecError("the main time must be more than 0 (e.g. 5m+3s)")
        if self.main == 0 and self.periods == 1:  # a time per move (`3d`)
            if not self.period <= MAX_DAYS_PER_MOVE:
                raise ClockSpecError(f"the time per move is at most {days(MAX_DAYS_PER_MOVE)}")
            return
        if not 0 <= self.main <= MAX_MAIN:
            raise ClockSpecError(f"the main time is at most {days(MAX_MAIN)}")
        if not 0 <= self.increment <= MAX_INCREMENT:
            raise ClockSpecError(f"the increment is at most {days(MAX_INCREMENT)}")
        if not 0 <= self.periods <= MAX_PERIODS:
            raise ClockSpecError(f"byo-yomi has at most {MAX_PERIODS} periods")
        if self.period and not self.periods:
            raise ClockSpecError("byo-yomi has at least 1 period (e.g. 3x30s)")
        if not 0 <= self.period <= MAX_PERIOD:
            raise ClockSpecError(f"a byo-yomi period lasts at most {days(MAX_PERIOD)}")

    def of(self, side: int) -> TimeControl:
        """Side `side`'s (0 or 1) own time control: with time odds the second side's is
        `odds`."""
        return self.odds if side == 1 and self.odds is not None else self

    def swapped(self) -> TimeControl:
        """The same time controls given to the other sides (a rematch, the seats
        reversed)."""
        if self.odds is None:
            return self
        return replace(self.odds, odds=replace(self, odds=None))

    @property
    def text(self) -> str:
        """As a person reads it: the spec, or with time odds `5m+3s vs 1m+2s`."""
        if self.odds is None:
            return self.spec
        return f"{replace(self, odds=None).spec} vs {self.odds.spec}"

    @property
    def spec(self) -> str:
        """The spec that reads back as this time control."""
        if self.odds is not None:
            return f"{replace(self, odds=None).spec}/{self.odds.spec}"
        if self.periods:
            if self.main == 0 and self.periods == 1 and self.period % UNITS["d"] == 0:
                return format_duration(self.period)
            return f"{format_duration(self.main)}+{self.periods}x{format_duration(self.period)}"
        if self.increment:
            return f"{format_duration(self.main)}+{format_duration(self.increment)}"
        main = format_duration(self.main)
        if main.endswith("d"):  # `3d` alone is days per move: whole days of main time in hours
            return f"{round(self.main / UNITS['h'])}h"
        return main

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
    held: float | None = None
    """Since when the running clock is held (its room's store cannot keep a change): it
    reads as it stood then, and is charged nothing after, until `release`."""

    def __post_init__(self) -> None:
        if not self.sides:
            control = self.control
            self.sides = [SideTime(control.of(i).main, control.of(i).periods) for i in range(2)]

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
            increment = self.control.of(side).increment
            if increment:
                main = min(left.main + increment, MAX_TIME_LEFT)
                left = SideTime(main, left.periods)
            self.sides[side] = left
        self.start(next_side, now)
        return True

    def after(self, side: int, used: float) -> SideTime:
        """`side`'s time after `used` more seconds on its clock: main time first, then the
        periods (each one run out is lost; the one in use is whole again after a move)."""
        time = self.sides[side]
        control = self.control.of(side)
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
        """Seconds on `side`'s running clock since it started (0 if it is not running),
        none of them after the moment it is held from."""
        if side != self.running:
            return 0.0
        if self.held is not None:
            now = min(now, self.held)
        return max(0.0, now - self.started)

    def hold(self, since: float) -> None:
        """Charge the running clock nothing from `since` on, until `release` (a held
        clock stays held from its first moment)."""
        if self.running is not None and self.held is None:
            self.held = since

    def release(self, since: float, now: float) -> None:
        """The running clock stood still from `since` until `now`: charged up to `since`
        (nothing if it started later), it runs again from `now`, held no more. In
        byo-yomi the period in use is whole again, as after any stop."""
        self.held = None
        side = self.running
        if side is not None:
            self.sides[side] = self.left(side, min(since, now))
            self.started = now

    def left(self, side: int, now: float) -> SideTime:
        """`side`'s time as it stands at `now`."""
        return self.after(side, self.used(side, now))

    def period_left(self, side: int, now: float) -> float:
        """Byo-yomi: seconds left of the period in use (a whole one during main time)."""
        period = self.control.of(side).period
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
        total = max(0.0, time.main) + time.periods * self.control.of(self.running).period
        return max(0.0, total - self.used(self.running, now))

    def face(self, side: int, now: float) -> str:
        """`4:57`, `9:58 +3x30s` (main time), `0:28 (2x30s)` (in byo-yomi), `2d 3h`."""
        time = self.left(side, now)
        control = self.control.of(side)
        if time.out:
            return "0:00"
        if not control.periods:
            return clock_text(time.main)
        periods = f"{time.periods}x{format_duration(control.period)}"
        if time.main > 0:
            return f"{clock_text(time.main)} +{periods}"
        if control.correspondence:
            return clock_text(self.period_left(side, now))
        return f"{clock_text(self.period_left(side, now))} ({periods})"

    def low(self, side: int, now: float) -> bool:
        """Whether `side` is short of time: under LOW_TIME seconds in its last stretch."""
        time = self.left(side, now)
        if time.out:
            return True
        control = self.control.of(side)
        if not control.periods:
            return time.main < LOW_TIME
        if time.main > 0 or time.periods > 1:
            return False
        return self.period_left(side, now) < min(LOW_TIME, control.period / 3)


def clock_text(seconds: float) -> str:
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
    control = clock.control.of(side)
    if control.periods:
        period = clock.period_left(side, now) if time.main <= 0 else control.period
        share = max(0.0, time.main) / max(8, moves_left)
        return max(0.05, min(share + period * 0.5, max(0.0, time.main) + period * 0.8))
    share = max(0.0, time.main) / max(8, moves_left) + control.increment * 0.8
    return max(0.05, min(share, max(0.0, time.main) * 0.5))
