"""`abstracts-tui web`: the app in a browser, through textual-serve, one app per visitor.

textual-serve starts the same command for every browser that connects. Here each visitor
gets a folder of their own for their games in progress instead: the page sets a cookie
naming the visitor (a random token, made on their first visit), and the websocket that
the page opens carries it back, so the handler starts that visitor's app with their
folder (`data/visitors/TOKEN`). The visitor's app saves records by downloading them and
loads none from the server's disk (`tui.factory.build_web_app`).

The page's links are made from the address the browser used (`web_address`: behind a
reverse proxy, the one `--public-url` names or the proxy's headers say), and it loads
nothing from another host. What this takes from textual-serve beyond its documented use
is in `web_internals`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import shlex
import sys
from pathlib import Path

from aiohttp import web

from .web_address import Address, has_proxy_headers, plain_host, proxied
from .web_internals import Page, VisitorApp

log = logging.getLogger("abstracts_tui.web")

COOKIE = "abstracts_tui_visitor"
TOKEN = re.compile(r"[0-9a-f]{32}")
YEAR = 365 * 24 * 3600
TITLE = "abstracts-tui"


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


class VisitorServer:
    """The web server: the page, each visitor's app over the page's websocket, their
    downloads, and textual-serve's static files (textual.js and its fonts)."""

    def __init__(
        self,
        data: Path,
        host: str,
        port: int,
        *,
        max_visitors: int = 20,
        public: Address | None = None,
        behind_proxy: bool = False,
    ) -> None:
        self.data = data
        self.host = host
        self.port = port
        self.max_visitors = max_visitors
        self.public = public
        """The address browsers use (--public-url), if given."""
        self.behind_proxy = behind_proxy
        """Whether the proxy's headers say the address browsers use."""
        self.page = Page(TITLE)
        self.apps: dict[str, set[VisitorApp]] = {}
        """The apps running now (each a process), by their visitor's token."""
        self.handlers: set[asyncio.Task[object]] = set()
        """The open pages' websocket handlers."""
        self.runner: web.AppRunner | None = None
        self.warned_proxy = False

    @property
    def visitors(self) -> int:
        return sum(len(apps) for apps in self.apps.values())

    def application(self) -> web.Application:
        app = web.Application()
        # A proxy that mounts the app under a path may pass that path on or strip it:
        # the routes answer both ways.
        prefixes = {"/", self.public.prefix if self.public else "/"}
        for prefix in sorted(prefixes):
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
        self.runner = web.AppRunner(self.application(), handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        return int(self.runner.addresses[0][1])

    async def stop(self) -> None:
        # The pages' handlers first: each stops its visitor's app (which saves the game),
        # instead of the server waiting out their connections.
        handlers = list(self.handlers)
        for handler in handlers:
            handler.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)
        if self.runner is not None:
            await self.runner.cleanup()

    def address(self, request: web.Request) -> Address:
        """The address the browser used to reach the app."""
        if self.public is not None:
            return self.public
        if not plain_host(request.host):  # it goes into the page
            raise web.HTTPBadRequest(text="The request's Host is not a host name or address.")
        own = Address(request.scheme, request.host)
        if self.behind_proxy:
            return proxied(own, request.headers.items(), request.forwarded)
        if not self.warned_proxy and has_proxy_headers(request.headers.items()):
            self.warned_proxy = True
            log.warning(
                "a request came through a proxy (it has Forwarded or X-Forwarded-* "
                "headers): give --behind-proxy to trust them, or --public-url, or the "
                "page's links will be to %s",
                own.url(),
            )
        return own

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

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """The visitor's app, in a process of its own, for as long as the page is open."""
        token = request.cookies.get(COOKIE, "")
        try:
            folder = visitor_folder(self.data, token)
        except ValueError:
            raise web.HTTPForbidden(
                text="Open the page first: it names your games' folder."
            ) from None
        if self.visitors >= self.max_visitors:
            raise web.HTTPServiceUnavailable(text="The server is full; try again later.")
        command = shlex.join([sys.executable, "-m", "abstracts_tui.web_visitor", str(folder)])
        app = VisitorApp(command, TITLE)
        handler = asyncio.current_task()
        self.apps.setdefault(token, set()).add(app)
        if handler is not None:
            self.handlers.add(handler)
        try:
            return await app.run(request)
        finally:
            self.apps[token].discard(app)
            if not self.apps[token]:
                del self.apps[token]
            if handler is not None:
                self.handlers.discard(handler)

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
) -> None:
    """Serve the app until SIGINT or SIGTERM."""
    from .serving import until_stopped

    server = VisitorServer(data, host, port, public=public, behind_proxy=behind_proxy)
    bound = await server.start()
    shown = f"[{host}]" if ":" in host else host
    log.info("listening on http://%s:%d/ ; visitors' games in %s", shown, bound, data / "visitors")
    if public is not None:
        log.info("browsers open %s", public.url())
    elif behind_proxy:
        log.info("browsers' addresses as the proxy's headers say")
    try:
        await until_stopped(ready)
    finally:
        log.info("stopping")
        await server.stop()
