"""The pace of a game the computer plays against itself: slow enough to watch.

Against a person the computer moves as soon as it has decided; when it plays both sides,
each of its moves takes at least `WATCHING_PACE` seconds from the move before (the full
screen and line mode alike), unless a clock runs, which paces the game itself.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line reads the constants without loading a game
    from .session import Session

WATCHING_PACE = 0.8
"""Seconds at least between the computer's moves when it plays both sides without a
clock, so that a person can follow the game (`play --pace` or `ABSTRACTS_TUI_PACE`
sets it; 0 lets it play at full speed)."""
PACE_VARIABLE = "ABSTRACTS_TUI_PACE"
MAX_PACE = 60.0
"""The longest pace taken: a minute a move is already slower than anyone watches."""


def read_pace(text: str) -> float | None:
    """`text` as a pace in seconds (0 to `MAX_PACE`), else None."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) and 0 <= value <= MAX_PACE else None


def watching_pace(environ: Mapping[str, str] = os.environ) -> float:
    """The pace asked for (`ABSTRACTS_TUI_PACE`), else `WATCHING_PACE`."""
    asked = read_pace(environ.get(PACE_VARIABLE, ""))
    return WATCHING_PACE if asked is None else asked


def paced(session: Session) -> float:
    """The seconds the computer's move must take in `session` at least: the pace when
    the computer plays both sides without a clock, else 0."""
    if session.clock is not None:
        return 0.0
    if any(session.level(name) is None for name in session.people):
        return 0.0
    return watching_pace()


def wait_for_pace(started: float, pace: float, stopped: Callable[[], bool]) -> None:
    """Wait until `pace` seconds have passed since `started` (a `time.monotonic()`), or
    until `stopped()` says to go on at once (ctrl+c, Esc's "decide now", a new game)."""
    deadline = started + pace
    while not stopped() and (left := deadline - time.monotonic()) > 0:
        time.sleep(min(left, 0.05))
