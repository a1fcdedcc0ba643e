"""The processes of a server (`serve`, unless `--threads`): each session's app runs in a
process forked by the server's forkserver (a child of the server), so the sessions'
processes are the server's grandchildren."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path


def session_processes(server: int) -> list[int]:
    """The processes of the sessions of the server whose process is `server`."""
    below: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            below.setdefault(parent, []).append(int(stat.parent.name))
    return [pid for forkserver in below.get(server, []) for pid in below.get(forkserver, [])]


def left_after(server: int, seconds: float) -> list[int]:
    """The sessions' processes still there once none is, or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while (left := session_processes(server)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left
