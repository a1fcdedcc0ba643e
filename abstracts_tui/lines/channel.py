"""Line mode over SSH (`ssh -t host lines`, or `ssh -T host lines`): the lobby and the
rooms by lines (`lobby`, `room`), and the games of `lines.play`, on a session's
channel.

They run on a thread of its own (it reads a line at a time and thinks for the computer
between lines), never on the server's loop: its lines go out through the loop
(`call_soon_threadsafe`), and the channel's input comes in as whole lines. With a terminal
(`-t`) the client's keys arrive one by one, so the server edits the line itself: it echoes
what is typed, Backspace and ctrl+u erase, Enter sends, ctrl+c leaves and ctrl+d on an
empty line ends the input; the keys that send escape sequences (arrows, function keys) are
ignored, and nothing it writes holds an escape sequence. Without one the client's own
terminal edits the line and sends it whole.
"""

from __future__ import annotations

import asyncio
import queue
import re
from collections.abc import Callable

from ..crossing import call_in
from .terminal import CONTROL, MAX_LINE

ESCAPE_SEQUENCE = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|O.|.)?", re.DOTALL)
"""A key that sends an escape sequence (an arrow, a function key) or a lone Escape."""


class ChannelLines:
    """Lines in from an SSH channel's data, lines out to it, for a game on a thread."""

    def __init__(
        self,
        send: Callable[[str], None],
        loop: asyncio.AbstractEventLoop,
        *,
        terminal: bool,
        columns: int = 0,
    ) -> None:
        self.send_on_loop = send
        self.loop = loop
        self.terminal = terminal
        self.columns = columns
        """The terminal's width, kept up to date by the session; 0: not known."""
        self.newline = "\r\n" if terminal else "\n"
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.typed = ""
        """The line being typed, with a terminal (the server edits it)."""
        self.ended = False

    # -- from the loop ----------------------------------------------------------------------

    def feed(self, data: str) -> None:
        """Data from the client (on the loop)."""
        if self.ended:
            return
        if not self.terminal:
            self.typed += data
            *complete, self.typed = self.typed.split("\n")
            for line in complete:
                self.lines.put(line.rstrip("\r")[:MAX_LINE])
            self.typed = self.typed[-MAX_LINE:]
            return
        echo = []
        data = ESCAPE_SEQUENCE.sub("", data)
        for key in data:
            if key in "\r\n":
                echo.append(self.newline)
                self.lines.put(self.typed)
                self.typed = ""
            elif key in "\x7f\x08":
                if self.typed:
                    self.typed = self.typed[:-1]
                    echo.append("\b \b")
            elif key == "\x15":  # ctrl+u: the whole line
                echo.append("\b \b" * len(self.typed))
                self.typed = ""
            elif key == "\x03":  # ctrl+c: leave, as `quit`
                echo.append("^C" + self.newline)
                self.typed = ""
                self.lines.put("quit")
            elif key == "\x04":  # ctrl+d: the end of input on an empty line
                if not self.typed:
                    self.end_input()
            elif not CONTROL.match(key) and len(self.typed) < MAX_LINE:
                self.typed += key
                echo.append(key)
        if echo:
            self.send_on_loop("".join(echo))

    def end_input(self) -> None:
        """No more lines will come (end of input, the client gone, the server stopping)."""
        if not self.ended:
            self.ended = True
            self.lines.put(None)

    # -- from the game's thread ---------------------------------------------------------------

    def read(self) -> str | None:
        return self.lines.get()

    def say(self, line: str) -> None:
        text = CONTROL.sub("?", line) + self.newline
        call_in(self.loop, self.send_on_loop, text)
