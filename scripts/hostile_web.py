"""Hostile browsers against `abstracts-tui web`, at counts that `--scale N` multiplies.

Starts `abstracts-tui web` on a free port with a fresh data folder, keeps one quiet page
open on the home screen that presses a key every 0.3 s and times the app's answer, and
meanwhile, from pages that speak textual.js's messages through aiohttp's client (as
tests/hostile/test_web.py does, at small counts):

- asks for terminals of up to 10^12 cells at the websocket's address and in resizes
  (each page's app must draw at 500 x 200 at most), and sends a storm of 1,000 x N
  resizes on one page (the app then draws the last size, or, past the message rate for
  5 s, the page is closed as a flood);
- keeps 2 x N pages (16 at most) at 500 x 200 that never read what the app draws, resizing them;
- opens 50 x N websockets at once from one address (all but 4 refused, no app started);
- fills the server (20 pages from 5 addresses): one more must be told it is full;
- sends every malformed message of the tests (N times each kind), on pages of their own:
  each page closed with its sentence, no traceback in the log;
- floods from 2 x N pages at once (16 at most) (mixed messages, as fast as the client can): each
  slowed, then closed after 5 s;
- asks for a visitor's download with 10 x N other cookies (and none): all 404;
- asks every route for 10 x N hosts that are not the server's (as DNS rebinding would):
  each 421, with no cookie, and a websocket refused;
- sends 4 x N requests' heads a byte a second: each closed within `HEAD_SECONDS`;
- holds `CONNECTIONS_PER_ADDRESS` half-sent heads from one address, then sends 10 x N
  more: each refused at once (429) while another address gets the page;
- sends every malformed request of the tests (N times each): each 400, no traceback;
- sends an unmasked websocket frame on N pages: each closed (1002).

Prints each figure, and what did not hold. `run(scale)` returns them for
scripts/hostile.py: the cases sent, the failures, the worst delay the quiet page saw
(ms) and the visitors' apps' peak memory (MiB; the server's own is printed too).

    python scripts/hostile_web.py [--scale N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import re
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import WSCloseCode  # noqa: E402

from abstracts_tui.server.web.guard import CONNECTIONS_PER_ADDRESS, HEAD_SECONDS  # noqa: E402
from abstracts_tui.server.web.limits import MAX_COLUMNS, MAX_ROWS  # noqa: E402
from abstracts_tui.server.web.page_session import FLOODED  # noqa: E402
from tests.hostile.test_web import MALFORMED_MESSAGES  # noqa: E402
from tests.web.client import Browser, Page, play_a_move, visitor_processes  # noqa: E402
from tests.web.server import WebServer  # noqa: E402
from tests.web.test_guard import MALFORMED, handshake, text_frame  # noqa: E402

MIB = 1024 * 1024
PAGES = 16
"""The most pages a phase opens at once: the server takes 20, one is the quiet page's, and
the apps of pages closed just before may still be quitting."""


def peak_kib(pid: int) -> int:
    try:
        found = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    except OSError:
        return 0
    return int(found.group(1)) if found else 0


class Hostile:
    def __init__(self, server: WebServer, scale: int) -> None:
        self.server = server
        self.scale = scale
        self.cases = 0
        self.failures: list[str] = []
        self.worst: float | None = None
        """The quiet page's slowest answer while the hostile ones ran (ms)."""
        self.phases: list[tuple[str, float, float]] = []
        """Each phase: its name, when it started and ended (time.monotonic)."""
        self.visitors_peak = 0  # KiB
        self.server_peak = 0
        self.addresses = (f"127.0.{n // 250 + 1}.{n % 250 + 1}" for n in range(60_000))

    def fail(self, sentence: str) -> None:
        print("  FAILED:", sentence, flush=True)
        self.failures.append(sentence)

    def browser(self) -> Browser:
        """A visitor from an address of their own."""
        return Browser(self.server.url, next(self.addresses))

    async def drained(self) -> None:
        """Wait until the apps of the pages closed before have quit (the quiet page's alone
        left), so that each phase starts with the server's places free."""
        deadline = time.monotonic() + 30
        while len(visitor_processes(self.server.data)) > 1:
            if time.monotonic() > deadline:
                self.fail("the apps of closed pages still ran 30 s later")
                return
            await asyncio.sleep(0.1)

    async def sample(self) -> None:
        """The peak memory of the server and of every visitor's app, every 0.2 s."""
        while True:
            for pid in visitor_processes(self.server.data):
                self.visitors_peak = max(self.visitors_peak, peak_kib(pid))
            self.server_peak = max(self.server_peak, peak_kib(self.server.process.pid))
            await asyncio.sleep(0.2)

    async def expect_closed(self, page: Page, code: int, what: str, reason: str = "") -> None:
        try:
            got = await page.wait_closed(30)
        except TimeoutError:
            self.fail(f"{what}: the page was not closed within 30 s")
            return
        if got[0] != code or (reason and got[1] != reason):
            self.fail(f"{what}: closed with {got}, not {code} {reason!r}")

    async def sizes(self) -> None:
        browser = await self.browser().visit()
        try:
            for exponent in range(3, 13, 3):
                side = 10**exponent
                page = await browser.open(f"width={side}&height={side}", width=600, height=260)
                self.cases += 1
                await page.focus()
                await page.settle()
                rows = [i + 1 for i, line in enumerate(page.screen.display) if line.strip()]
                right = max(len(line.rstrip()) for line in page.screen.display)
                if rows[-1:] != [MAX_ROWS] or right != MAX_COLUMNS:
                    self.fail(f"asked for {side}x{side}, the app drew {right}x{rows[-1:]}")
                await page.close()
            page = await browser.open(width=120, height=40)
            await page.focus()
            # As fast as the client goes: within the message rate (its burst, and 5 s at
            # its pace), the app then draws the size last asked for; beyond, the page is
            # closed as a flood.
            with contextlib.suppress(ConnectionError):
                for i in range(1000 * self.scale):
                    size = {"width": 7**i % 10**12, "height": 3**i % 10**12}
                    await page.send(["resize", size])
                    self.cases += 1
                await page.send(["resize", {"width": 100, "height": 30}])
            try:
                await page.wait_until(
                    lambda: page.closed is not None or "q Quit" in page.screen.display[29],
                    "",
                    60,
                )
            except AssertionError:
                self.fail("after a storm of resizes the app did not draw at 100x30 in 60 s")
            if page.closed is not None:
                print(f"  a storm of {1000 * self.scale} resizes: closed {page.closed}")
                if page.closed != (WSCloseCode.POLICY_VIOLATION, FLOODED):
                    self.fail(f"a storm of resizes ended as {page.closed}, not as a flood")
            await page.close()
        finally:
            await browser.close()

    async def silent(self) -> None:
        """Pages that never read what the app draws, at 500 x 200, resized: the server
        holds no more of it than its buffers (the app waits), then they are cut off."""
        browsers = [await self.browser().visit() for _ in range(min(2 * self.scale, PAGES))]
        try:
            url = self.server.url.replace("http://", "ws://") + "ws?width=500&height=200"
            sockets = [await b.session.ws_connect(url) for b in browsers]
            for _ in range(20):
                for socket in sockets:
                    for size in ({"width": 499, "height": 199}, {"width": 500, "height": 200}):
                        await socket.send_json(["resize", size])
                        self.cases += 1
                await asyncio.sleep(0.25)
            await asyncio.sleep(2)
        finally:
            for browser in browsers:
                await browser.close()

    async def socket_storm(self) -> None:
        browser = await self.browser().visit()
        try:
            held = [await browser.open() for _ in range(4)]
            await asyncio.gather(*(p.wait_for("choose a game") for p in held))
            before = len(visitor_processes(self.server.data))
            start = time.monotonic()
            opened = await asyncio.gather(
                *(browser.open() for _ in range(50 * self.scale)), return_exceptions=True
            )
            self.cases += len(opened)
            storm = [page for page in opened if isinstance(page, Page)]
            for error in opened:
                # Past the connections one address may hold, a handshake is refused at
                # once (429), before it is a page.
                if not isinstance(error, Page) and not (
                    isinstance(error, aiohttp.WSServerHandshakeError) and error.status == 429
                ):
                    self.fail(f"a storm's page failed: {error!r}")
            for page in storm:
                await self.expect_closed(page, WSCloseCode.POLICY_VIOLATION, "a storm's page")
            print(
                f"  {len(opened)} sockets from one address refused in "
                f"{time.monotonic() - start:.1f} s ({len(opened) - len(storm)} at the handshake)",
                flush=True,
            )
            if len(visitor_processes(self.server.data)) > before:
                self.fail("a refused page started an app")
            for page in held:
                await page.close()
        finally:
            await browser.close()

    async def full(self) -> None:
        browsers = [await self.browser().visit() for _ in range(5)]
        try:
            await self.drained()
            pages = [await b.open() for b in browsers[:4] for _ in range(4)]
            pages += [await browsers[4].open() for _ in range(3)]  # with the quiet one: 20
            await asyncio.gather(*(p.wait_for("choose a game") for p in pages))
            browsers.append(await self.browser().visit())
            late = await browsers[-1].open()
            self.cases += 1
            await self.expect_closed(late, WSCloseCode.TRY_AGAIN_LATER, "the 21st page")
            for page in pages:
                await page.close()
        finally:
            for browser in browsers:
                await browser.close()

    async def malformed(self) -> None:
        kinds: list[str | bytes] = [*MALFORMED_MESSAGES, b"\x00binary", "x" * 70_000]
        messages = kinds * self.scale
        for start in range(0, len(messages), PAGES):
            batch = messages[start : start + PAGES]
            await self.drained()
            browsers = [await self.browser().visit() for _ in batch]
            try:
                pages = [await b.open() for b in browsers]
                # Sent as soon as the app draws: it quits while it builds its screen.
                await asyncio.gather(*(p.answered() for p in pages))
                for message, page in zip(batch, pages, strict=True):
                    if isinstance(message, bytes):
                        await page.socket.send_bytes(message)
                    else:
                        await page.send(message)
                    self.cases += 1
                for message, page in zip(batch, pages, strict=True):
                    big = len(message) > 65536
                    code = WSCloseCode.MESSAGE_TOO_BIG if big else WSCloseCode.POLICY_VIOLATION
                    await self.expect_closed(page, code, f"the message {message[:30]!r}")
            finally:
                for browser in browsers:
                    await browser.close()

    async def flood(self) -> None:
        kinds: list[Any] = [
            ["resize", {"width": 500, "height": 200}],
            ["resize", {"width": 80, "height": 24}],
            ["ping", "1"],
            ["stdin", "x" * 1000],
            ["stdin", "\x1b[<35;10;5M"],
            ["focus"],
            ["blur"],
            ["hello", 1],
        ]

        async def flood(page: Page) -> None:
            sent = 0
            with contextlib.suppress(ConnectionError):
                while page.closed is None:
                    await page.send(kinds[sent % len(kinds)])
                    sent += 1
                    await asyncio.sleep(0)
            self.cases += sent

        browsers = [await self.browser().visit() for _ in range(min(2 * self.scale, PAGES))]
        try:
            pages = [await b.open() for b in browsers]
            await asyncio.gather(*(p.wait_for("choose a game") for p in pages))
            for page in pages:
                page.drawing = False
            start = time.monotonic()
            await asyncio.gather(*(flood(p) for p in pages))
            print(
                f"  {len(pages)} floods closed after {time.monotonic() - start:.1f} s", flush=True
            )
            for page in pages:
                if page.closed is None or page.closed[0] != WSCloseCode.POLICY_VIOLATION:
                    self.fail(f"a flood's page ended as {page.closed}, not closed for it")
        finally:
            for browser in browsers:
                await browser.close()

    async def downloads(self) -> None:
        ann = await self.browser().visit()
        bob = await self.browser().visit()
        try:
            page = await ann.open()
            await play_a_move(page)
            await page.keys("ctrl+s")
            await page.wait_until(
                lambda: any(t[0] == "deliver_file_start" for t in page.texts), "a download"
            )
            [key] = [t[1] for t in page.texts if t[0] == "deliver_file_start"]
            cookies: list[str | None] = [bob.token, None]
            cookies += [secrets.token_hex(16) for _ in range(10 * self.scale)]
            for cookie in cookies:
                status, _ = await bob.download(key, cookie)
                self.cases += 1
                if status != 404:
                    self.fail(f"another visitor's download answered {status}, not 404")
            status, _ = await ann.download(key, ann.token)
            if status != 200:
                self.fail(f"the visitor's own download answered {status}")
            await page.close()
        finally:
            await ann.close()
            await bob.close()

    @property
    def port(self) -> int:
        return int(self.server.url.rsplit(":", 1)[1].strip("/"))

    async def names(self) -> None:
        """Requests for names that are not the server's, on every route."""
        port = self.port
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(next(self.addresses), 0))
        ) as client:
            for n in range(10 * self.scale):
                host = f"evil{n}.example:{port}"
                headers = {"Host": host, "Origin": f"http://{host}"}
                for path in ("", "static/css/xterm.css", "download/x", "ws"):
                    async with client.get(self.server.url + path, headers=headers) as answer:
                        self.cases += 1
                        if answer.status != 421 or "Set-Cookie" in answer.headers:
                            self.fail(f"{host}/{path} answered {answer.status}")

    async def slow_heads(self) -> None:
        """Heads sent a byte a second: each closed within HEAD_SECONDS (and a little)."""

        async def drip() -> None:
            address = next(self.addresses)
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(address, 0)
            )
            start = time.monotonic()

            async def send() -> None:
                for byte in f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nX: ".encode():
                    writer.write(bytes([byte]))
                    await asyncio.sleep(1)

            sending = asyncio.create_task(send())
            try:
                await asyncio.wait_for(reader.read(), HEAD_SECONDS + 10)
            except TimeoutError:
                self.fail("a head sent a byte a second was still open 20 s later")
            sending.cancel()
            self.cases += 1
            if time.monotonic() - start > HEAD_SECONDS + 5:
                self.fail(f"a slow head was closed after {time.monotonic() - start:.1f} s")
            writer.close()

        await asyncio.gather(*(drip() for _ in range(4 * self.scale)))

    async def held_heads(self) -> None:
        """One address holds all the half-sent heads it may; more are refused at once."""
        address = next(self.addresses)
        held = []
        try:
            for _ in range(CONNECTIONS_PER_ADDRESS):
                _, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(address, 0)
                )
                writer.write(b"GET / HTTP/1.1\r\n")
                held.append(writer)
            await asyncio.sleep(0.5)
            for _ in range(10 * self.scale):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(address, 0)
                )
                writer.write(b"GET / HTTP/1.1\r\n")
                self.cases += 1
                try:
                    said = await asyncio.wait_for(reader.read(), 5)
                except (TimeoutError, ConnectionError) as error:
                    said = repr(error).encode()
                if not said.startswith(b"HTTP/1.1 429"):
                    self.fail(f"a head past the address's bound got {said[:40]!r}")
                writer.close()
            other = await self.browser().visit()  # another address: the page
            await other.close()
        finally:
            for writer in held:
                writer.close()

    async def bad_requests(self) -> None:
        for data in list(MALFORMED.values()) * self.scale:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(data.replace(b"Host: H", f"Host: 127.0.0.1:{self.port}".encode()))
            said = await asyncio.wait_for(reader.read(), 30)
            self.cases += 1
            if not said.startswith(b"HTTP/1.0 400"):
                self.fail(f"a malformed request got {said[:40]!r}")
            writer.close()

    async def unmasked(self) -> None:
        browser = await self.browser().visit()
        try:
            for _ in range(self.scale):
                reader, writer, answer = await handshake(self.port, browser.token)
                writer.write(text_frame(b'["stdin","x"]', masked=False))
                said = await asyncio.wait_for(reader.read(), 30)
                self.cases += 1
                if not answer.startswith(b"HTTP/1.1 101") or b"\x03\xeaFrames" not in said:
                    self.fail(f"an unmasked frame got {said[-60:]!r}")
                writer.close()
        finally:
            await browser.close()


async def observe(url: str) -> None:
    """The quiet page, in a process of its own (the hostile pages' client is busy): a key
    every 0.3 s and the time to the app's answer ("key T SECONDS"), and a small file from
    the server every 0.1 s ("loop T SECONDS": the server's loop alone; the key's time
    also holds the quiet page's app, which shares the cores with every app the hostile
    pages start), T from time.monotonic, the machine's clock."""
    browser = await Browser(url).visit()
    page = await browser.open()
    await page.wait_for("choose a game")

    async def keys() -> None:
        for n in itertools.count():
            took = await page.echo_seconds(["down", "up"][n % 2])
            print("key", time.monotonic(), took, flush=True)
            await asyncio.sleep(0.3)

    async def loop() -> None:
        async with aiohttp.ClientSession() as session:
            while True:
                start = time.monotonic()
                async with session.get(f"{url}static/css/xterm.css") as answer:
                    await answer.read()
                print("loop", start, time.monotonic() - start, flush=True)
                await asyncio.sleep(0.1)

    print("ready", flush=True)
    await asyncio.gather(keys(), loop())


async def hostile(server: WebServer, scale: int) -> Hostile:
    run = Hostile(server, scale)
    sampler = asyncio.create_task(run.sample())
    observer = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--observe", server.url, stdout=asyncio.subprocess.PIPE
    )
    assert observer.stdout is not None
    while (await observer.stdout.readline()).strip() != b"ready":
        pass
    await asyncio.sleep(3)  # the quiet page alone
    run.phases.append(("alone", time.monotonic() - 3, time.monotonic()))
    try:
        for phase in (
            run.sizes,
            run.silent,
            run.socket_storm,
            run.full,
            run.malformed,
            run.flood,
            run.downloads,
            run.names,
            run.slow_heads,
            run.held_heads,
            run.bad_requests,
            run.unmasked,
        ):
            await run.drained()
            start = time.monotonic()
            print(f"{phase.__name__}:", flush=True)
            await phase()
            run.phases.append((phase.__name__, start, time.monotonic()))
            print(f"  {time.monotonic() - start:.1f} s", flush=True)
    finally:
        sampler.cancel()
        await asyncio.gather(sampler, return_exceptions=True)
        observer.terminate()
        seen = (await observer.communicate())[0].decode().split("\n")
    times: dict[tuple[str, str], list[float]] = {}
    for line in seen:
        kind, at, took = [*line.split(), "", "", ""][:3]
        for name, start, end in run.phases:
            if kind and start <= float(at) <= end:
                times.setdefault((kind, name), []).append(float(took) * 1000)
    print("phase          quiet page's key: median  worst   server's loop: median  worst (ms)")
    for name, _, _ in run.phases:
        keys, loop = times.get(("key", name), [0.0]), times.get(("loop", name), [0.0])
        print(
            f"{name:14} {statistics.median(keys):25.0f} {max(keys):6.0f} "
            f"{statistics.median(loop):22.0f} {max(loop):6.0f}"
        )
    run.worst = max(
        (
            took
            for (kind, name), each in times.items()
            if kind == "key" and name != "alone"
            for took in each
        ),
        default=None,
    )
    return run


def run(scale: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = WebServer(Path(folder) / "web").wait()
        try:
            result = asyncio.run(hostile(server, scale))
        finally:
            server.stop()
        log = "".join(server.lines)
    if "Traceback" in log:
        result.fail("the server's log has a traceback")
        print(log[log.index("Traceback") - 500 :][:3000])
    print(
        f"server's peak memory {result.server_peak / 1024:.0f} MiB; "
        f"visitors' apps' peak {result.visitors_peak / 1024:.0f} MiB"
    )
    return {
        "area": "web",
        "cases": result.cases,
        "failures": result.failures,
        "worst_stall_ms": result.worst,
        "peak_mib": result.visitors_peak / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="multiplies the counts")
    parser.add_argument("--observe", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.observe:
        asyncio.run(observe(args.observe))
        return
    figures = run(args.scale)
    print(figures)
    sys.exit(1 if figures["failures"] else 0)


if __name__ == "__main__":
    main()
