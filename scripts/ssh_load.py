"""Load on the SSH server: 50 sessions at once for a minute, and what each one costs.

Starts `abstracts-tui serve` on a free port with a fresh data folder, opens a warm-up
room (so that the modules every game needs are loaded before the baseline), then opens
SESSIONS sessions: two players per room on a 10x10 Pilo board in 80x24 terminals. For
HOLD seconds every session moves its cursor every few seconds. Prints:

- memory per session: (server RSS with every session open - RSS before) / SESSIONS;
- bytes sent per cursor move: what the server sent all clients during the hold, divided
  by the cursor moves made (the other player's screen does not change on a cursor move,
  so this is what one move costs), and one move measured alone on a quiet server;
- the time from a cursor key to the first bytes of its answer (the bytes that bring the
  panel's new cursor line; a running clock's face, which may arrive first, is not it):
  median, 90th, 95th and 99th percentiles, and the slowest;
- with `--clock SPEC` every room is made with that clock (running all along: nobody
  moves a piece), and the bytes per second a running clock costs each session are
  measured first, over 10 seconds in which no key is pressed (once the collection that
  the sessions' opening brings on is over).

With `--database URL` (a PostgreSQL database; `--processes N` starts N servers on it),
SESSIONS sessions play real moves instead, two per room on the default Partitions board
(no pie rule nor komi to stop a game): every other room has its two players on two
processes, the others on one. During HOLD seconds each player, on its turn, thinks 10 to
20 seconds (`--think`) and types a legal move (`:` and the move); a move counts once the opponent's
screen shows it, and its time is from the Enter that plays it to the first byte the
opponent received after it. Prints its median and 95th percentile across processes and
within one process, in the same run, how many moves never showed (10 s), and the CPU time
of each server process and of the clients during the hold.

    python scripts/ssh_load.py [--sessions 50] [--hold 60] [--clock 60m]
    python scripts/ssh_load.py --processes 2 --database URL [--sessions 100] [--hold 60]

With `--stall SECONDS` the script starts a PostgreSQL server of its own (as the tests do,
`tests/postgres.py`) and one server process on it; half the rooms play moves (thinking 2
to 4 seconds), the players of the other half do not move but press a cursor key every
0.2 to 0.6 seconds. It holds HOLD seconds twice: the first time as it is, the second time
with the database stopped (SIGSTOP to every process of PostgreSQL, then SIGCONT) for
SECONDS in the middle. Prints the key-to-first-byte median and 95th percentile of the
sessions that do not move, over the middle SECONDS of each hold: without the stall, and
during it; and how many keys were not answered in each window.

    python scripts/ssh_load.py --stall 5 [--sessions 10] [--hold 30]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from abstracts_tui.server.collector import FREEZE_EVERY

RIGHT, LEFT, DOWN, TAB, ENTER = "\x1b[C", "\x1b[D", "\x1b[B", "\t", "\r"
ANSWER = "Cursor "
"""In the bytes that answer a cursor key: the panel's line naming the cursor's cell."""


class Client(asyncssh.SSHClientSession[str]):
    """Counts what arrives; keeps a screen (pyte) only while the session is set up."""

    def __init__(self) -> None:
        self.screen: pyte.Screen | None = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.received = 0
        self.changed = asyncio.Event()
        self.sent_at: float | None = None
        self.first: float | None = 0.0
        """When the first bytes after `first` was set to None arrived."""
        self.latencies: list[float] = []
        self.answers: list[tuple[float, float]] = []
        """Each cursor key answered: when it was sent, and the time to its answer."""
        self.keys: list[float] = []
        """When each timed key was sent."""
        self.pending: list[float] = []
        """When each timed key not answered yet was sent (keys that wait together are
        answered together: the first answer after them is each one's)."""
        self.chan: Any = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: str, datatype: Any) -> None:
        self.received += len(data.encode())
        if self.first is None:
            self.first = time.monotonic()
        if self.sent_at is not None and ANSWER in data:
            self.latencies.append(time.monotonic() - self.sent_at)
            self.sent_at = None
        if self.pending and ANSWER in data:
            now = time.monotonic()
            self.answers += [(sent, now - sent) for sent in self.pending]
            self.pending.clear()
        if self.screen is not None:
            self.stream.feed(data)
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    async def wait_for(self, text: str, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.text():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{text!r} never showed:\n{self.text()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1)
        return self.text()

    def key(self, keys: str, timed: bool = False) -> None:
        if timed:
            self.sent_at = time.monotonic()
            self.keys.append(self.sent_at)
            self.pending.append(self.sent_at)
        self.chan.write(keys)


async def connect(port: int, user: str, command: str | None = None) -> Client:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=None, agent_path=None
    )
    _, client = await conn.create_session(
        Client, command, term_type="xterm-256color", term_size=(80, 24), encoding="utf-8"
    )
    return client


async def room_for_two(
    port: int, first: str, second: str, clock: str | None = None
) -> tuple[Client, Client]:
    """`first` creates a 10x10 Pilo room (with `clock`); `second` joins it by code."""
    one = await connect(port, first)
    await one.wait_for("New room")
    one.key("c")
    await one.wait_for("choose a game")
    one.key(DOWN)  # Pilo
    await one.wait_for("> Pilo")
    one.key(TAB)  # the board size
    await asyncio.sleep(0.3)
    one.key(RIGHT + RIGHT)  # 8 -> 10
    await one.wait_for("10 x 10")
    if clock is not None:
        await focus_field(one, "Clock")
        one.key(clock)
        await one.wait_for(f"Clock       {clock}")
    one.key(ENTER)
    found = re.search(r"Room (\w{4})", await one.wait_for("Waiting for"))
    assert found
    two = await connect(port, second, f"join {found.group(1)}")
    await two.wait_for("to move")
    await one.wait_for("to move")
    return one, two


def label_focused(client: Client, label: str) -> bool:
    """Whether the field `label` has the focus: its label is shown in reverse video."""
    screen = client.screen
    assert screen is not None
    for row, line in enumerate(screen.display):
        column = line.find(f" {label} ")
        if column >= 0:
            return bool(screen.buffer[row][column + 1].reverse)
    return False


async def focus_field(client: Client, label: str) -> None:
    """Tab to the selection screen's field `label`, one field at a time."""
    for _ in range(10):
        if label_focused(client, label):
            return
        client.changed.clear()
        client.key(TAB)
        with contextlib.suppress(TimeoutError):  # the focus is drawn elsewhere
            await asyncio.wait_for(client.changed.wait(), 5)
        await asyncio.sleep(0.3)  # the redraw may come in more than one piece
    raise RuntimeError(f"the field {label} never had the focus:\n{client.text()}")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def partitions_room(
    one_port: int, two_port: int, first: str, second: str
) -> tuple[Client, Client]:
    """`first` creates a Partitions room on the server at `one_port`; `second` joins it
    through the one at `two_port` (the same one, or another process)."""
    one = await connect(one_port, first)
    await one.wait_for("New room")
    one.key("c")
    await one.wait_for("choose a game")
    for game in ("Pilo", "Egotzi", "Linage", "Partitions"):
        one.key(DOWN)
        await one.wait_for(f"> {game}")
    one.key(ENTER)
    found = re.search(r"Room (\w{4})", await one.wait_for("Waiting for"))
    assert found
    two = await connect(two_port, second, f"join {found.group(1)}")
    await two.wait_for("to move")
    await one.wait_for("to move")
    return one, two


def figures(values: list[float]) -> tuple[float, float]:
    """The median and the 95th percentile of `values` (not empty)."""
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, int(len(values) * 0.95))]


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    median, p95 = figures(values)
    return (
        f"median {median * 1000:.1f} ms, 95th percentile {p95 * 1000:.1f} ms ({len(values)} moves)"
    )


def family(pid: int) -> list[int]:
    """`pid` and every process below it (a session's process, unless --threads)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        here = todo.pop()
        found.append(here)
        todo += parents.get(here, [])
    return found


def pss_kib(pid: int) -> int:
    """The proportional memory (PSS) of `pid` and the processes below it: what the server
    and its sessions take together, pages they share counted once."""
    total = 0
    for member in family(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{member}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
    return total


def family_cpu_seconds(pid: int) -> float:
    """The CPU time of `pid` and the processes below it now (those ended included, once
    waited for)."""
    total = 0.0
    for member in family(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
            ticks = sum(int(field) for field in fields[11:15])
            total += ticks / os.sysconf("SC_CLK_TCK")
    return total


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process `pid` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure_moves(
    ports: list[int],
    pids: list[int],
    sessions: int,
    hold: float,
    think: tuple[float, float] = (10.0, 20.0),
) -> None:
    from abstracts_tui.rules import new_game

    started = time.monotonic()
    rooms: list[tuple[bool, Client, Client]] = []
    for index in range(sessions // 2):
        across = len(ports) > 1 and index % 2 == 0
        home = ports[(index // 2) % len(ports)]
        away = ports[(ports.index(home) + 1) % len(ports)] if across else home
        one, two = await partitions_room(home, away, f"p{index}a", f"p{index}b")
        rooms.append((across, one, two))
    opened = time.monotonic() - started
    await asyncio.sleep(3)
    timings: dict[bool, list[float]] = {True: [], False: []}
    lost = 0
    cpu = [cpu_seconds(pid) for pid in [*pids, os.getpid()]]
    deadline = time.monotonic() + hold

    async def play(across: bool, one: Client, two: Client) -> None:
        """Moves until the hold ends; a move counts once the opponent's screen shows it
        (its time is that of the first byte after the Enter)."""
        nonlocal lost
        game = new_game("partitions")
        players = (one, two)
        rng = random.Random(id(one))
        while time.monotonic() < deadline and not game.is_over():
            mover, other = players[game.turn], players[1 - game.turn]
            await asyncio.sleep(rng.uniform(*think))
            move = game.move_name(rng.choice(list(game.legal_moves())))
            shown = f"{len(game.moves) + 1}. {game.side_to_move().capitalize():<11}{move}"
            try:
                mover.key(":")
                await mover.wait_for("Enter plays, Esc closes", timeout=10)
                mover.key(move)
                await asyncio.sleep(0.3)
                other.first = None
                sent = time.monotonic()
                mover.key(ENTER)
                await other.wait_for(shown, timeout=10)
            except RuntimeError:
                lost += 1
                return
            assert other.first is not None
            timings[across].append(other.first - sent)
            game.play(move)

    await asyncio.gather(*(play(*room) for room in rooms))
    cpu = [cpu_seconds(pid) - before for pid, before in zip([*pids, os.getpid()], cpu, strict=True)]
    print(
        f"sessions: {2 * len(rooms)} on {len(ports)} process(es), "
        f"{sum(1 for r in rooms if r[0])} rooms across processes and "
        f"{sum(1 for r in rooms if not r[0])} within one ({opened:.1f} s to open them all)"
    )
    print(f"move to the opponent's first byte, across processes: {percentiles(timings[True])}")
    print(f"move to the opponent's first byte, within one process: {percentiles(timings[False])}")
    if timings[True] and timings[False]:
        across, within = (figures(timings[key]) for key in (True, False))
        print(
            f"crossing processes adds: {(across[0] - within[0]) * 1000:+.1f} ms at the median, "
            f"{(across[1] - within[1]) * 1000:+.1f} ms at the 95th percentile (goal: 50 ms or less)"
        )
    print(f"moves that never reached the opponent (10 s): {lost}")
    made = len(timings[True]) + len(timings[False])
    print(f"server CPU per move shown: {sum(cpu[:-1]) / max(made, 1) * 1000:.0f} ms")
    used = ", ".join(f"{seconds / hold:.0%}" for seconds in cpu[:-1])
    print(
        f"CPU during the {hold:.0f} s: {used} of one core for each server process, "
        f"{cpu[-1] / hold:.0%} for this script's clients"
    )


async def measure(port: int, pid: int, sessions: int, hold: float, clock: str | None) -> None:
    warm = await room_for_two(port, "warm1", "warm2", clock)
    for client in warm:
        client.chan.close()
    await asyncio.sleep(3)
    before = rss_kib(pid)
    before_all = pss_kib(pid)

    started = time.monotonic()
    clients: list[Client] = []
    for index in range(sessions // 2):
        clients += await room_for_two(port, f"p{index}a", f"p{index}b", clock)
    opened = time.monotonic() - started
    for client in clients:
        client.screen = None  # from now on only bytes are counted
    await asyncio.sleep(3)
    after = rss_kib(pid)
    after_all = pss_kib(pid)
    # The collector's first freeze after the opening collects what the opening left
    # (everything, once: see abstracts_tui/server/collector.py); let it come before the
    # quiet seconds, whose CPU is what the sessions cost while nobody types.
    await asyncio.sleep(FREEZE_EVERY)

    # Nobody presses a key: what arrives is the clocks' faces.
    mark = sum(c.received for c in clients)
    cpu = family_cpu_seconds(pid)
    await asyncio.sleep(10)
    idle = (sum(c.received for c in clients) - mark) / len(clients) / 10
    idle_cpu = (family_cpu_seconds(pid) - cpu) / 10

    # One cursor move alone, on a quiet server.
    # (A cursor move changes the mover's screen only; its clock's share is taken off.)
    quiet = clients[0]
    mark = quiet.received
    quiet.key(RIGHT)
    await asyncio.sleep(2)
    single = quiet.received - mark - round(idle * 2)

    moves = 0
    mark = sum(c.received for c in clients)
    marked = time.monotonic()
    deadline = marked + hold

    async def keep_moving(client: Client) -> None:
        nonlocal moves
        await asyncio.sleep(random.uniform(0, 3))
        step = RIGHT
        while time.monotonic() < deadline:
            step = {RIGHT: LEFT, LEFT: RIGHT}[step]
            client.key(step, timed=True)
            moves += 1
            await asyncio.sleep(random.uniform(2, 4))

    await asyncio.gather(*(keep_moving(client) for client in clients))
    await asyncio.sleep(2)
    # What the clocks sent meanwhile (measured above) is not the cursor moves'.
    elapsed = time.monotonic() - marked
    sent = sum(c.received for c in clients) - mark - idle * len(clients) * elapsed
    latencies = sorted(x for c in clients for x in c.latencies)
    alive = sum(1 for c in clients if not c.chan.is_closing())

    print(
        f"sessions open: {len(clients)} ({opened:.1f} s to open them all), "
        f"still open after {hold:.0f} s: {alive}"
    )
    print(f"server RSS: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB with them open")
    print(f"memory per session: {(after - before) / len(clients):.0f} KiB")
    print(
        f"the server and its sessions' processes, proportional (PSS): "
        f"{before_all / 1024:.1f} MiB before, {after_all / 1024:.1f} MiB with them open, "
        f"{(after_all - before_all) / len(clients):.0f} KiB per session"
    )
    print(
        f"with no key pressed (clock: {clock}): {idle:.0f} bytes a second per session, "
        f"server CPU (its sessions' processes included) {idle_cpu:.0%} of a core"
    )
    print(
        f"bytes sent per cursor move: {sent / max(moves, 1):.0f} over {moves} moves "
        f"during the hold; {single} for one move alone"
    )
    if latencies:
        p90, p95, p99 = (latencies[int(len(latencies) * p)] * 1000 for p in (0.90, 0.95, 0.99))
        print(
            f"key to first byte of the answer: median {statistics.median(latencies) * 1000:.0f}"
            f" ms, 95th percentile {p95:.0f} ms (90th {p90:.0f}, 99th {p99:.0f}, "
            f"slowest {latencies[-1] * 1000:.0f}; {len(latencies)} answers)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--hold", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--clock", metavar="SPEC", help="rooms made with this clock (e.g. 60m)")
    parser.add_argument("--database", metavar="URL", help="a PostgreSQL database to share")
    parser.add_argument(
        "--threads",
        action="store_true",
        help="serve --threads: each session's app on a thread of the server's process",
    )
    parser.add_argument(
        "--think", default="10-20", help="seconds a player thinks on its turn: MIN-MAX"
    )
    parser.add_argument(
        "--stall",
        type=float,
        metavar="SECONDS",
        help="stop a PostgreSQL of the script's own for SECONDS in the middle of a hold",
    )
    args = parser.parse_args()
    if args.stall is not None:
        if args.database is not None or args.processes > 1:
            parser.error("--stall starts a PostgreSQL and one server of its own")
        stalled(args)
        return
    if args.database is not None or args.processes > 1:
        if args.database is None:
            parser.error("--processes above 1 needs --database URL")
        moves(args)
        return
    with tempfile.TemporaryDirectory() as data:
        # Every session comes from this one machine: lift the per-address limit for them.
        limit = str(args.sessions + 10)
        serve = [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0", "--data", data]
        threads = ["--threads"] if args.threads else []
        server = subprocess.Popen(
            [*serve, "--connections-per-address", limit, *threads],
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
            # Keep reading its log, so that a full pipe never stops the server; keep what
            # it says of its long garbage collections.
            collections: list[str] = []
            stdout = server.stdout

            def keep_reading() -> None:
                for line in stdout:
                    if "garbage collection:" in line:
                        collections.append(line.split("garbage collection: ", 1)[1].strip())

            threading.Thread(target=keep_reading, daemon=True).start()
            asyncio.run(measure(port, server.pid, args.sessions, args.hold, args.clock))
            print(
                "the server's garbage collections of 50 ms or more (10 s periods): "
                + ("; ".join(collections) or "none")
            )
        finally:
            server.terminate()
            server.wait(30)


def start_server(data: str, *options: str) -> tuple[subprocess.Popen[str], int]:
    """A server process on a free port, and the port (its log is read on, so that a full
    pipe never stops it)."""
    serve = [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0", "--data", data]
    server = subprocess.Popen(
        [*serve, *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert server.stdout is not None
    for line in server.stdout:
        found = re.search(r"listening on \S+ port (\d+)", line)
        if found:
            threading.Thread(target=server.stdout.read, daemon=True).start()
            return server, int(found.group(1))
    sys.exit("a server did not start")


def moves(args: argparse.Namespace) -> None:
    """Moves played through `args.processes` servers sharing `args.database`."""
    servers: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory() as data:
        try:
            ports = []
            for number in range(args.processes):
                server, port = start_server(
                    f"{data}/{number}",
                    "--database",
                    args.database,
                    "--connections-per-address",
                    str(args.sessions + 10),
                )
                servers.append(server)
                ports.append(port)
            pids = [server.pid for server in servers]
            low, high = (float(part) for part in args.think.split("-"))
            asyncio.run(measure_moves(ports, pids, args.sessions, args.hold, (low, high)))
        finally:
            for server in servers:
                server.terminate()
                server.wait(30)


async def partitions_moves(one: Client, two: Client, game: Any, deadline: float) -> int:
    """Moves in `game` (the room's, kept from hold to hold) until `deadline`, each
    thought over for 2 to 4 seconds; how many showed."""
    players = (one, two)
    rng = random.Random(id(one) + len(game.moves))
    shown_moves = 0
    while time.monotonic() < deadline and not game.is_over():
        mover, other = players[game.turn], players[1 - game.turn]
        await asyncio.sleep(rng.uniform(2, 4))
        move = game.move_name(rng.choice(list(game.legal_moves())))
        shown = f"{len(game.moves) + 1}. {game.side_to_move().capitalize():<11}{move}"
        try:
            mover.key(":")
            await mover.wait_for("Enter plays, Esc closes", timeout=10)
            mover.key(move + ENTER)
            await other.wait_for(shown, timeout=15)
        except RuntimeError:
            return shown_moves  # never shown: this room stops here
        game.play(move)
        shown_moves += 1
    return shown_moves


async def press_keys(client: Client, deadline: float) -> None:
    """A session that does not move: a cursor key every 0.2 to 0.6 seconds."""
    step = RIGHT
    while time.monotonic() < deadline:
        step = {RIGHT: LEFT, LEFT: RIGHT}[step]
        client.key(step, timed=True)
        await asyncio.sleep(random.uniform(0.2, 0.6))


async def measure_stall(
    port: int, sessions: int, hold: float, stall: float, pause: Any, go_on: Any
) -> None:
    rooms = [
        await partitions_room(port, port, f"s{index}a", f"s{index}b")
        for index in range(max(2, sessions // 2))
    ]
    from abstracts_tui.rules import new_game

    movers, still = rooms[: len(rooms) // 2], rooms[len(rooms) // 2 :]
    games = [new_game("partitions") for _ in movers]
    pressers = [client for room in still for client in room]
    await asyncio.sleep(2)

    async def hold_once(stalled: bool) -> tuple[list[float], int, int]:
        start = time.monotonic()
        deadline = start + hold
        window = (start + (hold - stall) / 2, start + (hold + stall) / 2)
        for client in pressers:
            client.answers.clear()
            client.keys.clear()
            client.pending.clear()
        work = [
            asyncio.ensure_future(partitions_moves(*room, game, deadline))
            for room, game in zip(movers, games, strict=True)
        ]
        work += [asyncio.ensure_future(press_keys(client, deadline)) for client in pressers]
        if stalled:
            await asyncio.sleep(max(0.0, window[0] - time.monotonic()))
            pause()
            try:
                await asyncio.sleep(stall)
            finally:
                go_on()
        made = sum(n for n in await asyncio.gather(*work) if isinstance(n, int))
        await asyncio.sleep(1)
        inside = [
            latency
            for client in pressers
            for sent, latency in client.answers
            if window[0] <= sent < window[1]
        ]
        keys = sum(1 for c in pressers for sent in c.keys if window[0] <= sent < window[1])
        return inside, keys - len(inside), made

    plain, plain_lost, plain_moves = await hold_once(False)
    held, held_lost, held_moves = await hold_once(True)
    print(
        f"sessions: {2 * len(rooms)} ({2 * len(movers)} moving, {len(pressers)} pressing "
        f"cursor keys), hold {hold:.0f} s twice"
    )
    for name, values, lost, made in (
        ("without a stall", plain, plain_lost, plain_moves),
        (f"during a {stall:g} s stall of PostgreSQL", held, held_lost, held_moves),
    ):
        if values:
            median, p95 = figures(values)
            found = f"median {median * 1000:.1f} ms, 95th percentile {p95 * 1000:.1f} ms"
        else:
            found = "no answers"
        print(
            f"key to first byte, sessions that do not move, {name}: {found} "
            f"({len(values)} answers, {lost} keys unanswered; {made} moves shown in the hold)"
        )


def stalled(args: argparse.Namespace) -> None:
    """The stall measurement, on a PostgreSQL and a server of the script's own."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.postgres import cluster

    with cluster() as database, tempfile.TemporaryDirectory() as data:
        url = database.create_database("load")
        server, port = start_server(
            data, "--database", url, "--connections-per-address", str(args.sessions + 10)
        )
        try:
            asyncio.run(
                measure_stall(
                    port, args.sessions, args.hold, args.stall, database.pause, database.go_on
                )
            )
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
