"""The server of processes warmed before it forks sessions (`session_process.PRELOAD`).

A session's process is forked from the forkserver and shares its pages until it writes
them. CPython writes to an object whenever it is used (its reference count), and the
first runs of a function write its code (3.11 specializes it in place); a Textual app
also fills caches the first time it draws (rich's styles and cell widths, parsed
colours, Textual's own). A forkserver that has only imported the app leaves all of that
to each session, which copies every page it writes to. So the forkserver, as it starts,
runs one session as a session's process does (`session_child.run`, its messages answered
here as the server would with no room open), until its lobby is drawn. Then it collects
its garbage and freezes what is left (`gc.freeze`): a session's collections never walk,
so never copy, those objects.

What the warm-up made is gone before the first fork: its data folder is removed, and an
app keeps its choices in itself (its settings, its screens), not in its modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ..rooms.holder import new_holder
from ..tui.rooms.app import OVER_SSH, ServerApp, Terminal
from ..tui.rooms.lobby import LobbyScreen
from .messages import Send, read, sender
from .session_child import Spec, run

log = logging.getLogger(__name__)

WARM_SECONDS = 20.0
"""The longest the warm-up waits for the lobby (the forkserver serves, colder, after)."""
QUIET_SECONDS = 0.3
"""How long the lobby goes without a new frame before it counts as drawn."""
WARM_SIZE = (100, 30)
"""The terminal the warm-up's app draws on."""


async def shown(check: Callable[[], bool]) -> bool:
    """Wait until `check` holds (at most `WARM_SECONDS`); whether it does."""
    deadline = time.monotonic() + WARM_SECONDS
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


class Server:
    """The server's side of the session, with no room open: no rooms listed, every other
    call refused (as a server that has lost its store would); its frames dropped."""

    def __init__(self) -> None:
        self.last_frame = time.monotonic()

    def quiet(self) -> bool:
        """Whether no frame has come for `QUIET_SECONDS`."""
        return time.monotonic() - self.last_frame > QUIET_SECONDS

    async def answer(self, reader: asyncio.StreamReader, send: Send) -> None:
        while (message := await read(reader, restricted=True)) is not None:
            if message[0] == "frame":
                self.last_frame = time.monotonic()
            elif message[0] == "call":
                reply(send, message[1], message[2])


def reply(send: Send, key: int, name: str) -> None:
    if name == "views_there":
        send(("reply", key, True, ()))
    else:
        send(("reply", key, False, ConnectionError("no server while warming up")))


def in_lobby(apps: list[ServerApp]) -> bool:
    if not apps or not apps[0].shown:
        return False
    stack = apps[0].screen_stack
    return bool(stack) and isinstance(stack[-1], LobbyScreen)


async def run_one(folder: Path) -> bool:
    """Run a session as its process does until its lobby is drawn, then end it; whether
    the lobby was drawn."""
    ours, theirs = socket.socketpair()
    spec = Spec(new_holder("warm-up"), False, Terminal(*WARM_SIZE), "", folder, None, OVER_SSH)
    apps: list[ServerApp] = []
    session = asyncio.create_task(run(theirs, spec, apps.append))
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    send = sender(writer)
    server = Server()
    answering = asyncio.create_task(server.answer(reader, send))
    try:
        await shown(lambda: (in_lobby(apps) and server.quiet()) or session.done())
        return in_lobby(apps)
    finally:
        send(("end",))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(session, WARM_SECONDS)
        answering.cancel()
        writer.close()
        theirs.close()


def warm() -> bool:
    """Run one session as its process does, then collect and freeze; whether its lobby
    was drawn (the freeze is done either way)."""
    root = logging.getLogger()
    level, handlers = root.level, root.handlers
    try:
        with tempfile.TemporaryDirectory(prefix="abstracts-warm-") as folder:
            drawn = asyncio.run(run_one(Path(folder)))
    except Exception:
        drawn = False
    finally:
        root.setLevel(level)
        root.handlers = handlers
    if not drawn:
        log.warning("the forkserver's warm-up did not draw a lobby: sessions start colder")
    gc.collect()
    gc.freeze()
    return drawn


def in_forkserver() -> bool:
    """Whether this module is being imported by the forkserver's preload
    (`multiprocessing.forkserver.main`), not by anything else."""
    forkserver = sys.modules.get("multiprocessing.forkserver")
    code = getattr(getattr(forkserver, "main", None), "__code__", None)
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


DRAWN = warm() if in_forkserver() else None
"""Whether this process's warm-up drew its lobby; None where none ran (not the
forkserver). A session's process inherits it from the forkserver."""
