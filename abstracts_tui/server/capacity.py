"""How many sessions the server takes at once when `--max-sessions` is not given: as many
as half the memory available when it starts can hold, at most `MOST`, so that strangers
opening sessions cannot take a small machine's memory (or a container's) from under it.

A session's cost is its app: in a process of its own (the default) about 22 to 27 MiB,
pages shared with the others counted once; on a thread of the server's process
(`--threads`) about 4 MiB (`scripts/ssh_load.py` measures both). The figures below leave
room for large screens.

And how many apps start at once (`StartTurn`: the pages of `abstracts-tui web`, each a
process that loads Python and the app), so that a crowd of them arriving together does
not take the processor from the players already there; and that an app told to end runs
after those in play (`step_aside`), so that a crowd leaving together does not either."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

MIB = 1024 * 1024
MOST = 200
"""Sessions at once however much memory there is."""
IN_PROCESS = 32 * MIB
"""What a session whose app has a process of its own is counted as using."""
ON_THREAD = 8 * MIB
"""What a session whose app runs on a thread of the server's process is counted as using."""
SHARE = 0.5
"""The part of the memory available at the start that sessions may take."""
UNLIMITED = 1 << 60
"""A control group's limit at or above this is no limit (cgroup v1 writes 2**63 less a
page for none)."""


START_SECONDS = 3.0
"""The longest an app's start holds its turn (`StartTurn`): one that has not drawn by then
goes on beside the next."""


def starting_at_once() -> int:
    """How many apps may start at once: one for each core the server may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class StartTurn:
    """An app's turn to start. A browser's page (`server/web/visitors.py`) starts a process
    whose start (Python and the app's modules loaded, its screen built: a second of a core
    or so) is most of what the page costs; pages opened at once, each taking a share of the
    cores, would slow every player's answers until all had started. Each start waits for
    one of `starting_at_once()` turns and holds it until the app draws (`give`), or
    `START_SECONDS` pass; the pages waiting wait about as long as all the starts take
    anyway."""

    def __init__(self, turns: asyncio.Semaphore) -> None:
        self.turns = turns
        self.held: asyncio.TimerHandle | None = None

    async def take(self) -> None:
        await self.turns.acquire()
        self.held = asyncio.get_running_loop().call_later(START_SECONDS, self.give)

    def give(self) -> None:
        """Give the turn to the next start (the first call; the others do nothing)."""
        if self.held is not None:
            self.held.cancel()
            self.held = None
            self.turns.release()


ENDING_NICE = 10
"""How much lower the priority of an app's process is once it is told to end (the nice
value added, at most 19)."""


def step_aside(pid: int | None) -> bool:
    """Lower the priority of the process `pid`, an app told to end, by `ENDING_NICE`:
    its last work (its game saved, its interpreter ended: a few tenths of a second of a
    core) is nobody's wait, while pages closed in a crowd, each ending at once, took the
    cores from the players still playing (`scripts/hostile_web.py`, its malformed
    pages). Every thread of it on Linux, where a priority is a thread's. Whether it was
    lowered: not where the system has no such priorities, nor once the process is gone."""
    if pid is None or not hasattr(os, "setpriority"):
        return False
    try:
        threads = [int(name) for name in os.listdir(f"/proc/{pid}/task")]
    except OSError:  # not Linux, or gone already
        threads = [pid]
    lowered = False
    for thread in threads:
        try:
            now = os.getpriority(os.PRIO_PROCESS, thread)
            os.setpriority(os.PRIO_PROCESS, thread, min(19, now + ENDING_NICE))
        except OSError:  # it ended meanwhile
            continue
        lowered = True
    return lowered


def per_session(isolate: bool) -> int:
    """The bytes a session is counted as using: its app in a process, or on a thread."""
    return IN_PROCESS if isolate else ON_THREAD


def default_sessions(isolate: bool, available: int | None) -> int:
    """The sessions the server takes at once, given the bytes of memory `available` (None:
    not known, so `MOST`)."""
    if available is None:
        return MOST
    return max(1, min(MOST, int(available * SHARE) // per_session(isolate)))


def sessions_bound(given: int | None, isolate: bool) -> tuple[int, str]:
    """The sessions the server takes at once (`given` by `--max-sessions`, else by the
    memory available now), and why, in words for the log."""
    if given is not None:
        return given, "--max-sessions"
    available = memory_available()
    each = per_session(isolate) // MIB
    if available is None:
        return MOST, "the memory available cannot be read"
    gib = available / (1024 * MIB)
    return default_sessions(isolate, available), (
        f"by the memory: half of the {gib:.1f} GiB available at {each} MiB a session, "
        f"{MOST} at most"
    )


def memory_available(root: Path = Path("/")) -> int | None:
    """Bytes of memory the server may still use: what the system has available (Linux's
    MemAvailable), or less where the server's control group (a container, a service's
    slice) is limited to less; None where neither can be read (not Linux)."""
    found = [
        value for value in (system_available(root), group_available(root)) if value is not None
    ]
    return min(found) if found else None


def system_available(root: Path) -> int | None:
    try:
        text = (root / "proc/meminfo").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name == "MemAvailable":
            words = rest.split()
            if words and words[0].isdigit():
                return int(words[0]) * 1024
    return None


def group_available(root: Path) -> int | None:
    """The limit of this process's memory control group less what it uses (cgroup v2, or
    v1's memory controller; in a container whose view of the groups starts at its own,
    the top one); None when it has none or it cannot be read."""
    try:
        lines = (root / "proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    top = root / "sys/fs/cgroup"
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":  # cgroup v2
            folders, files = [top / path.lstrip("/"), top], ("memory.max", "memory.current")
        elif "memory" in controllers.split(","):
            folders = [top / "memory" / path.lstrip("/"), top / "memory"]
            files = ("memory.limit_in_bytes", "memory.usage_in_bytes")
        else:
            continue
        for folder in folders:
            if folder.is_dir():
                return limit_less_use(folder, *files)
    return None


def limit_less_use(folder: Path, limit_file: str, use_file: str) -> int | None:
    try:
        limit = (folder / limit_file).read_text().strip()
        use = (folder / use_file).read_text().strip()
    except OSError:
        return None
    if not (limit.isdigit() and use.isdigit()) or int(limit) >= UNLIMITED:
        return None
    return max(0, int(limit) - int(use))
