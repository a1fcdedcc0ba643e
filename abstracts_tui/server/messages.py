"""Messages between the server and a session's app in a process of its own
(`session_process`, `session_child`): each one a pickled tuple after its length.

Both ends are this program, started by the server on a socket pair of its own; nothing a
client sends crosses as a message but the keys and sizes the server has already bounded
(`limits`). A message longer than `MAX_MESSAGE`, or one that cannot be read, ends the
session; the server reads the plain values of an app's messages and the classes of
`FROM_APPS` only.

From the server to the app: `("keys", text)`, `("size", width, height)`, `("end",)`,
`("tell", name, args)` (a `RoomClient` method named `_here`) and `("reply", key, ok,
value)` (a call's result, or what it raised).
From the app to the server: `("frame", text)`, `("attached",)` (its driver takes keys
now), `("call", key, name, args)` and `("post", name, args)` (a `RoomDesk` method named
`_there`) and `("log", level, text)` (a line for the server's log).
"""

from __future__ import annotations

import asyncio
import copyreg
import importlib
import io
import pickle
import struct
import time
from collections.abc import Callable
from typing import Any

from ..rooms.apply import SessionState, from_state, state_of
from ..session import Session

MAX_MESSAGE = 64 * 1024 * 1024
"""The longest message, in bytes (a frame of the largest terminal is a few megabytes)."""

HEADER = struct.Struct("!I")


class MessageError(Exception):
    """The other end sent what is not a message (the session ends)."""


class Shifted:
    """A session's clock in another process of this machine: the wall clock, shifted to
    the clock the session was read by (the store's: see `rooms.Rooms`)."""

    def __init__(self, offset: float) -> None:
        self.offset = offset

    def __call__(self) -> float:
        return time.time() + self.offset


def session_parts(session: Session) -> tuple[Any, ...]:
    """A session (a room's replica) as it crosses: its plain values (`state_of`), its
    clock's shift and who keeps its game; no listeners."""
    return restore_session, (state_of(session), session.now() - time.time(), session.keeper)


def restore_session(state: SessionState, offset: float, keeper: Any) -> Session:
    session = from_state(state, Shifted(offset))
    session.keeper = keeper
    return session


TABLE = copyreg.dispatch_table.copy()
TABLE[Session] = session_parts


Send = Callable[[tuple[Any, ...]], None]
"""Sends one message to the other end."""


def sender(writer: asyncio.StreamWriter) -> Send:
    """Sends each message on `writer` (nothing once it is closing)."""

    def send(message: tuple[Any, ...]) -> None:
        if not writer.is_closing():
            writer.write(pack(message))

    return send


def pack(message: tuple[Any, ...]) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = TABLE
    pickler.dump(message)
    body = buffer.getvalue()
    return HEADER.pack(len(body)) + body


FROM_APPS = frozenset({"abstracts_tui.commands", "abstracts_tui.game_setup"})
"""The modules whose classes a message from an app's process may hold (the commands and
a new room's setup): an app's process reads what clients send, so the server reads no
other objects from it (`Restricted`)."""


class Restricted(pickle.Unpickler):
    """Reads the plain values of a message, and instances of the classes of `FROM_APPS`
    only: no function, no other class."""

    def find_class(self, module: str, name: str) -> Any:
        if module in FROM_APPS:
            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise MessageError(f"a message holds {module}.{name}, which no message holds")


async def read(reader: asyncio.StreamReader, *, restricted: bool = False) -> tuple[Any, ...] | None:
    """The next message; None once the other end has closed (a write of ours that found
    it closed, a broken pipe, is that end too). `restricted`: from an app's process
    (`Restricted`)."""
    try:
        header = await reader.readexactly(HEADER.size)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    (size,) = HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise MessageError(f"a message of {size} bytes (at most {MAX_MESSAGE})")
    try:
        body = await reader.readexactly(size)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    try:
        message = Restricted(io.BytesIO(body)).load() if restricted else pickle.loads(body)
    except MessageError:
        raise
    except Exception as error:  # any fault of the bytes: the session ends
        raise MessageError(f"a message cannot be read ({error})") from None
    if not isinstance(message, tuple) or not message or not isinstance(message[0], str):
        raise MessageError("not a message")
    return message


def methods(cls: type, suffix: str) -> frozenset[str]:
    """The names of `cls`'s methods that end with `suffix`: all a message may name."""
    return frozenset(name for name in dir(cls) if name.endswith(suffix))
