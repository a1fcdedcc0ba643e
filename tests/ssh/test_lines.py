"""Line mode over SSH (`ssh -t host lines`, `ssh -T host lines`) with OpenSSH's client:
the game chosen from numbered lists, played by lines, kept in the player's folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.lines.terminal import LineTerminal
from tests.openssh import SSH, needs_ssh
from tests.ssh.conftest import RunningServer

pytestmark = needs_ssh


def test_a_game_by_lines_over_ssh_with_a_terminal(start_server, tmp_path: Path) -> None:
    server: RunningServer = start_server()
    ssh = [*SSH, "-tt", "-p", str(server.port), "ann@127.0.0.1", "lines"]
    term = LineTerminal(home=tmp_path, command=ssh)
    term.wait_for("abstracts-tui in line mode over SSH: you are ann.")
    # The lobby first (no rooms yet); `play` is a game here, hot-seat or the computer.
    assert term.wait_for("Your games") == "Your games: none."
    term.wait_for("Type new and a game to make a room, play for a game here, or help.")
    term.send("play")
    term.wait_for("Which game?")
    assert term.wait_for("2. ") == "2. Pilo"
    term.send("pilo")
    term.wait_for("Who plays?")
    term.send("1")
    term.wait_for("Pilo, 8 by 8: Player 1 against Player 2.")
    term.wait_for("Blue to move (Player 1).")
    # The server edits the line: a mistake erased with Backspace, arrows ignored.
    term.send("d5\x7f4\x1b[A")
    assert term.wait_for("Blue (Player 1) plays") == "Blue (Player 1) plays d4."
    term.send("row 4")
    assert term.wait_for("Row 4") == "Row 4: 3 empty, Blue d4, 4 empty."
    term.send("quit")
    term.wait_for("The game is kept")
    term.wait_for("Back in the lobby.")
    term.send("quit")
    assert term.close() == 0
    assert term.lines()[-2] == "Goodbye: your games are kept."
    assert "\x1b" not in term.text()
    # The game in progress is in ann's folder on the server, and offered again.
    [saved] = (server.data / "users" / "ann" / "games").glob("*.sgf")
    assert "d4" in saved.read_text()
    done = subprocess.run(
        [*SSH, "-T", "-p", str(server.port), "ann@127.0.0.1", "lines"],
        input="play\n1\nmoves\nquit\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    offered = lines.index("Games in progress:")
    assert lines[offered + 1].startswith("1. Pilo 8x8, Player 1 - Player 2, 1 move")
    assert "Moves 1 to 1: 1 Blue d4." in lines
    assert "\r" not in done.stdout and "\x1b" not in done.stdout
