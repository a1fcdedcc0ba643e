"""What a connection to the web listeners (`web`, `serve --web`) may hold before it is a
page, and what it may say in HTTP.

A browser sends its request's head at once, and a page's connection becomes its
websocket within a second. A client that sends its head a byte at a time (a "slow
loris"), or opens connections and sends nothing, holds a descriptor for each, and before
these bounds held every descriptor of the process, shutting SSH's logins out. So:

- a connection must have sent its request's whole head within `HEAD_SECONDS` of opening,
  and each next one on it within as long after the answer (aiohttp's keep-alive time);
  a form's body must have come within `BODY_SECONDS`;
- each address (IPv6: its /64) may have `CONNECTIONS_PER_ADDRESS` connections open that
  are not pages; one more is answered "429" with a sentence and closed at once (behind a
  trusted proxy, `--behind-proxy`, every connection is the proxy's and it bounds its own
  clients);
- the listener holds at most `most_waiting()` connections that are not pages in all (a
  share of the process's open files: `server.descriptors`), so that SSH's logins, the pages'
  apps and the store keep the rest; one more is answered "503" and closed;
- a head is at most `MAX_HEADERS` lines of `MAX_LINE` bytes (aiohttp's parser refuses
  more with 400), and a malformed request is one line in the log, not aiohttp's
  traceback (`one_line_errors`), a flood of them one line every `QUIET_SECONDS`;
- the name a request is for must be one the server answers to (`address.ServedNames`),
  on every route, before any cookie, form or websocket: "421" otherwise;
- a page's websocket frames must be masked, as RFC 6455 asks of every client (browsers
  mask all of theirs): an unmasked frame closes the page (aiohttp's reader takes either).

The connections are counted by a protocol wrapped around aiohttp's own (`Guarded`), on a
listening socket of our own, so that nothing here depends on aiohttp's internals: its
request handler is the protocol factory its documentation gives to `create_server`
(the one exception, the bytes behind a handshake, is `internals.early_frames`).
aiohttp's keep-alive time bounds the wait for every head after the first; not every
release starts it as the connection opens, hence the first head's own timer here.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from ...printable import printable
from ..bites import ACCEPT_BITE, queue_accepts
from ..descriptors import open_files
from ..quiet_log import Hush
from .address import BrowserAddresses, address_key
from .internals import early_frames

log = logging.getLogger("abstracts_tui.web")
HTTP_LOG = logging.getLogger("abstracts_tui.web.http")
"""The logger aiohttp's request handlers are given (in place of its "aiohttp.server")."""

HEAD_SECONDS = 10.0
"""Seconds a connection has to send its request's head (nginx waits 60 by default, its
client_header_timeout; a browser sends it at once), and an open connection to send its
next one after an answer (aiohttp's keep-alive time)."""
BODY_SECONDS = 10.0
"""Seconds a form's body (at most `signin.MAX_FORM` bytes) has to arrive."""
CONNECTIONS_PER_ADDRESS = 32
"""Connections from one address (IPv6: one /64) open at once that are not pages: waiting
for their request, in one, or kept open between two. A browser opens up to 6 to a
server; pages (websockets) are bounded apart (`server.web.limits.PAGES_PER_ADDRESS`)."""
WAITING_CONNECTIONS = 1024
"""Connections that are not pages open at once on a listener, at most; fewer where the
process may open few files (`most_waiting`)."""
DESCRIPTOR_SHARE = 4
"""A listener's connections that are not pages take at most this fraction (1/4) of the
process's open files: the rest are the SSH logins', the sessions', the pages' and the
store's."""
REFUSED_SECONDS = 1.0
"""How long a refused connection is kept after its answer, its input read and dropped,
so that the client reads the answer: a socket closed with input unread is reset, and the
answer lost with it. At most `most_waiting() // 8` are kept so; beyond, they are closed
at once."""
MAX_LINE = 8190
MAX_HEADERS = 64
"""A request's head: lines (its request line and each header) of at most `MAX_LINE`
bytes (nginx's 8 KiB buffers), at most `MAX_HEADERS` headers (a browser sends about 15,
a proxy adds a few); aiohttp's parser answers 400 beyond."""

MISDIRECTED = "This server does not answer for that host name: open it at its own address."
TOO_MANY = (
    f"Your address has {CONNECTIONS_PER_ADDRESS} connections open to this server, the most "
    "it may have: close some, then try again."
)
FULL = "The server has all the connections it takes: try again in a while."
TOO_SLOW = f"The request did not arrive within {HEAD_SECONDS:g} seconds: send it again."
EARLY_FRAMES = "A websocket's frames come after the server's answer to its handshake."
UNMASKED = "Frames from a client must be masked."
PROTOCOL_ERROR = 1002
"""The websocket's close code for a broken protocol (an unmasked frame)."""


def most_waiting() -> int:
    """Connections that are not pages a listener holds at most: `WAITING_CONNECTIONS`,
    or a `DESCRIPTOR_SHARE` of the open files the process may have, if fewer."""
    limit = open_files()
    if limit is None:
        return WAITING_CONNECTIONS
    return max(1, min(WAITING_CONNECTIONS, limit // DESCRIPTOR_SHARE))


def answer(status: int, reason: str, sentence: str) -> bytes:
    """A whole HTTP answer with `sentence` as its text, closing the connection."""
    body = sentence.encode() + b"\n"
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


def close_frame(code: int, reason: str) -> bytes:
    """A websocket close frame, as a server sends it (unmasked)."""
    payload = code.to_bytes(2, "big") + reason.encode()[:123]
    return bytes([0x88, len(payload)]) + payload


class MaskCheck:
    """Reads the frame heads of a client's websocket as they arrive, to find one that is
    not masked. It follows the frames' lengths without reading their payloads."""

    def __init__(self) -> None:
        self.head = b""
        """The part of a frame's head that has come so far."""
        self.skip = 0
        """Bytes of the current frame's payload still to come."""

    def feed(self, data: bytes) -> bool:
        """Whether every frame that starts in `data` is masked."""
        at, end = 0, len(data)
        while True:
            step = min(self.skip, end - at)
            self.skip -= step
            at += step
            if at >= end:
                return True
            head = self.head + data[at : at + 14]
            if len(head) < 2:
                self.head, at = head, end
                continue
            if not head[1] & 0x80:
                return False
            size = head[1] & 0x7F
            extended = 2 if size == 126 else 8 if size == 127 else 0
            length = 2 + extended + 4
            if len(head) < length:
                self.head, at = head, end
                continue
            at += length - len(self.head)
            self.head = b""
            self.skip = int.from_bytes(head[2 : 2 + extended], "big") if extended else size


class Guarded(asyncio.Protocol):
    """One connection: aiohttp's request handler (made once the connection is let in),
    and what the guard counts and times of it."""

    def __init__(self, guard: HttpGuard, make: Callable[[], asyncio.Protocol]) -> None:
        self.guard = guard
        self.make = make
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.counted = False
        """Whether it counts among the connections that are not pages."""
        self.started = False
        """Whether a request's head has come whole."""
        self.received = False
        self.last = b""
        """The last 4 bytes received before it became a page."""
        self.frames: MaskCheck | None = None
        """The page's frames being checked, once it is a page."""
        self.who = ""
        self.timer: asyncio.TimerHandle | None = None
        self.refused = False
        """Whether it was refused and is kept until its answer is read (`REFUSED_SECONDS`)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else str(peer or "")
        self.address = address_key(host) or host or "unknown"
        refused = self.guard.admit(self)
        if refused is not None:
            transport.write(refused)
            if transport.can_write_eof() and self.guard.keep_refused(self):
                transport.write_eof()
                self.refused = True
                loop = asyncio.get_running_loop()
                self.timer = loop.call_later(REFUSED_SECONDS, transport.close)
            else:
                transport.close()
            return
        self.timer = asyncio.get_running_loop().call_later(HEAD_SECONDS, self.too_slow)
        self.inner = self.make()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.frames is not None:
            if not self.frames.feed(data):
                self.unmasked()
                return
        else:
            self.received = True
            self.last = (self.last + data)[-4:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        # A refused connection is closed once the client has closed its side.
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.refused:
            self.refused = False
            self.guard.kept_refused -= 1
        self.guard.release(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def request_started(self) -> None:
        """A request's head has come whole: from now on aiohttp's keep-alive time bounds
        the wait for the next."""
        self.started = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def too_slow(self) -> None:
        self.timer = None
        if self.started or self.transport is None:
            return
        self.guard.slow.say(
            logging.INFO,
            "web: closed a connection from %s that sent no whole request within %g s",
            self.address,
            HEAD_SECONDS,
        )
        if self.received:
            self.transport.write(answer(408, "Request Timeout", TOO_SLOW))
        self.transport.close()

    def became_page(self, who: str) -> bool:
        """The connection is a page's websocket from now on (its frames are checked);
        False if the client sent more than its handshake before the server's answer."""
        if self.last != b"\r\n\r\n":
            return False
        self.who = who
        self.frames = MaskCheck()
        self.guard.release(self)
        return True

    def unmasked(self) -> None:
        """An unmasked frame from the client: close the page, as RFC 6455 asks, with a
        close frame that says why (written whole: aiohttp writes each of its frames in
        one go, with no wait between its head and its payload)."""
        self.frames = None
        log.info("%s: closed, an unmasked websocket frame", self.who or self.address)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(close_frame(PROTOCOL_ERROR, UNMASKED))
            self.transport.close()


class HttpGuard:
    """The bounds above for one listener: its connections, and a middleware that checks
    each request's host."""

    def __init__(self, addresses: BrowserAddresses, *, per_address: int | None) -> None:
        self.addresses = addresses
        self.per_address = per_address
        """Connections that are not pages per address; None: not bounded (a proxy's)."""
        self.most = most_waiting()
        self.waiting: Counter[str] = Counter()
        """Connections that are not pages, by address."""
        self.total = 0
        """Connections that are not pages, in all."""
        self.kept_refused = 0
        """Refused connections kept until their answer is read."""
        self.connections: dict[asyncio.BaseTransport, Guarded] = {}
        self.server: asyncio.Server | None = None
        self.full = Hush(log)
        self.crowded = Hush(log)
        self.slow = Hush(log)
        self.wrong_host = Hush(log)

    def admit(self, connection: Guarded) -> bytes | None:
        """Count a new connection; the answer that refuses it instead, if it may not stay."""
        address = connection.address
        if self.total >= self.most:
            self.full.say(
                logging.WARNING,
                "web: refused a connection from %s: %d connections that are not pages are "
                "open, the most the listener takes",
                address,
                self.most,
            )
            return answer(503, "Service Unavailable", FULL)
        if self.per_address is not None and self.waiting[address] >= self.per_address:
            self.crowded.say(
                logging.INFO,
                "web: refused a connection from %s: %d connections from there are open "
                "that are not pages",
                address,
                self.per_address,
            )
            return answer(429, "Too Many Requests", TOO_MANY)
        self.waiting[address] += 1
        self.total += 1
        connection.counted = True
        if connection.transport is not None:
            self.connections[connection.transport] = connection
        return None

    def keep_refused(self, connection: Guarded) -> bool:
        """Whether a refused connection may be kept until its answer is read (counted)."""
        if self.kept_refused >= max(1, self.most // 8):
            return False
        self.kept_refused += 1
        return True

    def release(self, connection: Guarded) -> None:
        """The connection is closed, or a page: it no longer counts."""
        if connection.transport is not None:
            self.connections.pop(connection.transport, None)
        if connection.counted:
            connection.counted = False
            self.total -= 1
            self.waiting[connection.address] -= 1
            if self.waiting[connection.address] <= 0:
                del self.waiting[connection.address]

    def page(self, request: web.Request, who: str) -> bool:
        """The request's connection is about to be a page's websocket: it no longer
        counts, and its frames are checked from here on. False (nothing changed) if the
        client sent frames before the server answered its handshake."""
        connection = self.connections.get(request.transport)  # type: ignore[arg-type]
        if early_frames(request):
            return False
        if connection is None:
            return True  # not one of the listener's (a test's own server)
        return connection.became_page(who)

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every request: its head has come (`Guarded.request_started`); the host it is
        for is one the server answers to, else 421 before anything else."""
        connection = self.connections.get(request.transport)  # type: ignore[arg-type]
        if connection is not None:
            connection.request_started()
        try:
            wrong = self.addresses.misdirected(request)
        except ValueError as error:
            raise web.HTTPBadRequest(text=str(error)) from None
        if wrong is not None:
            served = self.addresses.served
            self.wrong_host.say(
                logging.WARNING,
                "web: refused a request for the host %s from %s: this server answers for "
                "%s (a server reached by another name needs --public-url with it)",
                printable(wrong, 80),
                self.addresses.client(request),
                served.shown() if served is not None else "?",
            )
            raise web.HTTPMisdirectedRequest(text=MISDIRECTED)
        return await handler(request)

    async def listen(self, runner: web.AppRunner, host: str, port: int) -> int:
        """Listen for `runner`'s application on `host`:`port` (OSError if it cannot);
        returns the port."""
        server = runner.server
        assert server is not None
        made: Callable[[], asyncio.Protocol] = server
        self.server = await asyncio.get_running_loop().create_server(
            lambda: Guarded(self, made), host or None, port, backlog=ACCEPT_BITE
        )
        queue_accepts(self.server.sockets)  # a storm is accepted a few a turn, as SSH's
        names = [socket.getsockname() for socket in self.server.sockets]
        bound = int(names[0][1])
        self.addresses.listening(host, bound, [str(name[0]) for name in names])
        return bound

    def close(self) -> None:
        """Stop listening (the connections are aiohttp's to end)."""
        if self.server is not None:
            self.server.close()


def handler_args() -> dict[str, Any]:
    """aiohttp's settings for the request handlers (`web.AppRunner`'s keywords)."""
    one_line_errors()
    return {
        "keepalive_timeout": HEAD_SECONDS,
        "max_line_size": MAX_LINE,
        "max_field_size": MAX_LINE,
        "max_headers": MAX_HEADERS,
        "logger": HTTP_LOG,
    }


async def read_form(request: web.Request) -> Any:
    """The request's form, once it has come within `BODY_SECONDS` (408 otherwise)."""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            return await request.post()
    except TimeoutError:
        raise web.HTTPRequestTimeout(
            text=f"The form did not arrive within {BODY_SECONDS:g} seconds: send it again."
        ) from None


class OneLine(logging.Filter):
    """aiohttp's lines about a request it could not read (malformed, too long, a broken
    connection), each logged with a traceback: one line instead, saying what was wrong,
    and a flood of them one line every few seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.hush = Hush(HTTP_LOG)

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError | OSError):
            return True  # a fault of the server's own: its traceback is wanted
        held = self.hush.allow()
        if held is None:
            return False
        what = error.message if isinstance(error, HttpProcessingError) else str(error)
        lines = str(what).strip().splitlines() or [type(error).__name__]
        text = f"{record.getMessage()}: {printable(lines[0].strip(), 120)}"
        if held:
            text += f" (and {held} more since the last such line)"
        record.msg, record.args = "web: %s", (text,)
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.INFO, "INFO"
        return True


FILTER = OneLine()


def one_line_errors() -> None:
    """Put `OneLine` on aiohttp's request handlers' logger (and on aiohttp's own, where a
    release does not take the logger given); once."""
    for logger in (HTTP_LOG, logging.getLogger("aiohttp.server")):
        if FILTER not in logger.filters:
            logger.addFilter(FILTER)


async def stop_listening(guard: HttpGuard, runner: web.AppRunner | None) -> None:
    """Stop listening, then let aiohttp end the connections."""
    guard.close()
    if runner is not None:
        await runner.cleanup()
