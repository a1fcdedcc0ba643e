"""ASCII drawing's last word: every character the app sends is ASCII.

With `--ascii` (or where the terminal cannot show Unicode, see `plain_terminal.py`) the
boards draw themselves in ASCII and the style sheet gives frames, text fields and the
palette ASCII borders; what is left (a widget's half-block edge, the `…` of a cut line,
the palette's search icon, an accented name) is replaced here, in each line as it is
sent: box drawing by `-|+`, blocks by `#`, accented letters by their base letter, other
characters by `?`, each as wide as the character it stands for, so nothing moves.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

STANDS_FOR = {
    **dict.fromkeys("─━═╌╍┄┅┈┉╴╶╸╺▔▁—―\u2012\u2013\u2212", "-"),
    **dict.fromkeys("│┃║╎╏┆┇┊┋╵╷╹╻▏▎▍▌▋▊▉▐▕", "|"),
    **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╯╰┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬", "+"),
    **dict.fromkeys("█▇▆▅▄▃▂▀■◼", "#"),
    **dict.fromkeys("░▒▓", ":"),
    **dict.fromkeys("\u2018\u2019\u201a\u2032", "'"),  # quotes and a prime
    **dict.fromkeys("“”„″", '"'),
    **dict.fromkeys("…·•∙⋅", "."),
    "●": "*",
    "○": "o",
    "◆": "*",
    "◇": "o",
    "\u00d7": "x",  # the multiplication sign
    "↑": "^",
    "↓": "v",
    "←": "<",
    "→": ">",
    "▲": "^",
    "▼": "v",
    "◀": "<",
    "▶": ">",
    "⏎": "<",
    "\u00a0": " ",
}
"""ASCII stand-ins for the characters Textual and the app draw with."""


@lru_cache(maxsize=4096)
def ascii_char(char: str) -> str:
    """`char` as ASCII text of its width on the screen."""
    width = cell_len(char)
    found = STANDS_FOR.get(char)
    if found is None:
        base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
        found = base if base.isprintable() and len(base) == 1 else "?"
    return (found * width)[:width] if width else ""


def ascii_text(text: str) -> str:
    """`text` with every character that is not ASCII replaced, the width kept."""
    if text.isascii():
        return text
    return "".join(char if char.isascii() else ascii_char(char) for char in text)


class AsciiOnly(LineFilter):
    """A line filter (Textual's hook for what each line looks like as it is sent) that
    leaves only ASCII characters."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.text.isascii() for segment in segments):
            return segments
        return [
            segment if segment.control else Segment(ascii_text(segment.text), segment.style)
            for segment in segments
        ]


ASCII_ONLY = AsciiOnly()
"""The one filter every app with ASCII drawing adds."""
