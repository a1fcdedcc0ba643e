"""What the terminal can show, from the environment, before the app draws anything.

- Where the locale is not UTF-8 (`LC_ALL=C`, `LANG=C`, or none set, which is the C
  locale) or the terminal is a VT100-like one, Unicode would come out as garbage: the app
  draws with ASCII characters only, as `--ascii` asks, and says so once.
- Where `TERM=dumb` (an editor's shell buffer, a plain serial line) the terminal cannot
  place the cursor at all: the full screen cannot be drawn, and line mode starts instead,
  saying so.

No Textual here: the command line asks before it loads the app.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")
"""The variables that choose the character set, in the order that the C library reads
them: the first one set wins."""
ASCII_TERMINALS = ("vt52", "vt100", "vt102", "vt220", "vt320", "ansi")
"""`TERM` values (and their variants, `vt100-am`) of terminals that show no Unicode."""
DUMB_TERMINALS = ("dumb",)
"""`TERM` values of terminals that cannot move the cursor: no full screen there."""


def started_with(environ: Mapping[str, str] = os.environ) -> Mapping[str, str]:
    """The environment the program was started with: Python changes its own (it sets
    `LC_CTYPE=C.UTF-8` where the locale is C, PEP 538), which would hide a C locale; on
    Linux the kernel keeps the first one (`/proc/self/environ`). `environ` elsewhere."""
    try:
        with open("/proc/self/environ", "rb") as file:
            entries = file.read().split(b"\0")
    except OSError:
        return environ
    pairs = (entry.decode("utf-8", "replace").partition("=") for entry in entries if entry)
    return {name: value for name, _, value in pairs}


def locale_setting(environ: Mapping[str, str]) -> tuple[str, str]:
    """The variable that chooses the character set and its value (`LANG`, `C.UTF-8`);
    `("LANG", "")` where none is set."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return name, value
    return "LANG", ""


def is_utf8(locale: str) -> bool:
    """Whether the locale's character set is UTF-8 (`en_GB.UTF-8`, `C.utf8`)."""
    codeset = locale.partition(".")[2].partition("@")[0]
    return codeset.replace("-", "").lower() == "utf8"


def terminal_name(environ: Mapping[str, str]) -> str:
    return environ.get("TERM", "").strip().lower()


def ascii_reason(environ: Mapping[str, str]) -> str | None:
    """Why this terminal gets ASCII characters only, in one sentence; None where it can
    show Unicode. `environ` as the program was started (`started_with()`)."""
    term = terminal_name(environ)
    if term.partition("-")[0] in ASCII_TERMINALS:
        return (
            f"This terminal (TERM={term}) shows no Unicode: the app draws with ASCII "
            "characters only (as --ascii does)."
        )
    name, value = locale_setting(environ)
    if not is_utf8(value):
        setting = f"{name}={value}" if value else "no LANG set"
        return (
            f"The locale ({setting}) is not UTF-8: the app draws with ASCII characters only "
            "(as --ascii does; a UTF-8 locale such as LANG=C.UTF-8 shows the full drawing)."
        )
    return None


def dumb_reason(environ: Mapping[str, str]) -> str | None:
    """Why this terminal cannot show the full screen, in one sentence; None where it can."""
    term = terminal_name(environ)
    if term in DUMB_TERMINALS:
        return (
            f"This terminal (TERM={term}) cannot draw the full screen: starting line mode "
            "(--lines) instead."
        )
    return None


def in_terminal() -> bool:
    """Whether the app has a terminal: Textual reads the keys from standard input and
    draws on the process's standard error."""
    for stream in (sys.__stdin__, sys.__stderr__):
        try:
            if stream is None or not stream.isatty():
                return False
        except ValueError:  # closed
            return False
    return True
