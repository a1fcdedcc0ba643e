"""A room's chat: lines bounded and cleaned, a rate per person, the lines kept.

Anyone in a room, players and watchers, may say a line. A line typed is text, never
anything a terminal or `rich` would act on (`printable.plain`): escape sequences are
taken out whole, line breaks, tabs and characters drawn blank (the Hangul fillers, the
braille blank) become spaces, runs of them one, other control, format and invisible
characters (bidirectional overrides, zero widths) go, and what remains is at most
`CHAT_LIMIT` characters; a line with nothing left to see is refused. The screens show it
with `rich.text.Text` (never markup), so `[bold]` is shown as typed, and each row of a
line wrapped on a screen starts with who said it (`rows`), so that no part of a line
reads as the server's or another person's. No store and no screen here: the gateway
checks a `Say` with `check_line` and `Rates`, commits it, and every process adds the
line to the room's `Chat`.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from rich.cells import cell_len, chop_cells, set_cell_size

from ..commands import CHAT_LIMIT
from ..printable import plain
from ..rates import TokenBucket
from ..rules import RulesError
from ..subscribers import Subscribers

KEPT = 200
"""Lines a room keeps (the oldest go first): what a screen opened late can scroll back."""
RATE = 0.5
"""Lines a second each person may say on average..."""
BURST = 4
"""...and at once."""
PEOPLE = 1000
"""Persons whose rates a room remembers; beyond it, those with a full allowance go."""
NARROWEST = 20
"""The fewest columns a line is wrapped to (a narrower screen wraps the rows again)."""


class ChatRefused(RulesError):
    """A line that is not said; the message is one sentence saying why (a rules' error:
    the gateway refuses it with that sentence, as any other)."""


def clean(text: str) -> str:
    """`text` as the room shows it (`printable.plain`), at most `CHAT_LIMIT` characters."""
    return plain(text)[:CHAT_LIMIT]


def check_line(text: str) -> str:
    """The line as it will be said; raises ChatRefused for one with nothing to say or
    longer than `CHAT_LIMIT` characters (nothing is cut without the sender knowing)."""
    if len(text) > CHAT_LIMIT:
        raise ChatRefused(f"A chat line has at most {CHAT_LIMIT} characters, not {len(text)}.")
    line = clean(text)
    if not line:
        raise ChatRefused("There is nothing to say in that line.")
    return line


def rows(text: str, width: int, first: str, then: str) -> list[tuple[str, str]]:
    """`text` (a cleaned line) wrapped to rows of at most `width` cells (`NARROWEST` at
    least), as (prefix, words) pairs: `first` starts the first row, `then` every other,
    so that no row of a line starts with its own words. Words are kept whole where they
    fit; a prefix wider than half the row is cut, ending in `…`."""
    width = max(width, NARROWEST)
    first, then = (_fitted(prefix, width // 2) for prefix in (first, then))
    room = width - cell_len(first)
    wrapped: list[tuple[str, str]] = []
    row = ""
    for word in text.split(" "):
        joined = f"{row} {word}" if row else word
        if cell_len(joined) <= room:
            row = joined
            continue
        if row:
            wrapped.append((first if not wrapped else then, row))
            room = width - cell_len(then)
        *whole, row = chop_cells(word, room) or [""]
        for piece in whole:
            wrapped.append((first if not wrapped else then, piece))
            room = width - cell_len(then)
    wrapped.append((first if not wrapped else then, row))
    return wrapped


def _fitted(prefix: str, cells: int) -> str:
    if cell_len(prefix) <= cells:
        return prefix
    return set_cell_size(prefix, cells - 2).rstrip() + "… "


class Rates:
    """How fast each person may chat in one room: `RATE` lines a second, `BURST` at once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, name: str) -> None:
        """Count a line of `name`'s; raises ChatRefused when they say too many too fast."""
        bucket = self.buckets.get(name)
        if bucket is None:
            if len(self.buckets) >= PEOPLE:
                self._forget_idle()
            bucket = self.buckets[name] = TokenBucket(RATE, BURST, self.clock)
        if not bucket.take(1):
            wait = math.ceil((1 - bucket.tokens) / bucket.rate)
            raise ChatRefused(f"Too many lines at once: wait {wait} s before the next one.")

    def _forget_idle(self) -> None:
        for name, bucket in list(self.buckets.items()):
            bucket.refill()
            if bucket.tokens >= bucket.burst:
                del self.buckets[name]


@dataclass(frozen=True)
class ChatLine:
    """A line said in a room: by whom, whether they were watching, and what."""

    by: str
    text: str
    watcher: bool = False


class Chat:
    """The lines said in one room, the newest last (`KEPT` of them), and who is told."""

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=KEPT)
        self.listeners: Subscribers[[ChatLine]] = Subscribers()
        """Told of each line added (the screens showing the room's chat)."""

    def add(self, line: ChatLine) -> None:
        """Keep `line` (cleaned again: one read back from a store is outside text) and
        tell the listeners."""
        line = ChatLine(line.by, clean(line.text), line.watcher)
        self.lines.append(line)
        self.listeners(line)
