"""The real `abstracts-tui` command in a terminal of its own (tmux), for the tests that
need one, and the processes of one run found by a marker in their environment."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="needs tmux to give the app a terminal"
)

_numbers = itertools.count()


class Terminal:
    """A tmux session running one command (100x30 unless told): a tmux server of its own,
    so that nothing else on the machine can disturb it, and several may run at once."""

    def __init__(self, name: str, command: str, width: int = 100, height: int = 30) -> None:
        self.name = f"abstracts-{name}-{os.getpid()}-{next(_numbers)}"
        self.tmux = ["tmux", "-L", self.name]
        size = ["-x", str(width), "-y", str(height)]
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, *size, command], check=True
        )
        self.socket = subprocess.run(
            [*self.tmux, "display-message", "-p", "#{socket_path}"], capture_output=True, text=True
        ).stdout.strip()

    def screen(self) -> str:
        return subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        ).stdout

    def wait_for(self, found: Callable[[str], bool], seconds: float = 60) -> str:
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if found(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"not seen in {seconds} s:\n{screen}")

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def close(self) -> None:
        """Close the terminal: its programs lose it (SIGHUP, then reads and writes fail)."""
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        if self.socket:  # tmux leaves it behind
            Path(self.socket).unlink(missing_ok=True)


def processes_with(marker: str) -> list[int]:
    """The processes whose environment holds `marker` (e.g. a run's own data folder),
    which tells one run's processes from every other's; a process that has ended (a
    zombie included) has no environment left to read."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:  # gone meanwhile, or not ours
                continue
    return found


def wait_gone(marker: str, seconds: float) -> list[int]:
    """The processes with `marker` still there after `seconds` (none as soon as none);
    those are then killed, so that a failing test leaves none behind."""
    deadline = time.monotonic() + seconds
    while (left := processes_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left
