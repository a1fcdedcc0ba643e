"""The server's store and files under hostile conditions, at any count: the cases that
`test_store.py` runs at small counts and `scripts/hostile_store.py` at larger ones.

Each case runs the real program (the `serve` command, real SSH clients, a real PostgreSQL
server) and returns a `Report`: how many hostile inputs it made, one sentence for each
thing that did not hold, the delays a quiet player saw meanwhile, and the server's peak
memory. What must hold:

- a store file that is empty, cut short, garbage or damaged anywhere is refused at the
  start in one sentence naming it (exit status 2, no usage text, no traceback) and never
  written to; a damage that SQLite does not see leaves a store that works;
- damage done while the server runs is told to the players (`Not being saved: ...`),
  logged once, and the file is not written to from then on; the next start refuses it;
- whatever the umask, the players' folders are 0700 and their files 0600;
- temporary files left by killed writers are removed at the start, and nothing else;
- after a database outage the players of two processes see each other connected and
  their moves go through;
- while the store keeps no change (the database stopped, another program's lock) the
  mover's clock is held on every screen, runs on after, and nobody loses on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import asyncssh

from abstracts_tui.records import Record
from abstracts_tui.rules import new_game
from abstracts_tui.server.limits import ConfigError, ServerConfig
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore, Store, StoreError
from tests.ssh.client import ScreenClient, connect
from tests.ssh.conftest import RunningServer

ENTER = "\r"
RIGHT = "\x1b[C"
LEFT = "\x1b[D"
PAGE = 4096
NOT_SAVED = "Not being saved"
DAMAGED = "damaged"


@dataclass
class Report:
    """What a case did, and what did not hold."""

    cases: int = 0
    failures: list[str] = field(default_factory=list)
    stalls_ms: list[float] = field(default_factory=list)
    peak_mib: float | None = None
    damaged: str | None = None
    """The digest of a file just damaged, to compare with what the server leaves."""

    def add(self, other: Report) -> None:
        self.cases += other.cases
        self.failures += other.failures
        self.stalls_ms += other.stalls_ms
        if other.peak_mib is not None:
            self.peak_mib = max(self.peak_mib or 0.0, other.peak_mib)

    def peak_of(self, pid: int) -> None:
        """Note the peak memory of process `pid` (Linux: VmHWM), while it runs."""
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    mib = int(line.split()[1]) / 1024
                    self.peak_mib = max(self.peak_mib or 0.0, mib)

    @property
    def worst_stall_ms(self) -> float | None:
        return max(self.stalls_ms) if self.stalls_ms else None


def digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def one_line(text: str) -> str:
    return text.strip().splitlines()[0][:200] if text.strip() else "(nothing)"


# -- store files ----------------------------------------------------------------------------


def sound_store(folder: Path) -> Path:
    """A store of a server that ran a while: rooms played, finished and rated, names."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "server.db"
    store = SqliteStore(path)
    game = new_game("pilo", size=8)
    rng = random.Random(1)
    for _ in range(12):
        game.play(rng.choice(list(game.legal_moves())))
    for number in range(60):
        creator, joiner = f"p{number % 7}", f"q{number % 5}"
        record = Record.from_game(game, players=(creator, joiner)).to_sgf()
        setup = RoomSetup("pilo", 8, creator=creator, rated=number % 2 == 0)
        code = f"r{number:03d}"
        store.save_room(RoomSave(code, setup, joiner, record))
        if number % 3 == 0:
            finish = Finish("B+R", creator)
            store.save_room(RoomSave(code, setup, joiner, record, finish))
        store.keep_name(f"name{number}", f"SHA256:{number:040d}")
    store.close()
    return path


def emptied(path: Path, rng: random.Random) -> str:
    os.truncate(path, 0)
    return "emptied"


def cut_short(path: Path, rng: random.Random) -> str:
    size = rng.randrange(1, path.stat().st_size)
    os.truncate(path, size)
    return f"cut to {size} bytes"


def garbage(path: Path, rng: random.Random) -> str:
    path.write_bytes(rng.randbytes(path.stat().st_size))
    return "made garbage"


def pages_overwritten(path: Path, rng: random.Random) -> str:
    pages = path.stat().st_size // PAGE
    first = rng.randrange(1, pages)
    count = rng.randrange(1, pages - first + 1)
    with open(path, "r+b") as handle:
        handle.seek(first * PAGE)
        handle.write(rng.randbytes(count * PAGE))
    return f"pages {first + 1} to {first + count} overwritten"


def bytes_sprinkled(path: Path, rng: random.Random) -> str:
    size = path.stat().st_size
    count = rng.randrange(1, 64)
    with open(path, "r+b") as handle:
        for _ in range(count):
            handle.seek(rng.randrange(size))
            handle.write(bytes([rng.randrange(256)]))
    return f"{count} bytes changed"


def page_zeroed(path: Path, rng: random.Random) -> str:
    page = rng.randrange(path.stat().st_size // PAGE)
    with open(path, "r+b") as handle:
        handle.seek(page * PAGE)
        handle.write(bytes(PAGE))
    return f"page {page + 1} zeroed"


def every_page_but_the_first(path: Path, rng: random.Random) -> str:
    with open(path, "r+b") as handle:
        handle.seek(PAGE)
        handle.write(b"\x5a" * (path.stat().st_size - PAGE))
    return "every page but the first overwritten"


NAMED = {
    "empty": emptied,
    "truncated": cut_short,
    "garbage": garbage,
    "corrupted pages": every_page_but_the_first,
}
"""The damages a start is tried with through the command (`serve`, `serve --check`)."""
RANDOM = [cut_short, pages_overwritten, bytes_sprinkled, page_zeroed, garbage]
"""The damages tried in numbers, through the server's start in process."""


def serve_command(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0", "--data", str(data), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def refused_in_one_sentence(
    done: subprocess.CompletedProcess[str], path: Path, what: str, report: Report
) -> None:
    lines = done.stderr.strip().splitlines()
    if done.returncode != 2:
        report.failures.append(f"{what}: exit status {done.returncode}: {one_line(done.stderr)}")
    elif len(lines) != 1 or not lines[0].startswith(f"Error: {path} "):
        report.failures.append(f"{what}: not one sentence naming the file: {lines[:3]}")
    elif "Usage:" in done.stderr or "Traceback" in done.stderr:
        report.failures.append(f"{what}: usage text or a traceback: {lines[:3]}")


def started(data: Path) -> Store:
    """The server's start in this process, up to its listening (the store opened and
    examined, the rooms read back); its store, to use further."""
    from abstracts_tui.server.ssh.server import Server

    server = Server(ServerConfig(data=data))
    server.hasher.shutdown()
    return server.store


def damaged_store_files(folder: Path, count: int, *, seed: int = 21, named: bool = True) -> Report:
    """The named damages through the command, then `count` random ones through the
    server's start in process."""
    report = Report()
    rng = random.Random(seed)
    sound = sound_store(folder / "sound")
    if named:
        spoiled = {}
        for name, spoil in NAMED.items():
            data = folder / name.replace(" ", "-")
            data.mkdir()
            shutil.copyfile(sound, data / "server.db")
            spoil(data / "server.db", rng)
            spoiled[name] = (data, digest(data / "server.db"))
        runs = [(name, args) for name in NAMED for args in ((), ("--check",))]
        with ThreadPoolExecutor(4) as pool:  # each command mostly starts Python
            done = pool.map(lambda run: serve_command(spoiled[run[0]][0], *run[1]), runs)
            for (name, args), result in zip(runs, done, strict=True):
                report.cases += 1
                what = f"a store {name}, serve {' '.join(args)}".strip()
                refused_in_one_sentence(result, spoiled[name][0] / "server.db", what, report)
        for name, (data, before) in spoiled.items():
            if digest(data / "server.db") != before:
                report.failures.append(f"a store {name}: the file was written to")
    for number in range(count):
        data = folder / f"random-{number}"
        path = data / "server.db"
        data.mkdir()
        shutil.copyfile(sound, path)
        spoil = RANDOM[number % len(RANDOM)]
        what = f"a store with {spoil(path, rng)}"
        report.cases += 1
        before = digest(path)
        try:
            store = started(data)
        except ConfigError as error:
            sentence = str(error)
            if "\n" in sentence or not sentence.startswith(f"{path} "):
                report.failures.append(f"{what}: not one sentence naming the file: {sentence!r}")
            if digest(path) != before:
                report.failures.append(f"{what}: refused, but the file was written to")
            continue
        except Exception as error:  # what must not happen: said here, with its kind
            report.failures.append(f"{what}: the start failed: {type(error).__name__}: {error}")
            continue
        try:  # SQLite saw nothing wrong: the store must work, or refuse in a sentence
            store.rooms()
            store.ratings()
            store.save_room(RoomSave("zz99", RoomSetup("pilo", 8, creator="ann"), None, None))
        except StoreError:
            pass
        except Exception as error:
            report.failures.append(f"{what}: it failed in use: {type(error).__name__}: {error}")
        finally:
            store.close()
    return report


# -- the server running -----------------------------------------------------------------------


@contextlib.contextmanager
def server(data: Path, *args: str, report: Report) -> Iterator[RunningServer]:
    running = RunningServer(data, list(args)).wait_listening()
    try:
        yield running
    finally:
        report.peak_of(running.process.pid)
        running.stop()


async def hot_seat(port: int, user: str) -> tuple[asyncssh.SSHClientConnection, ScreenClient]:
    """`user`'s hot-seat game of Petrify, Player 1 to move, the cursor on d5."""
    conn, client = await connect(port, user)
    await client.wait_for("h Hot-seat")
    client.send("h")
    await client.wait_for("choose a game")
    client.send(ENTER)
    await client.wait_for("Blue to move (Player 1)", "Cursor d5")
    return conn, client


async def quiet_player(client: ScreenClient, stop: asyncio.Event, stalls: list[float]) -> None:
    """A player who moves the cursor to and fro on row 5; each key's time to the screen,
    in ms."""
    while not stop.is_set():
        found = re.search(r"Cursor ([a-h])5", client.text())
        if found is None:
            raise AssertionError(f"no cursor on row 5 on the screen:\n{client.text()}")
        column = found.group(1)
        key, cell = (LEFT, chr(ord(column) - 1)) if column > "a" else (RIGHT, "b")
        started = time.monotonic()
        client.send(key)
        await client.wait_for(f"Cursor {cell}5")
        stalls.append((time.monotonic() - started) * 1000)
        await asyncio.sleep(0.05)


async def while_quiet(
    client: ScreenClient, stalls: list[float], work: Callable[[], Awaitable[None]]
) -> None:
    """Run `work` while a quiet player moves the cursor (its delays into `stalls`)."""
    stop = asyncio.Event()
    probe = asyncio.create_task(quiet_player(client, stop, stalls))
    try:
        await work()
    finally:
        stop.set()
        await probe


async def room_of_two(
    one: int, two: int
) -> tuple[list[asyncssh.SSHClientConnection], ScreenClient, ScreenClient, str]:
    """Ann makes a Petrify room on port `one`, Bob joins it on `two`: both see it start."""
    ann_conn, ann = await connect(one, "ann")
    await ann.wait_for("you are ann", "New room")
    ann.send("c")
    await ann.wait_for("choose a game")
    ann.send(ENTER)
    found = re.search(r"Room (\w{4})", await ann.wait_for("Waiting for a second player"))
    assert found is not None
    code = found.group(1)
    bob_conn, bob = await connect(two, "bob", command=f"join {code}")
    for client in (ann, bob):
        await client.wait_for("Blue to move (ann)", "Cursor d5")
    return [ann_conn, bob_conn], ann, bob, code


async def spoiled_mid_game(port: int, path: Path, spoil: Callable[[], str], report: Report) -> None:
    """Ann and Bob play a room on `port` while Carl plays hot-seat; the store at `path` is
    spoiled before Bob's move: both are told it is not saved, and Carl is not kept
    waiting."""
    conns, ann, bob, _ = await room_of_two(port, port)
    carl_conn, carl = await hot_seat(port, "carl")
    ann.send(ENTER)  # d5
    await bob.wait_for("Pie rule")
    await asyncio.sleep(0.5)  # saved

    async def spoil_and_play() -> None:
        spoil()
        report.damaged = digest(path)
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(RIGHT + ENTER)  # e5: played, not saved
        for client in (ann, bob):
            await client.wait_for("2. Orange", NOT_SAVED, DAMAGED, timeout=20)

    await while_quiet(carl, report.stalls_ms, spoil_and_play)
    for conn in [*conns, carl_conn]:
        conn.close()


WHILE_RUNNING = {
    "corrupted pages": every_page_but_the_first,
    "emptied": emptied,
    "garbage": garbage,
    "truncated": cut_short,
}


def damage_while_running(folder: Path, runs: int, *, seed: int = 7) -> Report:
    """`runs` servers whose store is damaged mid-game (each kind in turn)."""
    report = Report()
    rng = random.Random(seed)
    kinds = list(WHILE_RUNNING.items())
    for number in range(runs):
        name, spoil = kinds[number % len(kinds)]
        data = folder / f"running-{number}"
        path = data / "server.db"
        report.cases += 1
        report.damaged = None
        with server(data, report=report) as running:
            try:
                asyncio.run(spoiled_mid_game(running.port, path, partial(spoil, path, rng), report))
            except AssertionError as error:
                report.failures.append(f"store {name} while running: {one_line(str(error))}")
        if report.damaged is None:
            report.failures.append(f"store {name} while running: not damaged")
        log = running.log
        logged = log.count("cannot be trusted any more")
        if logged != 1:
            report.failures.append(f"store {name} while running: logged {logged} times, not once")
        if "Traceback" in log:
            report.failures.append(f"store {name} while running: a traceback in the log")
        if report.damaged is not None and digest(path) != report.damaged:
            report.failures.append(f"store {name} while running: written to once damaged")
        again = serve_command(data)
        refused_in_one_sentence(again, path, f"store {name}: the next start", report)
    return report


def umask_starts(folder: Path, umasks: list[int]) -> Report:
    """A server started under each umask: a hot-seat game saved; the modes."""
    report = Report()
    for umask in umasks:
        data = folder / f"umask-{umask:03o}"
        report.cases += 1
        old = os.umask(umask)  # the server inherits it
        try:
            with server(data, report=report) as running:

                async def play(port: int = running.port) -> None:
                    conn, client = await hot_seat(port, "ann")
                    client.send(ENTER)  # d5: written to the game's file
                    await client.wait_for("Pie rule")
                    conn.close()

                asyncio.run(play())
                deadline = time.monotonic() + 10
                while not list((data / "users" / "ann" / "games").glob("*.sgf")):
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.1)
        except AssertionError as error:
            report.failures.append(f"umask {umask:03o}: {one_line(str(error))}")
            continue
        finally:
            os.umask(old)
        games = data / "users" / "ann" / "games"
        expected = {
            data / "users": 0o700,
            data / "users" / "ann": 0o700,
            games: 0o700,
            data / "server.db": 0o600,
            data / "host_key": 0o600,
        }
        saved = list(games.glob("*.sgf")) if games.is_dir() else []
        if not saved:
            report.failures.append(f"umask {umask:03o}: the hot-seat game was not saved")
        expected.update(dict.fromkeys(saved, 0o600))
        for path, mode in expected.items():
            found = stat.S_IMODE(path.stat().st_mode) if path.exists() else None
            if found != mode:
                shown = "missing" if found is None else f"{found:o}"
                relative = path.relative_to(data)
                report.failures.append(f"umask {umask:03o}: {relative} is {shown}, not {mode:o}")
    return report


def aged(path: Path, seconds: float) -> None:
    when = time.time() - seconds
    os.utime(path, (when, when), follow_symlinks=False)


def stale_temporary_files(folder: Path, count: int) -> Report:
    """A data folder as a killed server and an earlier version left it: `count` stale
    temporary files, one being written, a link, files and folders too open."""
    report = Report()
    data = folder / "stale"
    games = data / "users" / "ann" / "games"
    games.mkdir(parents=True)
    (data / "users" / "ann").chmod(0o755)
    games.chmod(0o755)
    game = games / "2026-01-01-120000-pilo.sgf"
    game.write_text("(;GM[1000]GA[pilo]SZ[8];B[d4])")
    game.chmod(0o644)
    stale = []
    for number in range(count):
        where = games if number % 3 else data / "users" / "ann"
        path = where / f".2026-01-01-12000{number % 10}-pilo.sgf.{number:08d}.tmp"
        path.write_text("half a game")
        aged(path, 120)
        stale.append(path)
    store_left = data / ".server.db.0badc0de.tmp"  # a new store's, never finished
    store_left.write_bytes(b"")
    aged(store_left, 120)
    stale.append(store_left)
    fresh = games / ".2026-01-01-120000-pilo.sgf.abcdefgh.tmp"  # being written
    fresh.write_text("a game being written")
    outside = folder / "outside.txt"
    outside.write_text("not the server's")
    link = games / ".evil.sgf.zzzzzzzz.tmp"
    link.symlink_to(outside)
    aged(link, 3600)
    report.cases += len(stale) + 3
    with server(data, report=report) as running:
        pass
    for path in stale:
        if path.exists():
            report.failures.append(f"a stale temporary file was left: {path.name}")
    for path in (fresh, link, game, outside):
        if not os.path.lexists(path):
            report.failures.append(f"{path.name} was removed")
    if outside.exists() and outside.read_text() != "not the server's":
        report.failures.append("the file a link named was changed")
    for path, mode in ((data / "users" / "ann", 0o700), (games, 0o700), (game, 0o600)):
        if stat.S_IMODE(path.stat().st_mode) != mode:
            report.failures.append(f"{path.relative_to(data)} was not made {mode:o}")
    if f"removed {len(stale)} temporary files" not in running.log:
        report.failures.append("the log does not say how many temporary files were removed")
    return report


def lost(name: str) -> str:
    return f"{name}'s connection is lost"


def database_outages(folder: Path, outages: int, seconds: float) -> Report:
    """Two server processes on a database stopped `outages` times for `seconds`."""
    from tests.postgres import cluster

    report = Report()
    with cluster() as database:
        url = database.create_database("outages")
        one = RunningServer(folder / "one", ["--database", url]).wait_listening()
        two = RunningServer(folder / "two", ["--database", url]).wait_listening()
        try:

            async def play() -> None:
                conns, ann, bob, _ = await room_of_two(one.port, two.port)
                carl_conn, carl = await hot_seat(one.port, "carl")
                players = [(ann, "bob"), (bob, "ann")]
                await asyncio.sleep(1.5)
                for number in range(outages):
                    report.cases += 1
                    stage = f"outage {number + 1}"
                    try:

                        async def outage() -> None:
                            database.stop()
                            for client, _ in players:
                                await client.wait_for(NOT_SAVED)
                            await asyncio.sleep(seconds)
                            database.start()
                            for client, _ in players:
                                await client.wait_for("being saved again", timeout=30)

                        await while_quiet(carl, report.stalls_ms, outage)
                        for client, other in players:
                            await client.wait_gone(lost(other), timeout=15)
                        if number == 0:  # a move each way across the processes
                            ann.send(ENTER)  # d5
                            await bob.wait_for("(ann) plays d5", "Pie rule", timeout=15)
                        elif number == 1:
                            bob.send("p")
                            await bob.wait_gone("Pie rule")
                            bob.send(RIGHT + ENTER)  # e5
                            await ann.wait_for("(bob) plays e5", timeout=15)
                        await asyncio.sleep(1.5)
                        for client, other in players:
                            if lost(other) in client.text():
                                report.failures.append(f"{stage}: {other} shown as lost")
                    except AssertionError as error:
                        report.failures.append(f"{stage}: {one_line(str(error))}")
                for conn in [*conns, carl_conn]:
                    conn.close()

            asyncio.run(play())
        finally:
            for running in (one, two):
                report.peak_of(running.process.pid)
                running.stop()
                if "Traceback" in running.log:
                    report.failures.append("a traceback in a server's log")
    return report


# -- clocks through the store's trouble ----------------------------------------------------

HELD = "The clocks are held meanwhile."
RUN_ON = "The clocks run on from where they were held."
CLOCK = "12s+6s"
"""The rooms' clock: less time than an outage lasts, and 6 s more after each move."""


def clock_face(screen: str, who: str) -> str | None:
    """The face beside `who` (`Blue ann`) on a screen (`0:09.4`, `0:12`)."""
    found = re.search(rf"{who}\s+(\d+:\d+(?:\.\d)?)", screen)
    return found.group(1) if found else None


class Mirror:
    """The room's game as the test plays it: the next move each player types by name."""

    def __init__(self) -> None:
        self.game = new_game("petrify", size=8)

    def next_move(self) -> str:
        for move in sorted(self.game.legal_moves()):
            name = self.game.move_name(move)
            if name not in ("swap", "pass"):
                self.game.play(move)
                return name
        raise AssertionError("no move left")


async def typed_move(client: ScreenClient, name: str) -> None:
    """`client` plays `name` on its move line."""
    client.send(":")
    await client.wait_for("Enter plays")
    client.send(name + ENTER)


async def clocked_room(
    one: int, two: int
) -> tuple[list[asyncssh.SSHClientConnection], ScreenClient, ScreenClient, Mirror]:
    """Ann makes a Petrify room with `CLOCK` on port `one`, Bob joins on `two`; Ann and Bob
    each play a move (Bob on past the pie rule): Ann's clock runs."""
    ann_conn, ann = await connect(one, "ann", width=160)
    await ann.wait_for("you are ann", "New room")
    ann.send("c" + "\t" * 2 + CLOCK)
    await ann.wait_for("choose a game", f"Clock       {CLOCK}")
    ann.send(ENTER)
    found = re.search(r"Room (\w{4})", await ann.wait_for("Waiting for a second player"))
    assert found is not None
    bob_conn, bob = await connect(two, "bob", command=f"join {found.group(1)}", width=160)
    mirror = Mirror()
    await ann.wait_for("> Blue ann")
    await typed_move(ann, mirror.next_move())
    await bob.wait_for("Pie rule")
    bob.send("p")
    await bob.wait_gone("Pie rule")
    await typed_move(bob, mirror.next_move())
    await ann.wait_for("2. Orange", "> Blue ann")
    return [ann_conn, bob_conn], ann, bob, mirror


async def held_through(
    clients: list[ScreenClient], mover: str, trouble_seconds: float, report: Report, stage: str
) -> str | None:
    """While the store is in trouble: every screen says the clocks are held, and `mover`'s
    face (`Blue ann`) stays as it was for `trouble_seconds`; the face held, if so."""
    for client in clients:
        await client.wait_for("Not being saved", HELD, timeout=30)
    held = clock_face(clients[0].text(), mover)
    await asyncio.sleep(trouble_seconds)
    for client in clients:
        if clock_face(client.text(), mover) != held:
            report.failures.append(f"{stage}: {mover}'s clock ran while nothing was kept")
        if "lost on time" in client.text():
            report.failures.append(f"{stage}: lost on time while nothing was kept")
    return held


async def run_on(
    clients: list[ScreenClient], mover: ScreenClient, name: str, report: Report, stage: str
) -> None:
    """The store is back: every screen says the clocks run on, and the mover's `name`
    is played (not lost on time meanwhile)."""
    for client in clients:
        await client.wait_for(RUN_ON, timeout=45)
    await typed_move(mover, name)
    for client in clients:
        screen = await client.wait_until(
            lambda text: f" {name}" in text.split("Score now:")[-1] or "lost on time" in text,
            "the move, or the end on time",
        )
        if "lost on time" in screen:
            report.failures.append(f"{stage}: lost on time after the store was back")


def clocks_through_outages(folder: Path, outages: int, seconds: float) -> Report:
    """Two server processes and a room with a clock on a database stopped `outages` times
    for `seconds`, more than the mover has: the mover's clock is held on both screens,
    runs on after, and nobody loses on time."""
    from tests.postgres import cluster

    report = Report()
    with cluster() as database:
        url = database.create_database("clock_outages")
        one = RunningServer(folder / "one", ["--database", url]).wait_listening()
        two = RunningServer(folder / "two", ["--database", url]).wait_listening()
        try:

            async def play() -> None:
                conns, ann, bob, mirror = await clocked_room(one.port, two.port)
                players = [(ann, "Blue ann"), (bob, "Orange bob")]
                for number in range(outages):
                    report.cases += 1
                    stage = f"clock outage {number + 1}"
                    mover, face = players[number % 2]
                    try:
                        database.stop()
                        try:
                            await held_through([ann, bob], face, seconds, report, stage)
                        finally:
                            database.start()
                        await run_on([ann, bob], mover, mirror.next_move(), report, stage)
                    except AssertionError as error:
                        report.failures.append(f"{stage}: {one_line(str(error))}")
                for conn in conns:
                    conn.close()

            asyncio.run(play())
        finally:
            for running in (one, two):
                report.peak_of(running.process.pid)
                running.stop()
                if "Traceback" in running.log:
                    report.failures.append("a traceback in a server's log")
    return report


async def locked_once(
    store: Path,
    movers: tuple[ScreenClient, ScreenClient],
    face: str,
    mirror: Mirror,
    seconds: float,
    report: Report,
    stage: str,
) -> None:
    """Another program locks `store`; the first of `movers` moves (taken: its save waits,
    then fails), the second's clock (`face`) is held for `seconds`; then the lock goes,
    and the second moves."""
    import sqlite3

    mover, waiting = movers
    other = sqlite3.connect(store, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        await typed_move(mover, mirror.next_move())
        await held_through(list(movers), face, seconds, report, stage)
    finally:
        other.execute("ROLLBACK")
        other.close()
    await run_on(list(movers), waiting, mirror.next_move(), report, stage)


def clocks_through_locks(folder: Path, locks: int, seconds: float) -> Report:
    """A server on SQLite and a room with a clock, its store locked by another program
    `locks` times for `seconds` (more than the mover has) just after a move: that move is
    kept, the next mover's clock is held once the failed save is known, runs on after,
    and nobody loses on time; a quiet player meanwhile is not kept waiting."""
    report = Report()
    with server(folder / "data", report=report) as running:

        async def play() -> None:
            conns, ann, bob, mirror = await clocked_room(running.port, running.port)
            carl_conn, carl = await hot_seat(running.port, "carl")
            for number in range(locks):
                report.cases += 1
                stage = f"clock lock {number + 1}"
                # Each case is two moves, Ann's under the lock and Bob's after it: Ann is
                # to move again at the next.
                once = partial(
                    locked_once,
                    folder / "data" / "server.db",
                    (ann, bob),
                    "Orange bob",
                    mirror,
                    seconds,
                    report,
                    stage,
                )
                try:
                    await while_quiet(carl, report.stalls_ms, once)
                except AssertionError as error:
                    report.failures.append(f"{stage}: {one_line(str(error))}")
            for conn in [*conns, carl_conn]:
                conn.close()

        asyncio.run(play())
    if "Traceback" in running.log:
        report.failures.append("a traceback in the server's log")
    return report
