"""`abstracts-tui web` in a real headless browser (the machine's Chromium, driven by
Playwright): each visitor gets an app and a folder of their own, saving downloads the
record to the visitor's machine, and loading from the server's disk is refused.

The page draws the terminal on a canvas, so the test reads the screen as the SSH tests
do: the bytes the app sends over the page's websocket go into a terminal emulator."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyte
import pytest

from abstracts_tui.records import Record
from tests.web.proxy import Proxy
from tests.web.server import TIMEOUT, WebServer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)"
)
# As the machine's notes say: without the background-networking flags Chromium tries
# hosts this closed network refuses, many at a time.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Visitor:
    """One browser context (its own cookies): a page and the screen its terminal shows,
    and the addresses the page asked for (its requests and its websocket)."""

    def __init__(self, browser: Any, url: str, **options: Any) -> None:
        self.context = browser.new_context(
            accept_downloads=True, viewport={"width": 1400, "height": 900}, **options
        )
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.downloads: list[Any] = []
        self.sent: list[str] = []
        """What the page sent on its websockets, last ones kept (told when a wait fails)."""
        self.asked: list[str] = []
        self.console: list[str] = []
        self.context.on("page", self._page)
        self.context.on("request", lambda request: self.asked.append(request.url))
        self.page = self.context.new_page()
        self.page.on("websocket", self._socket)
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.goto(url)

    def _page(self, page: Any) -> None:
        page.on("download", self._download)

    def _download(self, download: Any) -> None:
        self.downloads.append(download)

    def _socket(self, socket: Any) -> None:
        self.asked.append(socket.url)

        def received(payload: str | bytes) -> None:
            if isinstance(payload, bytes):  # the terminal's bytes; text frames are meta
                self.stream.feed(payload)

        def sent(payload: str | bytes) -> None:
            message = json.loads(payload) if isinstance(payload, str) else None
            self.sent = [*self.sent[-19:], f"{time.monotonic():.2f} {payload!r:.80}"]
            if isinstance(message, list) and message[0] == "resize":  # the page's size
                self.screen.resize(message[1]["height"], message[1]["width"])

        socket.on("framereceived", received)
        socket.on("framesent", sent)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_until(self, check: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while True:
            self.page.wait_for_timeout(100)  # Playwright delivers events while it waits
            screen = self.text()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                sent = "\n".join(self.sent)
                raise AssertionError(f"{what} not on the screen:\n{screen}\nthe page sent:\n{sent}")

    def wait_for(self, *texts: str) -> str:
        return self.wait_until(lambda screen: all(t in screen for t in texts), repr(texts))

    def press(self, *keys: str) -> None:
        self.page.locator(".xterm-helper-textarea").focus()  # where xterm.js takes keys
        self.type(*keys)

    def type(self, *keys: str) -> None:
        """Keys to whatever the page focused (no click first)."""
        for key in keys:
            self.page.keyboard.press(key)

    def key_bar(self) -> str:
        """The screen's bottom line."""
        return self.screen.display[-1]


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[WebServer]:
    server = WebServer(tmp_path / "web").wait()
    yield server
    server.stop()


def test_each_visitor_plays_in_a_folder_of_their_own_and_saves_by_download(
    browser: Any, web_server: WebServer, tmp_path: Path
) -> None:
    ann = Visitor(browser, web_server.url)
    ann.wait_for("choose a game", "Petrify")
    ann.press("Enter")
    ann.wait_for("Blue to move")
    ann.press("ArrowRight", "Enter")
    ann.wait_for("Pie rule")
    ann.press("p")
    ann.wait_for("1. Blue", "e5")
    ann.press(":", "d", "4", "Enter")
    ann.wait_for("2. Orange", "d4")
    ann.press("u")  # taken back: the record saved is the game as shown, without it
    ann.wait_for("Pie rule")
    ann.press("p")
    ann.wait_until(lambda screen: "d4" not in screen, "the move list without d4")
    # Saving downloads the record to the visitor's machine.
    ann.press("Control+s")
    ann.wait_for("your browser downloads petrify-")
    deadline = time.monotonic() + TIMEOUT
    while not ann.downloads and time.monotonic() < deadline:
        ann.page.wait_for_timeout(100)
    assert ann.downloads, "no download started"
    saved = tmp_path / "saved.sgf"
    ann.downloads[0].save_as(saved)
    record = Record.from_sgf(saved.read_text())
    assert [node.move for node in record.root.mainline()] == ["e5"]
    # Nothing was written to the server's disk but the visitor's own folder.
    folders = list((web_server.data / "visitors").iterdir())
    assert len(folders) == 1
    # Loading a file from the server's disk is not offered.
    assert "^s Save" in ann.text() and "^o" not in ann.text()

    # Another visitor (another browser context: no cookie yet) has no game in progress.
    bob = Visitor(browser, web_server.url)
    bob.wait_for("choose a game")
    bob.press("Control+r")
    bob.wait_for("No game is in progress")
    # Ann, in a new page with her cookie, is offered hers, and resumes it.
    ann.page.close()
    ann.screen.reset()
    ann.page = ann.context.new_page()
    ann.page.on("websocket", ann._socket)
    ann.page.goto(web_server.url)
    ann.wait_for("Games in progress")
    ann.press("Enter")
    ann.wait_for("1. Blue", "e5", "Orange to move")
    assert len(list((web_server.data / "visitors").iterdir())) == 2


def refused_web(tmp_path: Path, *args: str) -> str:
    """What `abstracts-tui web ARGS` says as it refuses to start (status 2)."""
    result = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "web", *args, "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    return result.stderr


def test_web_refuses_other_addresses_unless_told(tmp_path: Path) -> None:
    said = refused_web(tmp_path, "--host", "0.0.0.0")
    assert "0.0.0.0 is not a loopback address: give --open" in said


def test_the_page_asks_the_app_alone_and_loads_its_font(
    browser: Any, web_server: WebServer
) -> None:
    ann = Visitor(browser, web_server.url)
    ann.wait_for("choose a game", "q Quit")
    own = web_server.url.removeprefix("http://")
    assert ann.asked, "the page asked for nothing"
    # Every address: the page, its style, script and fonts, and its websocket.
    for url in ann.asked:
        assert re.match(rf"(http|ws)://{re.escape(own)}", url), f"{url} is not the app's"
    assert any(url.endswith(".ttf") for url in ann.asked)
    faces = ann.page.evaluate(
        """() => [...document.fonts].map(f => [f.family.replaceAll('"', ''), f.status])"""
    )
    assert ["Roboto Mono", "loaded"] in faces
    assert not [line for line in ann.console if "Content Security Policy" in line]


def test_keys_work_without_a_click_and_the_key_bar_is_drawn(
    browser: Any, web_server: WebServer
) -> None:
    ann = Visitor(browser, web_server.url)
    # The home screen's keys, on its bottom line, with nothing clicked.
    ann.wait_until(lambda _: "? Help" in ann.key_bar() and "q Quit" in ann.key_bar(), "key bar")
    assert ann.page.evaluate(
        "() => document.activeElement.classList.contains('xterm-helper-textarea')"
    )
    # That line is on the page: the terminal ends within the window.
    bottom, height = ann.page.evaluate(
        """() => [document.querySelector('.xterm-screen').getBoundingClientRect().bottom,
                  window.innerHeight]"""
    )
    assert bottom <= height
    # Keys reach the app: ↓ picks the next game, ? opens its help (and its keys).
    ann.type("ArrowDown")
    ann.wait_for("Equal stacks capture and grow")
    ann.wait_until(lambda screen: "Pilo" in screen.splitlines()[1], "Pilo's options")
    ann.type("?")
    ann.wait_until(lambda _: "Close" in ann.key_bar(), "the help's key bar")
    ann.type("Escape")
    ann.wait_until(lambda _: "? Help" in ann.key_bar(), "the home screen's key bar")


def play_a_move(visitor: Visitor) -> None:
    visitor.wait_for("choose a game", "Petrify")
    visitor.type("Enter")
    visitor.wait_for("Blue to move")
    visitor.type("ArrowRight", "Enter")
    visitor.wait_for("Pie rule")
    visitor.type("p")
    visitor.wait_for("1. Blue", "e5")


def test_behind_an_https_proxy_that_says_the_address_in_its_headers(
    browser: Any, tmp_path: Path
) -> None:
    def headers(request: Any) -> dict[str, str]:
        # As nginx's X-Forwarded-Proto $scheme and X-Forwarded-Host $host, with the
        # path it strips.
        return {
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": request.host,
            "X-Forwarded-Prefix": "/games/",
        }

    proxy = Proxy(tmp_path, "/games/", strip=True, headers=headers)
    server = WebServer(tmp_path / "web", "--behind-proxy").wait()
    proxy.upstream = server.url
    try:
        ann = Visitor(browser, proxy.url, ignore_https_errors=True)
        play_a_move(ann)
        assert ann.asked
        for url in ann.asked:
            assert url.startswith((proxy.url, "wss" + proxy.url.removeprefix("https"))), url
        assert f"wss://127.0.0.1:{proxy.port}/games/ws?" in " ".join(ann.asked)
    finally:
        server.stop()
        proxy.stop()


def test_behind_a_proxy_at_the_public_url_given(browser: Any, tmp_path: Path) -> None:
    # This proxy adds no header and passes the path on as it came.
    proxy = Proxy(tmp_path, "/abstracts/", strip=False, headers=lambda request: {})
    server = WebServer(tmp_path / "web", "--public-url", proxy.url).wait()
    proxy.upstream = server.url
    try:
        server.wait_for_line(f"browsers open {proxy.url}")
        ann = Visitor(browser, proxy.url, ignore_https_errors=True)
        play_a_move(ann)
        # The record's download is the app's own, under the path too.
        ann.press("Control+s")
        ann.wait_for("your browser downloads petrify-")
        deadline = time.monotonic() + TIMEOUT
        while not ann.downloads and time.monotonic() < deadline:
            ann.page.wait_for_timeout(100)
        assert ann.downloads, "no download started"
        assert ann.downloads[0].url.startswith(f"{proxy.url}download/")
        saved = tmp_path / "saved.sgf"
        ann.downloads[0].save_as(saved)
        assert [node.move for node in Record.from_sgf(saved.read_text()).root.mainline()] == ["e5"]
        for url in ann.asked:
            assert url.startswith((proxy.url, "wss" + proxy.url.removeprefix("https"))), url
    finally:
        server.stop()
        proxy.stop()


def fetch_page(url: str, headers: dict[str, str]) -> tuple[str, str]:
    """The page's websocket address, and the cookie it sets."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as page:
        text = page.read().decode()
        cookie = page.headers.get("Set-Cookie", "")
    found = re.search(r'data-session-websocket-url="([^"]*)"', text)
    assert found, text
    return found.group(1), cookie


def test_the_proxy_headers_count_only_when_asked_for(tmp_path: Path) -> None:
    claims = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example.org"}
    plain = WebServer(tmp_path / "plain").wait()
    try:
        # Anyone may send them: unasked, the page keeps the address the request came to,
        # and the server's log says how to trust them.
        socket, cookie = fetch_page(plain.url, claims)
        assert socket == plain.url.replace("http://", "ws://") + "ws"
        assert "Secure" not in cookie and "Path=/;" in cookie
        plain.wait_for_line("give --behind-proxy to trust them")
        # Nor is a Host header that is not a host put in the page.
        with pytest.raises(urllib.error.HTTPError) as refused:
            fetch_page(plain.url, {"Host": 'x"></style><script>'})
        assert refused.value.code == 400
    finally:
        plain.stop()
    trusting = WebServer(tmp_path / "trusting", "--behind-proxy").wait()
    try:
        assert fetch_page(trusting.url, claims)[0] == "wss://games.example.org/ws"
        # The standard header; of several proxies, the one nearest to the app counts.
        socket, cookie = fetch_page(
            trusting.url,
            {
                "Forwarded": "for=10.0.0.1;host=evil.example;proto=http, "
                'for=10.0.0.2;host="games.example.org:8443";proto=https'
            },
        )
        assert socket == "wss://games.example.org:8443/ws"
        assert "Secure" in cookie
        # A header that is not an address is not taken for one.
        socket, _ = fetch_page(trusting.url, {"X-Forwarded-Host": '"><script>'})
        assert socket == trusting.url.replace("http://", "ws://") + "ws"
    finally:
        trusting.stop()


def test_web_refuses_a_public_url_that_is_not_one(tmp_path: Path) -> None:
    said = refused_web(tmp_path, "--public-url", "games.example.org")
    assert "--public-url 'games.example.org' is not an address like https://" in said
    assert "it does not start with https:// or http://" in said


def test_a_refused_page_says_why_and_restarts_once_there_is_room(
    browser: Any, tmp_path: Path
) -> None:
    server = WebServer(tmp_path / "web", "--max-visitors", "1").wait()
    try:
        ann = Visitor(browser, server.url)
        ann.wait_for("choose a game")
        # The server takes one page: Bob's is told so, in the page's closed dialog.
        bob = Visitor(browser, server.url)
        ended = bob.page.locator("#ended")
        ended.wait_for(state="visible", timeout=TIMEOUT * 1000)
        assert ended.text_content() == (
            "The server is full: it takes 1 page at once. Try again in a while."
        )
        server.wait_for_line("127.0.0.1: refused, the server is full (1 page open)")
        # Once Ann's page is closed (and her app has quit), Restart lets Bob in.
        ann.page.close()
        deadline = time.monotonic() + TIMEOUT
        restart = bob.page.locator(".closed-dialog .restart")
        while "choose a game" not in bob.text():
            assert time.monotonic() < deadline, "Bob's page never got in"
            if restart.is_visible():  # refused again: Ann's app had not quit yet
                bob.screen.reset()  # the new page's app draws its whole screen
                restart.click()
            bob.page.wait_for_timeout(500)
        assert not ended.is_visible()
    finally:
        server.stop()
