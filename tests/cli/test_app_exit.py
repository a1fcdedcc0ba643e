"""The real `abstracts-tui` command in a terminal (tmux): an unwritable data folder does not
stop a game, and an app that fails exits with a non-zero status."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.tmux import Tmux, needs_tmux

pytestmark = needs_tmux


def test_an_unwritable_data_folder_is_told_and_the_game_goes_on(tmp_path: Path) -> None:
    (tmp_path / "abstracts-tui").write_text("a file where the data folder should be")
    command = (
        f"XDG_DATA_HOME={tmp_path} {shlex.quote(sys.executable)} -m abstracts_tui "
        "play partitions --size 5; echo EXIT=$?; sleep 30"
    )
    terminal = Tmux(command, 100, 30)
    try:
        terminal.wait_for(lambda s: "White to move" in s)
        terminal.keys(":")
        terminal.wait_for(lambda s: "Enter plays" in s)
        terminal.keys("c3", "Enter")
        screen = terminal.wait_for(lambda s: "Black to move" in s)
        assert "Not being saved: a part of" in screen  # in the panel and the status line
        terminal.keys("C-q")
        screen = terminal.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=0" in screen and "Traceback" not in screen
    finally:
        terminal.close()


def test_an_app_that_fails_exits_non_zero(tmp_path: Path) -> None:
    # A fault put into the real command: the selection screen fails as it opens.
    program = (
        "from abstracts_tui.tui.screens import select\n"
        "def broken(self): raise RuntimeError('broken on purpose')\n"
        "select.SelectScreen.on_mount = broken\n"
        "from abstracts_tui.cli import main\n"
        "main()\n"
    )
    command = (
        f"XDG_DATA_HOME={tmp_path} {shlex.quote(sys.executable)} -c {shlex.quote(program)}; "
        "echo EXIT=$?; sleep 30"
    )
    terminal = Tmux(command, 100, 30)
    try:
        screen = terminal.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=1" in screen, screen
    finally:
        terminal.close()
