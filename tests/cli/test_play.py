"""`abstracts-tui play ... --computer`: the real command, in tmux where a terminal is needed
(a kill or a closed terminal: test_terminal_close.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from abstracts_tui.records import Record
from abstracts_tui.saved_games import SavedGames
from tests.tmux import Tmux, needs_tmux


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


@needs_tmux
def test_two_computers_play_a_game_to_the_end_in_a_terminal(tmp_path: Path) -> None:
    command = (
        f"XDG_DATA_HOME={tmp_path} ABSTRACTS_TUI_SEED=4 {sys.executable} -m abstracts_tui "
        "play partitions --size 5 --computer both --level easy; sleep 30"
    )
    terminal = Tmux(command, 100, 30)
    try:
        screen = terminal.wait_for(lambda screen: "wins" in screen, 120)
        assert "Computer" in screen, screen
    finally:
        terminal.close()
    [saved] = SavedGames(tmp_path / "abstracts-tui").files()
    record = Record.load(saved)
    assert record.computers == {"Computer": "easy", "Computer 2": "easy"}
    assert record.result != ""


@needs_tmux
def test_a_record_that_cannot_be_read_stops_play_load_before_the_screen_opens(
    tmp_path: Path,
) -> None:
    """In a terminal, where the app would open: one sentence on standard error, status 2,
    as line mode says it."""
    (tmp_path / "broken.sgf").write_text("not a record")
    for name, said in (
        ("missing.sgf", "Error: missing.sgf could not be opened: no such file or folder."),
        ("broken.sgf", "Error: broken.sgf is not a game record this program can read: line 1"),
    ):
        command = (
            f"cd {tmp_path}; XDG_DATA_HOME={tmp_path} {sys.executable} -m abstracts_tui "
            f"play --load {name} 2>errors; echo EXIT=$?; sleep 30"
        )
        terminal = Tmux(command, 100, 30)
        try:
            screen = terminal.wait_for(lambda screen: "EXIT=" in screen, 60)
            assert "EXIT=2" in screen, screen
        finally:
            terminal.close()
        errors = (tmp_path / "errors").read_text()
        assert errors.startswith(said) and errors.count("\n") == 1, errors
