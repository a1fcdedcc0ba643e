"""Start the real `abstracts-tui serve` in a subprocess, on a free port, with its own data."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

START_TIMEOUT = 60.0


class RunningServer:
    """A server process; `port` is where it listens, `log` what it wrote."""

    def __init__(self, data: Path, args: list[str], program: list[str] | None = None) -> None:
        """`program`: what runs `serve` (by default `python -m abstracts_tui`)."""
        self.data = data
        self.process = subprocess.Popen(
            [
                *(program or [sys.executable, "-m", "abstracts_tui"]),
                "serve",
                "--port",
                "0",
                "--data",
                str(data),
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.listening = threading.Event()
        self.port = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            found = re.search(r"listening on \S+ port (\d+)", line)
            if found:
                self.port = int(found.group(1))
                self.listening.set()

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_listening(self) -> RunningServer:
        deadline = time.monotonic() + START_TIMEOUT
        while not self.listening.wait(0.2):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"the server did not start:\n{self.log}")
        return self

    def kill(self) -> None:
        """Kill the process at once (SIGKILL, by its PID): nothing of it runs after."""
        self.process.kill()
        self.process.wait()
        self.reader.join(5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(5)


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., RunningServer]]:
    """`start_server(*args)` runs a server on the test's data folder (or `data=`) until the
    test ends."""
    servers: list[RunningServer] = []

    def start(*args: str, data: Path | None = None) -> RunningServer:
        server = RunningServer(data or tmp_path / "data", list(args))
        servers.append(server)
        return server.wait_listening()

    yield start
    for server in servers:
        server.stop()
