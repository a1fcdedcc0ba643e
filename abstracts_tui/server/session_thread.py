"""A terminal session's app on a thread of its own, with its own asyncio loop.

Which loop owns what:

- the server's loop (the main thread) owns asyncssh (the connection, its channel and the
  `TerminalSession` that reads and writes it), the password checks, the rooms (`Rooms`,
  every `Room`, its live `Session` and gateway, the presences) and the store;
- a session's thread owns its app: the Textual app, its driver, its screens, and the
  replicas of the rooms' sessions and chats those screens show (`rooms.client`).

What crosses, and how (every crossing is `crossing.call_in` or `crossing.run_in`):

- to the app: the channel's data (`ChannelDriver.feed`), window changes
  (`ChannelDriver.resize`) and the end of the session (`ServerApp.end`: end of input, the
  client gone, idle, the server stopping);
- to the server: the frames (`AppChannel.write_screen`, one write per flush, as before)
  and the driver once the app has one (`AppChannel.attach`); the end of the app is the
  end of the thread, which the server's loop awaits;
- the rooms, both ways, through the session's `rooms.client.RoomClient` only: its calls
  (a room entered, made, a command, a chat line, a rematch, a call-off, the lists, the
  ratings) run on the server's loop; what the rooms tell (a command applied, a chat
  line, who is connected, news, the lists changed) crosses to the app's loop.

A layout is synchronous work of a tenth of a second or more at the largest sizes: on a
thread of its own it is time-sliced (`sys.getswitchinterval`) with the server's loop and
the other sessions instead of holding them for its whole length. Each thread costs its
stack (the pages it touches) and a loop, with three file descriptors (its epoll and the
socket pair that wakes it).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..crossing import call_in, on_thread

if TYPE_CHECKING:
    from ..rooms.holder import Holder
    from ..rooms.rooms import Rooms
    from ..store import Store
    from ..tui.rooms.app import Command, ServerApp, Terminal
    from ..tui.rooms.driver import ChannelDriver

SWITCH_SECONDS = 0.001
"""How long a thread holding the interpreter keeps it while another waits (Python's
default is 0.005 s), set by the server for its process: a key of a quiet session waits
for a few such turns while another session's layout runs, so shorter turns answer it
sooner (on this machine, under load, a third less at the median and the worst)."""


class Host(Protocol):
    """What a session's app needs of the server that runs it (`server.ssh.server.Server`):
    the rooms and the store, on the server's loop, and each person's folder."""

    rooms: Rooms
    store: Store

    def user_folder(self, user: str) -> Path: ...


class Keys(Protocol):
    """An app's driver as the client's input reaches it: what the client typed, and its
    sizes (`ChannelDriver`, or a process's app: `session_process.ProcessKeys`)."""

    def feed(self, text: str) -> None: ...

    def resize(self, width: int, height: int) -> None: ...


class AppInput:
    """What a client sends an app on its own thread, on the server's loop: its keys and
    its sizes go to the app's driver (on the app's loop) once it has one; until then the
    keys are kept, and the last size, and both are handed over when the driver comes.
    An SSH session and a browser's page each have one."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        """The size to draw for: the client's last, within the server's bounds."""
        self.started = size
        """The size the app was started at."""
        self.driver: Keys | None = None
        """The app's driver, once it has one (it belongs to `loop`)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.early: list[str] = []
        """What the client typed before the app had a driver (within the input's rate)."""
        self.size_due = False
        """Whether a size is on its way to the driver (one given meanwhile goes with it)."""

    def start(self) -> None:
        """The app starts now, at the size given last."""
        self.started = self.size

    def attach(self, driver: Keys, loop: asyncio.AbstractEventLoop) -> None:
        """The app has its driver, of its loop `loop`: it gets the size, if it changed
        since the app started, and the keys typed meanwhile."""
        self.driver, self.loop = driver, loop
        if self.size != self.started:
            call_in(loop, driver.resize, *self.size)
        if self.early:
            call_in(loop, driver.feed, "".join(self.early))
            self.early.clear()

    def detach(self) -> None:
        """The app has ended."""
        self.driver = self.loop = None

    def feed(self, text: str) -> None:
        if self.driver is not None and self.loop is not None:
            call_in(self.loop, self.driver.feed, text)
        else:
            self.early.append(text)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        if self.driver is not None and self.loop is not None and not self.size_due:
            # The last size given in this turn of the loop goes on at the next turn:
            # a storm of window changes (32 in one bite) crosses to the app once
            # a turn, not once a change; the driver spaces the layouts.
            self.size_due = True
            asyncio.get_running_loop().call_soon(self.hand_size)

    def hand_size(self) -> None:
        self.size_due = False
        if self.driver is not None and self.loop is not None:
            call_in(self.loop, self.driver.resize, *self.size)


class AppChannel:
    """The channel as the app's driver sees it, on the app's thread: frames go to the
    server's loop, which writes them (`write`); the driver is handed to it (`attached`)."""

    def __init__(
        self,
        server: asyncio.AbstractEventLoop,
        write: Callable[[str], None],
        attached: Callable[[Keys, asyncio.AbstractEventLoop], None],
    ) -> None:
        self.server = server
        self.write = write
        self.attached = attached

    def write_screen(self, data: str) -> None:
        call_in(self.server, self.write, data)

    def attach(self, driver: ChannelDriver) -> None:
        call_in(self.server, self.attached, driver, asyncio.get_running_loop())


class SessionThread:
    """Runs one session's app on a thread of its own; `end` may be called from the
    server's loop at any time, before the app exists too."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.Lock()
        """Guards `app`, `loop` and `ending`: set on the thread, read on the server's loop."""
        self.app: ServerApp | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ending = False

    def run(self, make: Callable[[], ServerApp], size: tuple[int, int]) -> asyncio.Future[int]:
        """Make the app with `make` (on the thread: it belongs to that loop) and run it
        at `size`; the future is done with its return code once it has ended."""

        async def main() -> int:
            app = make()
            with self.lock:
                self.app, self.loop = app, asyncio.get_running_loop()
                ending = self.ending
            if ending:
                app.end()
            try:
                await app.run_async(size=size)
            finally:
                with self.lock:
                    self.app = self.loop = None
            return app.return_code or 0

        return on_thread(f"ssh-{self.name}", lambda: asyncio.run(main()))

    async def run_in_rooms(
        self,
        server: Host,
        holder: Holder,
        write: Callable[[str], None],
        attached: Callable[[Keys, asyncio.AbstractEventLoop], None],
        *,
        terminal: Terminal,
        address: str,
        reached: str,
        command: Command | None = None,
        placed: Callable[[str | None], None] | None = None,
    ) -> int:
        """Run the app of `holder`'s person in the server's rooms (a `ServerApp`, with a
        `RoomClient` of its own) until it ends; its return code. Its frames go to `write`
        and its driver to `attached` (`AppChannel`), on the server's loop, which this is
        called on. An SSH session's app and a browser page's (`serve --web`) are made and
        run so; `reached` says which (`ServerApp`); `placed` is told the room its screen
        is in (`RoomDesk.placed`)."""
        from ..tui.rooms.app import ServerApp
        from .room_desk import thread_client

        loop = asyncio.get_running_loop()
        client, desk = thread_client(server.rooms, server.store, holder, loop)
        desk.placed = placed
        frames = AppChannel(loop, write, attached)
        user = holder.user
        data = server.user_folder(user)

        def make() -> ServerApp:  # on the thread: the app belongs to its loop
            return ServerApp(
                user=user,
                holder=client.holder,
                rooms=client,
                channel=frames,
                terminal=terminal,
                address=address,
                data=data,
                command=command,
                reached=reached,
            )

        try:
            return await self.run(make, (terminal.width, terminal.height))
        finally:
            desk.close()

    def end(self) -> None:
        """End the app (from the server's loop)."""
        with self.lock:
            self.ending = True
            app, loop = self.app, self.loop
        if app is not None and loop is not None:
            call_in(loop, app.end)
