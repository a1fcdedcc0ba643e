"""Hostile clients against the SSH server, and what they cost a quiet player.

Starts `abstracts-tui serve` (a fresh data folder, a password file) and, while a quiet
player in the lobby (a client process of its own, so that the hostile clients' work does
not delay it) presses Tab and times the first byte of each answer, sends in turn:

- oversized terminals: sessions asking for up to 2000x2000, and windows changed to it;
- shrinking terminals: a window changed down to 1x1 and 0x0 and back, again and again;
- a resize storm: SCALE x 1,000 window changes, as fast as they go, from a hot-seat game
  at the largest size drawn, ending at 120x40;
- a connection storm: SCALE x 40 connections at once from one address, none logging in;
- half-open connections: SCALE x 12 TCP connections that send nothing, then a player from
  the same address logs in;
- a guess flood: 8 clients (from 127.0.0.2 to 127.0.0.9) sending wrong passwords, SCALE x
  100 in all, while a player logs in from another address;
- a room flood: one person typing `new pilo` 10 + SCALE x 10 times in line mode, as fast
  as a session's input rate takes them (the first 10 made, the others refused);
- a room churn: one name making open challenges and calling them off from three line-mode
  sessions as fast as it is let, for 10 + SCALE x 10 s, while other names' lobbies sit
  idle (one of them reading nothing): what each is sent, the server's processor time, the
  rooms made, and the archive (which keeps none of them);
- client texts: terminal types with newlines, escapes and 5,000 characters, and chat
  lines that show nothing (Hangul fillers, braille blanks);
- logins without a session: SCALE x 2 addresses, each with as many connections as it may
  have, logged in and opening none; a player from one of them gets in once they are
  closed (30 s).

Prints per attack the cases sent, what did not hold, and the quiet player's key to first
byte (median, 95th percentile, worst); a login's time without and with the flood; the
server's peak memory (VmHWM).

    python scripts/hostile_ssh.py [--scale N]

`run(scale)` returns the figures as a dict (`scripts/hostile.py` runs it with the others).
The tests (tests/hostile/test_ssh.py) send the same attacks at small counts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from abstracts_tui.rooms.bounds import ROOMS_AT_ONCE, ROOMS_PER_MINUTE  # noqa: E402
from abstracts_tui.rooms.rooms import WAITING_ROOMS  # noqa: E402
from abstracts_tui.server.auth import hash_password  # noqa: E402
from abstracts_tui.server.limits import (  # noqa: E402
    MAX_COLUMNS,
    MAX_ROWS,
    MIN_ROWS,
    Limits,
    clamp_size,
)
from abstracts_tui.tui.rooms.resizes import layout_spacing  # noqa: E402
from tests.ssh.conftest import RunningServer  # noqa: E402

PASSWORD = "hostile-s3cret"
NAMES = ("quiet", "ann", "bob", "carl", "dan", "eve", "fay")
TAB, ENTER = "\t", "\r"
TIMEOUT = 60.0
CURSOR = re.compile(r"\x1b\[(\d+);(\d+)H")
"""Where Textual puts each line it draws (row;column)."""
FLOOD_CLIENTS = 8
OPTIONS: dict[str, Any] = {"known_hosts": None, "client_keys": None, "agent_path": None}


# -- the server and its clients ------------------------------------------------------------


def start_server(folder: Path, *args: str) -> RunningServer:
    """The real server, every name in `NAMES` with the password `PASSWORD`."""
    folder.mkdir(parents=True, exist_ok=True)
    passwords = folder / "passwords"
    stored = hash_password(PASSWORD)
    passwords.write_text("".join(f"{name}:{stored}\n" for name in NAMES))
    server = RunningServer(folder / "data", ["--password-file", str(passwords), *args])
    return server.wait_listening()


def peak_mib(pid: int) -> float | None:
    """The process's peak resident memory (VmHWM), in MiB."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


class Sink(asyncssh.SSHClientSession[str]):
    """A terminal that draws nothing: it counts what arrives, and keeps it if asked."""

    def __init__(self, keep: bool = False) -> None:
        self.keep = keep
        self.kept: list[str] = []
        self.received = 0
        self.last = time.monotonic()
        self.arrived = asyncio.Event()
        self.closed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel[str] | None = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: str, datatype: Any) -> None:
        self.received += len(data)
        self.last = time.monotonic()
        if self.keep:
            self.kept.append(data)
        self.arrived.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.arrived.set()

    def text(self) -> str:
        return "".join(self.kept)

    def send(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys)

    def resize(self, width: int, height: int) -> None:
        assert self.chan is not None
        self.chan.change_terminal_size(width, height)

    async def settle(self, quiet: float = 0.4, timeout: float = TIMEOUT) -> bool:
        """Wait until something new arrives and then nothing for `quiet` seconds; False
        if nothing new came within `timeout` (or the session closed)."""
        before = self.received
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.closed.is_set():
            if self.received > before and time.monotonic() - self.last >= quiet:
                return True
            await asyncio.sleep(quiet / 4)
        return False

    async def drawn(self, quiet: float = 0.4, timeout: float = TIMEOUT) -> int:
        """Wait until a frame has drawn a row (what comes first may be only the terminal's
        setup: on a loaded machine the first layout comes later than a quiet spell) and
        then nothing came for `quiet` seconds; the lowest row drawn (0 if none came)."""
        deadline = time.monotonic() + timeout
        while not rows_drawn(self.text()) and time.monotonic() < deadline:
            if self.closed.is_set():
                break
            await asyncio.sleep(0.05)
        while time.monotonic() - self.last < quiet and time.monotonic() < deadline:
            await asyncio.sleep(quiet / 4)
        return rows_drawn(self.text())

    async def first_byte(self, keys: str, timeout: float = 10.0) -> float:
        """Seconds from sending `keys` to the first byte after them (`timeout` if none)."""
        before = self.received
        start = time.monotonic()
        self.send(keys)
        while self.received == before and not self.closed.is_set():
            self.arrived.clear()
            left = start + timeout - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)
        return time.monotonic() - start if self.received > before else timeout


async def login(
    port: int,
    user: str,
    *,
    width: int = 100,
    height: int = 30,
    source: str = "127.0.0.1",
    keep: bool = False,
) -> tuple[asyncssh.SSHClientConnection, Sink]:
    """Log in as `user` from `source` with a terminal of `width` x `height`."""
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=user,
        password=PASSWORD,
        local_addr=(source, 0),
        preferred_auth="password",
        **OPTIONS,
    )
    _, sink = await conn.create_session(
        lambda: Sink(keep),
        term_type="xterm-256color",
        term_size=(width, height),
        encoding="utf-8",
    )
    return conn, sink


def rows_drawn(text: str) -> int:
    """The lowest row a frame in `text` drew on (0 if none)."""
    return max((int(row) for row, _ in CURSOR.findall(text)), default=0)


def layout_wait(width: int = MAX_COLUMNS, height: int = MAX_ROWS) -> float:
    """Long enough for the layout of a window change to `width` x `height` to come (the
    server spaces layouts by their size)."""
    width, height = clamp_size(width, height)
    return layout_spacing(width, height) + 0.3


def last_frame(text: str) -> str:
    """What was drawn from the last frame of the whole screen (from its first line) on."""
    return text[text.rfind("\x1b[1;1H") :]


class Quiet:
    """The quiet player: a client process of its own in the lobby, timing Tab's answers."""

    def __init__(self, port: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--quiet-client", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
        )
        self.samples: list[tuple[float, float]] = []
        """(when, milliseconds) for each key."""
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        if not self.ready.wait(TIMEOUT):
            self.stop()
            raise RuntimeError("the quiet client did not start:\n" + "".join(self.lines))

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if line.startswith("ready"):
                self.ready.set()
            with contextlib.suppress(ValueError):
                self.samples.append((time.monotonic(), float(line)))

    def since(self, start: float) -> list[float]:
        return [ms for when, ms in self.samples if when >= start]

    def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


async def quiet_client(port: int) -> None:
    """The quiet player's process: print one time (ms) per Tab, until terminated."""
    conn, sink = await login(port, "quiet", width=100, height=30)
    await sink.settle()
    print("ready", flush=True)
    while not sink.closed.is_set():
        seconds = await sink.first_byte(TAB)
        print(f"{seconds * 1000:.2f}", flush=True)
        await asyncio.sleep(0.05)
    conn.close()


@dataclass
class Stalls:
    """A quiet player's times while an attack ran, in milliseconds."""

    values: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else 0.0

    @property
    def p95(self) -> float:
        ordered = sorted(self.values)
        return ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0

    @property
    def worst(self) -> float:
        return max(self.values, default=0.0)

    def __str__(self) -> str:
        return (
            f"median {self.median:.0f} ms, p95 {self.p95:.0f} ms, worst {self.worst:.0f} ms "
            f"({len(self.values)} keys)"
        )


@dataclass
class Outcome:
    """What one attack sent and what did not hold."""

    name: str
    cases: int = 0
    failures: list[str] = field(default_factory=list)
    stalls: Stalls = field(default_factory=Stalls)
    notes: list[str] = field(default_factory=list)


# -- the attacks -----------------------------------------------------------------------------

HUGE = [(2000, 2000), (1000, 1000), (MAX_COLUMNS + 1, MAX_ROWS + 1)]
"""Sizes asked for (not 65535x65535: should the bound ever be lost, the machine survives)."""


async def oversized(port: int, count: int) -> Outcome:
    """Sessions asking for huge terminals, and windows changed to huge sizes: every frame
    is drawn within the largest size, the session answers, nothing is refused."""
    outcome = Outcome("oversized terminals")
    for number in range(count):
        width, height = HUGE[number % len(HUGE)]
        conn, sink = await login(port, "ann", width=width, height=height, keep=True)
        drawn = await sink.drawn()
        outcome.cases += 1
        if drawn != MAX_ROWS:
            outcome.failures.append(f"a {width}x{height} terminal was drawn on {drawn} rows")
        sink.kept.clear()
        # Smaller and back to the largest in one go: drawn whole again at that size.
        sink.resize(100, 30)
        sink.resize(*HUGE[(number + 1) % len(HUGE)])
        outcome.cases += 1
        await sink.settle(quiet=layout_wait())
        drawn = rows_drawn(last_frame(sink.text()))
        if drawn != MAX_ROWS:
            outcome.failures.append(f"a window changed to a huge size was drawn on {drawn} rows")
        if sink.closed.is_set():
            outcome.failures.append(f"a {width}x{height} session was closed")
        conn.close()
    return outcome


SHRINKING = [(50, 15), (20, 6), (5, 2), (60, 20), (1, 1), (0, 0), (100, 30)]
"""Window sizes in turn: 5x2 and 1x1 are drawn as 20x6; 0x0 (no size) changes nothing."""


async def shrinking(port: int, count: int) -> Outcome:
    """A window changed down to 1x1 (and 0x0) and back, `count` times: small sizes are
    drawn at the smallest size or more, and the app goes on answering."""
    outcome = Outcome("shrinking terminals")
    conn, sink = await login(port, "bob", keep=True)
    await sink.settle()
    drawn_for = (100, 30)
    for _ in range(count):
        for width, height in SHRINKING:
            sink.kept.clear()
            sink.resize(width, height)
            outcome.cases += 1
            before, drawn_for = drawn_for, clamp_size(width, height) if width else drawn_for
            # A size drawn as the one before changes nothing on the screen: a short wait.
            wait = layout_wait(*drawn_for)
            await sink.settle(quiet=wait, timeout=5 if drawn_for != before else 1)
            drawn = rows_drawn(last_frame(sink.text()))
            if width > 0 and height > 0 and drawn > max(height, MIN_ROWS):
                outcome.failures.append(f"a {width}x{height} window was drawn on {drawn} rows")
        if await sink.first_byte(TAB) >= 10.0:
            outcome.failures.append("the app stopped answering after its window shrank")
    conn.close()
    return outcome


async def resize_storm(port: int, count: int, game: bool = True) -> Outcome:
    """A hot-seat game (or with `game` False the lobby) at the largest size, then `count`
    window changes as fast as they go: the app ends drawn for the last size."""
    outcome = Outcome("resize storm")
    conn, sink = await login(port, "carl", width=2000, height=2000, keep=True)
    await sink.settle()
    if game:
        sink.send("h")
        await sink.settle()
        sink.send(ENTER)  # the game chosen first, at its default size
        await sink.settle()
    start = time.monotonic()
    for number in range(count):
        sink.resize(MAX_COLUMNS - number % 97, MAX_ROWS - number % 53)
        outcome.cases += 1
        if number % 100 == 0:
            await asyncio.sleep(0)  # let the client send them
    sink.resize(120, 40)
    await sink.settle(quiet=layout_wait())  # the layout waiting was spaced for 500x200
    outcome.notes.append(f"{count} window changes settled in {time.monotonic() - start:.1f} s")
    drawn = rows_drawn(last_frame(sink.text()))
    if drawn != 40:
        outcome.failures.append(f"after the storm the game was drawn on {drawn} rows, not 40")
    if sink.closed.is_set():
        outcome.failures.append("the storm's session was closed")
    conn.close()
    return outcome


class Stalling(asyncssh.SSHClient):
    """Asks to log in, then never gives the password the server asks for."""

    async def password_auth_requested(self) -> str:
        await asyncio.sleep(TIMEOUT)
        return "too late"


async def connection_storm(port: int, count: int, source: str = "127.0.0.40") -> Outcome:
    """`count` connections at once from one address, each asking to log in and then
    saying nothing more: as many as the limit are let in to log in, and closed when their
    time is up; the others are refused with the limit's sentence. Then a player from the
    address gets in."""
    outcome = Outcome("connection storm")

    async def one() -> str:
        try:
            async with asyncssh.connect(
                "127.0.0.1",
                port,
                username="eve",
                local_addr=(source, 0),
                client_factory=Stalling,
                preferred_auth="password",
                **OPTIONS,
            ):
                return "logged in without a password"
        except (BrokenPipeError, ConnectionResetError, asyncssh.ConnectionLost):
            # Closed by the server (to make room, or its time up) while the client was
            # still writing: the reset came before the sentence could be read. (Before
            # DisconnectError: asyncssh's ConnectionLost is one.)
            return "closed"
        except asyncssh.DisconnectError as error:
            for expected in (
                "logged in or logging in already",
                "make room",
                "not logged in",
                "no login asked for",  # on a loaded machine, keys exchanged too slowly
            ):
                if expected in error.reason:
                    return expected
            return f"disconnected: {error.reason}"
        except (OSError, asyncssh.Error) as error:
            return f"{type(error).__name__}: {error}"

    results = await asyncio.wait_for(asyncio.gather(*(one() for _ in range(count))), TIMEOUT)
    outcome.cases = count
    for result in sorted(set(results)):
        outcome.notes.append(f"{results.count(result)} x {result!r}")
        if result.startswith(("disconnected", "logged in without")) or ":" in result:
            outcome.failures.append(f"{results.count(result)} connections: {result}")
    if not {"logged in or logging in already", "make room"} & set(results):
        outcome.failures.append("no connection was refused by the limit per address")
    try:
        conn, sink = await login(port, "eve", source=source)
        await sink.settle()
        conn.close()
    except (OSError, asyncssh.Error) as error:
        outcome.failures.append(f"no login from the address after the storm: {error!r}")
    return outcome


async def half_open(
    port: int, count: int, silent_seconds: float, source: str = "127.0.0.41"
) -> Outcome:
    """`count` TCP connections that send nothing, held; a player from the same address
    gets in; the silent ones are closed by the server within `silent_seconds` (and a
    margin)."""
    outcome = Outcome("half-open connections")
    held = []
    for _ in range(count):
        held.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)))
        outcome.cases += 1
    opened = time.monotonic()
    try:
        conn, sink = await asyncio.wait_for(login(port, "dan", source=source), TIMEOUT)
        await sink.settle()
        conn.close()
    except (OSError, asyncssh.Error, TimeoutError) as error:
        outcome.failures.append(f"a player behind {count} silent connections: {error!r}")

    async def closed(reader: asyncio.StreamReader) -> bool:
        with contextlib.suppress(OSError):
            while await reader.read(4096):
                pass
        return True

    left = opened + silent_seconds + 10 - time.monotonic()
    ends = await asyncio.gather(
        *(asyncio.wait_for(closed(reader), max(left, 1)) for reader, _ in held),
        return_exceptions=True,
    )
    still = sum(1 for end in ends if end is not True)
    if still:
        outcome.failures.append(f"{still} silent connections still open after {left:.0f} s")
    outcome.notes.append(f"every silent connection closed within {silent_seconds + 10:g} s")
    for _, writer in held:
        writer.close()
    return outcome


class Guesser(asyncssh.SSHClient):
    """Sends a wrong password each time the server asks for one."""

    def __init__(self, guesses: list[int]) -> None:
        self.guesses = guesses
        self.sent = 0

    def password_auth_requested(self) -> str:
        self.sent += 1
        self.guesses[0] += 1
        return f"guess-{self.guesses[0]}"


async def timed_login(port: int, source: str) -> float:
    """Seconds for a player from `source` to log in (the password checked)."""
    start = time.monotonic()
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username="quiet",
        password=PASSWORD,
        local_addr=(source, 0),
        preferred_auth="password",
        **OPTIONS,
    )
    elapsed = time.monotonic() - start
    conn.close()
    return elapsed


async def guesses_on_one_connection(
    port: int, tries: int, log: Callable[[], str], source: str = "127.0.0.50"
) -> Outcome:
    """Wrong passwords on one connection: it is closed after `tries`, with a sentence."""
    outcome = Outcome("guesses on one connection")
    guesses = [0]
    client = Guesser(guesses)
    try:
        await asyncssh.connect(
            "127.0.0.1",
            port,
            username="ann",
            local_addr=(source, 0),
            client_factory=lambda: client,
            preferred_auth="password",
            **OPTIONS,
        )
        outcome.failures.append("a wrong password logged in")
    except asyncssh.DisconnectError as error:
        if error.reason != f"{tries} wrong passwords: closed":
            outcome.failures.append(f"closed with {error.reason!r}")
    except OSError:  # closed as the client sent its next guess: the log says why
        pass
    # The client sends its next guess as soon as it is told no: the last is unanswered.
    outcome.cases = client.sent
    if client.sent - 1 != tries:
        outcome.failures.append(f"{client.sent - 1} wrong passwords answered on one connection")
    said = f"closed a connection from {source}: {tries} wrong passwords"
    for _ in range(50):  # the server's log is read as it comes
        if said in log():
            break
        await asyncio.sleep(0.1)
    else:
        outcome.failures.append("the log does not say why the connection was closed")
    return outcome


async def guess_flood(port: int, count: int, addresses: int = FLOOD_CLIENTS) -> Outcome:
    """8 clients from `addresses` addresses (127.0.0.2 on) sending wrong passwords
    (`count` in all, reconnecting whenever closed) while players log in from other
    addresses: each flooding address soon has its guesses refused unchecked, and a login
    from elsewhere waits for one check at most."""
    outcome = Outcome("guess flood")
    alone = [await timed_login(port, f"127.0.0.{20 + n}") for n in range(3)]
    guesses = [0]
    reasons: dict[str, int] = {}

    async def flood(source: str) -> None:
        while True:
            client = Guesser(guesses)
            try:
                await asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username="ann",
                    local_addr=(source, 0),
                    client_factory=lambda: client,  # noqa: B023 (used at once)
                    preferred_auth="password",
                    **OPTIONS,
                )
                outcome.failures.append("a wrong password logged in")
            except asyncssh.DisconnectError as error:
                reason = re.sub(r"\d+ seconds", "N seconds", error.reason)
                reasons[reason] = reasons.get(reason, 0) + 1
            except (OSError, asyncssh.Error):
                pass

    floods = [
        asyncio.create_task(flood(f"127.0.0.{2 + n % addresses}")) for n in range(FLOOD_CLIENTS)
    ]
    while guesses[0] < min(count, 2 * FLOOD_CLIENTS):  # every flooding address has failed
        await asyncio.sleep(0.1)
    flooded = [await timed_login(port, f"127.0.0.{30 + n}") for n in range(3)]
    while guesses[0] < count:
        await asyncio.sleep(0.1)
    for task in floods:  # their connections waiting for an answer are dropped
        task.cancel()
    await asyncio.gather(*floods, return_exceptions=True)
    outcome.cases = guesses[0]
    outcome.notes.append(
        f"a login alone {statistics.median(alone):.2f} s, during the flood "
        f"{statistics.median(flooded):.2f} s (medians of 3; the worst during it "
        f"{max(flooded):.2f} s)"
    )
    for reason, times in sorted(reasons.items()):
        outcome.notes.append(f"{times} x {reason!r}")
    if not any(reason.startswith("too many wrong passwords") for reason in reasons):
        outcome.failures.append("no flooding address had its guesses refused")
    if max(flooded) > statistics.median(alone) + 2.0:
        outcome.failures.append(
            f"a login took {max(flooded):.2f} s during the flood, "
            f"{statistics.median(alone):.2f} s without"
        )
    return outcome


async def room_flood(port: int, count: int) -> Outcome:
    """One person making rooms in a loop, in line mode (`new pilo`, then `leave`): the
    first `WAITING_ROOMS` are made, every later one refused in its sentence, the session
    answering all along."""
    outcome = Outcome("room flood")
    conn = await asyncssh.connect(
        "127.0.0.1", port, username="eve", password=PASSWORD, preferred_auth="password", **OPTIONS
    )
    _, sink = await conn.create_session(lambda: Sink(keep=True), "lines", encoding="utf-8")
    await sink.settle()
    # As fast as a session's input is taken (`Limits.input_burst` at once, then
    # `input_rate` a second): beyond it keys are dropped, and the lines with them.
    limits, line = Limits(), "new pilo\nleave\n"
    sent, start = 0.0, time.monotonic()
    for _ in range(count):
        # At 90% of what is allowed by then: the server's clock is not the script's.
        due = ((sent + len(line)) / 0.9 - limits.input_burst) / limits.input_rate
        await asyncio.sleep(max(0.0, start + due - time.monotonic()))
        sink.send(line)
        sent += len(line)
        outcome.cases += 1
    sink.send("rooms\n")
    deadline = time.monotonic() + TIMEOUT
    while sink.text().count("Not made:") + sink.text().count(": Pilo 8x8, eve against") < count:
        if time.monotonic() > deadline or sink.closed.is_set():
            break
        await sink.settle(quiet=0.2, timeout=1.0)
    text = sink.text()
    made = len(re.findall(r"Room \w{4}: Pilo 8x8, eve against whoever joins", text))
    refused = text.count(f"Not made: you have {WAITING_ROOMS} rooms waiting for a player")
    if made != min(count, WAITING_ROOMS) or made + refused != count:
        outcome.failures.append(f"{count} rooms asked for: {made} made, {refused} refused")
    if sink.closed.is_set():
        outcome.failures.append("the session making rooms was closed")
    outcome.notes.append(f"{made} made, {refused} refused")
    conn.close()
    return outcome


STALLED_WINDOW = 64 * 1024
"""The SSH window of the room churn's lobby that stops reading."""
CHURN_SECONDS = 20.0
"""How long the room churn runs at scale 1 (10 s more for each scale above)."""


def tree_seconds(pid: int) -> float:
    """The processor time (user and system) of process `pid` and of every process under
    it, in seconds (the sessions' apps run in processes of their own)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            parents[int(entry.name)] = int(fields[1])
            times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        here = todo.pop()
        total += times.get(here, 0.0)
        todo += [child for child, parent in parents.items() if parent == here]
    return total


async def said(
    sink: Sink, start: int, pattern: str, timeout: float = TIMEOUT
) -> re.Match[str] | None:
    """The first match of `pattern` in what `sink` kept from character `start` on (waited
    for up to `timeout` seconds); None if it never came."""
    deadline = time.monotonic() + timeout
    while True:
        found = re.compile(pattern).search(sink.text(), start)
        if found or time.monotonic() > deadline or sink.closed.is_set():
            return found
        sink.arrived.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sink.arrived.wait(), 0.5)


async def lines_session(port: int, user: str) -> tuple[asyncssh.SSHClientConnection, Sink]:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, password=PASSWORD, preferred_auth="password", **OPTIONS
    )
    _, sink = await conn.create_session(lambda: Sink(keep=True), "lines", encoding="utf-8")
    await said(sink, 0, r"Type .*\n")
    return conn, sink


async def room_churn(port: int, pid: int, seconds: float) -> Outcome:
    """One name (fay) making open challenges and calling them off as fast as the server
    lets it, from three line-mode sessions, for `seconds`, while other names' lobbies
    sit idle: a full screen that reads, one that stops reading (as ctrl+s or a laptop
    asleep), and one in line mode. The figures: rooms made and refused, what each idle
    lobby was sent, the server's processor time (its sessions' processes too), and how
    many of the rooms the archive keeps. What must hold: no more rooms are made than
    `ROOMS_AT_ONCE` and `ROOMS_PER_MINUTE` allow, the lobby that stops reading is not
    closed, and no room called off before anybody joined is kept."""
    outcome = Outcome("room churn")
    # Names whose sessions before left no game to resume (a dialog, not the lobby).
    reading_conn, reading = await login(port, "dan", keep=True)
    stalled_conn = await asyncssh.connect(
        "127.0.0.1", port, username="bob", password=PASSWORD, preferred_auth="password", **OPTIONS
    )
    # A window of its own of 64 KiB (OpenSSH's is 2 MiB): the server's buffer fills sooner.
    _, stalled = await stalled_conn.create_session(
        lambda: Sink(keep=True),
        term_type="xterm-256color",
        term_size=(100, 30),
        encoding="utf-8",
        window=STALLED_WINDOW,
    )
    line_conn, line = await lines_session(port, "ann")
    for name, sink in (("dan", reading), ("bob", stalled)):
        if not await sink.drawn():
            outcome.failures.append(f"{name}'s lobby was not drawn: {sink.text()[-200:]!r}")
    assert stalled.chan is not None
    stalled.chan.pause_reading()  # nothing more is read: the server's window fills
    made, refused, other = [0], [0], [0]
    before = {sink: sink.received for sink in (reading, line)}
    cpu, start = tree_seconds(pid), time.monotonic()

    async def churn() -> None:
        conn, sink = await lines_session(port, "fay")
        while time.monotonic() - start < seconds and not sink.closed.is_set():
            mark = len(sink.text())
            sink.send("new pilo open\n")
            outcome.cases += 1
            answer = await said(sink, mark, r"(Room \w{4}: Pilo|Not made: [^\n]*)")
            if answer is None:
                other[0] += 1
                last = sink.text()[mark:][-200:]
                outcome.notes.append(f"no answer to `new`; after it: {last!r}")
                break
            if answer.group(0).startswith("Not made"):
                refused[0] += 1
                wait = re.search(r"wait (\d+) s", answer.group(0))  # as soon as allowed
                await asyncio.sleep(int(wait.group(1)) if wait else 1.0)
                continue
            made[0] += 1
            sink.send("abort\nleave\n")
            await said(sink, mark, r"You leave room[^\n]*\n(.*\n)*Type [^\n]*\n")
        conn.close()

    await asyncio.gather(*(churn() for _ in range(3)))
    elapsed = time.monotonic() - start
    spent = tree_seconds(pid) - cpu
    sent = {sink: sink.received - count for sink, count in before.items()}
    outcome.notes.append(
        f"{made[0]} rooms made and called off, {refused[0]} refused, in {elapsed:.0f} s; "
        f"the server's processor time {spent:.1f} s"
    )
    outcome.notes.append(
        f"an idle lobby was sent {sent[reading] / 1024:.0f} KiB on the full screen, "
        f"{sent[line] / 1024:.1f} KiB in line mode"
    )
    if other[0]:
        outcome.failures.append(f"{other[0]} room churners got no answer")
    allowed = ROOMS_AT_ONCE + ROOMS_PER_MINUTE * elapsed / 60
    if made[0] > allowed + 1:
        outcome.failures.append(f"{made[0]} rooms made in {elapsed:.0f} s by one name")
    # The lobby that stopped reading reads again (what was held comes at once): it is
    # still there, and sent what it missed.
    await asyncio.sleep(2.0)
    stalled.chan.resume_reading()
    held = stalled.received
    await stalled.settle(quiet=0.5, timeout=5)
    if stalled.closed.is_set():
        outcome.failures.append("the lobby that stopped reading was closed")
    outcome.notes.append(
        f"the lobby that stopped reading: {held / 1024:.0f} KiB in all until it read "
        f"again, {(stalled.received - held) / 1024:.0f} KiB after"
    )
    kept = await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1",
            port,
            username="quiet",
            password=PASSWORD,
            preferred_auth="password",
            **OPTIONS,
        ),
        TIMEOUT,
    )
    listed = await kept.run("games fay", timeout=TIMEOUT)
    kept.close()
    rows = str(listed.stdout).count("aborted")
    outcome.notes.append(f"the archive keeps {rows} of the rooms called off")
    if rows:
        outcome.failures.append(f"{rows} rooms called off before anybody joined are kept")
    for conn in (reading_conn, stalled_conn, line_conn):
        conn.close()
    return outcome


FORGED = "2026-01-01 00:00:00 root: the server stops now"
"""A line of the server's log, which a newline in a client's text would start."""
HOSTILE_TERMS = (
    f"xterm\n{FORGED}",
    "xterm\x1b]0;owned\x07",
    "xterm\x1b[2J\x1b[3J\x1bc",
    "xterm\x1b]52;c;c2VjcmV0\x07",
    "\x00\x7f\r\t",
    "A" * 5000,
)
"""Terminal types that a log written raw would show as a forged line, a title, a cleared
screen, a clipboard write, or 5,000 characters (ASCII: asyncssh refuses any other)."""
BLANK_CHAT = (
    "\u3164" * 20,
    "\u115f\u1160\uffa0",
    "\u2800" * 60,
    "\u3164 \u2800\u200b\u2060\ufeff\u00ad\u034f\ufe0f\u3000",
    "\x1b[2J\u202e\u200f",
)
"""Chat lines that show nothing: Hangul fillers, braille blanks, invisible characters."""


async def client_texts(port: int, log: Callable[[], str]) -> Outcome:
    """Terminal types (`HOSTILE_TERMS`) each in a session of its own, and chat lines that
    show nothing (`BLANK_CHAT`) said in a room by lines. What must hold: the log has no
    escape, no forged line, and each terminal type on one line cut to its bound; each
    blank line is refused with its sentence."""
    outcome = Outcome("client texts")
    for term in HOSTILE_TERMS:
        conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username="eve",
            password=PASSWORD,
            preferred_auth="password",
            **OPTIONS,
        )
        _, sink = await conn.create_session(
            lambda: Sink(keep=True), term_type=term, term_size=(100, 30), encoding="utf-8"
        )
        if not await sink.drawn():
            outcome.failures.append(f"no screen for the terminal type {term[:20]!r}")
        conn.close()
        outcome.cases += 1
    await asyncio.sleep(1.0)  # the sessions' lines reach the log
    text = log()
    if "\x1b" in text or "\x07" in text:
        outcome.failures.append("an escape sequence was written to the log")
    if any(line.startswith(FORGED) for line in text.splitlines()):
        outcome.failures.append("a client's newline forged a line of the log")
    started = [line for line in text.splitlines() if "eve: session started" in line]
    if any(len(line) > 200 for line in started):
        outcome.failures.append("a terminal type was logged whole")
    conn, sink = await lines_session(port, "dan")
    mark = len(sink.text())
    sink.send("new pilo\n")
    if await said(sink, mark, r"Room \w{4}: Pilo") is None:
        outcome.failures.append("no room to chat in")
    for line in BLANK_CHAT:
        mark = len(sink.text())
        sink.send(f"say {line}\n")
        answer = await said(sink, mark, r"(Not said: [^\n]*|dan says: [^\n]*)")
        if answer is None or answer.group(0) != "Not said: There is nothing to say in that line.":
            outcome.failures.append(f"a blank chat line was said: {line[:20]!r}")
        outcome.cases += 1
    sink.send("abort\nleave\n")
    conn.close()
    return outcome


# -- all of them -------------------------------------------------------------------------


async def idle_logins(port: int, addresses: int, seconds: float) -> Outcome:
    """From each of `addresses` addresses (127.0.0.60 on), as many connections as an
    address may have, logged in and opening no session: a player from the last (whose
    connections were made last: at a large scale the first address's may have been
    closed already) is refused while they are held, they are closed within `seconds`
    (the bound on a login without a session, and a margin), and the player gets in
    then."""
    outcome = Outcome("logins without a session")
    per_address = Limits().connections_per_address
    sources = [f"127.0.0.{60 + n}" for n in range(addresses)]
    held: list[asyncssh.SSHClientConnection] = []
    for source in sources:
        for _ in range(per_address):
            with contextlib.suppress(OSError, asyncssh.Error):
                held.append(
                    await asyncssh.connect(
                        "127.0.0.1",
                        port,
                        username="eve",
                        password=PASSWORD,
                        preferred_auth="password",
                        local_addr=(source, 0),
                        **OPTIONS,
                    )
                )
            outcome.cases += 1
    opened = time.monotonic()
    if len(held) < outcome.cases:
        outcome.failures.append(f"{outcome.cases - len(held)} of the logins were refused")
    try:
        conn, _ = await login(port, "dan", source=sources[-1])
        conn.close()
        outcome.failures.append("a player was let in beside a full address's connections")
    except asyncssh.DisconnectError:
        pass  # refused, as the address's connections are all logged in
    ends = await asyncio.gather(
        *(asyncio.wait_for(conn.wait_closed(), seconds + 10) for conn in held),
        return_exceptions=True,
    )
    still = sum(1 for end in ends if isinstance(end, TimeoutError))
    if still:
        outcome.failures.append(
            f"{still} logins without a session still open after {seconds + 10:g} s"
        )
    outcome.notes.append(f"closed in {time.monotonic() - opened:.0f} s")
    try:
        conn, sink = await asyncio.wait_for(login(port, "dan", source=sources[-1]), TIMEOUT)
        await sink.settle()
        conn.close()
        outcome.cases += 1
    except (OSError, asyncssh.Error, TimeoutError) as error:
        outcome.failures.append(f"the player was not let in once they were closed: {error!r}")
    return outcome


async def attacks(
    server: RunningServer, quiet: Quiet, scale: int, silent_seconds: float
) -> list[Outcome]:
    port = server.port
    outcomes: list[Outcome] = []
    steps: list[Callable[[], Any]] = [
        lambda: oversized(port, 4 * scale),
        lambda: shrinking(port, scale),
        lambda: resize_storm(port, 1000 * scale),
        lambda: connection_storm(port, 40 * scale),
        lambda: half_open(port, 12 * scale, silent_seconds),
        lambda: guesses_on_one_connection(port, 3, lambda: server.log),
        lambda: guess_flood(port, 100 * scale),
        lambda: room_flood(port, WAITING_ROOMS + 10 * scale),
        lambda: room_churn(port, server.process.pid, CHURN_SECONDS + 10 * (scale - 1)),
        lambda: idle_logins(port, 2 * scale, Limits().no_session_seconds),
        lambda: client_texts(port, lambda: server.log),
    ]
    for step in steps:
        start = time.monotonic()
        outcome = await step()
        outcome.stalls = Stalls(quiet.since(start))
        outcomes.append(outcome)
    return outcomes


def attack(scale: int, *options: str) -> tuple[list[Outcome], list[str], float | None, str]:
    """Every attack at `scale` against a fresh server (started with `options`): what each
    sent and cost, what did not hold, the server's peak memory in MiB and its log."""
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder), *options)
        try:
            quiet = Quiet(server.port)
            try:
                outcomes = asyncio.run(attacks(server, quiet, scale, Limits().silent_seconds))
            finally:
                quiet.stop()
            peak = peak_mib(server.process.pid)
            alive = server.process.poll() is None
        finally:
            server.stop()
    failures = [f"{o.name}: {failure}" for o in outcomes for failure in o.failures]
    if not alive:
        failures.append("the server process ended")
    if "Traceback" in server.log:
        failures.append("the server's log has a traceback")
    return outcomes, failures, peak, server.log


def long_collections(log: str) -> str:
    """The server's garbage collections that took 50 ms or more, from its log
    (`server/collector.py` says them every 10 s)."""
    said = re.findall(r"garbage collection: (\d+) pause.*?the longest (\d+) ms", log)
    if not said:
        return "none"
    return f"{sum(int(n) for n, _ in said)}, the longest {max(int(ms) for _, ms in said)} ms"


def loop_waits(log: str) -> str:
    """The waits of the server's loop of 50 ms or more, from its log (`server/lateness.py`
    says them every 10 s): how many, the longest and what held it, and how many the
    loop's own work made (the rest waited for a processor, given to other processes)."""
    said = re.findall(
        r"the server's loop: (\d+) wait.*?the longest (\d+) ms \(([^)]*)\); "
        r"(\d+) with (\d+) ms or more of its own work(?: \(the most (\d+) ms\))?",
        log,
    )
    if not said:
        return "none"
    count = sum(int(line[0]) for line in said)
    longest = max(said, key=lambda line: int(line[1]))
    own = sum(int(line[3]) for line in said)
    most = max((int(line[5]) for line in said if line[5]), default=0)
    held = f"{own} (the most {most} ms)" if own else "none"
    return (
        f"{count}, the longest {longest[1]} ms ({longest[2]}); "
        f"with {said[0][4]} ms or more of its own work: {held}"
    )


def run(scale: int) -> dict[str, Any]:
    """The figures of `attack(scale)` for scripts/hostile.py."""
    outcomes, failures, peak, _ = attack(scale)
    return {
        "area": "ssh",
        "cases": sum(o.cases for o in outcomes),
        "failures": failures,
        "worst_stall_ms": max((o.stalls.worst for o in outcomes), default=None),
        "peak_mib": peak,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--server-log", type=Path, metavar="FILE", help="write the server's log")
    parser.add_argument(
        "--threads",
        action="store_true",
        help="serve --threads: each session's app on a thread of the server's process",
    )
    parser.add_argument("--quiet-client", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quiet_client:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(quiet_client(args.quiet_client))
        return
    outcomes, failures, peak, log = attack(args.scale, *(["--threads"] if args.threads else []))
    if args.server_log:
        args.server_log.write_text(log, encoding="utf-8")
    for outcome in outcomes:
        print(f"{outcome.name}: {outcome.cases} cases; the quiet player: {outcome.stalls}")
        for note in outcome.notes:
            print(f"    {note}")
    every = Stalls([ms for outcome in outcomes for ms in outcome.stalls.values])
    print(f"cases: {sum(outcome.cases for outcome in outcomes)}")
    print(f"the quiet player, all along: {every}")
    print(f"the server's peak memory: {peak or 0:.0f} MiB")
    print(f"the server's garbage collections of 50 ms or more: {long_collections(log)}")
    print(f"the server's loop, waits of 50 ms or more: {loop_waits(log)}")
    print(f"failures: {len(failures)}")
    for failure in failures:
        print(f"  - {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
