"""`--ascii` draws every screen with ASCII characters, before or after the command."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.tmux import Tmux, needs_tmux

pytestmark = needs_tmux


def test_ascii_before_play_draws_the_board_and_the_pie_question_in_ascii(tmp_path: Path) -> None:
    command = (
        f"XDG_DATA_HOME={tmp_path} {shlex.quote(sys.executable)} -m abstracts_tui "
        "--ascii play petrify --size 6 --first Ann --second Bob; sleep 30"
    )
    terminal = Tmux(command, 100, 30)
    try:
        screen = terminal.wait_for(lambda s: "Blue to move (Ann)" in s)
        assert screen.isascii(), screen
        terminal.keys(":")
        terminal.wait_for(lambda s: "Enter plays" in s)
        terminal.keys("c3", "Enter")
        screen = terminal.wait_for(lambda s: "Pie rule" in s and "Play on" in s)
        assert screen.isascii(), screen
    finally:
        terminal.close()
