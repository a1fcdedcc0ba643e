"""`abstracts-tui web`: the app in a browser, through textual-serve, one app per visitor.

textual-serve starts the same command for every browser that connects. Here each visitor
gets a folder of their own for their games in progress instead: the page sets a cookie
naming the visitor (a random token, made on their first visit), and the websocket that
the page opens carries it back, so the handler starts that visitor's app with their
folder (`data/visitors/TOKEN`). The visitor's app saves records by downloading them and
loads none from the server's disk (`tui.factory.build_web_app`).

What a browser may ask is bounded where it enters (server.web.limits, page_session): the
terminal's size, the pages open at once (on the server, and from one address), each
message's size, kind and rate; a refused page is told why in a sentence it shows.

The page's links are made from the address the browser used (`address`: behind a
reverse proxy, the one `--public-url` names or the proxy's headers say), and it loads
nothing from another host. Only the names the server answers to are taken, and what a
connection may hold before it is a page is bounded (`guard`). What this takes from
textual-serve beyond its documented use is in `internals`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import shlex
import sys
from collections import Counter
from pathlib import Path

from aiohttp import WSCloseCode, web

from ..bites import bite_reads
from ..capacity import StartTurn, starting_at_once
from .address import Address, BrowserAddresses
from .guard import CONNECTIONS_PER_ADDRESS, HttpGuard, handler_args, stop_listening
from .internals import Page, VisitorApp, check_app_service
from .limits import MAX_MESSAGE, MAX_VISITORS, PAGES_PER_ADDRESS, size_from_query
from .page_session import PageSession

log = logging.getLogger("abstracts_tui.web")

COOKIE = "abstracts_tui_visitor"
TOKEN = re.compile(r"[0-9a-f]{32}")
YEAR = 365 * 24 * 3600
TITLE = "abstracts-tui"
HEARTBEAT = 15.0
"""Seconds between the server's pings on a page's websocket: a page that answers none
within half of it is closed (its browser is gone)."""
CLOSE_SECONDS = 2.0
"""How long closing a page's websocket waits for the browser's answer."""
QUIT_SECONDS = 10.0
"""How long a visitor's app has to quit (and save its game) once its page is closed,
before it is killed."""


def pages(count: int) -> str:
    return f"{count} page" if count == 1 else f"{count} pages"


def full(most: int) -> str:
    """What a page is told when the server has `most` pages open (at most 123 bytes: a
    websocket's close reason)."""
    return f"The server is full: it takes {pages(most)} at once. Try again in a while."


def too_many(most: int) -> str:
    """What a page is told when its address has `most` pages open."""
    return (
        f"Your address has {pages(most)} open already, the most it may have: "
        "close one, then press Restart."
    )


def new_token() -> str:
    return secrets.token_hex(16)


def visitor_folder(data: Path, token: str) -> Path:
    """The folder of the visitor named by `token` (which must be one of `new_token`'s)."""
    if TOKEN.fullmatch(token) is None:
        raise ValueError("not a visitor's token")
    return data / "visitors" / token


def font_size(text: str) -> int:
    """The page's ?fontsize=N, within reason (16 when it is not a number)."""
    try:
        return min(max(int(text), 6), 64)
    except ValueError:
        return 16


async def stop_serving(
    handlers: set[asyncio.Task[object]], runner: web.AppRunner | None, http: HttpGuard
) -> None:
    """Stop the pages' handlers first (each ends its visitor's app, which saves the game,
    and tells the page why), instead of the server waiting out their connections; then
    stop listening."""
    running = list(handlers)
    for handler in running:
        handler.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    await stop_listening(http, runner)


def refused_origin(addresses: BrowserAddresses, request: web.Request) -> None:
    """A form posted, or a websocket opened, from another site's page is refused (403):
    the browser would send this site's cookie with it (`foreign_origin`)."""
    if addresses.foreign_origin(request) is not None:
        raise web.HTTPForbidden(text="This address takes requests from its own page only.")


def mark_page(http: HttpGuard, request: web.Request, who: str) -> None:
    """The request's connection becomes a page's websocket (`HttpGuard.page`); 400 if the
    client sent frames before the handshake's answer."""
    if not http.page(request, who):
        log.info("%s: refused, websocket frames sent before the handshake's answer", who)
        raise web.HTTPBadRequest(
            text="A websocket's frames come after the server's answer to its handshake."
        )


class VisitorServer:
    """The web server: the page, each visitor's app over the page's websocket, their
    downloads, and textual-serve's static files (textual.js and its fonts)."""

    def __init__(
        self,
        data: Path,
        host: str,
        port: int,
        *,
        max_visitors: int = MAX_VISITORS,
        per_address: int = PAGES_PER_ADDRESS,
        public: Address | None = None,
        behind_proxy: bool = False,
    ) -> None:
        self.data = data
        self.host = host
        self.port = port
        self.max_visitors = max_visitors
        self.per_address = per_address
        self.addresses = BrowserAddresses(public, behind_proxy)
        """The address browsers use (--public-url or the proxy's headers), and who they are."""
        # Behind a trusted proxy every connection is the proxy's: it bounds its clients.
        self.http = HttpGuard(
            self.addresses, per_address=None if behind_proxy else CONNECTIONS_PER_ADDRESS
        )
        self.page = Page(TITLE)
        check_app_service()
        self.apps: dict[str, set[VisitorApp]] = {}
        """The apps running now (each a process), by their visitor's token."""
        self.pages: Counter[str] = Counter()
        """The pages open now, by the address they come from (`client_key`)."""
        self.handlers: set[asyncio.Task[object]] = set()
        """The open pages' websocket handlers."""
        self.starting = asyncio.Semaphore(starting_at_once())
        """Turns for the pages' apps to start (`StartTurn`)."""
        self.runner: web.AppRunner | None = None

    @property
    def visitors(self) -> int:
        return self.pages.total()

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self.http.middleware])
        for prefix in self.addresses.prefixes():
            app.add_routes(
                [
                    web.get(prefix, self.handle_index),
                    web.get(f"{prefix}ws", self.handle_websocket),
                    web.get(prefix + "download/{key}", self.handle_download),
                    web.static(f"{prefix}static", self.page.static),
                ]
            )
        return app

    async def start(self) -> int:
        """Listen; returns the port."""
        self.runner = web.AppRunner(self.application(), handle_signals=False, **handler_args())
        await self.runner.setup()
        return await self.http.listen(self.runner, self.host, self.port)

    async def stop(self) -> None:
        await stop_serving(self.handlers, self.runner, self.http)

    def address(self, request: web.Request) -> Address:
        """The address the browser used to reach the app."""
        try:
            return self.addresses.of(request)
        except ValueError as error:
            raise web.HTTPBadRequest(text=str(error)) from None

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, with its links made from the address the browser used, and the
        visitor's cookie (made on the first visit)."""
        address = self.address(request)
        text, headers = self.page.render(address, font_size(request.query.get("fontsize", "")))
        response = web.Response(text=text, content_type="text/html", headers=headers)
        if TOKEN.fullmatch(request.cookies.get(COOKIE, "")) is None:
            response.set_cookie(
                COOKIE,
                new_token(),
                max_age=YEAR,
                path=address.prefix,
                secure=address.secure,
                httponly=True,
                samesite="Strict",
            )
        return response

    def client(self, request: web.Request) -> str:
        """Whom the request comes from, for the limit of pages per address."""
        return self.addresses.client(request)

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """The visitor's app, in a process of its own, for as long as the page is open."""
        token = request.cookies.get(COOKIE, "")
        try:
            folder = visitor_folder(self.data, token)
        except ValueError:
            raise web.HTTPForbidden(
                text="Open the page first: it names your games' folder."
            ) from None
        refused_origin(self.addresses, request)
        who = self.client(request)
        mark_page(self.http, request, who)
        websocket = web.WebSocketResponse(
            heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE, timeout=CLOSE_SECONDS
        )
        # Refused pages are accepted, then closed with the reason, which the page shows
        # (a browser's script is told nothing of a refused handshake).
        if self.visitors >= self.max_visitors:
            log.info("%s: refused, the server is full (%s open)", who, pages(self.max_visitors))
            return await self.refuse(
                request, websocket, WSCloseCode.TRY_AGAIN_LATER, full(self.max_visitors)
            )
        if self.pages[who] >= self.per_address:
            log.info("%s: refused, %s open from there already", who, pages(self.per_address))
            return await self.refuse(
                request, websocket, WSCloseCode.POLICY_VIOLATION, too_many(self.per_address)
            )
        # "exec": the shell that textual-serve starts the command with becomes the app, so
        # that the app is the process stopped (or killed) with the page.
        command = shlex.join(
            [sys.executable, "-m", "abstracts_tui.server.web.visitor", str(folder)]
        )
        app = VisitorApp(f"exec {command}", TITLE)
        handler = asyncio.current_task()
        # Counted before the first await, so that pages opened at once cannot all pass.
        self.pages[who] += 1
        self.apps.setdefault(token, set()).add(app)
        if handler is not None:
            self.handlers.add(handler)
        turn = StartTurn(self.starting)
        try:
            # A page read a bite a turn: aiohttp parses all the messages of one read
            # before anything else runs (`server.bites`).
            bite_reads(request.transport)
            await websocket.prepare(request)
            await turn.take()
            await app.start(websocket, *size_from_query(request.query), drawn=turn.give)
            await PageSession(request, websocket, app, who).run()
        finally:
            turn.give()
            try:
                await app.stop(QUIT_SECONDS)
                if websocket.prepared:
                    with contextlib.suppress(ConnectionError):
                        await websocket.close()
            finally:
                self.pages[who] -= 1
                if not self.pages[who]:
                    del self.pages[who]
                self.apps[token].discard(app)
                if not self.apps[token]:
                    del self.apps[token]
                if handler is not None:
                    self.handlers.discard(handler)
        return websocket

    async def refuse(
        self, request: web.Request, websocket: web.WebSocketResponse, code: int, reason: str
    ) -> web.WebSocketResponse:
        await websocket.prepare(request)
        await websocket.close(code=code, message=reason.encode())
        return websocket

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A file that one of the visitor's apps delivers (a saved record)."""
        for app in list(self.apps.get(request.cookies.get(COOKIE, ""), ())):
            response = await app.download(request)
            if response is not None:
                return response
        raise web.HTTPNotFound(
            text="No such download: a file is offered while the page that saved it is open."
        )


async def serve(
    data: Path,
    host: str,
    port: int,
    ready: asyncio.Event | None = None,
    *,
    public: Address | None = None,
    behind_proxy: bool = False,
    max_visitors: int = MAX_VISITORS,
    per_address: int = PAGES_PER_ADDRESS,
) -> None:
    """Serve the app until SIGINT or SIGTERM."""
    from ..descriptors import prepare_descriptors
    from ..serving import until_stopped

    prepare_descriptors()
    server = VisitorServer(
        data,
        host,
        port,
        public=public,
        behind_proxy=behind_proxy,
        max_visitors=max_visitors,
        per_address=per_address,
    )
    bound = await server.start()
    shown = f"[{host}]" if ":" in host else host
    log.info("listening on http://%s:%d/ ; visitors' games in %s", shown, bound, data / "visitors")
    log.info("answering for %s", server.addresses.names_shown())
    if public is not None:
        log.info("browsers open %s", public.url())
    elif behind_proxy:
        log.info("browsers' addresses as the proxy's headers say")
    try:
        await until_stopped(ready)
    finally:
        log.info("stopping")
        await server.stop()
