"""`abstracts-tui play ... --computer`: the real command, in tmux where a terminal is needed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from abstracts_tui.records import Record
from abstracts_tui.saved_games import SavedGames


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args], capture_output=True, text=True, timeout=60
    )


def test_a_wrong_computer_seat_or_level_is_refused_before_the_screen_opens() -> None:
    done = run("play", "petrify", "--computer", "third")
    assert done.returncode == 2
    assert "'third' is not one of 'first', 'second', 'both'" in done.stderr
    done = run("play", "petrify", "--computer", "second", "--level", "grandmaster")
    assert done.returncode == 2 and "easy" in done.stderr and "strongest" in done.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux to give the app a terminal")
def test_two_computers_play_a_game_to_the_end_in_a_terminal(tmp_path: Path) -> None:
    session = f"abstracts-test-{os.getpid()}"
    command = (
        f"XDG_DATA_HOME={tmp_path} ABSTRACTS_TUI_SEED=4 {sys.executable} -m abstracts_tui "
        "play partitions --size 5 --computer both --level easy; sleep 30"
    )
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command])
    try:
        deadline = time.monotonic() + 120
        screen = ""
        while time.monotonic() < deadline:
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
            ).stdout
            if "wins" in screen:
                break
            time.sleep(0.5)
        assert "Computer" in screen and "wins" in screen, screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    [saved] = SavedGames(tmp_path / "abstracts-tui").files()
    record = Record.load(saved)
    assert record.computers == {"Computer": "easy", "Computer 2": "easy"}
    assert record.result != ""


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux to give the app a terminal")
def test_a_kill_or_a_closed_terminal_quits_as_ctrl_q_does_with_the_game_saved(
    tmp_path: Path,
) -> None:
    """SIGTERM right after a move: the app ends as a quit does (status 0, not killed), and
    the game in progress holds the move (a closed terminal sends SIGHUP, handled the same)."""
    session = f"abstracts-kill-{os.getpid()}"
    pid_file = tmp_path / "pid"
    app = (
        f"echo $$ > {pid_file}; exec env XDG_DATA_HOME={tmp_path} {sys.executable} "
        "-m abstracts_tui play petrify --size 6"
    )
    command = f"sh -c '{app}'; echo EXIT=$?; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command])

    def screen() -> str:
        return subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
        ).stdout

    def wait_for(text: str) -> str:
        deadline = time.monotonic() + 60
        shown = screen()
        while text not in shown and time.monotonic() < deadline:
            time.sleep(0.2)
            shown = screen()
        assert text in shown, shown
        return shown

    try:
        wait_for("Blue to move (Player 1)")
        subprocess.run(["tmux", "send-keys", "-t", session, ":c3", "Enter"])
        wait_for("Player 1 played c3")
        os.kill(int(pid_file.read_text()), 15)
        assert "EXIT=0" in wait_for("EXIT=")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    [saved] = SavedGames(tmp_path / "abstracts-tui").files()
    game = Record.load(saved).main_game()
    assert [game.geometry.name(move) for move in game.moves] == ["c3"]
