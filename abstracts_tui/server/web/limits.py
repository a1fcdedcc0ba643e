"""What one browser may ask of `abstracts-tui web`, and the checks of what it sends.

Everything a page sends comes through its websocket: the terminal's size (in the
websocket's address, then in "resize" messages), the keys typed ("stdin"), "ping",
"focus" and "blur", each a JSON array as textual-serve's textual.js writes it. Each is
checked here before the visitor's app sees it, so that one browser, however written, costs
no more than the limits below and cannot stall the others. The docs' browser page
(docs/browser.md) lists them; to change one, change its constant (the pages open at once, with
the web command's --max-visitors and --pages-per-address).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

MAX_COLUMNS = 500
MAX_ROWS = 200
"""The largest terminal a page gets: a bigger window (or a made-up size) is drawn at this
size. The app's memory and each screen's bytes grow with the number of cells."""
MIN_COLUMNS = 10
MIN_ROWS = 4
"""The smallest: a size below it (zero, negative) is taken as this."""
DEFAULT_SIZE = (80, 24)
"""The size when the websocket's address gives none that is a number."""

MAX_VISITORS = 20
"""Pages (each an app, a process of its own) open at once on the whole server: the default
of --max-visitors."""
PAGES_PER_ADDRESS = 4
"""Pages open at once from one address (IPv6: one /64 network), so that one machine cannot
take every place: the default of --pages-per-address."""

MAX_MESSAGE = 64 * 1024
"""The longest websocket message, in bytes: a longer one closes the page (aiohttp's
max_msg_size). The longest that textual.js sends is a paste."""
INPUT_RATE = 100.0
INPUT_BURST = 1000.0
"""Characters typed (or pasted): on average `INPUT_RATE` a second, `INPUT_BURST` at once.
Beyond them input is dropped (a paste cut, a flood lost), as over SSH. A report of the
mouse counts as one character: the page reports every move over the terminal."""
MESSAGE_RATE = 200.0
MESSAGE_BURST = 1000.0
"""Messages of any kind: on average `MESSAGE_RATE` a second, `MESSAGE_BURST` at once.
Beyond them the server reads that page's messages no faster (they wait; none is lost)."""
CHANGES_PER_SECOND = 10.0
"""The focus passed on to the app at most this often. Sizes are passed on as over SSH
(`tui.rooms.resizes.layout_spacing`): at most 10 times a second up to 10,000 cells, once a
second at 500 x 200; in a storm of "resize" messages the app draws the last size, not
each (a screen of 500 x 200 takes a while)."""
PINGS_PER_SECOND = 1.0
"""Pings answered: textual.js sends one, when it connects; more are ignored."""
FLOOD_SECONDS = 5.0
"""A page whose messages have had to wait for this long without a break is closed."""
PING_LENGTH = 64
"""The longest ping's data (textual.js sends the time in milliseconds); it is sent back."""


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A terminal's size within the limits."""
    return (
        min(max(width, MIN_COLUMNS), MAX_COLUMNS),
        min(max(height, MIN_ROWS), MAX_ROWS),
    )


def size_from_query(query: Mapping[str, str]) -> tuple[int, int]:
    """The size in the websocket's address (?width=W&height=H), within the limits."""

    def number(name: str, default: int) -> int:
        text = query.get(name, "")
        if not re.fullmatch(r"-?[0-9]+", text):
            return default
        # Nine digits are more than any limit: int() of many more is slow.
        return int(text) if len(text.lstrip("-")) <= 9 else int(text[:10])

    return clamp_size(number("width", DEFAULT_SIZE[0]), number("height", DEFAULT_SIZE[1]))


# xterm's reports of the mouse (SGR form: button;column;row, then M or m), as textual.js
# sends them, one message for each move or click.
MOUSE = re.compile(r"(?:\x1b\[<\d{1,4};\d{1,5};\d{1,5}[Mm]){1,8}")


def input_cost(text: str) -> int:
    """What `text` (a "stdin" message's) takes of the input rate: its characters, or for
    reports of the mouse one for each."""
    if MOUSE.fullmatch(text):
        return text.count("\x1b")
    return len(text)


class Malformed(ValueError):
    """A message that is not one textual.js sends (the text says what is wrong)."""


@dataclass(frozen=True)
class Stdin:
    text: str


@dataclass(frozen=True)
class Resize:
    width: int
    height: int


@dataclass(frozen=True)
class Ping:
    data: str


@dataclass(frozen=True)
class Focus:
    focused: bool


@dataclass(frozen=True)
class Unknown:
    """A well-formed message of a type textual.js does not send: ignored (a later
    textual.js may add one; textual-serve ignores them too)."""

    kind: str


Message = Stdin | Resize | Ping | Focus | Unknown


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_message(text: str) -> Message:
    """The message in a websocket's text frame; Malformed when it is not one."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise Malformed("not JSON") from None
    if not isinstance(envelope, list) or not envelope:
        raise Malformed("not a non-empty JSON array")
    kind, *rest = envelope
    if not isinstance(kind, str):
        raise Malformed("its type is not a string")
    if kind == "stdin":
        if len(rest) != 1 or not isinstance(rest[0], str):
            raise Malformed('"stdin" without its text')
        return Stdin(rest[0])
    if kind == "resize":
        size = rest[0] if len(rest) == 1 else None
        if not isinstance(size, dict) or not (
            is_int(size.get("width")) and is_int(size.get("height"))
        ):
            raise Malformed('"resize" without a whole width and height')
        return Resize(*clamp_size(size["width"], size["height"]))
    if kind == "ping":
        if len(rest) != 1 or not isinstance(rest[0], str) or len(rest[0]) > PING_LENGTH:
            raise Malformed(f'"ping" without a text of at most {PING_LENGTH} characters')
        return Ping(rest[0])
    if kind in ("focus", "blur"):
        if rest:
            raise Malformed(f'"{kind}" with data')
        return Focus(kind == "focus")
    return Unknown(kind[:40])
