"""A room's chat: lines bounded and cleaned, a rate per person, the lines kept.

Anyone in a room, players and watchers, may say a line. A line typed is text, never
anything a terminal or `rich` would act on: escape sequences are taken out whole, every
other control or format character (line breaks, tabs, bidirectional overrides, zero
widths) becomes a space or goes, and what remains is at most `CHAT_LIMIT` characters.
The screens show it with `rich.text.Text` (never markup), so `[bold]` is shown as typed.
No store and no screen here: the gateway checks a `Say` with `check_line` and `Rates`,
commits it, and every process adds the line to the room's `Chat`.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ..commands import CHAT_LIMIT
from ..rates import TokenBucket
from ..rules import RulesError

KEPT = 200
"""Lines a room keeps (the oldest go first): what a screen opened late can scroll back."""
RATE = 0.5
"""Lines a second each person may say on average..."""
BURST = 4
"""...and at once."""
PEOPLE = 1000
"""Persons whose rates a room remembers; beyond it, those with a full allowance go."""

_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, ...
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, links, clipboard, ...
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # the 8-bit CSI
)
_SPACES = re.compile(r"\s+")


class ChatRefused(RulesError):
    """A line that is not said; the message is one sentence saying why (a rules' error:
    the gateway refuses it with that sentence, as any other)."""


def clean(text: str) -> str:
    """`text` as the room shows it: escape sequences out, any other control or format
    character a space (a line break, a tab) or gone (a bidirectional override), runs of
    spaces one, the ends trimmed, at most `CHAT_LIMIT` characters."""
    text = _ESCAPES.sub("", text)
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Zl", "Zp") or char in "\t\n\r\v\f":
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        else:
            kept.append(char)
    return _SPACES.sub(" ", "".join(kept)).strip()[:CHAT_LIMIT]


def check_line(text: str) -> str:
    """The line as it will be said; raises ChatRefused for one with nothing to say or
    longer than `CHAT_LIMIT` characters (nothing is cut without the sender knowing)."""
    if len(text) > CHAT_LIMIT:
        raise ChatRefused(f"A chat line has at most {CHAT_LIMIT} characters, not {len(text)}.")
    line = clean(text)
    if not line:
        raise ChatRefused("There is nothing to say in that line.")
    return line


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
        self.listeners: list[Callable[[ChatLine], None]] = []
        """Called with each line added (the screens showing the room's chat)."""

    def add(self, line: ChatLine) -> None:
        """Keep `line` (cleaned again: one read back from a store is outside text) and
        tell the listeners."""
        line = ChatLine(line.by, clean(line.text), line.watcher)
        self.lines.append(line)
        for listener in list(self.listeners):
            listener(line)
