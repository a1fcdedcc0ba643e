"""The processes of one run of the command, found by a marker in their environment."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path


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
