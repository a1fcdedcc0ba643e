"""`y` copies the position string with OSC 52, which reaches tmux's clipboard where tmux
is set as the README says (`set -g set-clipboard on`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.tmux import Tmux, needs_tmux


@needs_tmux
def test_the_position_string_reaches_tmuxs_clipboard(tmp_path: Path) -> None:
    command = (
        f"XDG_DATA_HOME={tmp_path} ABSTRACTS_TUI_CONFIG={tmp_path}/none.toml "
        f"{sys.executable} -m abstracts_tui play pilo --size 6 --first Ann --second Bob"
    )
    with Tmux(command, 80, 24) as terminal:
        subprocess.run([*terminal.tmux, "set", "-g", "set-clipboard", "on"], check=True)
        terminal.wait_for("Blue to move (Ann)")
        terminal.keys(":")
        terminal.wait_for("Enter plays")
        terminal.keys("c3", "Enter")
        terminal.wait_for("Pie rule")
        terminal.keys("p", "y")
        screen = terminal.wait_for("Position string")
        position = "pilo size=6 ....../....../....../..b1.../....../...... orange "
        position += "passes=0,last=blue,swap=yes"
        assert position in " ".join(screen.replace("█", " ").split()), screen  # whole
        shown = subprocess.run(
            [*terminal.tmux, "show-buffer"], capture_output=True, text=True, timeout=30
        )
        assert shown.stdout == position, shown
