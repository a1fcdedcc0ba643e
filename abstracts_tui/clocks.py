"""The clock of a game record: both sides' times at any node, from the times kept in
the nodes of the moves on the way (see `records/timing.py`).

Clocks follow people, not colours: side 0 is the person who started with the first
colour, through a pie-rule swap.
"""

from __future__ import annotations

from .clock import Clock, SideTime, TimeControl
from .records import RecordNode
from .records.timing import TimeLeft


def sides_at(control: TimeControl, node: RecordNode) -> list[SideTime]:
    """Each person's time when the position at `node` was reached: the time each had
    left after their last move on the way, the whole main time before any."""
    sides = [SideTime(control.of(side).main, control.of(side).periods) for side in range(2)]
    swapped = False
    for step in node.line():
        if step.setup is not None:
            swapped = False  # a set-up position starts the colours afresh
        left = step.time_left
        if left is not None:
            sides[left.colour ^ swapped] = SideTime(left.seconds, left.periods)
        if step.move == "swap":
            swapped = True
    return sides


def time_left_after(clock: Clock, side: int, colour: int) -> TimeLeft:
    """What a move's node keeps: the time `side` (who played `colour`) has left."""
    left = clock.sides[side]
    return TimeLeft(colour, max(0.0, left.main), left.periods)
