"""One page of `serve --web`: a room player's app in the server, drawn on the page.

The app is an SSH session's (`tui.rooms.app.ServerApp` on a thread of its own, with its
`rooms.client.RoomClient`), drawn by `tui.rooms.driver.ChannelDriver`; what differs is the
channel: its frames go to the page's websocket as binary messages (textual.js writes
them to its terminal), and its input and sizes come from the page's messages once
`page_session` has checked them (`PageApp`).

A page opened at `/room/CODE` starts in that room; the page's address follows the room its
app shows (`placed`: a text message `["place", PATH]`, which the page puts in its address
with `history.replaceState`), so that a reload, or the tab opened again, comes back to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING

from aiohttp import web

from ..limits import clamp_size
from ..session_process import SessionProcess
from ..session_thread import AppInput, SessionThread
from .visitors import CLOSE_SECONDS

if TYPE_CHECKING:
    from ...rooms.holder import Holder
    from ..session_thread import Keys
    from ..ssh.server import Server

log = logging.getLogger("abstracts_tui.web")


class RoomPage:
    """One page's app: a room player's `ServerApp` in a process of its own (`serve`'s
    default) or on a thread of its own (`--threads`), its frames sent
    to the page's websocket, the page's checked messages handed to its driver."""

    def __init__(
        self,
        server: Server,
        user: str,
        websocket: web.WebSocketResponse,
        size: tuple[int, int],
        address: str,
        *,
        room: str | None = None,
        prefix: str = "/",
    ) -> None:
        """`room`: the code of the room the app opens in (a page at `/room/CODE`);
        `prefix`: the path the browser reaches the pages under."""
        self.server = server
        self.user = user
        self.websocket = websocket
        self.input = AppInput(size)
        """The page's keys and sizes, for the app's driver."""
        self.address = address
        name = f"web-{user}"
        self.thread = SessionProcess(name) if server.config.isolate else SessionThread(name)
        self.out: list[bytes] = []
        """Frames not yet handed to the websocket."""
        self.out_bytes = 0
        self.sending: asyncio.Task[None] | None = None
        self.placing: set[asyncio.Task[None]] = set()
        """Places being sent to the page."""
        self.closed = False
        """Whether the page is gone, or no longer drawn (it did not read its screen)."""
        self.last_input = time.monotonic()
        self.drawn = False
        """Whether the app has drawn its first frame: the idle time counts from then (a
        page may first wait for the server's warm-up, with nothing to answer)."""
        self.farewell = ""
        """Why the page was ended from outside it (a sign-out), for its closed dialog."""
        self.room = room
        self.prefix = prefix
        self.place = f"{prefix}room/{room}" if room is not None else prefix
        """The page's path as it was last told (its room's, or the lobby's)."""

    async def run(self, holder: Holder) -> int:
        """Run the app until it ends; its return code."""
        from ...tui.rooms.app import IN_A_BROWSER, Command, Terminal

        # xterm.js: 24-bit colour; no desktop notices (the page rings no bell).
        terminal = Terminal(*self.input.size, "xterm-256color", "truecolor")
        try:
            return await self.thread.run_in_rooms(
                self.server,
                holder,
                self.write_screen,
                self.attach_driver,
                terminal=terminal,
                address=self.address,
                reached=IN_A_BROWSER,
                command=None if self.room is None else Command("join", self.room),
                placed=self.placed,
            )
        finally:
            self.input.detach()

    def end(self, farewell: str = "") -> None:
        """End the app (its games are kept, as when an SSH client leaves); `farewell`:
        what the page's closed dialog says (by default, that the session ended)."""
        self.farewell = self.farewell or farewell
        self.thread.end()

    # -- the app's side ---------------------------------------------------------------------

    def placed(self, code: str | None) -> None:
        """The app's screen is now in room `code` (None: the lobby): the page's address
        says so (on the server's loop)."""
        place = self.prefix if code is None else f"{self.prefix}room/{code}"
        if place == self.place or self.closed:
            return
        self.place = place
        message = json.dumps(["place", place])
        task = asyncio.get_running_loop().create_task(self.send_place(message))
        self.placing.add(task)
        task.add_done_callback(self.placing.discard)

    async def send_place(self, message: str) -> None:
        with contextlib.suppress(ConnectionError):
            await self.websocket.send_str(message)

    def attach_driver(self, driver: Keys, loop: asyncio.AbstractEventLoop) -> None:
        self.input.attach(driver, loop)

    def write_screen(self, data: str) -> None:
        """A frame (on the server's loop): sent in order; a page that does not read its
        screen is closed once the server holds more of it than SSH allows a client."""
        if self.closed:
            return
        if not self.drawn:
            self.drawn = True
            self.last_input = time.monotonic()
        chunk = data.encode()
        self.out.append(chunk)
        self.out_bytes += len(chunk)
        if self.out_bytes > self.server.config.limits.output_buffer:
            log.info("%s: the page does not read its screen; closing", self.user)
            self.closed = True
            self.out.clear()
            self.end()
            return
        if self.sending is None:
            self.sending = asyncio.get_running_loop().create_task(self.send())

    async def send(self) -> None:
        try:
            while self.out and not self.closed:
                data = b"".join(self.out)
                self.out.clear()
                self.out_bytes = 0
                await self.websocket.send_bytes(data)
        except ConnectionError:
            self.closed = True
            self.end()
        finally:
            self.sending = None

    async def drained(self) -> None:
        """Wait until the frames written so far are sent (the app's last one, say)."""
        await asyncio.sleep(0)  # what the app's thread handed over last comes first
        sending = self.sending
        if sending is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(sending), CLOSE_SECONDS)

    # -- the page's side (page_session.PageApp) ----------------------------------------------

    async def send_input(self, text: str) -> None:
        self.last_input = time.monotonic()
        self.input.feed(text)

    async def resize(self, width: int, height: int) -> None:
        self.input.resize(clamp_size(width, height))  # within the bounds SSH's sizes have

    async def focus(self, focused: bool) -> None:
        """Nothing: the driver asks the terminal to report its focus, which xterm.js does
        in the page's input."""
