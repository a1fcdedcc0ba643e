"""Terminals without colour or Unicode, in a real terminal (tmux): under NO_COLOR the
sides are told apart by shape and the panel says whose shape is which; with --ascii
nothing but ASCII is sent, the palette and text fields too; where the locale is not UTF-8
(or the terminal a VT100) the app chooses ASCII by itself and says so; under TERM=dumb
line mode starts instead of a screen that cannot be drawn."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.tmux import Tmux, needs_tmux

pytestmark = needs_tmux

GAME = "play petrify --size 6 --first Ann --second Bob"


def start(tmp_path: Path, environment: str, arguments: str = GAME) -> Tmux:
    """`abstracts-tui ARGUMENTS` with `environment` (`NAME=value ...`) in an 80 x 24 tmux
    window; the window stays after the program ends, with its exit status."""
    command = (
        f"env {environment} XDG_DATA_HOME={tmp_path} ABSTRACTS_TUI_CONFIG={tmp_path}/s.toml "
        f"{shlex.quote(sys.executable)} -m abstracts_tui {arguments}; echo status $?; sleep 60"
    )
    return Tmux(command, 80, 24)


def words(screen: str) -> str:
    """The words on the screen, its frames' edges left out (a notice's lines run on)."""
    return " ".join(screen.replace("|", " ").split())


def test_no_color_names_which_shape_is_whose(tmp_path: Path) -> None:
    with start(tmp_path, "NO_COLOR=1") as terminal:
        screen = terminal.wait_for("Blue to move (Ann)")
        assert "● Blue (Ann)   ○ Orange (Bob)" in screen, screen


def test_ascii_sends_only_ascii_in_the_palette_and_text_fields(tmp_path: Path) -> None:
    with start(tmp_path, "LANG=C.UTF-8", f"--ascii {GAME}") as terminal:
        screen = terminal.wait_for("Blue to move (Ann)")
        assert screen.isascii(), screen
        terminal.keys("C-p")  # the palette: its field, its icon, its edges
        screen = terminal.wait_for("Search for commands")
        assert screen.isascii(), screen
        terminal.keys("Escape")
        terminal.wait_for(lambda s: "Search for commands" not in s)
        terminal.keys("C-s")  # the save dialog, with its text field
        screen = terminal.wait_for(lambda s: "Save" in s and "Cancel (esc)" in s)
        assert screen.isascii(), screen


def test_a_terminal_without_unicode_gets_ascii_and_is_told_so(tmp_path: Path) -> None:
    for environment, said in (
        ("-u LC_ALL -u LC_CTYPE LANG=C TERM=xterm", "The locale (LANG=C) is not UTF-8"),
        ("LC_ALL=C TERM=xterm-256color", "The locale (LC_ALL=C) is not UTF-8"),
        ("-u LC_ALL -u LC_CTYPE LANG=C.UTF-8 TERM=vt100", "This terminal (TERM=vt100) shows"),
    ):
        with start(tmp_path, environment) as terminal:
            screen = terminal.wait_for(lambda s, said=said: said in words(s))  # in a notice
            assert "Blue to move (Ann)" in screen and "(as --ascii does" in words(screen)
            assert screen.isascii(), (environment, screen)


def test_a_dumb_terminal_gets_line_mode_and_is_told_why(tmp_path: Path) -> None:
    with start(tmp_path, "TERM=dumb") as terminal:
        screen = terminal.wait_for("Blue to move (Ann).")
        flat = " ".join(screen.split())
        assert (
            "This terminal (TERM=dumb) cannot draw the full screen: starting line mode "
            "(--lines) instead." in flat.replace("(--lin es)", "(--lines)")
        ), screen
        assert "abstracts-tui in line mode." in screen
        terminal.type("quit", "Enter")
        terminal.wait_for("status 0")
