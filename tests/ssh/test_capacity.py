"""How many sessions a server takes when `--max-sessions` is not given: half the memory
available, read as Linux writes it (/proc/meminfo, the control group's files), at about
32 MiB a session in a process (8 MiB on a thread), at most 200 and at least 1; and how
many apps start at once, and that an app told to end runs after those in play."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from abstracts_tui.server import capacity
from abstracts_tui.server.capacity import (
    ENDING_NICE,
    MIB,
    MOST,
    StartTurn,
    default_sessions,
    memory_available,
    sessions_bound,
    starting_at_once,
    step_aside,
)
from abstracts_tui.server.messages import EndApp
from abstracts_tui.server.session_process import SessionProcess

MEMINFO = """MemTotal:       24683928 kB
MemFree:        23314436 kB
MemAvailable:   {available} kB
Buffers:          102400 kB
"""
V1_UNLIMITED = "9223372036854771712"


def machine(
    root: Path, available_kib: int, cgroup: str, files: dict[str, str] | None = None
) -> Path:
    """A file tree laid out as Linux's /proc and /sys/fs/cgroup, under `root`."""
    (root / "proc/self").mkdir(parents=True)
    (root / "proc/meminfo").write_text(MEMINFO.format(available=available_kib))
    (root / "proc/self/cgroup").write_text(cgroup)
    for name, text in (files or {}).items():
        path = root / "sys/fs/cgroup" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
    return root


def test_a_machine_without_a_limit_gives_what_it_has_available(tmp_path: Path) -> None:
    root = machine(
        tmp_path,
        1_000_000,
        "4:memory:/user.slice\n0::/\n",
        {
            "memory/user.slice/memory.limit_in_bytes": V1_UNLIMITED,
            "memory/user.slice/memory.usage_in_bytes": "58925056",
        },
    )
    assert memory_available(root) == 1_000_000 * 1024


def test_a_container_limited_by_cgroup_v2_gives_its_limit_less_its_use(tmp_path: Path) -> None:
    # A container sees its own group as the top one ("0::/"), the host's memory in meminfo.
    root = machine(
        tmp_path,
        20_000_000,
        "0::/\n",
        {"memory.max": str(512 * MIB), "memory.current": str(112 * MIB)},
    )
    available = memory_available(root)
    assert available == 400 * MIB
    assert default_sessions(True, available) == 6  # 200 MiB at 32 each
    assert default_sessions(False, available) == 25  # at 8 each


@pytest.mark.parametrize(
    ("cgroup", "files", "available"),
    [
        (  # cgroup v2, the group named by its path (the top of the tree has no limit)
            "0::/system.slice/abstracts.service\n",
            {
                "system.slice/abstracts.service/memory.max": str(2048 * MIB),
                "system.slice/abstracts.service/memory.current": str(48 * MIB),
                "memory.max": "max",
            },
            2000 * MIB,
        ),
        (  # cgroup v1's memory controller
            "9:name=systemd:/\n4:memory:/process_api/abc\n1:cpu:/\n",
            {
                "memory/process_api/abc/memory.limit_in_bytes": str(1024 * MIB),
                "memory/process_api/abc/memory.usage_in_bytes": str(24 * MIB),
            },
            1000 * MIB,
        ),
    ],
    ids=["v2-by-path", "v1"],
)
def test_the_servers_own_group_is_read_where_proc_names_it(
    tmp_path: Path, cgroup: str, files: dict[str, str], available: int
) -> None:
    root = machine(tmp_path, 20_000_000, cgroup, files)
    assert memory_available(root) == available


def test_a_group_over_its_limit_leaves_one_session(tmp_path: Path) -> None:
    root = machine(
        tmp_path,
        20_000_000,
        "0::/\n",
        {"memory.max": str(64 * MIB), "memory.current": str(80 * MIB)},
    )
    assert memory_available(root) == 0
    assert default_sessions(True, 0) == 1


def test_a_large_machine_stops_at_the_most_and_an_unknown_one_takes_the_most(
    tmp_path: Path,
) -> None:
    assert default_sessions(True, 64 * 1024 * MIB) == MOST
    assert memory_available(tmp_path) is None  # no /proc: not Linux
    assert default_sessions(True, None) == MOST


def test_the_bound_given_is_the_bound_and_the_log_says_why() -> None:
    assert sessions_bound(5, True) == (5, "--max-sessions")
    sessions, why = sessions_bound(None, False)  # this machine's memory, as Linux says it
    assert why.endswith(f"GiB available at 8 MiB a session, {MOST} at most")
    assert 1 <= sessions <= MOST


def test_apps_start_one_a_core_at_a_time() -> None:
    assert starting_at_once() == len(os.sched_getaffinity(0))


def test_a_start_holds_its_turn_until_its_app_draws_or_its_time_is_up(monkeypatch) -> None:
    monkeypatch.setattr(capacity, "START_SECONDS", 0.3)

    async def run() -> None:
        turns = asyncio.Semaphore(1)
        first, second, third = StartTurn(turns), StartTurn(turns), StartTurn(turns)
        await first.take()
        waiting = asyncio.create_task(second.take())
        await asyncio.sleep(0.1)
        assert not waiting.done()  # one start at a time
        first.give()  # its app drew (and drew again: the turn is given back once)
        first.give()
        await asyncio.wait_for(waiting, 1)
        assert turns.locked()
        # The second app never draws: its turn goes to the next after START_SECONDS.
        started = asyncio.get_running_loop().time()
        await asyncio.wait_for(third.take(), 2)
        assert asyncio.get_running_loop().time() - started >= 0.2
        second.give()  # too late to give anything back
        assert turns.locked()
        third.give()
        assert not turns.locked()

    asyncio.run(run())


TWO_THREADS = (
    "import threading, time\n"
    "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    "print('ready', flush=True)\n"
    "time.sleep(60)\n"
)


def threads_nice(pid: int) -> dict[int, int]:
    """Each thread's nice value, as Linux gives it (/proc/PID/task/TID/stat: field 19)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        found[int(task.name)] = int(fields[16])
    return found


def an_app() -> subprocess.Popen[str]:
    """A process of two threads, as an app's is (its loop's, and its input's or saves')."""
    app = subprocess.Popen([sys.executable, "-c", TWO_THREADS], stdout=subprocess.PIPE, text=True)
    assert app.stdout is not None and app.stdout.readline() == "ready\n"
    return app


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads each thread's priority from Linux's /proc"
)
def test_an_app_told_to_end_runs_after_those_in_play_every_thread_of_it() -> None:
    app = an_app()
    try:
        before = threads_nice(app.pid)
        assert len(before) == 2
        assert step_aside(app.pid)
        assert threads_nice(app.pid) == {
            thread: min(19, nice + ENDING_NICE) for thread, nice in before.items()
        }
        step_aside(app.pid)  # told twice: never past the lowest priority there is
        assert set(threads_nice(app.pid).values()) == {min(19, max(before.values()) + 20)}
    finally:
        app.kill()
        app.wait()
    assert not step_aside(app.pid)  # gone
    assert not step_aside(None)  # never started


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads each thread's priority from Linux's /proc"
)
def test_a_sessions_app_told_to_end_steps_aside() -> None:
    """`SessionProcess.end` (a session's app in a process of its own, told to end as its
    connection closes or the server stops) tells the app and lowers its process."""
    app = an_app()
    told: list[object] = []
    try:
        session = SessionProcess("ann")
        session.pid, session.send = app.pid, told.append
        playing = os.getpriority(os.PRIO_PROCESS, app.pid)
        session.end()
        assert told == [EndApp()]
        assert set(threads_nice(app.pid).values()) == {min(19, playing + ENDING_NICE)}
    finally:
        app.kill()
        app.wait()
