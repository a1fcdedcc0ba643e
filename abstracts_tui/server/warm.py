"""The server of processes warmed before it forks sessions (`session_process.PRELOAD`).

A session's process is forked from the forkserver and shares its pages until it writes
them. CPython writes to an object whenever it is used (its reference count), and the
first runs of a function write its code (3.11 specializes it in place); a Textual app
also fills caches the first time it draws (rich's styles and cell widths, parsed
colours, Textual's own). A forkserver that has only imported the app leaves all of that
to each session, which copies every page it writes to. So the forkserver, as it starts,
runs a session as a session's process does (`session_child.run`, its messages answered
here as the server would with no room open) until its lobby is drawn, then the room's
creation dialog, and another to its lobby and then a game's screen (the one a room shows,
with its board drawn), so that the code a room and its creator run is specialized and its
styles parsed (`shared_styles`) before the fork. On 3.12 and 3.13 it runs them twice: the
first time noting the functions called, whose code it then copies side by side
(`hot_code`), the second so that the copies are specialized. Then it empties the bounded
caches the warm-up filled (`bounded_caches`), collects its garbage, fills the free
spaces it left (`fill_free_blocks`) and freezes what is left (`gc.freeze`): a session's
collections never walk, so never copy, those objects; the free pages the warm-up left
are handed back (`give_back_free_pages`).

What the warm-up made is gone before the first fork: its data folder is removed, and an
app keeps its choices in itself (its settings, its screens), not in its modules.

What is left to each session is its own data (about 1 MiB in the lobby) and the pages it
copies by using what the forkserver made. CPython writes every object it uses, its
reference count, so a page is copied for any object on it that a session touches: on
3.11 a session's Textual app touches objects on two fifths of the forkserver's pages,
and a lobby keeps 15 MiB of its own. CPython 3.12 and 3.13 have immortal objects, whose
counts are never written: there the forkserver makes all it holds immortal before it
freezes it (`immortalize`), and with the code it runs side by side a lobby keeps 5.2 to
5.6 MiB, a room 9.3 (joined by its code) to 11.9 (its creator, who came through the
lobby, the dialog and the waiting screen) (`scripts/session_memory.py`).
`scripts/session_memory.py --floor` measures the floor: on 3.11 a process forked from a
warmed one that runs a one-widget Textual app keeps about 11 MiB of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import os
import re
import socket
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..game_setup import Setup
from ..rooms.holder import new_holder
from ..rooms.link import Views
from ..rules.catalogue import PETRIFY
from ..tui.rooms.app import OVER_SSH, ServerApp, Terminal
from ..tui.rooms.lobby import LobbyScreen
from .bounded_caches import empty_bounded_caches
from .forkserver_main import in_forkserver, keep_main_module
from .free_pages import give_back_free_pages
from .hot_code import calls_seen, copy_hot_code
from .messages import Ask, EndApp, Frame, Reply, Send, read, sender
from .session_child import Spec, run
from .shared_styles import share_parsed_styles
from .warm_waits import WARM_SECONDS, Frames, in_game, in_lobby

log = logging.getLogger(__name__)

WARM_SIZE = (100, 30)
"""The terminal the warm-up's app draws on."""


class Server:
    """The server's side of the session, with no room open: no rooms listed, every other
    call refused (as a server that has lost its store would); its frames counted."""

    def __init__(self) -> None:
        self.frames = Frames()

    async def settled(self, showing: Callable[[], bool], session: asyncio.Task[int]) -> bool:
        return await self.frames.settled(showing, session)

    async def answer(self, reader: asyncio.StreamReader, send: Send) -> None:
        while (message := await read(reader, restricted=True)) is not None:
            if isinstance(message, Frame):
                self.frames.drawn()
            elif isinstance(message, Ask):
                reply(send, message.key, message.request)


def reply(send: Send, key: int, request: object) -> None:
    if isinstance(request, Views):
        send(Reply(key, True, ()))
    else:
        send(Reply(key, False, ConnectionError("no server while warming up")))


async def room_dialog(app: ServerApp, server: Server, session: asyncio.Task[int]) -> bool:
    """Open the room's creation dialog from the lobby, as a room's creator does, until it
    is drawn, then close it; whether the lobby shows again.

    A room's creator goes through the dialog, which a session that joins by code never
    shows: its styles (the dialog's, its rows' and its steppers') parsed and kept in
    `shared_styles` by the forkserver, its code run and rich's character widths read
    there, a creator keeps about 0.5 MiB less of its own."""
    from ..tui.rooms.create import RoomScreen

    lobby = app.screen
    if not isinstance(lobby, LobbyScreen):
        return False
    app.call_later(lobby.action_create)
    if not await server.settled(lambda: isinstance(app.screen, RoomScreen), session):
        return False
    app.call_later(app.pop_screen)
    return await server.settled(lambda: in_lobby([app]), session)


async def run_one(
    folder: Path,
    drawn: Callable[[], Awaitable[object]] | None = None,
    *,
    game: bool = False,
    dialog: bool = False,
) -> bool:
    """Run a session as its process does until its lobby is drawn (then until `drawn`
    returns, if given: `scripts/session_memory.py --floor` measures it so); with `dialog`
    then the room's creation dialog until it is drawn and closed (`room_dialog`), or with
    `game` a game of the rooms' first game on its screen until that is drawn; then end it;
    whether the lobby (and the dialog or the game's screen) was drawn."""
    ours, theirs = socket.socketpair()
    spec = Spec(new_holder("warm-up"), False, Terminal(*WARM_SIZE), "", folder, None, OVER_SSH)
    apps: list[ServerApp] = []
    session = asyncio.create_task(run(theirs, spec, apps.append))
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    send = sender(writer)
    server = Server()
    answering = asyncio.create_task(server.answer(reader, send))
    try:
        if not await server.settled(lambda: in_lobby(apps), session):
            return False
        if drawn is not None:
            await drawn()
        if dialog:
            return await room_dialog(apps[0], server, session)
        if game:
            app = apps[0]
            app.call_later(app.start_game, Setup(PETRIFY.name))  # in the app's own context
            return await server.settled(lambda: in_game(apps), session)
        return True
    finally:
        send(EndApp())
        with contextlib.suppress(Exception):
            await asyncio.wait_for(session, WARM_SECONDS)
        answering.cancel()
        writer.close()
        theirs.close()


def warm() -> bool:
    """Run two sessions as their processes do, one through the room's creation dialog and
    one to a game's screen, then collect, fill and freeze; whether their screens were
    drawn (the freeze is done either way).

    The dialog is shown in a session of its own: in the same session as the game, its
    lobby drawn again after it, a lobby session keeps 0.2 MiB more of its own."""
    share_parsed_styles()
    read_cell_widths()
    root = logging.getLogger()
    level, handlers = root.level, root.handlers
    try:
        if can_immortalize():
            with calls_seen() as hot:
                warm_screens()
            gc.collect()
            fill_free_blocks()  # the copies side by side, not in the warm-up's gaps
            COPIED.append(copy_hot_code(hot))
        drawn = warm_screens()
    except Exception:
        drawn = False
    finally:
        root.setLevel(level)
        root.handlers = handlers
    if not drawn:
        log.warning("the forkserver's warm-up did not draw its screens: sessions start colder")
    empty_bounded_caches()
    gc.collect()
    fill_free_blocks()
    immortalize()
    gc.freeze()
    give_back_free_pages()
    return drawn


def warm_screens() -> bool:
    """Run a session through the room's creation dialog and another to a game's screen
    (`run_one`); whether both were drawn."""
    with tempfile.TemporaryDirectory(prefix="abstracts-warm-") as folder:
        dialog = asyncio.run(run_one(Path(folder), dialog=True))
        return asyncio.run(run_one(Path(folder), game=True)) and dialog


COPIED: list[int] = []
"""How many functions' code the warm-up copied side by side (`hot_code`), where it did."""


def read_cell_widths() -> None:
    """Read rich's table of character widths, which rich imports the first time it
    measures a character outside its narrow set (the room's dialog does), so that a
    session finds it shared rather than importing it on its own."""
    from rich.cells import cell_len

    cell_len("\u3042")  # a wide character: one rich measures with its table


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


FILLERS: list[object] = []
"""What fills the forkserver's free small blocks (`fill_free_blocks`), held for good."""
SIZE_CLASSES = 32
"""CPython's small blocks: 32 sizes, 16 bytes apart, up to 512 bytes (3.12 and 3.13)."""
POOL_BLOCKS = 31
"""How many 512-byte blocks a pool of 16 KiB holds."""
STATS_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+\d+\s+\d+\s+(\d+)$", re.MULTILINE)
"""A size class's row in `sys._debugmallocstats`: class, size, pools, blocks in use, free."""
UNUSED_POOLS = re.compile(r"^(\d+) unused pools", re.MULTILINE)


def small_block_stats() -> tuple[dict[int, int], int] | None:
    """The free small blocks of each size class in the pools in use, and the pools not in
    use, as CPython's allocator tells them (`sys._debugmallocstats`, written to the
    standard error's descriptor); None where it does not tell them so."""
    stats = getattr(sys, "_debugmallocstats", None)
    if stats is None:
        return None
    with tempfile.TemporaryFile() as out:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            stats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode("ascii", "replace")
    free = {}
    for found in STATS_ROW.finditer(text):
        size_class, size, count = (int(part) for part in found.groups())
        if size_class >= SIZE_CLASSES or size != 16 * (size_class + 1):
            return None
        free[size_class] = count
    unused = UNUSED_POOLS.search(text)
    if not free or unused is None:
        return None
    return free, int(unused.group(1))


def filler(size_class: int) -> object:
    """A new object of `size_class`'s size, nothing referred to by it."""
    if size_class == 0:
        return object()  # 16 bytes
    if size_class == 1:
        return float(len(FILLERS)) + 0.5  # 24 bytes
    return bytes(16 * (size_class + 1) - 33)  # a bytes object takes 33 bytes and its own


def fill_free_blocks() -> int:
    """Fill the free small blocks of the forkserver's pools, and the pools it has not in
    use, with objects held for good (`FILLERS`); how many were made (0 where
    `can_immortalize` does not hold, or the allocator does not tell its free blocks).

    What the warm-up freed leaves free blocks among the forkserver's objects, on pages a
    session shares; CPython puts a session's new small objects there first, so each page
    of them is copied into the session. Filled, they send a session's objects to pools
    of its own: a lobby keeps 0.3 to 0.4 MiB less of its own, a room 0.2 less. On 3.11, whose
    sessions copy most of the forkserver's pages anyway, it costs 0.4 MiB more."""
    if not can_immortalize():
        return 0
    stats = small_block_stats()
    if stats is None:
        return 0
    free, unused = stats
    before = len(FILLERS)
    for size_class, count in free.items():
        FILLERS.extend(filler(size_class) for _ in range(count))
    FILLERS.extend(filler(SIZE_CLASSES - 1) for _ in range(unused * POOL_BLOCKS))
    return len(FILLERS) - before


MAIN_KEPT = keep_main_module() if in_forkserver() else None
"""Whether the sessions' processes keep the forkserver's main module; None where this is
not the forkserver."""
DRAWN = warm() if in_forkserver() else None
"""Whether this process's warm-up drew its lobby and its game; None where none ran (not the
forkserver). A session's process inherits it from the forkserver."""
