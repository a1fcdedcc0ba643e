"""`abstracts-tui web`: the app in a browser, through textual-serve, one app per visitor.

textual-serve starts the same command for every browser that connects. Here each visitor
gets a folder of their own for their games in progress instead: the page sets a cookie
naming the visitor (a random token, made on their first visit), and the websocket that
the page opens carries it back, so the handler starts that visitor's app with their
folder (`data/visitors/TOKEN`). The visitor's app saves records by downloading them and
loads none from the server's disk (`tui.factory.build_web_app`).

This is the one module that uses textual-serve's internals (`Server`'s routes and
template, `AppService`), hence the upper bound on its version in pyproject.toml.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import shlex
import sys
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

log = logging.getLogger("abstracts_tui.web")

COOKIE = "abstracts_tui_visitor"
TOKEN = re.compile(r"[0-9a-f]{32}")
YEAR = 365 * 24 * 3600


def new_token() -> str:
    return secrets.token_hex(16)


def visitor_folder(data: Path, token: str) -> Path:
    """The folder of the visitor named by `token` (which must be one of `new_token`'s)."""
    if TOKEN.fullmatch(token) is None:
        raise ValueError("not a visitor's token")
    return data / "visitors" / token


class VisitorServer(Server):
    """textual-serve's server, starting each visitor's own app."""

    def __init__(self, data: Path, host: str, port: int, *, max_visitors: int = 20) -> None:
        super().__init__("", host=host, port=port, title="abstracts-tui")
        self.data = data
        self.max_visitors = max_visitors
        self.visitors = 0
        """Apps running now (each a process)."""
        self.runner: web.AppRunner | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        """The visitors' open pages."""

    async def start(self) -> int:
        """Listen; returns the port."""
        self.runner = web.AppRunner(await self._make_app(), handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        return int(self.runner.addresses[0][1])

    async def stop(self) -> None:
        # The pages first: each handler then stops its visitor's app (which saves the
        # game), instead of the server waiting out their connections.
        await asyncio.gather(*(socket.close() for socket in list(self.sockets)))
        if self.runner is not None:
            await self.runner.cleanup()

    async def on_startup(self, app: web.Application) -> None:
        pass  # no logo: the command prints where it listens

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, with its links made from the address the browser used, and the
        visitor's cookie (made on the first visit)."""
        base = f"{request.scheme}://{request.host}"
        socket = ("wss" if request.scheme == "https" else "ws") + base[len(request.scheme) :]
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{socket}/ws",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        token = request.cookies.get(COOKIE, "")
        if TOKEN.fullmatch(token) is None:
            response.set_cookie(COOKIE, new_token(), max_age=YEAR, httponly=True, samesite="Strict")
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """The visitor's app, in a process of its own, for as long as the page is open."""
        websocket = web.WebSocketResponse(heartbeat=15)
        try:
            folder = visitor_folder(self.data, request.cookies.get(COOKIE, ""))
        except ValueError:
            raise web.HTTPForbidden(
                text="Open the page first: it names your games' folder."
            ) from None
        if self.visitors >= self.max_visitors:
            raise web.HTTPServiceUnavailable(text="The server is full; try again later.")
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        command = shlex.join([sys.executable, "-m", "abstracts_tui.web_visitor", str(folder)])

        async def close() -> None:
            await websocket.close()

        self.visitors += 1
        self.sockets.add(websocket)
        service: AppService | None = None
        try:
            await websocket.prepare(request)
            service = AppService(
                command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
                debug=False,
            )
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception:
            log.exception("a visitor's app failed")
        finally:
            self.visitors -= 1
            self.sockets.discard(websocket)
            if service is not None:
                await service.stop()
        return websocket


async def serve(data: Path, host: str, port: int, ready: asyncio.Event | None = None) -> None:
    """Serve the app until SIGINT or SIGTERM."""
    from .serving import until_stopped

    server = VisitorServer(data, host, port)
    bound = await server.start()
    shown = f"[{host}]" if ":" in host else host
    log.info("listening on http://%s:%d/ ; visitors' games in %s", shown, bound, data / "visitors")
    try:
        await until_stopped(ready)
    finally:
        log.info("stopping")
        await server.stop()
