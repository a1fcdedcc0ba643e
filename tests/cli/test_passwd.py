"""`abstracts-tui passwd NAME`: the line of a password file for `serve --password-file`,
made by the real command, with a terminal to ask on (tmux) and without one."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

from abstracts_tui.server.auth import ITERATIONS, check_password, read_password_file
from tests.tmux import Tmux, needs_tmux

COMMAND = [sys.executable, "-m", "abstracts_tui", "passwd"]


def passwd(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,  # no terminal of its own
    )


def test_the_line_is_printed_with_the_new_form() -> None:
    done = passwd("ann", "--stdin", typed="pass word\n")
    assert done.returncode == 0, done.stderr
    name, _, stored = done.stdout.strip().partition(":")
    assert name == "ann" and stored.startswith(f"pbkdf2_sha256${ITERATIONS}$")
    assert check_password(stored, "pass word") and not check_password(stored, "password")


def test_a_file_gets_the_line_added_then_changed_and_keeps_its_other_lines(
    tmp_path: Path,
) -> None:
    path = tmp_path / "passwords"
    assert passwd("ann", "--file", str(path), "--stdin", typed="first\n").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # hashes are for the owner's eyes
    done = passwd("bob", "--file", str(path), "--stdin", typed="bob's\n")
    assert done.returncode == 0 and "Added the password of bob" in done.stderr
    path.write_text("# the players\n" + path.read_text())
    done = passwd("ann", "--file", str(path), "--stdin", typed="second\n")
    assert done.returncode == 0 and "Changed the password of ann" in done.stderr
    passwords = read_password_file(path)
    assert sorted(passwords) == ["ann", "bob"]
    assert check_password(passwords["ann"], "second")
    assert not check_password(passwords["ann"], "first")
    assert check_password(passwords["bob"], "bob's")
    assert path.read_text().startswith("# the players\n")


def test_a_file_that_is_not_a_password_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes"
    path.write_text("not a password line\n")
    done = passwd("ann", "--file", str(path), "--stdin", typed="x\n")
    assert done.returncode == 2
    assert "line 1: expected NAME:pbkdf2_sha256" in done.stderr
    assert "Traceback" not in done.stderr
    assert path.read_text() == "not a password line\n"


def test_bad_names_empty_passwords_and_no_terminal_are_refused_in_a_sentence() -> None:
    done = passwd("no/slash", "--stdin", typed="x\n")
    assert done.returncode == 2 and "letters, digits" in done.stderr
    done = passwd("ann", "--stdin", typed="\n")
    assert done.returncode == 2 and "an empty password is refused" in done.stderr
    done = passwd("ann")
    assert done.returncode == 2 and "give --stdin" in done.stderr
    assert done.stdout == ""


@needs_tmux
def test_the_password_is_asked_twice_on_the_terminal_without_echo() -> None:
    command = " ".join(COMMAND) + " ann; echo EXIT=$?; sleep 30"
    with Tmux(command, 200, 12) as terminal:  # the line is 125 characters
        terminal.wait_for("Password for ann:")
        terminal.keys("one", "Enter")
        terminal.wait_for("Again:")
        terminal.keys("other", "Enter")
        terminal.wait_for("do not match")
        terminal.keys("s3cret", "Enter")
        terminal.wait_for(lambda screen: screen.count("Again:") == 2)
        terminal.keys("s3cret", "Enter")
        screen = terminal.wait_for("EXIT=")
    assert "EXIT=0" in screen
    assert "s3cret" not in screen and "other" not in screen  # never shown
    line = next(line for line in screen.splitlines() if line.startswith("ann:"))
    assert check_password(line.partition(":")[2], "s3cret")
