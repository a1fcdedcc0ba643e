"""What the environment says the terminal can show: the locale that decides the
character set (the first of LC_ALL, LC_CTYPE and LANG set), VT100-like and dumb
terminals, and the environment as the program was started (Python changes its own)."""

from __future__ import annotations

import os
import subprocess
import sys

from abstracts_tui.tui.ascii_only import ascii_text
from abstracts_tui.tui.plain_terminal import ascii_reason, dumb_reason, is_utf8


def test_the_first_locale_variable_set_decides() -> None:
    utf8 = {"TERM": "xterm-256color"}
    assert ascii_reason({**utf8, "LANG": "en_GB.UTF-8"}) is None
    assert ascii_reason({**utf8, "LC_ALL": "C.utf8", "LANG": "C"}) is None
    said = ascii_reason({**utf8, "LC_ALL": "C", "LANG": "en_GB.UTF-8"})
    assert said is not None and said.startswith("The locale (LC_ALL=C) is not UTF-8")
    assert ascii_reason({**utf8, "LC_CTYPE": "POSIX", "LANG": "C.UTF-8"}) is not None
    said = ascii_reason(utf8)  # nothing set: the C locale
    assert said is not None and said.startswith("The locale (no LANG set) is not UTF-8")
    assert is_utf8("de_DE.UTF-8@euro") and not is_utf8("de_DE.ISO-8859-15@euro")


def test_vt100_terminals_get_ascii_and_a_dumb_one_line_mode() -> None:
    for term in ("vt100", "vt220", "VT102", "vt100-am"):
        said = ascii_reason({"TERM": term, "LANG": "C.UTF-8"})
        assert said is not None and "shows no Unicode" in said
    assert dumb_reason({"TERM": "dumb"}) is not None
    assert dumb_reason({"TERM": "xterm"}) is None and dumb_reason({}) is None


def test_the_c_locale_is_seen_through_pythons_own_change() -> None:
    """Python sets LC_CTYPE=C.UTF-8 in its own environment where the locale is C
    (PEP 538): the program still reads the locale it was started with."""
    code = (
        "import os; from abstracts_tui.tui.plain_terminal import ascii_reason, started_with;"
        "print(os.environ.get('LC_CTYPE')); print(ascii_reason(started_with()))"
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    shown = subprocess.run(
        [sys.executable, "-c", code],
        env={**environ, "LANG": "C", "TERM": "xterm"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert shown[1].startswith("The locale (LANG=C) is not UTF-8"), shown


def test_ascii_text_keeps_every_width() -> None:
    assert ascii_text("▊▔▔▁ Search for commands…") == "|--- Search for commands."
    assert ascii_text("🔎 Zoë") == "?? Zoe"  # the emoji is two cells wide
    assert ascii_text("plain") == "plain"
