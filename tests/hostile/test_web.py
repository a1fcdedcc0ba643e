"""`abstracts-tui web` against pages that do not behave: sizes no screen has, storms of
resizes and of sockets from one address, messages textual.js never sends, floods, and other
visitors' download keys. A real server in a subprocess; the pages are aiohttp's websocket
client speaking textual.js's messages (tests/web/client.py), from several loopback
addresses. scripts/hostile_web.py runs the same at larger counts."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from aiohttp import WSCloseCode, web
from aiohttp.test_utils import TestClient, TestServer

from abstracts_tui.rates import TokenBucket
from abstracts_tui.records import Record
from abstracts_tui.server.capacity import ENDING_NICE
from abstracts_tui.server.web.address import client_key
from abstracts_tui.server.web.limits import (
    INPUT_BURST,
    INPUT_RATE,
    MAX_COLUMNS,
    MAX_MESSAGE,
    MAX_ROWS,
    MIN_COLUMNS,
    MIN_ROWS,
    Focus,
    Malformed,
    Ping,
    Resize,
    Stdin,
    Unknown,
    parse_message,
    size_from_query,
)
from abstracts_tui.server.web.page_session import FLOODED, MALFORMED, PageSession
from abstracts_tui.server.web.visitor import NICENESS
from abstracts_tui.tui.rooms.resizes import RESIZE_CELLS, layout_spacing
from tests.web.client import (
    Browser,
    Page,
    peak_mib,
    play_a_move,
    visitor_processes,
    wait_gone,
)
from tests.web.server import WebServer

# -- what a message may be (no server) -------------------------------------------------

MALFORMED_MESSAGES = {
    # The five of the report, then every other way to miss textual.js's forms.
    "not json": "not JSON",
    '{"a":1}': "not a non-empty JSON array",
    '["resize","x"]': '"resize" without a whole width and height',
    '["stdin",5]': '"stdin" without its text',
    "[]": "not a non-empty JSON array",
    "[5]": "its type is not a string",
    "null": "not a non-empty JSON array",
    '"stdin"': "not a non-empty JSON array",
    '["stdin"]': '"stdin" without its text',
    '["stdin","a","b"]': '"stdin" without its text',
    '["resize",{"width":80}]': '"resize" without a whole width and height',
    '["resize",{"width":80.5,"height":24}]': '"resize" without a whole width and height',
    '["resize",{"width":true,"height":24}]': '"resize" without a whole width and height',
    '["resize",{"width":"80","height":24}]': '"resize" without a whole width and height',
    '["resize",[80,24]]': '"resize" without a whole width and height',
    '["resize",{"width":' + "9" * 5000 + ',"height":24}]': "not JSON",  # over int's digits
    '["ping",{}]': '"ping" without a text',
    '["ping","' + "1" * 65 + '"]': '"ping" without a text of at most 64 characters',
    '["focus",true]': '"focus" with data',
    '["blur",1]': '"blur" with data',
    "[" * 100_000 + "]" * 100_000: "not JSON",  # nested past the parser's recursion
}


@pytest.mark.parametrize("text", MALFORMED_MESSAGES)
def test_every_malformed_message_is_refused_with_its_reason(text: str) -> None:
    with pytest.raises(Malformed) as refused:
        parse_message(text)
    assert MALFORMED_MESSAGES[text] in str(refused.value)


def test_the_messages_textual_js_sends_are_taken_and_sizes_clamped() -> None:
    assert parse_message('["stdin","\\u001b[B"]') == Stdin("\x1b[B")
    assert parse_message('["ping","1732600000000"]') == Ping("1732600000000")
    assert parse_message('["focus"]') == Focus(True)
    assert parse_message('["blur"]') == Focus(False)
    assert parse_message('["resize",{"width":120,"height":40}]') == Resize(120, 40)
    huge = '["resize",{"width":1000000000000,"height":1000000000000}]'
    assert parse_message(huge) == Resize(MAX_COLUMNS, MAX_ROWS)
    tiny = '["resize",{"width":-5,"height":0}]'
    assert parse_message(tiny) == Resize(MIN_COLUMNS, MIN_ROWS)
    # A type textual.js does not send (a later one might) is ignored, not refused.
    assert parse_message('["paste",{"x":1}]') == Unknown("paste")
    # The websocket's address: numbers within the limits, anything else the default.
    assert size_from_query({"width": "1000", "height": "1000"}) == (MAX_COLUMNS, MAX_ROWS)
    assert size_from_query({"width": "9" * 5000, "height": "1e9"}) == (MAX_COLUMNS, 24)
    assert size_from_query({"width": "-" + "9" * 5000, "height": "x"}) == (MIN_COLUMNS, 24)
    assert size_from_query({"width": "0", "height": "-3"}) == (MIN_COLUMNS, MIN_ROWS)
    assert size_from_query({}) == (80, 24)


def test_input_has_a_burst_and_then_a_rate() -> None:
    now = [0.0]
    keys = TokenBucket(INPUT_RATE, INPUT_BURST, clock=lambda: now[0])
    assert keys.take(int(INPUT_BURST))  # a paste of the burst at once
    assert not keys.take(1)  # then nothing more at that instant
    now[0] += 1.0
    assert keys.take(int(INPUT_RATE)) and not keys.take(1)  # a second later: the rate's worth
    assert not keys.take(int(INPUT_BURST) + 1)  # more than the burst: never at once
    # The message rate waits instead: its delay grows with the debt.
    messages = TokenBucket(10, 2, clock=lambda: now[0])
    assert [messages.due(1) for _ in range(4)] == [0.0, 0.0, 0.1, 0.2]


def test_the_address_counted_is_the_proxys_word_only_when_trusted() -> None:
    said = [("X-Forwarded-For", "198.51.100.1, 203.0.113.9")]
    assert client_key("127.0.0.1", said, (), trusted=False) == "127.0.0.1"
    # The last value: the one the proxy nearest to the app added.
    assert client_key("127.0.0.1", said, (), trusted=True) == "203.0.113.9"
    forwarded = ({"for": "192.0.2.1"}, {"for": "[2001:db8:1:2::17]:4711"})
    assert client_key("127.0.0.1", said, forwarded, trusted=True) == "2001:db8:1:2::/64"
    # Nothing that is an address: the connection's own.
    assert client_key("127.0.0.1", [("X-Forwarded-For", "_x")], (), trusted=True) == "127.0.0.1"
    assert client_key("::ffff:10.1.2.3", [], (), trusted=False) == "10.1.2.3"


# -- a real server -----------------------------------------------------------------------


@contextmanager
def web_server(tmp_path: Path, *args: str) -> Iterator[WebServer]:
    server = WebServer(tmp_path / "web", *args).wait()
    try:
        yield server
    except BaseException:
        print("the server's log:\n" + "".join(server.lines))  # shown with the failure
        raise
    finally:
        server.stop()


def log_of(server: WebServer) -> str:
    return "".join(server.lines)


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 240))


def bottom_row(page: Page) -> int:
    """The last row the app drew on (its key bar's)."""
    rows = [i for i, line in enumerate(page.screen.display) if line.strip()]
    return rows[-1] if rows else -1


def right_column(page: Page) -> int:
    return max((len(line.rstrip()) for line in page.screen.display), default=0)


async def redrawn_at(page: Page, width: int, height: int) -> None:
    """Resize the page's terminal, and wait for the app's key bar on the last row of the
    size the server allows (on a cleared screen: the app redraws it whole)."""
    await page.settle()
    page.screen.reset()
    await page.send(["resize", {"width": width, "height": height}])
    rows = min(max(height, MIN_ROWS), MAX_ROWS)
    await page.wait_until(
        lambda: "q Quit" in page.screen.display[rows - 1], f"the key bar on row {rows}"
    )


def test_sizes_are_clamped_in_the_address_and_in_every_resize(tmp_path: Path) -> None:
    async def test() -> None:
        ann = await Browser(server.url).visit()
        try:
            # Asked for 100000 x 100000: drawn at 500 x 200 (the emulator is larger).
            page = await ann.open("width=100000&height=100000", width=600, height=260)
            await page.focus()
            await page.wait_until(
                lambda: "q Quit" in page.screen.display[MAX_ROWS - 1], "the key bar on row 200"
            )
            assert bottom_row(page) == MAX_ROWS - 1 and right_column(page) == MAX_COLUMNS
            await redrawn_at(page, 120, 40)
            assert right_column(page) == 120
            await redrawn_at(page, 10**12, 10**12)
            assert bottom_row(page) == MAX_ROWS - 1 and right_column(page) == MAX_COLUMNS
            # Zero and below: the smallest size, its key bar on row 4.
            await page.settle(quiet=1.5)  # no frame of the size before comes after this
            page.screen.reset()
            await page.send(["resize", {"width": 0, "height": -40}])
            await page.wait_until(
                lambda: "? Help" in page.screen.display[MIN_ROWS - 1], "the key bar on row 4"
            )
            await page.settle()
            assert bottom_row(page) < MIN_ROWS and right_column(page) <= MIN_COLUMNS
            # A storm of 300 sizes, up to a billion: the app then still answers, at the
            # size last asked for, and its memory stayed that of a screen of 500 x 200.
            for i in range(300):
                await page.send(["resize", {"width": 7**i % 10**9, "height": 3**i % 10**9}])
            await redrawn_at(page, 100, 30)
            [pid] = visitor_processes(server.data)
            assert peak_mib(pid) < 400, f"the visitor's app peaked at {peak_mib(pid):.0f} MiB"
            await page.close()
        finally:
            await ann.close()
        await wait_gone(server.data)

    with web_server(tmp_path) as server:
        run(test)
        assert "Traceback" not in log_of(server)


class SizesGiven:
    """A page's app that notes the sizes `PageSession` gives it, and when."""

    def __init__(self) -> None:
        self.sizes: list[tuple[float, int, int]] = []

    async def send_input(self, text: str) -> None:
        pass

    async def resize(self, width: int, height: int) -> None:
        self.sizes.append((time.monotonic(), width, height))

    async def focus(self, focused: bool) -> None:
        pass


@pytest.mark.parametrize(("width", "height"), [(500, 200), (80, 24)])
def test_a_storm_of_sizes_reaches_the_app_spaced_by_the_size(width: int, height: int) -> None:
    """A page's sizes reach its app as a window's changes do over SSH
    (`tui.rooms.resizes.layout_spacing`): 0.1 s apart for a small size, 1 s apart near 500 x
    200, whose layout costs its app most; the size last sent always comes. A page that
    sent sizes near 500 x 200 20 times a second for 4 s cost its app 9.8 s of a core
    when they came 0.1 s apart whatever the size (its layouts queued), 0.9 s now (one
    run each way, the app's processor time read from /proc)."""
    app = SizesGiven()
    sent: list[tuple[int, int]] = []

    async def page(request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        await PageSession(request, websocket, app, "127.0.0.1").run()
        return websocket

    async def test() -> None:
        application = web.Application()
        application.router.add_get("/ws", page)
        async with TestServer(application) as server, TestClient(server) as client:
            socket = await client.ws_connect("/ws")
            for i in range(40):  # 2 s, 20 a second
                sent.append((width - i % 2, height - i % 3))
                await socket.send_json(["resize", {"width": sent[-1][0], "height": sent[-1][1]}])
                await asyncio.sleep(0.05)
            await asyncio.sleep(layout_spacing(width, height) + 0.5)
            await socket.close()

    run(test)
    spacing = layout_spacing(width, height)
    assert app.sizes[0][1:] == sent[0]  # the first at once
    assert app.sizes[-1][1:] == sent[-1]  # and the last sent, whatever came between
    times = [when for when, _, _ in app.sizes]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert min(gaps) >= spacing - 0.01, gaps
    if width * height > RESIZE_CELLS:
        assert len(app.sizes) <= 4, app.sizes  # at 0, 1, 2 s and the last
    else:
        assert len(app.sizes) >= 8, app.sizes  # sizes of a window dragged keep coming


def test_a_malformed_message_closes_its_page_alone_and_the_game_is_kept(
    tmp_path: Path,
) -> None:
    async def test() -> None:
        ann = await Browser(server.url).visit()
        others = [await Browser(server.url, f"127.0.0.{n}").visit() for n in (2, 3)]
        try:
            page = await ann.open()
            await play_a_move(page)
            await page.send("not json")
            assert await page.wait_closed() == (WSCloseCode.POLICY_VIOLATION, MALFORMED)
            # The app quit as when a page is closed: its game is offered again.
            await wait_gone(server.data)
            page = await ann.open()
            await page.wait_for("Games in progress")
            await page.keys("enter")
            await page.wait_for("1. Blue", "e5", "Orange to move")

            # The report's other four, and a binary message, each on a page of its own
            # (three from each of two more addresses); Ann's page plays on.
            bad: list[str | bytes] = ['{"a":1}', '["resize","x"]', '["stdin",5]', "[]", b"\x00"]
            pages = [await others[i % 2].open() for i in range(len(bad) + 1)]
            await asyncio.gather(*(p.wait_for("choose a game") for p in pages))
            for message, each in zip(bad, pages, strict=False):
                if isinstance(message, bytes):
                    await each.socket.send_bytes(message)
                else:
                    await each.send(message)
            # The last: a message longer than the server reads.
            await pages[-1].send(["stdin", "x" * MAX_MESSAGE])
            closed = await asyncio.gather(*(p.wait_closed() for p in pages))
            assert closed[:-1] == [(WSCloseCode.POLICY_VIOLATION, MALFORMED)] * len(bad)
            assert closed[-1][0] == WSCloseCode.MESSAGE_TOO_BIG
            assert len(visitor_processes(server.data)) >= 1
            # Ann's page still answers: the pie rule's offer, then Orange plays on.
            await page.wait_for("Pie rule")
            assert await page.echo_seconds("p") < 30
            await page.wait_until(lambda: "Pie rule" not in page.text(), "the offer closed")
            await page.close()
            await wait_gone(server.data)
        finally:
            for browser in [ann, *others]:
                await browser.close()

    with web_server(tmp_path) as server:
        run(test)
        log = log_of(server)
        assert "127.0.0.1: closed, a malformed message (not JSON)" in log
        for reason in ("not a non-empty JSON array", '"stdin" without its text', "binary"):
            assert f"closed, a malformed message ({reason})" in log
        assert f"closed, Message size {MAX_MESSAGE + 13} exceeds limit {MAX_MESSAGE}" in log
        assert "Traceback" not in log


def test_pages_closed_as_soon_as_their_app_appears_leave_no_traceback(tmp_path: Path) -> None:
    async def test() -> None:
        browsers = [await Browser(server.url, f"127.0.0.{n}").visit() for n in (1, 2)]
        try:
            for _ in range(3):
                pages = [await b.open() for b in browsers for _ in range(2)]
                await asyncio.gather(*(p.answered() for p in pages))
                for page in pages:
                    await page.close()  # the app is told to quit while it builds its screen
            await wait_gone(server.data)
        finally:
            for browser in browsers:
                await browser.close()

    with web_server(tmp_path) as server:
        run(test)
        assert "Traceback" not in log_of(server)


def test_pages_per_address_and_in_all_are_bounded(tmp_path: Path) -> None:
    async def test() -> None:
        one = await Browser(server.url, "127.0.0.1").visit()
        two = await Browser(server.url, "127.0.0.2").visit()
        three = await Browser(server.url, "127.0.0.3").visit()
        try:
            pages = [await one.open() for _ in range(4)]
            await asyncio.gather(*(p.wait_for("choose a game") for p in pages))
            # A fifth from that address is told why, and costs no app.
            fifth = await one.open()
            too_many = (
                "Your address has 4 pages open already, the most it may have: "
                "close one, then press Restart."
            )
            assert await fifth.wait_closed() == (WSCloseCode.POLICY_VIOLATION, too_many)
            # A storm of 30 at once from there: each refused at once.
            start = time.monotonic()
            storm = await asyncio.gather(*(one.open() for _ in range(30)))
            refused = await asyncio.gather(*(p.wait_closed() for p in storm))
            assert {code for code, _ in refused} == {WSCloseCode.POLICY_VIOLATION}
            assert time.monotonic() - start < 20
            assert len(visitor_processes(server.data)) == 4
            # Another address gets in, up to the server's total (6 here).
            more = [await two.open() for _ in range(2)]
            await asyncio.gather(*(p.wait_for("choose a game") for p in more))
            full = await three.open()
            assert await full.wait_closed() == (
                WSCloseCode.TRY_AGAIN_LATER,
                "The server is full: it takes 6 pages at once. Try again in a while.",
            )
            # A page closed frees its place (once its app has quit).
            await pages.pop().close()
            deadline = time.monotonic() + 30
            while True:
                again = await three.open()
                if await again.answered() or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            await again.wait_for("choose a game")
            for page in [*pages, *more, again]:
                await page.close()
            await wait_gone(server.data)
        finally:
            for browser in (one, two, three):
                await browser.close()

    with web_server(tmp_path, "--max-visitors", "6") as server:
        run(test)
        log = log_of(server)
        assert "127.0.0.1: refused, 4 pages open from there already" in log
        assert "127.0.0.3: refused, the server is full (6 pages open)" in log
        assert "Traceback" not in log


def test_behind_a_trusted_proxy_each_browsers_address_counts(tmp_path: Path) -> None:
    async def opened(browser: Browser, client: str) -> Page:
        page = await browser.open(headers={"X-Forwarded-For": client})
        await page.answered()
        return page

    async def test(trusted: bool) -> None:
        browser = await Browser(server.url).visit()
        try:
            first = await opened(browser, "203.0.113.5")
            assert first.closed is None
            again = await opened(browser, "203.0.113.5")
            assert again.closed is not None  # the same browser behind the proxy
            other = await opened(browser, "203.0.113.6")
            # Another browser behind the proxy, if the proxy is trusted; unasked, its
            # header is anyone's, and the connection's address counts.
            assert (other.closed is None) == trusted
            for page in (first, other):
                await page.close()
        finally:
            await browser.close()
        await wait_gone(server.data)

    for trusted in (True, False):
        args = ["--pages-per-address", "1", *(["--behind-proxy"] if trusted else [])]
        with web_server(tmp_path / str(trusted), *args) as server:
            run(functools.partial(test, trusted))
            refused = "203.0.113.5: refused" if trusted else "127.0.0.1: refused"
            assert refused in log_of(server)


def test_a_download_key_is_its_visitors_alone(tmp_path: Path) -> None:
    async def test() -> None:
        ann = await Browser(server.url).visit()
        bob = await Browser(server.url, "127.0.0.2").visit()
        try:
            page = await ann.open()
            await play_a_move(page)
            await page.keys("ctrl+s")
            await page.wait_until(
                lambda: any(t[0] == "deliver_file_start" for t in page.texts), "the download"
            )
            [key] = [t[1] for t in page.texts if t[0] == "deliver_file_start"]
            # Another visitor's cookie, none, or a made-up one: no such download.
            for cookie in (bob.token, None, "0" * 32):
                status, text = await bob.download(key, cookie)
                assert status == 404, (cookie, status, text)
                assert "No such download" in text
            status, text = await ann.download(key, ann.token)
            assert status == 200
            assert [node.move for node in Record.from_sgf(text).root.mainline()] == ["e5"]
            await page.close()
        finally:
            await ann.close()
            await bob.close()
        await wait_gone(server.data)

    with web_server(tmp_path) as server:
        run(test)


def test_a_flood_from_one_page_does_not_stall_another_and_is_closed(tmp_path: Path) -> None:
    echoes: dict[str, list[float]] = {"quiet": [], "flood": []}
    sent = [0]

    async def flood(page: Page) -> None:
        kinds = [
            ["resize", {"width": 500, "height": 200}],
            ["resize", {"width": 80, "height": 24}],
            ["ping", "1"],
            ["stdin", "x" * 1000],
            ["focus"],
            ["hello", 1],
        ]
        with contextlib.suppress(ConnectionError):
            while page.closed is None:
                await page.send(kinds[sent[0] % len(kinds)])
                sent[0] += 1
                await asyncio.sleep(0)  # the quiet page's reading goes on meanwhile

    async def test() -> None:
        quiet = await Browser(server.url, "127.0.0.2").visit()
        loud = await Browser(server.url, "127.0.0.1").visit()
        try:
            calm = await quiet.open()
            await calm.wait_for("choose a game")
            for key in ["down", "up"] * 3:
                echoes["quiet"].append(await calm.echo_seconds(key))
                await asyncio.sleep(0.1)
            noisy = await loud.open()
            await noisy.wait_for("choose a game")
            # Each app runs below the server, which relays every page's bytes.
            server_nice = os.getpriority(os.PRIO_PROCESS, server.process.pid)
            for pid in visitor_processes(server.data):
                assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, server_nice + NICENESS)
            noisy.drawing = False  # its screens are not read: no time spent on them here
            flooding = asyncio.create_task(flood(noisy))
            await asyncio.sleep(0.5)
            for key in ["down", "up"] * 5:
                echoes["flood"].append(await calm.echo_seconds(key))
                await asyncio.sleep(0.1)
            # Slowed, then closed once the flood has lasted FLOOD_SECONDS.
            assert await noisy.wait_closed() == (WSCloseCode.POLICY_VIOLATION, FLOODED)
            await flooding
            await calm.close()
        finally:
            await quiet.close()
            await loud.close()
        await wait_gone(server.data)

    with web_server(tmp_path) as server:
        run(test)
        log = log_of(server)
    print(f"{sent[0]} messages sent; key to echo:", echoes)
    # Generous: the machine is shared. The real figures are in scripts/hostile_web.py.
    assert max(echoes["flood"]) < 5.0, echoes
    assert "127.0.0.1: over 200 messages a second, slowed" in log
    assert "127.0.0.1: input over 100 characters a second (or 1000 at once) dropped" in log
    assert "127.0.0.1: a message of unknown type 'hello' ignored" in log
    assert "127.0.0.1: closed, a flood of messages for 5 s" in log
    assert "Traceback" not in log


def test_an_app_whose_page_closed_runs_after_the_pages_in_play_until_it_ends(
    tmp_path: Path,
) -> None:
    """A page closed (here for a malformed message) tells its app to quit, and until it
    has (its game saved, its interpreter ended), the app runs below the apps of the pages
    still open (`capacity.step_aside`): a crowd of pages closed at once no longer takes the
    cores from them (scripts/hostile_web.py, its malformed pages)."""
    seen: list[int] = []

    async def test() -> None:
        browser = await Browser(server.url).visit()
        try:
            page = await browser.open()
            await page.wait_for("choose a game")
            [pid] = visitor_processes(server.data)
            server_nice = os.getpriority(os.PRIO_PROCESS, server.process.pid)
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, server_nice + NICENESS)
            await page.send("not json")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    seen.append(os.getpriority(os.PRIO_PROCESS, pid))
                except ProcessLookupError:
                    break
                await asyncio.sleep(0.002)
            assert await page.wait_closed() == (WSCloseCode.POLICY_VIOLATION, MALFORMED)
        finally:
            await browser.close()
        await wait_gone(server.data)
        playing = min(19, server_nice + NICENESS)
        assert seen[0] == playing  # read before the server had the message
        assert seen[-1] == min(19, playing + ENDING_NICE), seen

    with web_server(tmp_path) as server:
        run(test)
        assert "Traceback" not in log_of(server)
