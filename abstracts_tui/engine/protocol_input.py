"""The engine protocol's input: bounded lines, read on a thread of their own.

Lines are read ahead of the command being answered, so that `quit` or the end of input
is seen during a long search (`analyze 40`, `genmove` with a long `time_per_move`): the
search under way, and any after it, stop at once, the commands before `quit` are still
answered in order, then the engine exits.

Memory stays bounded whatever comes in: a line over `MAX_LINE` bytes is counted and
skipped as it streams past, never held, and the reader waits once the lines read ahead
hold `MAX_WAITING` bytes.

The numbers a line carries (a command's id, `size=`, `komi=`, seconds) are read by
`whole` and `decimal`: ASCII digits only, a few of them, without exponents,
`inf` or `nan`, each refused with one sentence that names what is allowed.
"""

from __future__ import annotations

import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..rules import shown

MAX_LINE = 1024 * 1024
"""The longest command line, in bytes (its line break not counted): 1 MiB."""
MAX_WAITING = 8 * MAX_LINE
"""The bytes of the lines read ahead of the command being answered, at most."""
CHUNK = 64 * 1024
STOP_EVERY = 0.02
"""Seconds between the requests to stop a search, once the input has ended (a search
that starts after one request clears it, so they go on until the engine exits)."""

MAX_ID_DIGITS = 9
"""The most digits of a command's id (GTP's ids are whole numbers: nine digits fit the
32-bit integers of the programs that send them); a longer id is refused."""

_IDENT = re.compile(rb"\s*([0-9]{1,%d})\s" % MAX_ID_DIGITS)


@dataclass(frozen=True)
class TooLong:
    """A line over `MAX_LINE` bytes, skipped: its length and its command id, if any."""

    size: int
    ident: str

    def answer(self) -> str:
        return f"?{self.ident} line too long ({self.size:,} bytes, at most {MAX_LINE:,})\n\n"


END = None
"""What `Input.next` gives once the input has ended (or `quit` was read)."""


class Input:
    """The lines of `stream`, read by a thread started at once: `next()` gives each line
    (text, without its line break) or `TooLong`, then `END`.

    `is_quit` tells a line that ends the session; once it is read, or the input ends,
    the thread calls `stop_search` every `STOP_EVERY` seconds until `close()`.
    """

    def __init__(
        self,
        stream: BinaryIO,
        is_quit: Callable[[str], bool],
        stop_search: Callable[[], None],
    ) -> None:
        # The raw file, when there is one: it reads without the buffer's lock, which a
        # thread still waiting in it at exit would hold while Python shuts down.
        self._stream = getattr(stream, "raw", None) or stream
        self._is_quit = is_quit
        self._stop_search = stop_search
        self._lines: deque[str | TooLong | None] = deque()
        self._waiting = 0
        """Bytes of the lines in `_lines`."""
        self._changed = threading.Condition()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="engine-input", daemon=True)
        self._thread.start()

    def next(self) -> str | TooLong | None:
        """The next line, `TooLong`, or `END`; waits for it."""
        with self._changed:
            while not self._lines:
                self._changed.wait()
            item = self._lines.popleft()
            if isinstance(item, str):
                self._waiting -= _cost(item)
            self._changed.notify_all()
            return item

    def close(self) -> None:
        """The engine is done: the thread stops asking searches to stop."""
        self._closed.set()

    def _put(self, item: str | TooLong | None) -> None:
        with self._changed:
            if isinstance(item, str):
                cost = _cost(item)
                while self._waiting and self._waiting + cost > MAX_WAITING:
                    self._changed.wait()
                self._waiting += cost
            self._lines.append(item)
            self._changed.notify_all()

    def _run(self) -> None:
        try:
            for item in self._read():
                self._put(item)
                if isinstance(item, str) and self._is_quit(item):
                    break
        except (OSError, ValueError):  # an input that fails to read has ended too
            pass
        finally:
            self._put(END)
        while not self._closed.wait(STOP_EVERY):
            self._stop_search()

    def _read(self) -> Iterator[str | TooLong]:
        """Each line as text, or `TooLong`, as they come."""
        held = bytearray()
        skipped = -1
        """Bytes of the line being skipped (over `MAX_LINE`); -1 while none is."""
        ident = ""
        while True:
            chunk = self._stream.read(CHUNK)
            if not chunk:
                break
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                if skipped >= 0:
                    skipped += len(piece)
                else:
                    held += piece
                    if len(held) > MAX_LINE:
                        found = _IDENT.match(held)
                        ident = found.group(1).decode() if found else ""
                        skipped = len(held)
                        held.clear()
                if end < 0:
                    break
                yield from _line(held, skipped, ident)
                held.clear()
                skipped = -1
                start = end + 1
        if held or skipped >= 0:
            yield from _line(held, skipped, ident)


def _line(held: bytearray, skipped: int, ident: str) -> list[str | TooLong]:
    if skipped >= 0:
        return [TooLong(skipped, ident)]
    return [held.decode("utf-8", errors="replace")]


def _cost(line: str) -> int:
    """The memory a line read ahead counts for: its text and the object around it."""
    return len(line) + 64


class NumberError(ValueError):
    """A number in a command line that is not what the protocol takes (the message, one
    sentence, says what is)."""


def whole(text: str, what: str, digits: int) -> int:
    """`text` as a whole number of 1 to `digits` ASCII digits (no sign, no spaces);
    raises NumberError naming `what` otherwise."""
    if not (1 <= len(text) <= digits and text.isascii() and text.isdigit()):
        raise NumberError(
            f"{what} must be a whole number of at most {digits} ASCII digits, not '{shown(text)}'"
        )
    return int(text)


def decimal(text: str, what: str, before: int, after: int, *, signed: bool = False) -> float:
    """`text` as a decimal number in ASCII digits: up to `before` digits, then a point
    and up to `after` more if any (`2.5`, `10`; with `signed` a leading `-` too; no
    exponent, `inf` or `nan`); raises NumberError naming `what` otherwise."""
    sign = "-?" if signed else ""
    pattern = rf"{sign}[0-9]{{1,{before}}}(?:\.[0-9]{{1,{after}}})?"
    if not text.isascii() or re.fullmatch(pattern, text) is None:
        example = "-2 or 6.5" if signed else "2 or 2.5"
        raise NumberError(
            f"{what} must be a number in ASCII digits such as {example} (at most {before} "
            f"digits before the point and {after} after), not '{shown(text)}'"
        )
    return float(text) + 0.0  # no negative zero
