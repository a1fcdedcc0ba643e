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
so never copy, those objects; the free pages the warm-up left are handed back
(`give_back_free_pages`).

What the warm-up made is gone before the first fork: its data folder is removed, and an
app keeps its choices in itself (its settings, its screens), not in its modules.

What is left to each session is mostly not its own data (about 1 MiB in the lobby) but
the pages it copies by using what the forkserver made. CPython writes every object it
uses, its reference count, so a page is copied for any object on it that a session
touches: on 3.11 a session's Textual app touches objects on two fifths of the
forkserver's pages, and a lobby keeps 14 MiB of its own. CPython 3.12 and 3.13 have
immortal objects, whose counts are never written: there the forkserver makes all it
holds immortal before it freezes it (`immortalize`), and a lobby keeps 7 to 8 MiB, a
room 14 (`scripts/session_memory.py`). What such a session still copies is mostly the
code it runs (CPython rewrites a function's bytecode as it specializes it, and counts
down in it) and the free spaces between the forkserver's objects that its own fill.
`scripts/session_memory.py --floor` measures the floor: on 3.11 a process forked from a
warmed one that runs a one-widget Textual app keeps about 10 MiB of its own, a lobby 14.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import socket
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..rooms.holder import new_holder
from ..rooms.link import Views
from ..tui.rooms.app import OVER_SSH, ServerApp, Terminal
from ..tui.rooms.lobby import LobbyScreen
from .messages import Ask, EndApp, Frame, Reply, Send, read, sender
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
            if isinstance(message, Frame):
                self.last_frame = time.monotonic()
            elif isinstance(message, Ask):
                reply(send, message.key, message.request)


def reply(send: Send, key: int, request: object) -> None:
    if isinstance(request, Views):
        send(Reply(key, True, ()))
    else:
        send(Reply(key, False, ConnectionError("no server while warming up")))


def in_lobby(apps: list[ServerApp]) -> bool:
    if not apps or not apps[0].shown:
        return False
    stack = apps[0].screen_stack
    return bool(stack) and isinstance(stack[-1], LobbyScreen)


async def run_one(folder: Path, drawn: Callable[[], Awaitable[object]] | None = None) -> bool:
    """Run a session as its process does until its lobby is drawn (then until `drawn`
    returns, if given: `scripts/session_memory.py --floor` measures it so), then end it;
    whether the lobby was drawn."""
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
        if drawn is not None and in_lobby(apps):
            await drawn()
        return in_lobby(apps)
    finally:
        send(EndApp())
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
    immortalize()
    gc.freeze()
    give_back_free_pages()
    return drawn


IMMORTAL = 0xFFFFFFFF
"""The reference count CPython 3.12 and 3.13 give an immortal object (`_Py_IMMORTAL_REFCNT`,
what `sys.getrefcount(None)` says there): one it neither counts up nor down."""


def can_immortalize() -> bool:
    """Whether this Python has immortal objects laid out as 3.12's and 3.13's: a reference
    count first in each object, left alone when it reads `IMMORTAL` (not 3.11, which counts
    every reference; not a free-threaded build, nor one that traces references, whose
    objects begin otherwise; not a later CPython, until its layout is known)."""
    import sysconfig

    return (
        sys.implementation.name == "cpython"
        and (3, 12) <= sys.version_info[:2] <= (3, 13)
        and not sysconfig.get_config_var("Py_GIL_DISABLED")
        and not hasattr(sys, "getobjects")
        and sys.getrefcount(None) == IMMORTAL
    )


def immortalize() -> int:
    """Make every object this process holds immortal, as CPython makes `None` (3.12's
    immortal objects, PEP 683); how many were made so (0 where `can_immortalize` does
    not hold).

    A session's process uses the forkserver's objects (its modules, classes, functions,
    the caches the warm-up filled) and CPython writes each one it uses, its reference
    count, so the page it lies on is copied into that session. An immortal object's count
    is never written: a lobby keeps 7.0 MiB of its own on 3.12 rather than 12.6. The
    forkserver forks sessions only, so none of its objects needs to be freed: a session
    that lets one go leaves it where it is, shared. Walked from every object the
    collector tracks, through what each refers to, and from each code object to its
    constants and names (code objects are not tracked); an object already immortal is
    passed over with what it refers to."""
    import types

    if not can_immortalize():
        return 0
    count = ctypes.c_ssize_t
    made = 0
    waiting = gc.get_objects()
    while waiting:
        thing = waiting.pop()
        if sys.getrefcount(thing) >= IMMORTAL:
            continue
        count.from_address(id(thing)).value = IMMORTAL
        made += 1
        if isinstance(thing, types.CodeType):
            waiting.extend((thing.co_consts, thing.co_names, thing.co_filename, thing.co_name))
            waiting.extend((thing.co_qualname, thing.co_linetable, thing.co_exceptiontable))
        waiting.extend(gc.get_referents(thing))
    return made


def give_back_free_pages() -> bool:
    """Hand the C library's free pages back to the system (glibc's `malloc_trim`): what
    the warm-up freed stays free in every session, so no session needs it resident;
    whether it was done (not where the C library has no `malloc_trim`)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True


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


MAIN_FIXUPS = ("_fixup_main_from_path", "_fixup_main_from_name")
"""What `multiprocessing.spawn` calls in each process it starts to run the starting
process's main module again, in the Pythons this was written for."""


def keep_main_module() -> bool:
    """Start each session's process without running the server's main module again in
    it; whether that is so now.

    multiprocessing runs the main module of the process that starts a process again in
    the new one, as `__mp_main__`, so that a function defined there can be its target.
    Started as `abstracts-tui serve`, the server's main module is that console script:
    read, compiled and run again in every session's process, which then keeps 4.4 MiB
    more of its own (a lobby 18.8 MiB rather than 14.2, `scripts/session_memory.py
    --console-script`). A session's process runs `session_child.main` with a `Spec`, both
    the package's: nothing of the main module is needed. Done in the forkserver, which
    forks sessions' processes only. Fallback: where `multiprocessing.spawn` has none of
    those functions, each process runs the main module again, as multiprocessing does."""
    from multiprocessing import spawn

    kept = False
    for name in MAIN_FIXUPS:
        if callable(getattr(spawn, name, None)):
            setattr(spawn, name, main_kept)
            kept = True
    return kept


def main_kept(main: str) -> None:
    """What a session's process does of the server's main module: nothing."""


MAIN_KEPT = keep_main_module() if in_forkserver() else None
"""Whether the sessions' processes keep the forkserver's main module; None where this is
not the forkserver."""
DRAWN = warm() if in_forkserver() else None
"""Whether this process's warm-up drew its lobby; None where none ran (not the
forkserver). A session's process inherits it from the forkserver."""
