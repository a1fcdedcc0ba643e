"""Who is in a room, told in line mode from the room's presence events, through the real
server and OpenSSH's client: a player leaving and coming back, the watchers, and what a
player who was away is told once on coming back; a first arrival is never a coming back;
and what a person saw of a room is kept across a restart of the server."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.lines.terminal import LineTerminal
from tests.openssh import needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of

pytestmark = needs_ssh


def quit_all(*terms: LineTerminal) -> None:
    for term in terms:
        term.send("quit")
    for term in terms:
        assert term.close() == 0


def test_a_player_away_is_told_once_who_came_and_went_and_nobody_hears_a_first_join_as_back(
    start_server: Callable[..., RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    carl = lines_of(server, "carl", tmp_path)
    terms = (ann, bob, carl)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        found = re.match(r"Room (\w{4}): Pilo", ann.wait_for("Room "))
        assert found
        code = found.group(1)
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        bob.wait_for("Blue to move")
        carl.wait_for("Type new")
        carl.send(f"watch {code}")
        carl.wait_for("You watch")
        assert bob.wait_for("1 watching") == "1 watching."
        # Ann goes to the lobby: Bob hears her go. Meanwhile the watcher goes, and Bob
        # goes and comes back.
        ann.send("leave")
        ann.wait_for("You leave")
        assert bob.wait_for("ann has left") == "ann has left the room; their seat is kept."
        carl.send("leave")
        carl.wait_for("You leave")
        assert bob.wait_for("Nobody watching") == "Nobody watching."
        bob.send("leave")
        bob.wait_for("You leave")
        bob.wait_for("Type")
        bob.send(f"join {code}")
        bob.wait_for("Blue to move")
        # Ann comes back: told once what she missed, her own going not among it; Bob
        # hears her come back.
        ann.send(f"join {code}")
        assert ann.wait_for("While you were away") == (
            "While you were away: bob left the room; bob came back; nobody watches now."
        )
        assert bob.wait_for("ann is back") == "ann is back in the room."
        quit_all(*terms)
        for term in terms:
            said = term.lines()
            assert sum("While you were away" in line for line in said) == (term is ann)
            assert not [line for line in said if "bob is back" in line and term is not ann]
    finally:
        for term in terms:
            if term.process.poll() is None:
                term.process.kill()


def test_what_a_player_saw_is_kept_across_a_restart_of_the_server(
    start_server: Callable[..., RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        found = re.match(r"Room (\w{4}): Pilo", ann.wait_for("Room "))
        assert found
        code = found.group(1)
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        ann.wait_for("Blue to move")
        ann.send("leave")
        ann.wait_for("You leave")
        bob.send("say see you after the restart")
        bob.wait_for("bob says")
        quit_all(ann, bob)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
    server.stop()
    again: RunningServer = start_server(data=server.data)
    ann = lines_of(again, "ann", tmp_path / "again")
    try:
        ann.wait_for("Type 1 to enter")
        ann.send(f"join {code}")
        # Bob's going is written as he quits, maybe not before the server stops.
        assert re.fullmatch(
            r"While you were away: (bob left the room; )?a line was said in the chat\.",
            ann.wait_for("While you were away"),
        )
        quit_all(ann)
    finally:
        if ann.process.poll() is None:
            ann.process.kill()
