"""Memory of a session in a process of its own (`serve`'s default), from the kernel's
`/proc/PID/smaps_rollup`.

Starts `abstracts-tui serve` on a free port with a fresh data folder and opens SESSIONS
sessions one after another (asyncssh, 100x30 terminals, a name each), each waiting until
its lobby shows. With `--rooms` half of them are in rooms instead: one creates a room
(the default game) from its lobby, the next joins it by its code (and a last odd one
watches it). Once every screen is drawn and SETTLE seconds have passed, reads the
`smaps_rollup` of every session's process, of the server and of its forkserver, and
prints, for the lobby's sessions and the rooms' apart:

- private memory per session (`Private_Clean + Private_Dirty`: the pages only that
  process holds, what one more session costs): median and largest (the rooms' also
  apart for their creators, who went through the room's dialog, and the others);
- the proportional set size per session (PSS: the pages shared with the forkserver and
  the other sessions divided among them): median;
- the PSS of the server and of the forkserver;

with the load average at the start and at the measure (the machine may be shared).

With `--pages` (as root: the page frames in `/proc/PID/pagemap`), also what each
session's writable pages are, medians: still the forkserver's, copied from it (a page is
copied the first time the session writes to it), of those the ones whose bytes are still
the forkserver's (written and written back: CPython counts a reference to an object
on the object, so using what is on a page copies it), and its own.

With `--mappings`, also a room's creator's private memory by mapping (`/proc/PID/smaps`:
each file, each anonymous mapping by its addresses and size) against its joiner's, the
largest differences: where the pages a creator keeps more than its joiner lie (the small
objects' arenas, the C library's heap, code).

The server is started as `python -m abstracts_tui serve`; with `--console-script` as
`abstracts-tui serve`, the console script next to this Python (as most people start it).

With `--floor` instead, no server: this process does what the server of processes does
(imports what it preloads, runs its warm-up, collects, freezes), then forks three
processes in turn and measures each once it is drawn: one that only runs an asyncio loop,
one that runs a one-widget Textual app (run here once before, as warm as the lobby), and
one that runs a session to its lobby as the warm-up does. What the second costs is what
any Textual app costs in a forked process on this Python, the floor under a lobby.

    python scripts/session_memory.py [--sessions 10] [--rooms] [--settle 5] [--pages]
                                     [--mappings] [--console-script]
    python scripts/session_memory.py --floor
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import platform
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import asyncssh
import pyte

WIDTH, HEIGHT = 100, 30
TIMEOUT = 120.0
"""The longest wait for a screen (generous: the machine may be shared)."""


class Client(asyncssh.SSHClientSession[str]):
    """A terminal (pyte) that the script reads to know what the session shows."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.Stream(self.screen)
        self.changed = asyncio.Event()
        self.chan: Any = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: str, datatype: Any) -> None:
        self.stream.feed(data)
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, *texts: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while not all(text in self.text() for text in texts):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{texts!r} never showed:\n{self.text()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)
        return self.text()

    def key(self, keys: str) -> None:
        self.chan.write(keys)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def forkserver_of(server: int) -> int | None:
    """The server's forkserver: its child that forks the sessions' processes."""
    for child in children(server):
        with contextlib.suppress(OSError):
            if b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes():
                return child
    return None


def rollup(pid: int) -> dict[str, int]:
    """The KiB figures of `/proc/PID/smaps_rollup`."""
    figures = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        figures[name.rstrip(":")] = int(value)
    return figures


def mappings(pid: int) -> dict[str, int]:
    """KiB of private memory of each mapping of `pid` (`/proc/PID/smaps`), by its file, or
    by its start address where it has none."""
    found: dict[str, int] = {}
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            start, end = (int(part, 16) for part in head[0].split("-"))
            name = head[5] if len(head) > 5 else f"anon {head[0]} ({(end - start) // 1024} KiB)"
        elif head[0] in ("Private_Clean:", "Private_Dirty:"):
            found[name] = found.get(name, 0) + int(head[1])
    return found


def mapping_report(creator: int, joiner: int) -> None:
    """The mappings where a room's creator keeps more (or less) than its joiner."""
    ours, theirs = mappings(creator), mappings(joiner)
    differences = sorted(
        ((ours.get(name, 0) - theirs.get(name, 0), name) for name in set(ours) | set(theirs)),
        reverse=True,
    )
    print("creator against joiner, private KiB by mapping (largest differences):")
    for difference, name in differences[:8] + differences[-4:]:
        if difference:
            print(f"  {difference:+6d} {name} ({ours.get(name, 0)} against {theirs.get(name, 0)})")


def private_kib(pid: int) -> int:
    figures = rollup(pid)
    return figures["Private_Clean"] + figures["Private_Dirty"]


class Sessions:
    """The sessions opened, each with the process that runs its app."""

    def __init__(self, port: int, server: int) -> None:
        self.port = port
        self.server = server
        self.known: set[int] = set()
        self.lobby: list[int] = []
        self.rooms: list[int] = []
        self.created: list[int] = []
        """The rooms' creators: through the lobby, the room's dialog and its waiting screen."""
        self.held: list[Client] = []

    async def open(self, user: str, command: str | None = None) -> tuple[Client, int]:
        """A session of `user` (running `command`), and its process once it is drawn."""
        conn = await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=user,
            known_hosts=None,
            client_keys=None,
            agent_path=None,
        )
        _, session = await conn.create_session(
            Client, command, term_type="xterm-256color", term_size=(WIDTH, HEIGHT)
        )
        assert isinstance(session, Client)
        client = session
        self.held.append(client)
        if command is None:
            await client.wait_for(f"you are {user}", "New room")
        else:
            await client.wait_for("to move")
        forkserver = forkserver_of(self.server)
        new = set(children(forkserver)) - self.known if forkserver is not None else set()
        if len(new) != 1:
            raise RuntimeError(f"{len(new)} new session processes for {user}, not 1")
        self.known |= new
        return client, new.pop()

    async def room(self, first: str, second: str, third: str | None) -> None:
        """`first` creates a room, `second` joins it, `third` (if any) watches it."""
        one, pid = await self.open(first)
        one.key("c")
        await one.wait_for("choose a game")
        one.key("\r")
        found = re.search(r"Room (\w{4})", await one.wait_for("Waiting for a second player"))
        if found is None:
            raise RuntimeError(f"no room's code on the screen:\n{one.text()}")
        code = found.group(1)
        self.rooms.append(pid)
        self.created.append(pid)
        self.rooms.append((await self.open(second, f"join {code}"))[1])
        await one.wait_for("to move")
        if third is not None:
            self.rooms.append((await self.open(third, f"watch {code}"))[1])


async def open_sessions(port: int, server: int, sessions: int, rooms: bool) -> Sessions:
    opened = Sessions(port, server)
    in_rooms = sessions // 2 if rooms else 0
    for index in range(sessions - in_rooms):
        opened.lobby.append((await opened.open(f"l{index}"))[1])
    pairs, odd = divmod(in_rooms, 2)
    for index in range(pairs):
        third = f"w{index}" if odd and index == 0 else None
        await opened.room(f"r{index}a", f"r{index}b", third)
    return opened


def median_max(pids: list[int]) -> str:
    if not pids:
        return "none"
    private = [private_kib(pid) / 1024 for pid in pids]
    pss = [rollup(pid)["Pss"] / 1024 for pid in pids]
    return (
        f"private median {statistics.median(private):.2f} MiB, max {max(private):.2f} MiB"
        f" (min {min(private):.2f}); PSS median {statistics.median(pss):.2f} MiB"
        f" ({len(pids)} sessions)"
    )


PAGE = os.sysconf("SC_PAGE_SIZE")
PRESENT = 1 << 63
FRAME = (1 << 55) - 1


def frames(pid: int) -> dict[int, int]:
    """The physical frame of each resident page of `pid`'s writable private mappings, by
    address (`/proc/PID/pagemap`: the frames read as 0 without CAP_SYS_ADMIN)."""
    found = {}
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
            span, mode, *_ = line.split()
            if not mode.startswith("rw") or mode.endswith("s"):
                continue
            start, end = (int(part, 16) for part in span.split("-"))
            pagemap.seek(start // PAGE * 8)
            data = pagemap.read((end - start) // PAGE * 8)
            for index, (entry,) in enumerate(struct.iter_unpack("Q", data)):
                if entry & PRESENT:
                    found[start + index * PAGE] = entry & FRAME
    return found


def pages(session: int, forkserver: int) -> tuple[int, int, int, int]:
    """KiB of `session`'s writable pages: still the forkserver's, copied from it (written
    since the fork), of those the ones whose bytes are the same as the forkserver's (only
    touched: a reference counted and let go), and its own (new)."""
    theirs, ours = frames(forkserver), frames(session)
    shared = copied = same = new = 0
    with open(f"/proc/{session}/mem", "rb") as mine, open(f"/proc/{forkserver}/mem", "rb") as fork:
        for address, frame in ours.items():
            if address not in theirs:
                new += 1
            elif theirs[address] == frame:
                shared += 1
            else:
                copied += 1
                mine.seek(address)
                fork.seek(address)
                same += mine.read(PAGE) == fork.read(PAGE)
    kib = PAGE // 1024
    return shared * kib, copied * kib, same * kib, new * kib


def page_report(label: str, pids: list[int], forkserver: int) -> None:
    if not pids:
        return
    try:
        counts = [pages(pid, forkserver) for pid in pids]
    except OSError as error:
        print(f"{label}: pages not readable ({error.strerror})")
        return
    if not any(shared or copied for shared, copied, _, _ in counts):
        print(f"{label}: page frames not readable (pagemap needs CAP_SYS_ADMIN)")
        return
    shared, copied, same, new = (
        statistics.median(column) / 1024 for column in zip(*counts, strict=True)
    )
    print(
        f"{label}: writable pages shared with the forkserver {shared:.1f} MiB, copied from it"
        f" {copied:.1f} MiB (of which the same bytes: {same:.1f} MiB), new {new:.1f} MiB"
        " (medians)"
    )


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


async def measure(port: int, server: int, args: argparse.Namespace) -> None:
    started = time.monotonic()
    opened = await open_sessions(port, server, args.sessions, args.rooms)
    print(f"{args.sessions} sessions opened in {time.monotonic() - started:.0f} s")
    await asyncio.sleep(args.settle)
    print(f"load average at the measure: {load()}")
    print(f"lobby sessions: {median_max(opened.lobby)}")
    print(f"room sessions:  {median_max(opened.rooms)}")
    joined = [pid for pid in opened.rooms if pid not in opened.created]
    print(f"  of which their creators: {median_max(opened.created)}")
    print(f"  and the others (joined or watching by code): {median_max(joined)}")
    print(f"every session:  {median_max(opened.lobby + opened.rooms)}")
    print(f"server PSS: {rollup(server)['Pss'] / 1024:.1f} MiB")
    forkserver = forkserver_of(server)
    if forkserver is not None:
        figures = rollup(forkserver)
        print(
            f"forkserver PSS: {figures['Pss'] / 1024:.1f} MiB (RSS {figures['Rss'] / 1024:.1f} MiB)"
        )
        if args.mappings and joined and opened.created:
            mapping_report(opened.created[0], joined[0])
        if args.pages:
            page_report("lobby sessions", opened.lobby, forkserver)
            page_report("room sessions", opened.rooms, forkserver)


FLOOR_SETTLE = 1.5
"""Seconds a forked process runs before it counts as drawn (`--floor`)."""


def one_widget_app() -> Any:
    """The smallest Textual app: one `Static`, headless."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class OneWidget(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("one widget")

    return OneWidget


async def run_app(app_class: Any, drawn: Any) -> None:
    """Run `app_class` headless at the sessions' size until `drawn` returns."""
    app = app_class()

    async def until_drawn() -> None:
        await asyncio.sleep(FLOOR_SETTLE)
        await drawn()
        app.exit()

    waiting = asyncio.get_running_loop().create_task(until_drawn())
    await app.run_async(headless=True, size=(WIDTH, HEIGHT))
    await waiting


def forked_private(child: Any) -> float:
    """MiB of private memory of a process forked from this one, which runs
    `child(drawn)` and awaits `drawn()` once it is drawn: measured then."""
    ready_read, ready_write = os.pipe()
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ready_read)
        os.close(done_write)

        async def drawn() -> None:
            loop = asyncio.get_running_loop()
            told: asyncio.Future[None] = loop.create_future()

            def tell() -> None:
                if not told.done():
                    told.set_result(None)

            loop.add_reader(done_read, tell)
            os.write(ready_write, b"1")
            await told  # no thread: one would cost the child memory of its own
            loop.remove_reader(done_read)

        try:
            gc.freeze()  # as a session's process does
            asyncio.run(child(drawn))
        finally:
            os._exit(0)
    os.close(ready_write)
    os.close(done_read)
    try:
        # Blocked here, this process writes nothing that would make the child's pages its own.
        if os.read(ready_read, 1) != b"1":
            raise RuntimeError("the forked process ended before it was drawn")
        return private_kib(pid) / 1024
    finally:
        os.write(done_write, b"1")
        os.waitpid(pid, 0)
        for end in (ready_read, done_write):
            os.close(end)


def floor() -> None:
    """`--floor`: the loop, a one-widget app and a lobby, each forked from a process
    warmed as the server of processes is."""
    import importlib

    from abstracts_tui.server.session_process import PRELOAD

    for module in PRELOAD[:-1]:
        importlib.import_module(module)
    from abstracts_tui.server import warm

    app_class = one_widget_app()
    asyncio.run(run_app(app_class, lambda: asyncio.sleep(0)))  # warmed as the lobby is
    if not warm.warm():
        sys.exit("the warm-up did not draw a lobby")

    async def loop_only(drawn: Any) -> None:
        await asyncio.sleep(FLOOR_SETTLE)
        await drawn()

    async def one_widget(drawn: Any) -> None:
        await run_app(app_class, drawn)

    async def lobby(drawn: Any) -> None:
        with tempfile.TemporaryDirectory() as folder:
            if not await warm.run_one(Path(folder), drawn):
                raise RuntimeError("the lobby was not drawn")

    for label, child in (
        ("an asyncio loop", loop_only),
        ("a one-widget Textual app", one_widget),
        ("a session in its lobby", lobby),
    ):
        print(f"forked, running {label}: private {forked_private(child):.2f} MiB")


def server_command(console_script: bool) -> list[str]:
    """How the server is started: `python -m abstracts_tui`, or its console script (as
    `pip install` makes it, next to this Python)."""
    if not console_script:
        return [sys.executable, "-m", "abstracts_tui"]
    script = Path(sys.executable).with_name("abstracts-tui")
    if not script.exists():
        sys.exit(f"no console script at {script}")
    return [str(script)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--rooms", action="store_true", help="half of the sessions in rooms")
    parser.add_argument(
        "--settle", type=float, default=5.0, help="seconds between the last screen and the measure"
    )
    parser.add_argument(
        "--pages",
        action="store_true",
        help="also each session's pages against the forkserver's (copied, touched, new)",
    )
    parser.add_argument(
        "--mappings",
        action="store_true",
        help="also a room's creator's private memory by mapping against its joiner's",
    )
    parser.add_argument(
        "--console-script",
        action="store_true",
        help="start the server as `abstracts-tui serve` rather than `python -m abstracts_tui`",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="no server: what a forked loop, a one-widget Textual app and a lobby cost",
    )
    args = parser.parse_args()
    # Which Python matters: from 3.12 the forkserver's objects are immortal (`warm`).
    print(f"Python {platform.python_version()}; load average at the start: {load()}")
    if args.floor:
        floor()
        return
    with tempfile.TemporaryDirectory() as data:
        # Every session comes from this one machine: lift the per-address limit for them.
        limit = str(args.sessions + 10)
        serve = [*server_command(args.console_script), "serve", "--port", "0", "--data", data]
        server = subprocess.Popen(
            [*serve, "--connections-per-address", limit, "--max-sessions", limit],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert server.stdout is not None
            port = 0
            for line in server.stdout:
                found = re.search(r"listening on \S+ port (\d+)", line)
                if found:
                    port = int(found.group(1))
                    break
            if not port:
                sys.exit("the server did not start")
            # Keep reading its log, so that a full pipe never stops the server.
            threading.Thread(target=server.stdout.read, daemon=True).start()
            asyncio.run(measure(port, server.pid, args))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
