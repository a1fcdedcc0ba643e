"""The real `abstracts-tui` command in a terminal (tmux): an unwritable data folder does not
stop a game, and an app that fails exits with a non-zero status."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="needs tmux to give the app a terminal"
)


class Terminal:
    """A tmux session running one command at 100x30."""

    def __init__(self, name: str, command: str) -> None:
        self.name = f"abstracts-{name}-{os.getpid()}"
        # A tmux server of its own: nothing else on the machine can disturb it.
        self.tmux = ["tmux", "-L", self.name]
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, "-x", "100", "-y", "30", command],
            check=True,
        )

    def screen(self) -> str:
        return subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        ).stdout

    def wait_for(self, found: Callable[[str], bool], seconds: float = 60) -> str:
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if found(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"not seen in {seconds} s:\n{screen}")

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def test_an_unwritable_data_folder_is_told_and_the_game_goes_on(tmp_path: Path) -> None:
    (tmp_path / "abstracts-tui").write_text("a file where the data folder should be")
    command = (
        f"XDG_DATA_HOME={tmp_path} {shlex.quote(sys.executable)} -m abstracts_tui "
        "play partitions --size 5; echo EXIT=$?; sleep 30"
    )
    terminal = Terminal("unwritable", command)
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
    terminal = Terminal("fails", command)
    try:
        screen = terminal.wait_for(lambda s: "EXIT=" in s)
        assert "EXIT=1" in screen, screen
    finally:
        terminal.close()
