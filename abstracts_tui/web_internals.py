"""What `abstracts-tui web` takes from textual-serve beyond its documented use.

textual-serve documents one use, `Server(command).serve()`: one command for every
browser, links made from the address it listens on, and a page that fetches its font
from Google. abstracts-tui runs an aiohttp application of its own instead (abstracts_tui/
web.py: a folder for each visitor, the address the browser used, nothing from another
host) and takes from textual-serve, here and nowhere else:

- its front end: the static folder (`Server.statics_path`; falling back to the package's
  static/ folder), with js/textual.js (the terminal, xterm.js, and the websocket's
  protocol), css/xterm.css and the Roboto Mono fonts (without them the page uses the
  machine's monospace font), in a page of our own (web_page.html) made to what textual.js
  expects of its page: the #terminal element's data attributes, the body's classes, its
  window.onload, the /download/ address it opens;
- one `Server` for each page, whose public handlers run that visitor's command over the
  page's websocket (`handle_websocket`) and hand over the files that app delivers
  (`handle_download`).

textual.js is a bundle that any release may change, hence the upper bound on
textual-serve's version in pyproject.toml.
"""

from __future__ import annotations

import html
import secrets
from importlib.resources import files
from pathlib import Path

import textual_serve
from aiohttp import web
from textual_serve.server import Server

from .web_address import Address

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


class Page:
    """The page a browser opens: textual.js's terminal, connected to the app."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.static = static_folder()
        self.fonts = [name for name in FONTS if (self.static / "fonts" / name).is_file()]
        self.template = (files("abstracts_tui") / "web_page.html").read_text("utf-8")

    def font_faces(self, static: str) -> str:
        """The fonts' @font-face rules, served from the app's static folder (`static`
        holds no quote nor "<": web_address.Address only has plain hosts and paths)."""
        faces = "".join(
            f'@font-face {{ font-family: "{FAMILY}"; font-style: {FONTS[name]}; '
            f'font-weight: 100 700; src: url("{static}fonts/{name}") format("truetype"); }}\n'
            for name in self.fonts
        )
        return f"<style>\n{faces}</style>" if faces else ""

    def render(self, address: Address, font_size: int) -> tuple[str, dict[str, str]]:
        """The page's HTML for a browser that reaches the app at `address`, and its
        headers (among them the policy that lets it load from the app alone)."""
        nonce = secrets.token_urlsafe(16)
        static = address.url("static/")
        specs = [f'{style} {font_size}px "{FAMILY}"' for style in ("normal", "bold", "italic")]
        values = {
            "title": self.title,
            "static": static,
            "websocket": address.websocket("ws"),
            "downloads": address.url("download/"),
            "font_size": str(font_size),
            "font_specs": "|".join(specs) if self.fonts else "",
            "nonce": nonce,
        }
        text = self.template.format(
            fonts=self.font_faces(static),  # in <style>, where HTML's escapes do not apply
            **{key: html.escape(value) for key, value in values.items()},
        )
        policy = (
            "default-src 'self'; "
            f"script-src 'self' 'nonce-{nonce}'; "
            "style-src 'self' 'unsafe-inline'; "  # textual.js adds <style> elements
            "img-src 'self' data:; "
            "connect-src 'self'; "
            "base-uri 'none'; form-action 'none'"
        )
        return text, {"Content-Security-Policy": policy, "Cache-Control": "no-store"}


class VisitorApp:
    """The app behind one page: a textual-serve `Server` of its own runs `command` (that
    visitor's app) for the page's websocket, and hands over the files the app delivers."""

    def __init__(self, command: str, title: str) -> None:
        self.server = Server(command, title=title)

    async def run(self, request: web.Request) -> web.StreamResponse:
        """Until the page or the app closes (or the task is cancelled: the app is then
        told to quit, and waited for)."""
        return await self.server.handle_websocket(request)

    async def download(self, request: web.Request) -> web.StreamResponse | None:
        """The file named by the request's {key}, or None when this app has no such file."""
        try:
            return await self.server.handle_download(request)
        except web.HTTPNotFound:
            return None
