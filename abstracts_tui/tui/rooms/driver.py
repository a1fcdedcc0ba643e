"""A Textual driver that draws on an SSH channel instead of the process's terminal.

Textual's Linux driver owns the process's own terminal (termios, signals, a writer thread
and an input thread). Over SSH there is no terminal in the server process: the client's
keys arrive as channel data and frames go back as channel writes. So every connection gets
an app with this driver, on a thread of its own with its own loop
(`server.session_thread`): the server's loop hands it the channel's input and sizes
(`feed`, `resize`) and writes the frames it flushes, and a session costs the memory of its
screens and of its thread.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from textual import events
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size

from ..textual_internals import terminal_parser
from .resizes import layout_spacing

# Mouse clicks (1000) in SGR coordinates (1006), but not every motion (1003): reporting
# each move of the mouse would cost the client's bandwidth and the server's time.
START = (
    "\x1b[?1049h"  # the alternate screen
    "\x1b[?1000h\x1b[?1006h"  # clicks, SGR coordinates
    "\x1b[?25l"  # hide the cursor
    "\x1b[?1004h"  # focus in and out
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
    "\x1b[?2026$p"  # does the terminal know synchronized output? (the parser reads the answer)
)
STOP = (
    "\x1b[?2004l\x1b[?7h\x1b[?1000l\x1b[?1006l\x1b[?1004l"
    "\x1b[?1049l"  # back to the normal screen
    "\x1b[?25h"  # show the cursor
)
ESCAPE_TICK = 0.12
"""Seconds after a lone Escape before it counts as the Escape key (Textual waits 0.1 s)."""


class Channel(Protocol):
    """The SSH side of a driver: where frames go, and who feeds it input and sizes."""

    def write_screen(self, data: str) -> None: ...

    def attach(self, driver: ChannelDriver) -> None: ...


class ChannelDriver(Driver):
    """Draws an app on an SSH channel; the server feeds it the channel's input and size."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        channel: Channel | None = getattr(app, "channel", None)
        if channel is None:
            raise RuntimeError("ChannelDriver needs an app with a channel")
        self.channel = channel
        self.parser = terminal_parser()
        self.tick_handle: asyncio.TimerHandle | None = None
        self.input_enabled = False
        self.resizing: asyncio.TimerHandle | None = None
        """The layout for the last size the client gave, when it waits for its turn."""
        self.resized = float("-inf")
        """When the app was last given a size (the loop's time)."""
        self.laid_out: Size | None = None
        """The size the app was last given."""
        self.pending: list[str] = []
        """What was written since the last flush."""

    def write(self, data: str) -> None:
        # Textual writes a frame in pieces (synchronized output's start and end around
        # it): they go out together, as one SSH packet and one system call, at `flush`
        # or at the latest once the loop comes round.
        if not self.pending:
            self._loop.call_soon(self.flush)
        self.pending.append(data)

    def flush(self) -> None:
        if self.pending:
            data = "".join(self.pending)
            self.pending.clear()
            self.channel.write_screen(data)

    def start_application_mode(self) -> None:
        self.write(START)
        self.input_enabled = True
        self.resize(*(self._size or (80, 24)))
        self.channel.attach(self)

    def feed(self, text: str) -> None:
        """Turn what the client typed into key, mouse and paste events for the app."""
        if not self.input_enabled:
            return
        for message in self.parser.feed(text):
            self.process_message(message)
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        # A lone Escape is held back until no more of a sequence follows: tick then.
        if self.tick_handle is not None:
            self.tick_handle.cancel()
        self.tick_handle = self._loop.call_later(ESCAPE_TICK, self._tick)

    def _tick(self) -> None:
        self.tick_handle = None
        if self.input_enabled:
            for message in self.parser.tick():
                self.process_message(message)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size: the app lays itself out again for it, at
        once, or for the last size given once the spacing for that size (see
        `resizes.RESIZE_CELLS`) has passed since the last layout."""
        self._size = (width, height)
        if self.resizing is not None:
            return  # the layout waiting will take this size
        wait = self.resized + layout_spacing(width, height) - self._loop.time()
        if wait > 0:
            self.resizing = self._loop.call_later(wait, self.lay_out)
        else:
            self.lay_out()

    def lay_out(self) -> None:
        self.resizing = None
        self.resized = self._loop.time()
        size = Size(*(self._size or (80, 24)))
        if size == self.laid_out:
            # The window is back at the app's size (the sizes between came too close
            # to be laid out): the terminal may have cut what it showed meanwhile, so
            # the whole screen is drawn again, as Textual does not for a size it has.
            self._app.refresh()
            return
        self.laid_out = size
        self.send_message(events.Resize(size, size))

    def disable_input(self) -> None:
        self.input_enabled = False
        if self.tick_handle is not None:
            self.tick_handle.cancel()
            self.tick_handle = None
        if self.resizing is not None:
            self.resizing.cancel()
            self.resizing = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(STOP)
        self.flush()
