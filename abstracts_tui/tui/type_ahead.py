"""Keys typed ahead wait until the keys before them have done what they do.

A key that opens a screen (`c` in the lobby, Enter on the home screen) and the keys
typed right after it arrive together when typed fast, pasted, or sent over SSH in one
packet. Textual hands each key on as soon as the app reads it: the keys after `c` reached
the lobby before its binding had asked for the new screen, or the new screen before it
had mounted its fields (`c`, Tab Tab Tab Tab, `6s` left the clock field empty).
`TypeAhead` holds a key while the screen on top is not mounted or any of its widgets has
messages still to handle (the key before it on its way), and any key after a held one,
and hands them on in order once all is handled: a screen being built is waited for (up
to `MOUNT_HOLD`, however busy the machine: a key handed to the screen below it would go
astray), a mounted screen's busy widgets for `LONGEST_HOLD` at most (a widget that is
never idle, an animation, does not stop keys). A key is never lost nor kept long.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import App, ScreenStackError

WAIT_SECONDS = 0.005
"""How often the screen is looked at again while keys are held."""
LONGEST_HOLD = 0.5
"""The longest a key is held for a mounted screen's busy widgets: widgets that are never
idle (an animation) do not stop keys."""
MOUNT_HOLD = 5.0
"""The longest a key is held for a screen being built (a loaded machine takes a while)."""


class TypeAhead:
    """Holds the keys of `app` that come before its screen on top is mounted;
    `deliver` handles a key as the app would have (`App.on_event`)."""

    def __init__(self, app: App[Any], deliver: Callable[[events.Key], Awaitable[None]]):
        self.app = app
        self.deliver = deliver
        self.held: deque[events.Key] = deque()
        self._waiting = False
        self._since = 0.0

    def hold(self, event: events.Key) -> bool:
        """Keep `event` for later if the screen on top is not ready for it (True), or
        let it through now (False). Keys handed back up by a widget are never held."""
        if event.is_forwarded:
            return False
        if not self.held and self._ready():
            return False
        self.held.append(event)
        self._wait()
        return True

    def _ready(self) -> bool:
        """Whether the screen on top is mounted and its widgets have handled all that was
        sent to them (the app's own queue holds the keys that come next)."""
        if not self._mounted():
            return False
        screen = self.app.screen
        return all(node.message_queue_size == 0 for node in screen.walk_children(with_self=True))

    def _mounted(self) -> bool:
        """Whether there is a screen on top and it is mounted."""
        try:
            return self.app.screen.is_mounted
        except ScreenStackError:  # no screen yet: the app is starting
            return False

    def _held_long_enough(self) -> bool:
        """Whether the keys held have waited as long as they may."""
        longest = LONGEST_HOLD if self._mounted() else MOUNT_HOLD
        return time.monotonic() - self._since >= longest

    def _wait(self) -> None:
        if not self._waiting:
            self._waiting = True
            self._since = time.monotonic()
            self.app.set_timer(WAIT_SECONDS, self._release)

    async def _release(self) -> None:
        self._waiting = False
        while self.held:
            if not self._ready() and not self._held_long_enough():
                self._waiting = True
                self.app.set_timer(WAIT_SECONDS, self._release)
                return
            await self.deliver(self.held.popleft())
            self._since = time.monotonic()
