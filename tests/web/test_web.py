"""`abstracts-tui web` in a real headless browser (the machine's Chromium, driven by
Playwright): each visitor gets an app and a folder of their own, saving downloads the
record to the visitor's machine, and loading from the server's disk is refused.

The page draws the terminal on a canvas, so the test reads the screen as the SSH tests
do: the bytes the app sends over the page's websocket go into a terminal emulator."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyte
import pytest

from abstracts_tui.records import Record

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)"
)
TIMEOUT = 60.0
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


class WebServer:
    def __init__(self, data: Path, *args: str) -> None:
        self.data = data
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "abstracts_tui",
                "web",
                "--port",
                "0",
                "--data",
                str(data),
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.url = ""
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            found = re.search(r"listening on (http://\S+/)", line)
            if found:
                self.url = found.group(1)
                self.ready.set()

    def wait(self) -> WebServer:
        if not self.ready.wait(TIMEOUT):
            raise AssertionError("the web server did not start:\n" + "".join(self.lines))
        return self

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Visitor:
    """One browser context (its own cookies): a page and the screen its terminal shows."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(
            accept_downloads=True, viewport={"width": 1400, "height": 900}
        )
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.downloads: list[Any] = []
        self.context.on("page", self._page)
        self.page = self.context.new_page()
        self.page.on("websocket", self._socket)
        self.page.goto(url)

    def _page(self, page: Any) -> None:
        page.on("download", self._download)

    def _download(self, download: Any) -> None:
        self.downloads.append(download)

    def _socket(self, socket: Any) -> None:
        def received(payload: str | bytes) -> None:
            if isinstance(payload, bytes):  # the terminal's bytes; text frames are meta
                self.stream.feed(payload)

        def sent(payload: str | bytes) -> None:
            message = json.loads(payload) if isinstance(payload, str) else None
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
                raise AssertionError(f"{what} not on the screen:\n{screen}")

    def wait_for(self, *texts: str) -> str:
        return self.wait_until(lambda screen: all(t in screen for t in texts), repr(texts))

    def press(self, *keys: str) -> None:
        self.page.locator(".xterm-helper-textarea").focus()  # where xterm.js takes keys
        for key in keys:
            self.page.keyboard.press(key)


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


def test_web_refuses_other_addresses_unless_told(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "abstracts_tui",
            "web",
            "--host",
            "0.0.0.0",
            "--data",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "0.0.0.0 is not a loopback address: give --open" in result.stderr
