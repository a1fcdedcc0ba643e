"""How the forkserver's warm-up knows what a session it runs has drawn: its frames
counted, a screen settled once they stop (`Frames.settled`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from ..tui.rooms.app import ServerApp
from ..tui.rooms.lobby import LobbyScreen

WARM_SECONDS = 20.0
"""The longest the warm-up waits for a screen (the forkserver serves, colder, after)."""
QUIET_SECONDS = 0.15
"""How long a session goes without a new frame before what it shows counts as drawn."""


async def shown(check: Callable[[], bool]) -> bool:
    """Wait until `check` holds (at most `WARM_SECONDS`); whether it does."""
    deadline = time.monotonic() + WARM_SECONDS
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


class Frames:
    """The frames a session's app has drawn."""

    def __init__(self) -> None:
        self.count = 0
        self.last = time.monotonic()

    def drawn(self, text: str = "") -> None:
        self.count += 1
        self.last = time.monotonic()

    def quiet(self) -> bool:
        """Whether no frame has come for `QUIET_SECONDS`."""
        return time.monotonic() - self.last > QUIET_SECONDS

    async def settled(self, showing: Callable[[], bool], session: asyncio.Task[int]) -> bool:
        """Wait until `showing` holds, then until a frame has come since and none after it
        for `QUIET_SECONDS`; whether `showing` holds then and the session goes on.

        A screen counts as drawn once the frames after it has come have stopped, not as
        soon as it is there: the last frames before it may have stopped long before (the
        game's screen was once left before its board was laid out, so its drawing was
        never warmed)."""
        await shown(lambda: showing() or session.done())
        seen = self.count
        await shown(lambda: (self.count > seen and self.quiet()) or session.done())
        return showing() and not session.done()


def in_lobby(apps: list[ServerApp]) -> bool:
    if not apps or not apps[0].shown:
        return False
    stack = apps[0].screen_stack
    return bool(stack) and isinstance(stack[-1], LobbyScreen)


def in_game(apps: list[ServerApp]) -> bool:
    from ..tui.screens.play import PlayScreen

    if not apps or not apps[0].is_running:
        return False
    screen = apps[0].screen
    # Laid out: the board is drawn in the frames that follow.
    return isinstance(screen, PlayScreen) and bool(screen.board.size.area)
