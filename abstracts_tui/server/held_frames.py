"""A client that stops reading its screen (ctrl+s, a laptop asleep, a slow link) is sent
less, not closed: while its channel holds more than it takes, the app's frames are not
sent, and once it reads again the screen is drawn again whole, as it is then.

Each frame Textual sends is what changed since the frame before, so a frame left out
leaves the terminal wrong until the whole screen is drawn again: that is what the app
is asked for when the client reads again (`TerminalSession.resume_writing`). Meanwhile
nothing piles up: asyncssh says when the channel's buffer, beyond what the client's
window takes, passes 64 KiB (`pause_writing`) and when it is down to 16 KiB again
(`resume_writing`). Before, every frame was kept for such a client, and one that read
nothing under a flood of lobby updates was closed after 45 s (4 MiB waiting); a client
that reads nothing for `STALLED_SECONDS` is closed still.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..tui.rooms.driver import STOP

STALLED_SECONDS = 300.0
"""A client that has read nothing of its screen this long while frames wait for it is
closed (its games are kept): the laptop is not coming back, or not soon."""


class HeldFrames:
    """Whether a terminal's frames go out now, or are left out until its client reads."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: float | None = None
        """Since when the client has not read (its channel's buffer is full); None: it reads."""
        self.left_out = False
        """Whether a frame was left out since the client stopped reading."""

    def pause(self) -> None:
        """The channel holds more than the client takes: frames wait."""
        if self.since is None:
            self.since = self.clock()

    def resume(self) -> bool:
        """The client reads again: whether the screen must be drawn again whole."""
        self.since = None
        left_out, self.left_out = self.left_out, False
        return left_out

    def stalled(self) -> bool:
        """Whether the client has read nothing for `STALLED_SECONDS` (it is closed)."""
        return self.since is not None and self.clock() - self.since > STALLED_SECONDS

    def hold(self, data: str, send: Callable[[str], None]) -> bool:
        """Whether frame `data` is left out (the client does not read now); the end of
        the app's screen (`tui.rooms.driver.STOP`, which gives the terminal back) is sent
        all the same, alone."""
        if self.since is None or self.stalled():
            return False
        self.left_out = True
        if data.endswith(STOP):
            send(STOP)
        return True
