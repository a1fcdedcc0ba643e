"""A session's app in a process of its own (`serve`'s default; `--threads` for a thread):
this side runs in that process, `session_process` in the server's.

The app is the one a session's thread runs (`ServerApp`, with its `ChannelDriver`); only
what it reaches through differs. Its frames go to the server as messages (`ChildChannel`),
and its rooms are a `RoomClient` whose calls to its desk on the server's loop are
messages too (`ChildLink`); the server sends the keys, the sizes, the end and what the
rooms tell (`messages` lists them). Its log lines go to the server's log.

The process is forked from a server of processes started with the server
(`multiprocessing`'s forkserver) that has imported this module, and with it Textual and
the app: a session starts in a few milliseconds, sharing those pages until it writes
them.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from ..rooms.client import RoomClient
from ..rooms.holder import Holder
from ..rooms.link import Asked, Posted, Request
from ..tui.rooms.app import Command, ServerApp, Terminal
from ..tui.rooms.driver import ChannelDriver
from .messages import (
    Ask,
    Attached,
    EndApp,
    Frame,
    LogLine,
    MessageError,
    Post,
    Reply,
    Resized,
    Send,
    Tell,
    Typed,
    read,
    sender,
)
from .screen_garbage import collect_after_screens

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Spec:
    """What the app is made with (as `SessionThread.run_in_rooms` makes it)."""

    holder: Holder
    rated: bool
    terminal: Terminal
    address: str
    data: Path
    command: Command | None
    reached: str
    web_url: str | None = None
    """The address of the server's web page, for rooms' links (`Rooms.web_url`)."""


class ChildLink:
    """The `RoomClient`'s way to its desk in the server: messages, answered by key."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.keys = itertools.count()
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.gone = False

    async def ask(self, request: Request[T]) -> T:
        if self.gone:
            raise ConnectionError("the server has closed the session")
        key = next(self.keys)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[key] = answer
        self.send(Ask(key, cast(Asked, request)))
        try:
            return cast(T, await answer)
        finally:
            self.waiting.pop(key, None)

    def post(self, request: Posted) -> None:
        self.send(Post(request))

    def reply(self, key: int, ok: bool, value: Any) -> None:
        answer = self.waiting.get(key)
        if answer is None or answer.done():
            return
        if ok:
            answer.set_result(value)
        else:
            answer.set_exception(value)

    def close(self) -> None:
        self.gone = True
        for answer in self.waiting.values():
            if not answer.done():
                answer.set_exception(ConnectionError("the server has closed the session"))


class ChildChannel:
    """The driver's channel (`tui.rooms.driver.Channel`): frames to the server; the driver
    kept for the keys and sizes the server sends once it is told the driver is here."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.driver: ChannelDriver | None = None

    def write_screen(self, data: str) -> None:
        self.send(Frame(data))

    def attach(self, driver: ChannelDriver) -> None:
        self.driver = driver
        self.send(Attached())


class ToServer(logging.Handler):
    """Log lines of the app's process, written by the server's log."""

    def __init__(self, send: Send) -> None:
        super().__init__()
        self.send = send

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.send(LogLine(record.levelno, self.format(record)))
        except Exception:
            self.handleError(record)


def main(connection: socket.socket, spec: Spec) -> None:
    """The process's start: run the app until it ends; its return code is the process's
    exit status."""
    # Ctrl+C at the server's terminal reaches its whole process group: the server ends
    # its sessions itself (each told `end`, its last frame written).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # What the fork shares is never walked, so never copied for that (the forkserver
    # froze its own after its warm-up: this freezes what it made since).
    gc.freeze()
    sys.exit(asyncio.run(run(connection, spec)))


async def run(
    connection: socket.socket, spec: Spec, made: Callable[[ServerApp], object] | None = None
) -> int:
    """Run the app made from `spec` until it ends, speaking with the server through
    `connection`; its return code. `made` is given the app as soon as it is made (the
    forkserver's warm-up drives it so)."""
    reader, writer = await asyncio.open_unix_connection(sock=connection)
    send = sender(writer)
    root = logging.getLogger()
    root.handlers = [ToServer(send)]
    root.setLevel(logging.INFO)
    link = ChildLink(send)
    client = RoomClient(spec.holder, spec.rated, link, web_url=spec.web_url)
    channel = ChildChannel(send)
    app = ServerApp(
        user=spec.holder.user,
        holder=spec.holder,
        rooms=client,
        channel=channel,
        terminal=spec.terminal,
        address=spec.address,
        data=spec.data,
        command=spec.command,
        reached=spec.reached,
    )
    collect_after_screens(app)
    if made is not None:
        made(app)
    listening = asyncio.create_task(listen(reader, app, channel, client, link))
    try:
        await app.run_async(size=(spec.terminal.width, spec.terminal.height))
    finally:
        listening.cancel()
        if not writer.is_closing():
            await writer.drain()
        writer.close()
    return app.return_code or 0


async def listen(
    reader: asyncio.StreamReader,
    app: ServerApp,
    channel: ChildChannel,
    client: RoomClient,
    link: ChildLink,
) -> None:
    """Do what the server sends until it closes the session (then the app ends)."""
    try:
        while (message := await read(reader)) is not None:
            driver = channel.driver
            match message:
                case Typed(text):
                    if driver is not None:
                        driver.feed(text)
                case Resized(width, height):
                    if driver is not None:
                        driver.resize(width, height)
                case EndApp():
                    app.end()
                case Tell(telling):
                    client.tell(telling)
                case Reply(key, ok, value):
                    link.reply(key, ok, value)
                case _:
                    raise MessageError(f"an unexpected message ({type(message).__name__})")
    except MessageError as error:
        log.error("the server's messages cannot be read: %s", error)
    finally:
        link.close()
        app.end()
