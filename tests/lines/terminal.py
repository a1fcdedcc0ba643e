"""Line mode run as a user runs it: `abstracts-tui ... --lines` in a real pseudo-terminal,
read back line by line with every byte it wrote kept."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

TIMEOUT = 60.0


class LineTerminal:
    """The program on a pseudo-terminal of its own, as in a terminal window."""

    def __init__(
        self,
        *args: str,
        home: Path,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
    ) -> None:
        """`abstracts-tui ARGS` (or `command`, such as an SSH client) in its own terminal."""
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environ = {
            **os.environ,
            "TERM": "xterm-256color",
            "XDG_DATA_HOME": str(home / "data"),
            "ABSTRACTS_TUI_CONFIG": str(home / "settings.toml"),
            **(env or {}),
        }
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "abstracts_tui", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=environ,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.raw = bytearray()
        self.lock = threading.Lock()
        self.mark = 0
        """Where the next wait starts reading (the lines before were waited for)."""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the program has ended: the pty is closed
                return
            if not data:
                return
            with self.lock:
                self.raw += data

    def text(self) -> str:
        with self.lock:
            return self.raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "")

    def lines(self) -> list[str]:
        return self.text().split("\n")

    def send(self, line: str) -> None:
        """Type `line` and Enter (a terminal sends a carriage return)."""
        os.write(self.master, line.encode() + b"\r")

    def wait_for(self, wanted: str, timeout: float = TIMEOUT) -> str:
        """The first line after the last one waited for that starts with `wanted`."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            for index in range(self.mark, len(lines) - 1):  # whole lines only
                if lines[index].startswith(wanted):
                    self.mark = index + 1
                    return lines[index]
            if time.monotonic() > deadline or self.process.poll() is not None:
                tail = "\n".join(lines[self.mark :][-30:])
                raise AssertionError(f"no line starting {wanted!r}; after the last wait:\n{tail}")
            time.sleep(0.02)

    def close(self, timeout: float = 30) -> int:
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.reader.join(5)
            os.close(self.master)
