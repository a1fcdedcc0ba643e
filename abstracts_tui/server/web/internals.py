"""What `abstracts-tui web` takes from textual-serve beyond its documented use.

textual-serve documents one use, `Server(command).serve()`: one command for every
browser, links made from the address it listens on, and a page that fetches its font
from Google. abstracts-tui runs an aiohttp application of its own instead
(abstracts_tui/server/web/visitors.py: a folder for each visitor, the address the browser
used, nothing from another host) and takes from textual-serve, here and nowhere else:

- its front end: the static folder (`Server.statics_path`; falling back to the package's
  static/ folder), with js/textual.js (the terminal, xterm.js, and the websocket's
  protocol), css/xterm.css and the Roboto Mono fonts (without them the page uses the
  machine's monospace font), in a page of our own (page.html) made to what textual.js
  expects of its page: the #terminal element's data attributes, the body's classes, its
  window.onload, the /download/ address it opens;
- one `Server` for each page, for its download manager (`Server.download_manager`) and
  its public `handle_download`, which hands over the files that page's app delivers;
- textual-serve's `AppService` (app_service.py, not documented), which starts the
  visitor's command with textual's web driver and passes bytes between the process and
  the page: abstracts-tui reads the page's websocket itself and hands the app only the
  messages it has checked (server.web.limits), instead of `Server.handle_websocket`, which
  takes every message and the terminal's size as given. Without an AppService as this one,
  `web` refuses to start (`check_app_service`) rather than fall back to that handler.
  Its process (`AppService._process`, read in `running` alone, and done without where
  it is missing): an app told to quit runs at a lower priority (`step_aside`), and one
  that does not quit in time is killed.

textual.js is a bundle that any release may change, hence the upper bound on
textual-serve's version in pyproject.toml.

From aiohttp, one thing: what a client sent after its websocket's handshake before the
server answered it (`early_frames`: the request handler's `_message_tail`), which aiohttp
hands to the websocket's reader unread by `guard`'s check of the frames' masks. Where
it is missing, `guard` knows such bytes by the handshake's last four alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import secrets
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

import textual_serve
from aiohttp import web
from textual_serve.server import Server

from ..capacity import step_aside
from .address import Address

try:
    from textual_serve.app_service import AppService
except ImportError:  # checked by check_app_service
    AppService = None  # type: ignore[assignment,misc]

log = logging.getLogger("abstracts_tui.web")

SUPPORTED = "textual-serve>=1.1.3,<1.2"
# textual-serve's fonts (static/fonts/), each with its style.
FONTS = {
    "RobotoMono-VariableFont_wght.ttf": "normal",
    "RobotoMono-Italic-VariableFont_wght.ttf": "italic",
}
FAMILY = "Roboto Mono"


class Unsupported(Exception):
    """The installed textual-serve lacks what the page needs."""


def static_folder() -> Path:
    """textual-serve's static files (textual.js and what it loads)."""
    try:
        folder = Path(Server("").statics_path)
    except (AttributeError, TypeError):
        folder = Path(textual_serve.__file__).parent / "static"
    if not (folder / "js" / "textual.js").is_file():
        raise Unsupported(
            f"this textual-serve has no js/textual.js in {folder}: pip install '{SUPPORTED}'"
        )
    return folder


SERVICE = ("start", "stop", "send_bytes", "set_terminal_size", "focus", "blur")
"""What VisitorApp calls on textual-serve's AppService."""


def check_app_service() -> None:
    """Unsupported unless textual-serve has the AppService and the Server that VisitorApp
    uses."""
    missing = [name for name in SERVICE if not callable(getattr(AppService, name, None))]
    if AppService is None or missing or not hasattr(Server(""), "download_manager"):
        raise Unsupported(
            "this textual-serve has no app_service.AppService as abstracts-tui uses it: "
            f"pip install '{SUPPORTED}'"
        )


class Page:
    """The page a browser opens: textual.js's terminal, connected to the app."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.static = static_folder()
        self.fonts = [name for name in FONTS if (self.static / "fonts" / name).is_file()]
        self.template = (files("abstracts_tui.server.web") / "page.html").read_text("utf-8")

    def font_faces(self, static: str) -> str:
        """The fonts' @font-face rules, served from the app's static folder (`static`
        holds no quote nor "<": address.Address only has plain hosts and paths)."""
        faces = "".join(
            f'@font-face {{ font-family: "{FAMILY}"; font-style: {FONTS[name]}; '
            f'font-weight: 100 700; src: url("{static}fonts/{name}") format("truetype"); }}\n'
            for name in self.fonts
        )
        return f"<style>\n{faces}</style>" if faces else ""

    def render(
        self,
        address: Address,
        font_size: int,
        *,
        sign_out: bool = False,
        websocket: str = "ws",
    ) -> tuple[str, dict[str, str]]:
        """The page's HTML for a browser that reaches the app at `address`, and its
        headers (among them the policy that lets it load from the app alone). `sign_out`:
        the closed dialog offers to sign out (a form posted to the app's `signout`);
        `websocket`: the path of the app's websocket under the prefix."""
        nonce = secrets.token_urlsafe(16)
        static = address.url("static/")
        specs = [f'{style} {font_size}px "{FAMILY}"' for style in ("normal", "bold", "italic")]
        values = {
            "title": self.title,
            "static": static,
            "websocket": address.websocket(websocket),
            "downloads": address.url("download/"),
            "font_size": str(font_size),
            "font_specs": "|".join(specs) if self.fonts else "",
            "nonce": nonce,
        }
        signout = (
            f'<form method="post" action="{html.escape(address.url("signout"))}">'
            '<button type="submit" id="signout">Sign out</button></form>'
            if sign_out
            else ""
        )
        text = self.template.format(
            fonts=self.font_faces(static),  # in <style>, where HTML's escapes do not apply
            signout=signout,
            **{key: html.escape(value) for key, value in values.items()},
        )
        forms = "'self'" if sign_out else "'none'"
        policy = (
            "default-src 'self'; "
            f"script-src 'self' 'nonce-{nonce}'; "
            "style-src 'self' 'unsafe-inline'; "  # textual.js adds <style> elements
            "img-src 'self' data:; "
            "connect-src 'self'; "
            f"base-uri 'none'; form-action {forms}"
        )
        return text, {"Content-Security-Policy": policy, "Cache-Control": "no-store"}


class VisitorApp:
    """The app behind one page: textual-serve's AppService runs `command` (that visitor's
    app, a process of its own) and sends what it draws to the page's websocket; the page's
    messages reach it through the methods below once checked. A textual-serve `Server` of
    its own hands over the files the app delivers."""

    def __init__(self, command: str, title: str) -> None:
        self.server = Server(command, title=title)
        self.service: AppService | None = None

    async def start(
        self,
        websocket: web.WebSocketResponse,
        width: int,
        height: int,
        drawn: Callable[[], object] = lambda: None,
    ) -> None:
        """Start the app at `width` x `height`, drawing to `websocket`; `drawn` at each
        of its frames."""

        # A page gone away must not end the service's reading of the app's output: the
        # app would be left writing to a pipe nobody reads, and never see its "quit".
        async def write_bytes(data: bytes) -> None:
            drawn()
            with contextlib.suppress(ConnectionError):
                await websocket.send_bytes(data)

        async def write_str(text: str) -> None:
            with contextlib.suppress(ConnectionError):
                await websocket.send_str(text)

        async def close() -> None:
            with contextlib.suppress(ConnectionError):
                await websocket.close()

        self.service = AppService(
            self.server.command,
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=self.server.download_manager,
        )
        await self.service.start(width, height)

    async def send_input(self, text: str) -> None:
        if self.service is not None:
            await self.service.send_bytes(text.encode("utf-8", "replace"))

    async def resize(self, width: int, height: int) -> None:
        if self.service is not None:
            await self.service.set_terminal_size(width, height)

    async def focus(self, focused: bool) -> None:
        if self.service is not None:
            await (self.service.focus() if focused else self.service.blur())

    async def stop(self, seconds: float) -> None:
        """Tell the app to quit (it saves its game) and wait for it; after `seconds`, or
        if the wait is cancelled, it is killed."""
        if self.service is None:
            return
        service, self.service = self.service, None
        process = running(service)
        step_aside(process.pid if process is not None else None)
        stopping = asyncio.ensure_future(service.stop())
        STOPPING.add(stopping)  # the loop holds tasks weakly; this one may outlive the wait
        stopping.add_done_callback(forget)
        try:
            await asyncio.wait_for(asyncio.shield(stopping), seconds)
        except TimeoutError:
            log.warning("a visitor's app did not quit within %g s: killed", seconds)
            kill(service)
        except asyncio.CancelledError:
            kill(service)
            raise
        except Exception as error:  # the service's own end (its pipes gone): not the page's
            log.info("a visitor's app ended: %s", error)

    async def download(self, request: web.Request) -> web.StreamResponse | None:
        """The file named by the request's {key}, or None when this app has no such file."""
        try:
            return await self.server.handle_download(request)
        except web.HTTPNotFound:
            return None


STOPPING: set[asyncio.Future[None]] = set()
"""The services being stopped."""


def forget(stopping: asyncio.Future[None]) -> None:
    STOPPING.discard(stopping)
    if not stopping.cancelled():
        stopping.exception()  # retrieved: one that nobody awaited is not reported again


def running(service: AppService) -> asyncio.subprocess.Process | None:
    """The service's process while it runs (its private `_process`); None without one:
    then there is nothing to lower or kill, and the process ends when its pipes close
    with the server."""
    process = getattr(service, "_process", None)
    if isinstance(process, asyncio.subprocess.Process) and process.returncode is None:
        return process
    return None


def kill(service: AppService) -> None:
    """End the service's process, if it runs."""
    process = running(service)
    if process is not None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()


def early_frames(request: web.Request) -> bool:
    """Whether the client sent bytes after its websocket's handshake before the server
    answered it (a browser never does: RFC 6455 has it wait for the answer). aiohttp
    keeps them as its request handler's `_message_tail`; False where it has none."""
    tail = getattr(request.protocol, "_message_tail", b"")
    return isinstance(tail, bytes | bytearray) and len(tail) > 0
