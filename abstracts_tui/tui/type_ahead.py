"""Keys typed ahead wait until the keys before them have done what they do.

A key that opens a screen (`c` in the lobby, Enter on the home screen) and the keys
typed right after it arrive together when typed fast, pasted, or sent over SSH in one
packet. Textual hands each key on as soon as the app reads it: the keys after `c` reached
the lobby before its binding had asked for the new screen, or the new screen before it
had mounted its fields (`c`, Tab Tab, `6s` left the clock field empty).

A key goes a long way after the app reads it: to the focused widget, up through its
parents to the screen, back to the app (where the screen's bindings run), and a binding's
action may post a message that goes the same way before a screen is pushed. `TypeAhead`
hands a key on only when the one before it is through:
- its journey: after handing a key to a widget, it sends a marker up the same way
  (`call_later` at each step, which runs after what that widget was sent before it);
  back at the app, where the bindings ran, the marker goes once more through the screen
  on top and the app (what a binding's action posted there comes first), and the key is
  through once it is back;
- what the key set going: no widget of the screen on top has messages waiting, what waits
  in the app's own queue (a message on its way up) is handled first, and the screen on
  top is mounted.
Keys that come while one is held wait behind it, in order. A screen being built and the
key before on its way are waited for up to `MOUNT_HOLD` (a loaded machine takes a while;
a key handed to the screen below would go astray); widgets with messages waiting for
`LONGEST_HOLD` at most, counted again when another screen comes on top (its focus is set
by a message of its own; a widget that is never idle, an animation, does not stop keys).
A key is never lost nor kept long.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import App, ScreenStackError
from textual.dom import DOMNode

from .textual_internals import call_later

WAIT_SECONDS = 0.005
"""How often the screen is looked at again while keys are held."""
LONGEST_HOLD = 2.0
"""The longest a key is held for a mounted screen's busy widgets: widgets that are never
idle (an animation) do not stop keys. Long enough for a loaded machine to take the
messages of a key through (a widget's queue is empty most of the time, even a clock's)."""
MOUNT_HOLD = 5.0
"""The longest a key is held for a screen being built, or for the key before it to come
back (a loaded machine takes a while; the widget that has it could not take the next
key sooner anyway)."""


class TypeAhead:
    """Holds the keys of `app` that come before the key before them is through;
    `deliver` handles a key as the app would have (`App.on_event`)."""

    def __init__(self, app: App[Any], deliver: Callable[[events.Key], Awaitable[None]]):
        self.app = app
        self.deliver = deliver
        self.held: deque[events.Key] = deque()
        self._waiting = False
        self._since = 0.0
        self._flights = 0
        """Keys handed on so far: each one's marker carries its number."""
        self._flying: int | None = None
        """The number of the key whose marker is not back yet, if one is on its way."""
        self._top: object = None
        """The screen on top, mounted, when the held keys were last looked at."""

    async def key(self, event: events.Key) -> None:
        """Hand `event`, a key the app has read, on now if the key before it is through,
        followed by its marker; else keep it until then."""
        # The app's own queue holds only what came after this key: not waited for here.
        if not self.held and self._ready():
            target = self._target()
            await self.deliver(event)
            self._follow(target)
            return
        self.held.append(event)
        self._wait()

    # -- whether the key before is through -----------------------------------------------

    def _ready(self) -> bool:
        """Whether the key before is back and all it set going is done: the screen on
        top mounted, none of its widgets with messages waiting."""
        if self._flying is not None or not self._mounted():
            return False
        screen = self.app.screen  # those below it no longer take keys
        return all(node.message_queue_size == 0 for node in screen.walk_children(with_self=True))

    def _mounted(self) -> bool:
        """Whether there is a screen on top and it is mounted."""
        try:
            return self.app.screen.is_mounted
        except ScreenStackError:  # no screen yet: the app is starting
            return False

    def _held_long_enough(self) -> bool:
        """Whether the keys held have waited as long as they may (a screen that has just
        come on top, mounted, has its own while it takes the focus)."""
        top = self.app.screen if self._mounted() else None
        if top is not self._top:
            self._top = top
            self._since = time.monotonic()
        busy = self._flying is None and top is not None  # only busy widgets stop it
        longest = LONGEST_HOLD if busy else MOUNT_HOLD
        return time.monotonic() - self._since >= longest

    # -- a key's marker ------------------------------------------------------------------

    def _target(self) -> DOMNode | None:
        """The widget the app hands a key to (Textual's rule: the focused one, or the
        screen), None if there is no screen yet."""
        try:
            return self.app.focused or self.app.screen
        except ScreenStackError:
            return None

    def _follow(self, target: DOMNode | None) -> None:
        """Send a marker after the key handed to `target`, up the way the key goes."""
        self._flights += 1
        self._flying = self._flights
        self._since = time.monotonic()
        self._step(target, self._flights)

    def _step(self, node: DOMNode | None, flight: int) -> None:
        """The marker at `node`: on to its parent once `node` has handled what it was
        sent before (a widget closed meanwhile is passed by), home at the app."""
        while node is not None and node is not self.app:
            if call_later(node, self._step, node.parent or self.app, flight):
                return
            node = node.parent
        if not call_later(self.app, self._home, flight):
            self._home(flight)

    def _home(self, flight: int) -> None:
        """The marker is back at the app, where the screen's bindings ran: what their
        action posted to the screen on top (the lobby's `c` posts the message that opens
        the room form) is handled there and on at the app before the key is through."""
        if self._flying != flight:
            return
        try:
            screen = self.app.screen
        except ScreenStackError:
            screen = None
        if screen is None or not call_later(screen, self._settle, flight):
            self._settle(flight)

    def _settle(self, flight: int) -> None:
        if not call_later(self.app, self._through, flight):
            self._through(flight)

    def _through(self, flight: int) -> None:
        if self._flying == flight:
            self._flying = None

    # -- handing the held keys on -------------------------------------------------------

    def _wait(self) -> None:
        if not self._waiting:
            self._waiting = True
            if self._flying is None:
                self._since = time.monotonic()
            self.app.set_timer(WAIT_SECONDS, self._release)

    async def _release(self) -> None:
        """Looked at again after a while: the held keys handed on if the key before is
        through; what waits in the app's own queue (a message on its way up from the
        key before) is handled first, by looking again behind it."""
        self._waiting = False
        if not self.held:
            return
        if not self._ready() and not self._held_long_enough():
            self._wait_more()
        elif self.app.message_queue_size and not self._held_long_enough():
            self._waiting = True
            self.app.call_later(self._hand_on)
        else:
            await self._hand_on()

    async def _hand_on(self) -> None:
        """Hand the held keys on, one at a time, while the key before is through."""
        self._waiting = False
        while self.held:
            if not self._ready() and not self._held_long_enough():
                self._wait_more()
                return
            self._flying = None  # one kept too long is given up
            target = self._target()
            await self.deliver(self.held.popleft())
            self._follow(target)

    def _wait_more(self) -> None:
        self._waiting = True
        self.app.set_timer(WAIT_SECONDS, self._release)
