"""A session's app in a process of its own (`serve`'s default; `--threads` for a thread):
this side runs on the server's loop, `session_child` in that process.

On a thread (`session_thread`) every app shares the server's interpreter: its lock, so a
layout of the largest terminal is time-sliced with every other session's keys, and its
garbage collector, whose full collections walk every session's screens while all of them
wait (`collector`). In a process of its own an app's layouts and collections are its
own, on whichever core is free; the server's loop only passes bytes: the keys and sizes
in, the frames out, and the rooms' calls both ways (`messages`). The price is memory: a
process for each session (tens of megabytes, part of it shared with the others).

`SessionProcess` has `SessionThread`'s face: `run_in_rooms` and `end`.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
import socket
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING

from ..rooms.link import Asked, Posted, Telling
from .capacity import step_aside
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
from .room_desk import RoomDesk

if TYPE_CHECKING:
    from ..rooms.holder import Holder
    from ..tui.rooms.app import Command, Terminal
    from .session_child import Spec
    from .session_thread import Host, Keys

log = logging.getLogger(__name__)

CHILD_MODULE = "abstracts_tui.server.session_child"
PRELOAD = [
    CHILD_MODULE,
    # What every session's app comes to import later (a game's screen, the computer, the
    # driver's parts): imported once here, their pages are shared by every session's
    # process instead of copied into each (5 MiB of a session's 27; scripts/ssh_load.py).
    "abstracts_tui.tui.rooms.create",
    "abstracts_tui.tui.screens.play",
    "abstracts_tui.tui.screens.setup",
    "abstracts_tui.engine.search",
    "abstracts_tui.engine.review",
    "textual.drivers.headless_driver",
    "textual.drivers.linux_driver",
    "textual.pilot",
    "textual.scrollbar",
    "rich.pretty",
    "statistics",
    # What multiprocessing imports in each process it starts (0.2 MiB of a lobby's).
    "multiprocessing.popen_forkserver",
    # Last: runs one session to its lobby, then collects and freezes what is left, so
    # that the caches every session fills the same way are filled once (`warm`).
    "abstracts_tui.server.warm",
]
"""The modules the server of processes imports before it forks a session's process (one
that cannot be imported is passed over)."""
END_SECONDS = 5.0
"""How long a process has to end once told to (its last frame written) before it is
stopped (SIGTERM, then SIGKILL)."""


def context() -> multiprocessing.context.ForkServerContext:
    """Processes forked from a server of processes that has imported the app."""
    found = multiprocessing.get_context("forkserver")
    assert isinstance(found, multiprocessing.context.ForkServerContext)
    found.set_forkserver_preload(PRELOAD)
    return found


async def prepare() -> None:
    """Start the server of processes (it imports the app and runs one session to its
    lobby, `warm`: a second or two) before the first session waits for it. The app's
    modules are imported here too (a session's process is started with a function of
    theirs, and their settings cross with it): before the server's first collection,
    which freezes them (`collector`)."""
    import importlib
    from multiprocessing import forkserver

    importlib.import_module(CHILD_MODULE)
    context()
    await asyncio.to_thread(forkserver.ensure_running)


def start(connection: socket.socket, spec: Spec) -> BaseProcess:
    from .session_child import main

    process = context().Process(
        target=main, args=(connection, spec), name=f"session-{spec.holder.user}", daemon=True
    )
    process.start()
    return process


class ProcessTeller:
    """Tells the app's `RoomClient`, in its process, what the rooms tell its desk."""

    def __init__(self, send: Send) -> None:
        self.send = send

    def tell(self, telling: Telling) -> None:
        self.send(Tell(telling))


class ProcessKeys:
    """The app's driver as the server's input sees it (`session_thread.Keys`)."""

    def __init__(self, send: Send) -> None:
        self.send = send

    def feed(self, text: str) -> None:
        self.send(Typed(text))

    def resize(self, width: int, height: int) -> None:
        self.send(Resized(width, height))


class SessionProcess:
    """Runs one session's app in a process of its own; `end` may be called from the
    server's loop at any time, before the process exists too."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.send: Send | None = None
        self.ending = False
        self.pid: int | None = None
        self.answers: set[asyncio.Task[None]] = set()

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
        """As `SessionThread.run_in_rooms`, the app in a process of its own: its return
        code (1 if the process failed)."""
        from .session_child import Spec

        spec = Spec(
            holder,
            server.rooms.rated,
            terminal,
            address,
            server.user_folder(holder.user),
            command,
            reached,
            server.rooms.web_url,
        )
        ours, theirs = socket.socketpair()
        try:
            process = await asyncio.to_thread(start, theirs, spec)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        send = sender(writer)
        desk = RoomDesk(server.rooms, server.store, holder, ProcessTeller(send))
        desk.placed = placed
        self.send = send
        self.pid = process.pid
        if self.ending:
            send(EndApp())
            step_aside(self.pid)
        try:
            await self.serve(reader, desk, write, attached)
        except MessageError as error:
            log.error("%s: the app's messages cannot be read: %s", self.name, error)
        finally:
            self.send = None
            desk.close()
            writer.close()
            for answer in self.answers:
                answer.cancel()
            status = await stop(process)
        return status

    async def serve(
        self,
        reader: asyncio.StreamReader,
        desk: RoomDesk,
        write: Callable[[str], None],
        attached: Callable[[Keys, asyncio.AbstractEventLoop], None],
    ) -> None:
        """Do what the app's process sends until it closes its end (it has ended)."""
        loop = asyncio.get_running_loop()
        while (message := await read(reader, restricted=True)) is not None:
            match message:
                case Frame(str(text)):
                    write(text)
                case Attached():
                    if self.send is not None:
                        attached(ProcessKeys(self.send), loop)
                case Ask(int(key), request) if isinstance(request, Asked):
                    answer = asyncio.create_task(self.answer(desk, key, request))
                    self.answers.add(answer)
                    answer.add_done_callback(self.answers.discard)
                case Post(request) if isinstance(request, Posted):
                    desk.post(request)
                case LogLine(int(level), str(text)):
                    log.log(level, "%s", text)
                case _:
                    raise MessageError(f"an unexpected message ({_named(message)})")

    async def answer(self, desk: RoomDesk, key: int, request: Asked) -> None:
        try:
            reply = Reply(key, True, await desk.handle(request))
        except Exception as error:  # told to the app, which says it (as on a thread)
            reply = Reply(key, False, error)
        send = self.send
        if send is None:
            return
        try:
            send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            send(Reply(key, False, RuntimeError(f"{type(request).__name__}: {error}")))

    def end(self) -> None:
        """End the app (from the server's loop); its process runs after those in play
        meanwhile (`capacity.step_aside`)."""
        self.ending = True
        if self.send is not None:
            self.send(EndApp())
            step_aside(self.pid)


async def stop(process: BaseProcess) -> int:
    """Wait for the app's process to end (stopping it after `END_SECONDS`); its status."""
    for stopping in (None, process.terminate, process.kill):
        if stopping is not None:
            log.warning("%s did not end in %g s: stopped", process.name, END_SECONDS)
            stopping()
        if await ended(process, END_SECONDS):
            break
    process.join(0)
    code = process.exitcode
    return 0 if code == 0 else 1


async def ended(process: BaseProcess, seconds: float) -> bool:
    """Whether `process` ends within `seconds`."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def gone() -> None:
        if not done.done():
            done.set_result(None)

    loop.add_reader(process.sentinel, gone)
    try:
        await asyncio.wait_for(done, seconds)
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(process.sentinel)
    return True


def _named(message: object) -> str:
    """A message's class, with the request it carries: what the log says of one that
    is not expected."""
    inner = getattr(message, "request", None)
    name = type(message).__name__
    return name if inner is None else f"{name} of {type(inner).__name__}"
