"""The terminal app's driver: Textual's Linux driver, made to survive its terminal.

When the terminal closes, Textual's own driver
- dies writing: its writer thread's write raises EIO and the thread ends, so the queue of
  writes (bounded) fills up and the app's shutdown waits for ever to put its last one;
- reads an end of input for ever (a busy loop), or panics on a read error;
- starts its terminal mode a second time on the SIGCONT the kernel sends with the SIGHUP
  (as if coming back from ctrl+z), with a second writer thread.

Here output to a terminal that is gone is dropped (the writer thread goes on draining its
queue), the end of input or an error reading it counts as a hangup (the app quits as
ctrl+q does, see `hangup.py`), and SIGCONT resumes only a suspended app.
"""

from __future__ import annotations

import asyncio
import os
import select
import sys
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

from . import textual_internals
from .hangup import Hangup


class TerminalOutput:
    """The terminal as a file for Textual's writer thread: the text goes straight to the
    file descriptor (nothing is left in a buffer to fail again at the process's exit), and
    once a write fails, the terminal is gone: `gone()` is called and the rest is dropped."""

    def __init__(self, fd: int, encoding: str, errors: str, gone: Callable[[], object]) -> None:
        self.fd = fd
        self.encoding = encoding
        self.errors = errors
        self.gone = gone
        self.closed = False

    def write(self, text: str) -> int:
        data = memoryview(text.encode(self.encoding, self.errors))
        while data and not self.closed:
            try:
                data = data[os.write(self.fd, data) :]
            except BlockingIOError:  # a terminal shared in non-blocking mode: wait for room
                select.select([], [self.fd], [], 1.0)
            except OSError:  # EIO, EPIPE: the terminal is closed
                self.closed = True
                self.gone()
        return len(text)

    def flush(self) -> None:
        """Nothing is buffered."""

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return not self.closed and os.isatty(self.fd)


class TerminalDriver(LinuxDriver):
    """Textual's Linux driver for the terminal app, which ends with its terminal."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        hangup = getattr(app, "hangup", None)
        self.hangup = hangup if isinstance(hangup, Hangup) else Hangup()
        self.suspended = False
        stream = sys.__stderr__  # the terminal Textual draws on
        if stream is not None:
            output = TerminalOutput(
                stream.fileno(), stream.encoding, stream.errors or "strict", self.hangup.quit
            )
            textual_internals.set_driver_output(self, output)
        self.hangup.started(asyncio.get_running_loop())

    def run_input_thread(self) -> None:
        textual_internals.read_terminal(self, self.hangup.quit)

    def suspend_application_mode(self) -> None:
        self.suspended = True
        super().suspend_application_mode()

    def resume_application_mode(self) -> None:
        # Textual resumes on every SIGCONT, and a closing terminal sends one with SIGHUP.
        if self.suspended:
            self.suspended = False
            super().resume_application_mode()
