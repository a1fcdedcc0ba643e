"""How the terminal app (`abstracts-tui`) ends when its terminal goes away or it is told
to stop: a closed terminal (SIGHUP, or the terminal's end seen by the driver) or a `kill`
(SIGTERM) quits it as ctrl+q does, the game in progress written first, with status 0.

Asking the app to exit is not enough on its own: it runs on the event loop, and a loop
blocked (by a write to a terminal that is gone, say) would never get to it, nor to a signal
handler added with `loop.add_signal_handler`. So the handlers here are the process's own
(`signal.signal`, which the main thread runs even while it waits on a lock), they ask the
app to exit from any thread, and they arm a watchdog: if the process is still there a
moment later, the watchdog waits (a bounded time) for the games shown to be on the disk
and ends the process itself.

Only the terminal app has these handlers: the apps of the SSH server and of the browser
share their server's process and its signals. Standard library only, so that the handlers
are in place before the slow imports of the app's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType

GRACE_SECONDS = 1.4
"""How long the app has to exit by itself once asked; within 2 s of a closed terminal, with
the watchdog's flush, the process is gone."""
FLUSH_SECONDS = 0.4
"""How long the watchdog waits for a game's file (a write of a few kilobytes)."""


class Hangup:
    """The terminal app's end on SIGHUP, SIGTERM or a terminal that is gone."""

    def __init__(self, grace: float = GRACE_SECONDS) -> None:
        self.grace = grace
        self.exit: Callable[[], object] | None = None
        """Asks the app to exit (its `exit`); None until the app is built."""
        self.flush: Callable[[float], object] = lambda timeout: None
        """Waits, at most the seconds given for each, until the games shown are written."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The app's event loop, once its terminal driver is started in it."""
        self.asked = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name="hangup-watchdog", daemon=True)

    def install(self) -> None:
        """Take SIGHUP and SIGTERM (from the main thread) and start the watchdog, idle until
        asked: started now, so that a signal handler never has to start a thread."""
        for name in ("SIGHUP", "SIGTERM"):
            signum = getattr(signal, name, None)
            if signum is not None:  # not on Windows
                signal.signal(signum, self._signalled)
        self._watchdog.start()

    def started(self, loop: asyncio.AbstractEventLoop) -> None:
        """The app runs on `loop` now (called on it): an exit asked before is passed on."""
        self.loop = loop
        if self.asked.is_set():
            self._ask_app()

    def quit(self) -> None:
        """End the app as ctrl+q does, soon; from any thread, or a signal handler."""
        self.asked.set()
        self._ask_app()

    def _signalled(self, signum: int, frame: FrameType | None) -> None:
        if self.exit is None:
            os._exit(0)  # before the app is built: there is nothing to write or restore
        self.quit()

    def _ask_app(self) -> None:
        loop, exit = self.loop, self.exit
        if loop is not None and exit is not None:
            # A closed loop (RuntimeError): the app has ended already.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(exit)  # takes no lock: safe in a signal handler

    def _watch(self) -> None:
        self.asked.wait()
        time.sleep(self.grace)
        try:  # the app has not ended by itself: its loop may be blocked
            self.flush(FLUSH_SECONDS)
        finally:
            os._exit(0)
