"""Replies kept ready (conditional moves) between two line-mode players over SSH
(OpenSSH's own client in a pseudo-terminal each), in a Linage room of 3 days per move:
ann keeps two, lists them, bob plays one of the moves named and ann's reply is played at
once; in a room without days per move `if` is refused in one sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.openssh import needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import joined_room, lines_of, no_escapes

pytestmark = needs_ssh


def test_a_reply_kept_ready_is_played_for_the_move_named(
    start_server: Callable[[], RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        joined_room(ann, bob, "linage 5 clock 3d", "Linage")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        ann.wait_for("ann, ")  # asked for komi
        ann.send("komi 0")
        bob.wait_for("bob, ")  # asked for a side
        bob.send("second")
        assert ann.wait_for("Vertical to move") == "Vertical to move (ann)."
        ann.send("if b2 then c3")  # on her own turn: refused
        assert ann.wait_for("Not kept") == (
            "Not kept: It is your move: play it; replies are kept ready on the other player's turn."
        )
        ann.send("a1")
        assert bob.wait_for("Vertical (ann)") == "Vertical (ann) plays a1."
        ann.send("if b2 then c3")
        assert ann.wait_for("Kept: if bob plays b2") == "Kept: if bob plays b2, c3 is played."
        ann.send("if d4 then e5")
        assert ann.wait_for("Kept: if bob plays d4") == "Kept: if bob plays d4, e5 is played."
        ann.send("ifs")
        assert ann.wait_for("Replies kept ready") == "Replies kept ready (2, secret from bob):"
        assert ann.wait_for("  if b2 then c3") == "  if b2 then c3"
        assert ann.wait_for("  if d4 then e5") == "  if d4 then e5"
        bob.send("b2")
        for term in (ann, bob):
            line = term.wait_for("ann's move, kept ready")
            assert line.startswith("ann's move, kept ready: c3.")
        ann.send("ifs")
        assert ann.wait_for("No reply is kept").startswith("No reply is kept ready.")
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


def test_no_reply_is_kept_without_days_per_move(
    start_server: Callable[[], RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        joined_room(ann, bob, "pilo 6", "Pilo")
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        bob.send("if a1 then a2")
        assert bob.wait_for("Not kept") == (
            "Not kept: Replies are kept ready only in games of days per move (a clock such as 3d)."
        )
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
