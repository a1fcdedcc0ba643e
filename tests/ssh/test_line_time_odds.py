"""A room with time odds made and played in line mode over SSH (OpenSSH's own client in
a pseudo-terminal each): `new pilo 6 clock 5m+3s/1m+2s` gives the creator 5 minutes and
3 seconds a move and the joiner 1 minute and 2 seconds, as the room's line and the
`clock` question say; the room is unrated, and a spec that cannot be used is refused in
one sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.openssh import needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of, no_escapes

pytestmark = needs_ssh


def test_a_room_with_time_odds_in_line_mode(
    start_server: Callable[[], RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6 clock 5m+3s/3d")
        assert ann.wait_for("Not made") == (
            "Not made: clock 5m+3s/3d: days per move cannot be given as time odds: "
            "both sides have the same time per move."
        )
        ann.send("new pilo 6 clock 5m+3s/1m+2s")
        made = ann.wait_for("Room ")
        found = re.match(r"Room (\w{4}): Pilo 6x6, clock 5m\+3s vs 1m\+2s, ann", made)
        assert found, made
        assert "rated" not in made
        bob.wait_for("Type new")
        bob.send(f"join {found.group(1)}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        ann.send("clock")
        assert ann.wait_for("Time left") == (
            "Time left: Blue (ann) 5 minutes 0 seconds; Orange (bob) 1 minute 0 seconds."
        )
        ann.send("a1")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays a1."
        bob.send("clock")
        assert bob.wait_for("Time left") == (
            "Time left: Blue (ann) 5 minutes 0 seconds; Orange (bob) 1 minute 0 seconds."
        )
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
        no_escapes(ann)
        no_escapes(bob)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
