"""A line of the log that a flood could repeat thousands of times a second (connections
refused, descriptors run out, malformed requests) said at once, then at most once in a
while, with the count of those held back."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

QUIET_SECONDS = 10.0
"""The least time between two lines of one kind: the first is logged at once, those that
follow within it are counted, and the next line says how many there were."""


class Hush:
    """One kind of line, logged at most once every `seconds`."""

    def __init__(
        self,
        log: logging.Logger,
        seconds: float = QUIET_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.seconds = seconds
        self.clock = clock
        self.next = -float("inf")
        self.held = 0
        """Lines held back since the last one logged."""

    def allow(self) -> int | None:
        """Whether a line may be logged now: None if not (it is counted), else how many
        were held back before it."""
        now = self.clock()
        if now < self.next:
            self.held += 1
            return None
        held, self.held = self.held, 0
        self.next = now + self.seconds
        return held

    def say(self, level: int, message: str, *args: object) -> None:
        held = self.allow()
        if held is None:
            return
        if held:
            message += f" (and {held} more since the last such line)"
        self.log.log(level, message, *args)
