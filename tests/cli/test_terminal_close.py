"""The real `abstracts-tui` and its terminal going away: a closed terminal (the tmux server
killed), SIGHUP or SIGTERM at any moment (start-up, right after a move, the computer's
search, the pie dialog, help, a review in analysis) ends the process within 2 s with every
move shown on the screen in the saved game; without a terminal the app is refused at once.

The closes of each moment run two at a time, each in a terminal (tmux server) of its own, and
each run's process is found by its own data folder in its environment."""

from __future__ import annotations

import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from abstracts_tui.cli import NO_TERMINAL
from abstracts_tui.records import Record
from abstracts_tui.rules import new_game
from abstracts_tui.saved_games import SavedGames
from tests.cli.processes import wait_gone
from tests.tmux import Tmux, needs_tmux

pytestmark = [
    needs_tmux,
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds runs in /proc"),
]

GONE_SECONDS = 2.0
"""A closed terminal's app is gone by then."""
PYTHON = shlex.quote(sys.executable)
MOVE_LINE = re.compile(r"^\s*>?\s*\d+\.\s+[A-Z][a-z]+\s+([a-z]\d+(?:-[a-z]\d+)?|swap|pass)\s*$")
"""A move in the panel's list: `   3. Black      b2` (`>` marks the move shown)."""

SEARCHED = ["e5", "c6", "f3", "b2"]
"""Moves played until the computer's answer is seen searching."""
Reach = Callable[[Tmux], list[str]]
"""Brings the app to the moment of the close; the moves on the screen just before it."""


def shown_moves(screen: str) -> list[str]:
    """The moves listed in the panel, right of the board."""
    moves = []
    for line in screen.splitlines():
        _, bar, panel = line.partition("│")
        match = MOVE_LINE.match(panel) if bar else None
        if match:
            moves.append(match.group(1))
    return moves


AT_ONCE = 2
"""How many of a moment's closes run at once."""


def saved_moves(data: Path) -> list[str]:
    """The main line of the game in progress in the data folder (none without one)."""
    files = SavedGames(data / "abstracts-tui").files()
    if not files:
        return []
    [path] = files
    game = Record.load(path).main_game()
    return [game.move_name(move) for move in game.moves]


def marker(data: Path) -> str:
    """What is in the environment of the run with the data folder `data`, and no other's."""
    return f"XDG_DATA_HOME={data}\0"


def close_at(tmp_path: Path, runs: list[tuple[str, Reach]]) -> None:
    """Start `abstracts-tui ARGS` for each run, at once, bring each to its moment and close
    its terminal there; each process must be gone within 2 s, and each move shown before
    the close must be in the saved game."""

    def run(number: int, args: str, reach: Reach) -> None:
        data = tmp_path / f"run{number}"
        command = f"XDG_DATA_HOME={data} ABSTRACTS_TUI_SEED=3 {PYTHON} -m abstracts_tui {args}"
        terminal = Tmux(command, 100, 30)
        try:
            shown = reach(terminal)
        finally:
            terminal.close()
        left = wait_gone(marker(data), GONE_SECONDS)
        assert not left, f"`{args}`: {left} still running {GONE_SECONDS} s after the close"
        saved = saved_moves(data)
        assert saved[: len(shown)] == shown, f"`{args}`: shown {shown}, saved {saved}"

    # Two at a time: five apps starting at once (five searches, for the computer's moment)
    # took the two cores from the tests that run beside these.
    with ThreadPoolExecutor(AT_ONCE) as pool:
        futures = [pool.submit(run, number, *each) for number, each in enumerate(runs)]
        failures = [str(future.exception()) for future in futures if future.exception()]
    assert not failures, "\n\n".join(failures)


# -- the moments ------------------------------------------------------------------------


def after(seconds: float) -> Reach:
    """A close `seconds` after the command started: during the start or just after."""

    def reach(terminal: Tmux) -> list[str]:
        time.sleep(seconds)
        return shown_moves(terminal.screen())

    return reach


def play(terminal: Tmux, move: str) -> None:
    """Type `move` and wait until it is shown: listed in the panel, or named in the status
    line (`Player 1 played c3.`) where a dialog covers the panel."""
    terminal.wait_for(lambda screen: "to move" in screen)
    terminal.keys(":")
    terminal.wait_for(lambda screen: "Enter plays" in screen)
    terminal.type(move, "Enter")
    terminal.wait_for(lambda screen: move in shown_moves(screen) or f"played {move}." in screen)


def seen(typed: list[str], screen: str) -> list[str]:
    """The moves shown on `screen` after `typed` was played: the panel's list where it
    shows them all (the computer's answer with them), else those typed (each was seen)."""
    listed = shown_moves(screen)
    return listed if listed[: len(typed)] == typed else typed


def moves_then(moves: list[str], seconds: float = 0.0) -> Reach:
    """A close `seconds` after the last of `moves` is shown (`p` plays on at the pie rule)."""

    def reach(terminal: Tmux) -> list[str]:
        for move in moves:
            if move == "p":
                terminal.wait_for(lambda screen: "Pie rule" in screen)
                terminal.keys("p")
                terminal.wait_for(lambda screen: "Pie rule" not in screen)
            else:
                play(terminal, move)
        time.sleep(seconds)
        return seen([move for move in moves if move != "p"], terminal.screen())

    return reach


def thinking(moves: list[str], seconds: float) -> Reach:
    """A close `seconds` into the computer's search that answers the first of `moves`
    (the next ones, should a loaded machine see its answer before its search)."""

    def reach(terminal: Tmux) -> list[str]:
        for move in moves:
            if move in shown_moves(terminal.screen()):
                continue  # the computer's own move already
            play(terminal, move)
            # The computer's answer to a first move may be the pie rule's swap.
            # The search is under way once the panel counts its playouts or the status
            # line says the computer is choosing (either may be drawn first).
            screen = terminal.wait_for(
                lambda screen: (
                    "Thinking" in screen
                    or "choosing its move" in screen
                    or "(Computer) plays" in screen
                    or "(Computer) swaps" in screen
                )
            )
            if "Thinking" in screen or "choosing its move" in screen:
                time.sleep(seconds)
                return shown_moves(screen)
        raise AssertionError(f"the computer's search not seen after any of {moves}")

    return reach


def pie(move: str, seconds: float) -> Reach:
    """A close `seconds` after the pie dialog opened over the first move."""

    def reach(terminal: Tmux) -> list[str]:
        play(terminal, move)
        terminal.wait_for(lambda screen: "Pie rule" in screen)
        time.sleep(seconds)
        return [move]

    return reach


def help_over(moves: list[str], seconds: float) -> Reach:
    """A close `seconds` after help (`?`) opened over a game after `moves`."""

    def reach(terminal: Tmux) -> list[str]:
        shown = moves_then(moves)(terminal)
        terminal.keys("?")
        terminal.wait_for(lambda screen: "Help:" in screen)
        time.sleep(seconds)
        return shown

    return reach


def reviewing(seconds: float) -> Reach:
    """A close `seconds` into the review (`%`) of the game loaded, in analysis mode (the
    test reads the whole record back: the panel lists the moves it has room for)."""

    def reach(terminal: Tmux) -> list[str]:
        terminal.wait_for(lambda screen: "Loaded" in screen)
        terminal.keys("x")
        terminal.wait_for(lambda screen: "Analysis, move" in screen)
        terminal.keys("%")
        terminal.wait_for(lambda screen: "Reviewing" in screen)
        time.sleep(seconds)
        return []

    return reach


def record_file(folder: Path) -> Path:
    """A Petrify game of 24 random moves, saved: long enough to be reviewed a while."""
    game = new_game("petrify", size=8)
    rng = random.Random(5)
    for _ in range(24):
        game.play(rng.choice(game.legal_moves()))
    path = folder / "game.sgf"
    Record.from_game(game, players=("Ann", "Bob")).save(path)
    return path


# -- the closes ---------------------------------------------------------------------------


def test_a_terminal_closed_during_the_start_leaves_no_process(tmp_path: Path) -> None:
    close_at(
        tmp_path,
        [
            ("play egotzi --size 5", after(0.0)),
            ("", after(0.2)),
            ("play pilo", after(0.4)),
            ("play partitions --size 5", after(0.8)),
            ("play petrify --size 6", after(1.5)),
        ],
    )


def test_a_terminal_closed_right_after_a_move_keeps_the_move(tmp_path: Path) -> None:
    close_at(
        tmp_path,
        [
            ("play partitions --size 5", moves_then(["c3"])),
            ("play partitions --size 5", moves_then(["c3", "d4"], 0.05)),
            ("play egotzi --size 5", moves_then(["c3", "p", "d4"])),
            ("play petrify --size 6", moves_then(["c3", "p", "d4"], 0.1)),
            ("play pilo --size 6", moves_then(["c3", "p", "d4", "b2"])),
        ],
    )


def test_a_terminal_closed_during_the_computer_s_search(tmp_path: Path) -> None:
    computer = "--computer second --level hard"
    close_at(
        tmp_path,
        [
            (f"play petrify --size 10 {computer}", thinking(SEARCHED, 0.0)),
            (f"play pilo --size 10 {computer}", thinking(SEARCHED, 0.1)),
            (f"play egotzi --size 9 {computer}", thinking(SEARCHED, 0.2)),
            (f"play partitions --size 8 {computer}", thinking(SEARCHED, 0.0)),
            (f"play petrify --size 10 {computer}", thinking(["c3", *SEARCHED], 0.3)),
        ],
    )


def test_a_terminal_closed_under_the_pie_dialog(tmp_path: Path) -> None:
    close_at(
        tmp_path,
        [
            ("play petrify --size 6", pie("c3", 0.0)),
            ("play pilo --size 6", pie("d4", 0.0)),
            ("play egotzi --size 5", pie("c3", 0.1)),
            ("play egotzi --size 7", pie("b2", 0.3)),
            ("play petrify --size 8", pie("e5", 0.05)),
        ],
    )


def test_a_terminal_closed_under_help(tmp_path: Path) -> None:
    close_at(
        tmp_path,
        [
            ("", help_over([], 0.0)),
            ("play partitions --size 5", help_over(["c3"], 0.0)),
            ("play partitions --size 5", help_over(["c3", "d4"], 0.2)),
            ("play egotzi --size 5", help_over(["c3", "p"], 0.1)),
            ("play petrify --size 6", help_over(["c3", "p", "d4"], 0.0)),
        ],
    )


def test_a_terminal_closed_during_a_review_in_analysis(tmp_path: Path) -> None:
    record = record_file(tmp_path)
    game = Record.load(record).main_game()
    loaded = [game.move_name(move) for move in game.moves]
    close_at(
        tmp_path,
        [(f"play --load {record}", reviewing(seconds)) for seconds in (0.0, 0.1, 0.2, 0.4, 0.8)],
    )
    for number in range(5):  # the whole record, not only the moves the panel had room for
        assert saved_moves(tmp_path / f"run{number}") == loaded


# -- signals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("signum", "args", "reach"),
    [
        (signal.SIGTERM, "play petrify --size 6", moves_then(["c3"])),
        (signal.SIGHUP, "play partitions --size 5", moves_then(["c3", "d4"])),
        (signal.SIGTERM, "play pilo --size 6", help_over(["c3", "p", "d4"], 0.0)),
        (signal.SIGHUP, "play egotzi --size 5", pie("c3", 0.0)),
        (
            signal.SIGHUP,
            "play petrify --size 10 --computer second --level hard",
            thinking(SEARCHED, 0.1),
        ),
    ],
    ids=["term-after-move", "hup-after-moves", "term-under-help", "hup-under-pie", "hup-search"],
)
def test_sighup_or_sigterm_quits_as_ctrl_q_does_with_the_game_saved(
    tmp_path: Path, signum: signal.Signals, args: str, reach: Reach
) -> None:
    """The terminal stays: the app ends as a quit does (status 0, the terminal given back),
    and the game in progress holds every move shown."""
    pid_file = tmp_path / "pid"
    data = tmp_path / "data"
    app = (
        f"echo $$ > {pid_file}; exec env XDG_DATA_HOME={data} ABSTRACTS_TUI_SEED=3 "
        f"{PYTHON} -m abstracts_tui {args}"
    )
    terminal = Tmux(f"sh -c {shlex.quote(app)}; echo EXIT=$?; sleep 30", 100, 30)
    try:
        shown = reach(terminal)
        pid = int(pid_file.read_text())
        subprocess.run(["kill", f"-{signum.name.removeprefix('SIG')}", str(pid)], check=True)
        assert not wait_gone(marker(data), GONE_SECONDS)
        screen = terminal.wait_for(lambda screen: "EXIT=" in screen, 10)
        assert "EXIT=0" in screen and "Traceback" not in screen, screen
    finally:
        terminal.close()
    saved = saved_moves(data)
    assert shown and saved[: len(shown)] == shown, (shown, saved)


def test_a_kill_ends_an_app_whose_loop_is_stuck_with_the_game_saved(tmp_path: Path) -> None:
    """A fault put into the real command: `t` blocks the app's event loop for a minute
    (as a write to a dead terminal could). SIGTERM still ends the process within 2 s, with
    status 0 and the game written: the signal is the process's own, not the loop's."""
    program = (
        "import time\n"
        "from abstracts_tui.tui.screens import play\n"
        "play.PlayScreen.action_toggle_score = lambda self: time.sleep(60)\n"
        "from abstracts_tui.cli import main\n"
        "main()\n"
    )
    pid_file = tmp_path / "pid"
    data = tmp_path / "data"
    app = (
        f"echo $$ > {pid_file}; exec env XDG_DATA_HOME={data} {PYTHON} "
        f"-c {shlex.quote(program)} play partitions --size 5"
    )
    terminal = Tmux(f"sh -c {shlex.quote(app)}; echo EXIT=$?; sleep 30", 100, 30)
    try:
        shown = moves_then(["c3", "d4"])(terminal)
        terminal.keys("t")
        time.sleep(0.5)  # the loop is in the fault's sleep
        subprocess.run(["kill", "-TERM", pid_file.read_text().strip()], check=True)
        assert not wait_gone(marker(data), GONE_SECONDS)
        assert "EXIT=0" in terminal.wait_for(lambda screen: "EXIT=" in screen, 10)
    finally:
        terminal.close()
    assert saved_moves(data) == shown == ["c3", "d4"]


# -- no terminal --------------------------------------------------------------------------


@pytest.mark.parametrize("args", [[], ["play", "pilo"]], ids=["home", "play"])
def test_without_a_terminal_the_app_is_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    """`abstracts-tui </dev/null` (a script, a pipe, cron): one sentence and status 2, not
    an app waiting for ever for keys that never come."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=5,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == NO_TERMINAL
    assert "abstracts-tui engine" in done.stderr and "check FILE" in done.stderr
    assert time.monotonic() - started < 5
    assert not (tmp_path / "abstracts-tui").exists()  # nothing started, nothing written


def test_standard_error_not_a_terminal_is_refused_too(tmp_path: Path) -> None:
    """Textual draws on standard error: sent to a file, the screen would go there."""
    errors = tmp_path / "errors"
    command = (
        f"XDG_DATA_HOME={tmp_path} {PYTHON} -m abstracts_tui play pilo 2>{errors}; "
        "echo EXIT=$?; sleep 30"
    )
    terminal = Tmux(command, 100, 30)
    try:
        assert "EXIT=2" in terminal.wait_for(lambda screen: "EXIT=" in screen, 10)
    finally:
        terminal.close()
    assert errors.read_text().strip() == NO_TERMINAL
