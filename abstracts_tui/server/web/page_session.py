"""One page's websocket in `abstracts-tui web`: each message the browser sends checked
(server.web.limits) before the visitor's app gets it.

A message that is not one textual.js sends closes the page, with a line in the server's
log and a sentence the page shows; its app then quits as when the page is closed, saving
its game. Keys beyond the input rate are dropped; messages beyond the message rate wait,
so a flood slows only the page that sends it, and a page that floods for long is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Generic, Protocol, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from ...printable import NAME_LIMIT, printable
from ...rates import TokenBucket
from ...tui.rooms.resizes import layout_spacing
from .limits import (
    CHANGES_PER_SECOND,
    FLOOD_SECONDS,
    INPUT_BURST,
    INPUT_RATE,
    MESSAGE_BURST,
    MESSAGE_RATE,
    PINGS_PER_SECOND,
    Focus,
    Malformed,
    Message,
    Ping,
    Resize,
    Stdin,
    Unknown,
    input_cost,
    parse_message,
)

log = logging.getLogger("abstracts_tui.web")

FLOODED = (
    f"The page sent over {MESSAGE_RATE:g} messages a second for {FLOOD_SECONDS:g} seconds: "
    "this session is closed."
)
MALFORMED = "The page sent a message the server does not understand: this session is closed."

T = TypeVar("T")


class PageApp(Protocol):
    """The app behind a page, as the page's messages reach it: a visitor's process
    (`internals.VisitorApp`) or a room player's app in the server (`server.web.rooms`)."""

    async def send_input(self, text: str) -> None: ...

    async def resize(self, width: int, height: int) -> None: ...

    async def focus(self, focused: bool) -> None: ...


class Latest(Generic[T]):
    """A state the page sets (its size, its focus) passed on with `apply` no sooner than
    `spacing(value)` seconds after the last: the value last set, not each one of a storm."""

    def __init__(
        self, apply: Callable[[T], Awaitable[None]], spacing: Callable[[T], float]
    ) -> None:
        self.apply = apply
        self.spacing = spacing
        self.value: T | None = None
        self.applied = -math.inf
        self.later: asyncio.Task[None] | None = None

    async def set(self, value: T) -> None:
        self.value = value
        if self.later is not None:
            return  # passed on when its time comes
        wait = self.applied + self.spacing(value) - time.monotonic()
        if wait <= 0:
            self.applied = time.monotonic()
            await self.apply(value)
        else:
            self.later = asyncio.create_task(self.apply_after(wait))

    async def apply_after(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.later = None
        self.applied = time.monotonic()
        if self.value is not None:
            await self.apply(self.value)

    def cancel(self) -> None:
        if self.later is not None:
            self.later.cancel()


class PageSession:
    """Reads one page's websocket for as long as it is open, for `app`; `who` names the
    browser in the log (its address, never its cookie)."""

    def __init__(
        self, request: web.Request, websocket: web.WebSocketResponse, app: PageApp, who: str
    ) -> None:
        self.request = request
        self.websocket = websocket
        self.app = app
        self.who = who
        self.messages = TokenBucket(MESSAGE_RATE, MESSAGE_BURST)
        self.keys = TokenBucket(INPUT_RATE, INPUT_BURST)
        self.pings = TokenBucket(PINGS_PER_SECOND, 5)
        # A size is laid out as over SSH: once a tenth of a second, once a second at the
        # largest (a layout's cost grows with the cells).
        self.size = Latest[tuple[int, int]](
            lambda size: app.resize(*size), lambda size: layout_spacing(*size)
        )
        self.focus = Latest[bool](app.focus, lambda focused: 1 / CHANGES_PER_SECOND)
        self.slowed_since: float | None = None
        """Since when the page's messages have had to wait (it sends faster than the rate,
        without a second's worth of rest since)."""
        self.told: set[str] = set()
        """What was logged once for this page (a flood logs one line, not one a message)."""

    def once(self, what: str, line: str, *args: object) -> None:
        if what not in self.told:
            self.told.add(what)
            log.info(line, *args)

    async def close(self, code: int, reason: str) -> None:
        # A close frame's reason holds at most 123 bytes.
        with contextlib.suppress(ConnectionError):
            await self.websocket.close(code=code, message=reason.encode()[:123])

    async def run(self) -> None:
        try:
            await self.read()
        finally:
            self.size.cancel()
            self.focus.cancel()

    async def read(self) -> None:
        async for message in self.websocket:
            if message.type == WSMsgType.ERROR:
                # aiohttp closed the socket: a message over MAX_MESSAGE ("Message size N
                # exceeds limit M"), or one that breaks the protocol.
                log.info("%s: closed, %s", self.who, message.data)
                return
            if not await self.paced() or self.gone():
                return
            if message.type == WSMsgType.TEXT:
                try:
                    parsed = parse_message(message.data)
                except Malformed as error:
                    log.info("%s: closed, a malformed message (%s)", self.who, error)
                    await self.close(WSCloseCode.POLICY_VIOLATION, MALFORMED)
                    return
                await self.handle(parsed)
            elif message.type == WSMsgType.BINARY:
                log.info("%s: closed, a malformed message (binary)", self.who)
                await self.close(WSCloseCode.POLICY_VIOLATION, MALFORMED)
                return

    async def paced(self) -> bool:
        """Wait as long as the message rate says before taking the next message: aiohttp
        stops reading the socket meanwhile, so that a flood stays in the sender's buffers.
        False (and the page closed) after a flood of FLOOD_SECONDS."""
        delay = self.messages.due(1)
        if self.messages.tokens >= MESSAGE_RATE:
            self.slowed_since = None  # a second's worth to spare: not a flood
        if delay == 0:
            # Queued messages come without a pause of their own: one each turn of the
            # loop, so that a page's burst does not hold up the others.
            await asyncio.sleep(0)
            return True
        now = time.monotonic()
        if self.slowed_since is None:
            self.slowed_since = now
            self.once("rate", "%s: over %g messages a second, slowed", self.who, MESSAGE_RATE)
        elif now - self.slowed_since > FLOOD_SECONDS:
            log.info("%s: closed, a flood of messages for %g s", self.who, FLOOD_SECONDS)
            await self.close(WSCloseCode.POLICY_VIOLATION, FLOODED)
            return False
        await asyncio.sleep(delay)
        return True

    def gone(self) -> bool:
        """Whether the connection is lost or closing (what a flood left queued is then not
        worth reading)."""
        transport = self.request.transport
        return transport is None or transport.is_closing()

    async def handle(self, message: Message) -> None:
        match message:
            case Stdin(text):
                if self.keys.take(input_cost(text)):
                    await self.app.send_input(text)
                else:
                    self.once(
                        "keys",
                        "%s: input over %g characters a second (or %g at once) dropped",
                        self.who,
                        INPUT_RATE,
                        INPUT_BURST,
                    )
            case Resize(width, height):
                await self.size.set((width, height))
            case Ping(data):
                if self.pings.take(1):
                    with contextlib.suppress(ConnectionError):
                        await self.websocket.send_json(["pong", data])
            case Focus(focused):
                await self.focus.set(focused)
            case Unknown(kind):
                shown = printable(kind, NAME_LIMIT)
                self.once("unknown", "%s: a message of unknown type '%s' ignored", self.who, shown)
