"""Text from outside made safe to show: in the server's log, quoted back to a person, or
on another person's screen.

A string from a client or from a file (a user name, a terminal type, a command's word, a
record's player names, a chat line) may hold what a terminal acts on (escape sequences:
a title, a cleared screen, the clipboard; a line break that forges a log line), what
turns the text around (bidirectional overrides) and what shows as nothing or as a blank
(zero widths, the Unicode default-ignorables, Hangul fillers, the braille blank). Two
ways to show it, both pure:

- `printable`: one line that says exactly what was sent, for a log or an answer: each
  such character written as its escape (`\\n`, `\\x1b`, `\\u202e`), the whole cut to a
  bound with the cut marked `…`.
- `plain`: words as a person reads them, for a screen (chat, a notification): escape
  sequences taken out whole, blanks one space, every other invisible character gone.
"""

from __future__ import annotations

import logging
import re
import unicodedata

LOG_LIMIT = 300
"""The most characters of an outside text a log line or an answer shows (escapes
included); past it the text is cut and the cut marked with `CUT`."""
LINE_LIMIT = 2000
"""The most characters of one line of the server's log (`LogLine`)."""
NAME_LIMIT = 40
"""The same for a short word from a client: a user name, a terminal type, a command's
argument (a real one is far shorter)."""
CUT = "…"
"""Ends a text cut to its bound."""

ESCAPE_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, ...
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, links, clipboard, ...
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # the 8-bit CSI
)
"""A terminal's escape sequences, each matched whole (its text would be left behind)."""

BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U00016fe4\U0001d159")
"""Letters and symbols that a terminal draws as an empty cell, though Unicode does not
call them spaces: the Hangul fillers, the braille blank, the Khitan filler, the musical
null notehead."""

IGNORABLE = re.compile("[\u034f\u17b4\u17b5\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
"""The Unicode default-ignorable characters that are not of a format or control
category (those are caught by category): the grapheme joiner, the Khmer inherent vowels
and the variation selectors. The Hangul fillers, also default-ignorable, are in
`BLANKS`: they are drawn as a blank, not as nothing."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSEEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
_SPACES = re.compile(r"\s+")


def unseen(char: str) -> bool:
    """Whether a terminal would act on `char` or draw it as nothing: a control, format,
    surrogate, private or unassigned character, a line or paragraph separator, or a
    default-ignorable one."""
    return unicodedata.category(char) in _UNSEEN or IGNORABLE.match(char) is not None


def blank(char: str) -> bool:
    """Whether `char` is drawn as an empty cell: a space of any width, or one of `BLANKS`."""
    return char.isspace() or char in BLANKS


def escape(char: str) -> str:
    """`char` as an escape: `\\n`, `\\x1b`, `\\u202e`, `\\U000e0100`."""
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, limit: int = LOG_LIMIT) -> str:
    """`text` as one line that shows what it holds: every character that is unseen or
    blank but the space written as its escape (so that no line is forged, no terminal
    acts on it, and nothing hides), at most `limit` characters, a cut marked `CUT`."""
    pieces: list[str] = []
    length = 0
    for char in text:
        piece = escape(char) if char != " " and (unseen(char) or blank(char)) else char
        pieces.append(piece)
        length += len(piece)
        if length > limit:  # cut: whole escapes only, room left for the mark
            while length > limit - len(CUT):
                length -= len(pieces.pop())
            return "".join(pieces) + CUT
    return "".join(pieces)


def plain(text: str) -> str:
    """`text` as words on a screen: escape sequences out whole, line breaks, tabs and
    every blank (`blank`) a space, every other unseen character gone, runs of spaces one,
    the ends trimmed."""
    text = ESCAPE_SEQUENCES.sub("", text)
    kept = []
    for char in text:
        if blank(char):  # line and paragraph separators among them
            kept.append(" ")
        elif not unseen(char):
            kept.append(char)
    return _SPACES.sub(" ", "".join(kept)).strip()


class LogLine(logging.Formatter):
    """Each message of the log as one printable line, at most `LINE_LIMIT` characters:
    whatever a log call was given (a client's word that no `printable` was put around
    among it), the log forges no line and no terminal it is read on acts on it. A
    traceback, the server's own, follows on lines of its own."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = printable(record.message, LINE_LIMIT)
        return super().formatMessage(record)
