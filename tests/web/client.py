"""A page of `abstracts-tui web` without a browser: aiohttp's websocket client speaking
textual.js's messages (or any others), the bytes the app draws fed to a terminal emulator.

A `Browser` is one visitor: their cookie, and the address their connections come from
(any 127.x.y.z: the server, on 127.0.0.1, sees each as another machine)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pyte

TIMEOUT = 60.0
KEYS = {"enter": "\r", "right": "\x1b[C", "down": "\x1b[B", "up": "\x1b[A", "ctrl+s": "\x13"}


class Browser:
    def __init__(self, url: str, address: str = "127.0.0.1") -> None:
        self.url = url
        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # unsafe: cookies of an IP address
            connector=aiohttp.TCPConnector(local_addr=(address, 0)),
        )

    async def visit(self) -> Browser:
        """Open the page (which gives the cookie)."""
        async with self.session.get(self.url) as page:
            assert page.status == 200, await page.text()
        return self

    @property
    def token(self) -> str:
        return next(c.value for c in self.session.cookie_jar if c.key == "abstracts_tui_visitor")

    async def open(
        self,
        query: str = "width=80&height=24",
        headers: dict[str, str] | None = None,
        **screen: int,
    ) -> Page:
        """The page's websocket; `screen` (width=, height=) is the emulator's size, by
        default the size asked for."""
        sizes = dict(re.findall(r"(width|height)=(\d+)", query))
        width = screen.get("width", int(sizes.get("width", 80)))
        height = screen.get("height", int(sizes.get("height", 24)))
        socket = await self.session.ws_connect(
            self.url.replace("http://", "ws://") + "ws?" + query, max_msg_size=0, headers=headers
        )
        return Page(socket, width, height)

    async def download(self, key: str, cookie: str | None) -> tuple[int, str]:
        """GET /download/KEY with `cookie` as the visitor's (None: no cookie)."""
        headers = {"Cookie": f"abstracts_tui_visitor={cookie}"} if cookie is not None else {}
        async with (
            aiohttp.ClientSession() as plain,  # no jar: only the cookie given
            plain.get(f"{self.url}download/{key}", headers=headers) as response,
        ):
            return response.status, await response.text()

    async def close(self) -> None:
        await self.session.close()


class Page:
    """One page's websocket, read as it comes: the screen, the text messages, and how it
    was closed."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, width: int, height: int) -> None:
        self.socket = socket
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.texts: list[Any] = []
        self.drawing = True
        """Whether the app's bytes go to the emulator (they are counted either way)."""
        self.frames = 0
        self.last_frame = 0.0
        self.closed: tuple[int, str] | None = None
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        while True:
            message = await self.socket.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                if self.drawing:
                    self.stream.feed(message.data)
                self.frames += 1
                self.last_frame = time.monotonic()
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(json.loads(message.data))
            elif message.type == aiohttp.WSMsgType.CLOSE:
                self.closed = (int(message.data), message.extra or "")
            else:
                self.closed = self.closed or (int(self.socket.close_code or 0), "")
            self.changed.set()
            if self.closed is not None:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_until(self, check: Any, what: str, timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if self.closed is not None and not check():
                raise AssertionError(f"closed {self.closed} before {what}:\n{self.text()}")
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{what} not seen:\n{self.text()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def wait_for(self, *texts: str, timeout: float = TIMEOUT) -> None:
        await self.wait_until(lambda: all(t in self.text() for t in texts), repr(texts), timeout)

    async def answered(self) -> bool:
        """Whether the server let the page in: it draws (True), or closes it (False)."""
        await self.wait_until(lambda: self.frames > 0 or self.closed is not None, "an answer")
        return self.closed is None

    async def settle(self, quiet: float = 0.5) -> None:
        """Wait until the app has drawn nothing for `quiet` seconds."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() - max(self.last_frame, 0.0) < quiet:
            if time.monotonic() > deadline:
                raise AssertionError("the app never stops drawing")
            await asyncio.sleep(0.05)

    async def focus(self) -> None:
        """Once the app's first screen is there, say that the terminal has the keyboard, as
        the page does: without it the app stays blurred, its key bar empty."""
        await self.wait_for("choose a game")
        await self.send(["focus"])
        await self.wait_for("q Quit")

    async def wait_closed(self, timeout: float = TIMEOUT) -> tuple[int, str]:
        await asyncio.wait_for(asyncio.shield(self.reader), timeout)
        assert self.closed is not None
        return self.closed

    async def send(self, message: Any) -> None:
        """A message as textual.js sends them (JSON), or any text as it is."""
        await self.socket.send_str(message if isinstance(message, str) else json.dumps(message))

    async def keys(self, *names: str) -> None:
        for name in names:
            await self.send(["stdin", KEYS.get(name, name)])

    async def echo_seconds(self, key: str, timeout: float = TIMEOUT) -> float:
        """From sending `key` to the first bytes the app draws after it."""
        frames = self.frames
        start = time.monotonic()
        await self.keys(key)
        await self.wait_until(lambda: self.frames > frames, f"an answer to {key!r}", timeout)
        return self.last_frame - start

    async def close(self) -> None:
        await self.socket.close()
        await asyncio.wait_for(asyncio.shield(self.reader), TIMEOUT)


async def play_a_move(page: Page) -> None:
    """From the home screen: Petrify, the pie rule's swap, Blue's e5."""
    await page.focus()
    await page.keys("enter")
    await page.wait_for("Blue to move")
    await page.keys("right", "enter")
    await page.wait_for("Pie rule")
    await page.keys("p")
    await page.wait_for("1. Blue", "e5")


def visitor_processes(data: Path) -> list[int]:
    """The visitors' apps of the server whose data folder is `data` (by their command)."""
    found = []
    needle = f"abstracts_tui.server.web.visitor\0{data}".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def peak_mib(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MiB."""
    found = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert found, pid
    return int(found.group(1)) / 1024


async def wait_gone(data: Path, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while visitor_processes(data):
        if time.monotonic() > deadline:
            raise AssertionError(f"visitors' apps still running: {visitor_processes(data)}")
        await asyncio.sleep(0.1)
