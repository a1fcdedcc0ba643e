"""Messages between the server and a session's app in a process of its own
(`session_process`, `session_child`): each one a pickled message object after its length.

Both ends are this program, started by the server on a socket pair of its own; nothing a
client sends crosses as a message but the keys and sizes the server has already bounded
(`limits`). A message longer than `MAX_MESSAGE`, or one that cannot be read, ends the
session; the server reads an app's messages (`FromApp`) with plain values and the classes
of `FROM_APPS` only (`Restricted`).

From the server to the app (`ToApp`): `Typed` (keys), `Resized`, `EndApp`, `Tell` (what
the rooms tell the app's `RoomClient`: a `rooms.link.Telling`) and `Reply` (a request's
answer, or what it raised). From the app to the server (`FromApp`): `Frame`, `Attached`
(its driver takes keys now), `Ask` and `Post` (a `rooms.link.Request` for its desk) and
`LogLine` (a line for the server's log).
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
from dataclasses import dataclass
from typing import Any, TypeAlias

from ..rooms.apply import SessionState, from_state, state_of
from ..rooms.link import REQUESTS, Asked, Posted, Telling
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
    """A session (a room's replica) as it crosses: its plain values (`state_of`) and its
    clock's shift; no listeners. The room's terms cross beside it, plain values already
    (`rooms.terms.RoomTerms`, their keeper a `rooms.link.Kept`)."""
    return restore_session, (state_of(session), session.now() - time.time())


def restore_session(state: SessionState, offset: float) -> Session:
    return from_state(state, Shifted(offset))


TABLE = copyreg.dispatch_table.copy()
TABLE[Session] = session_parts


@dataclass(frozen=True)
class Typed:
    """What the person typed, for the app's driver."""

    text: str


@dataclass(frozen=True)
class Resized:
    """The terminal's new size."""

    width: int
    height: int


@dataclass(frozen=True)
class EndApp:
    """The session ends (its last frame written)."""


@dataclass(frozen=True)
class Tell:
    """What the rooms tell the app's `RoomClient`."""

    telling: Telling


@dataclass(frozen=True)
class Reply:
    """The answer to the request `Ask`ed with `key`: its value if `ok`, else what it raised."""

    key: int
    ok: bool
    value: Any


@dataclass(frozen=True)
class Frame:
    """What the app draws, to be written to the client."""

    text: str


@dataclass(frozen=True)
class Attached:
    """The app's driver takes keys now."""


@dataclass(frozen=True)
class Ask:
    """A request for the session's desk, to be answered with a `Reply` of `key`."""

    key: int
    request: Asked


@dataclass(frozen=True)
class Post:
    """A request for the session's desk; nothing comes back."""

    request: Posted


@dataclass(frozen=True)
class LogLine:
    """A line of the app's log, at `level`, for the server's log."""

    level: int
    text: str


ToApp: TypeAlias = Typed | Resized | EndApp | Tell | Reply
"""What the server sends an app's process."""
FromApp: TypeAlias = Frame | Attached | Ask | Post | LogLine
"""What an app's process sends the server."""
Message: TypeAlias = ToApp | FromApp
TO_APP = (Typed, Resized, EndApp, Tell, Reply)
FROM_APP = (Frame, Attached, Ask, Post, LogLine)

Send = Callable[[Message], None]
"""Sends one message to the other end."""


def sender(writer: asyncio.StreamWriter) -> Send:
    """Sends each message on `writer` (nothing once it is closing)."""

    def send(message: Message) -> None:
        if not writer.is_closing():
            writer.write(pack(message))

    return send


def pack(message: Message) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = TABLE
    pickler.dump(message)
    body = buffer.getvalue()
    return HEADER.pack(len(body)) + body


FROM_APPS = frozenset({"abstracts_tui.commands", "abstracts_tui.game_setup"})
"""The modules whose classes a message from an app's process may hold (the commands and
a new room's setup), beside `FROM_APP_CLASSES`: an app's process reads what clients send,
so the server reads no other objects from it (`Restricted`)."""
FROM_APP_CLASSES = frozenset((cls.__module__, cls.__qualname__) for cls in (*FROM_APP, *REQUESTS))
"""The messages an app's process sends, and the requests they carry (`rooms.link`): the
only classes of their modules a message from it may hold."""


class Restricted(pickle.Unpickler):
    """Reads the plain values of a message, the classes of `FROM_APP_CLASSES` and those
    of the modules of `FROM_APPS` only: no function, no other class."""

    def find_class(self, module: str, name: str) -> Any:
        if module in FROM_APPS or (module, name) in FROM_APP_CLASSES:
            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise MessageError(f"a message holds {module}.{name}, which no message holds")


async def read(reader: asyncio.StreamReader, *, restricted: bool = False) -> Message | None:
    """The next message; None once the other end has closed (a write of ours that found
    it closed, a broken pipe, is that end too). `restricted`: from an app's process
    (`Restricted`: one of `FromApp`)."""
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
    expected = FROM_APP if restricted else TO_APP
    if not isinstance(message, expected):
        raise MessageError(f"not a message ({type(message).__name__})")
    return message
