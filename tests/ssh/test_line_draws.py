"""A draw offered, declined, offered again and accepted between two line-mode players over
SSH (OpenSSH's own client in a pseudo-terminal each), in a Linage room whose whole-number
komi lets the game end equal; a Pilo room refuses the offer in one sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.openssh import needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import joined_room, lines_of, no_escapes

pytestmark = needs_ssh


def test_a_draw_offered_declined_and_agreed_in_line_mode(
    start_server: Callable[[], RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        joined_room(ann, bob, "linage 5", "Linage")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        ann.wait_for("ann, ")  # asked for komi
        ann.send("komi 0")
        bob.wait_for("bob, ")  # asked for a side
        bob.send("second")
        assert ann.wait_for("Vertical to move") == "Vertical to move (ann)."
        ann.send("a1")
        assert bob.wait_for("Vertical (ann)") == "Vertical (ann) plays a1."
        # Bob offers a draw on his turn; Ann declines it.
        bob.send("draw")
        assert bob.wait_for("Draw offered") == "Draw offered: waiting for ann's answer."
        assert ann.wait_for("bob offers") == ("bob offers a draw: type draw to accept, or decline.")
        ann.send("decline")
        assert ann.wait_for("Draw declined") == "Draw declined: play on."
        assert bob.wait_for("ann declined") == "ann declined the draw: play on."
        # Ann offers one on Bob's turn, and Bob accepts it: the game ends drawn.
        ann.send("draw")
        assert ann.wait_for("Draw offered") == "Draw offered: waiting for bob's answer."
        assert bob.wait_for("ann offers") == ("ann offers a draw: type draw to accept, or decline.")
        bob.send("draw")
        for term in (ann, bob):
            assert term.wait_for("The game is over") == "The game is over: Draw agreed."
        bob.send("draw")  # refused now, in one sentence
        assert bob.wait_for("The game is over") == "The game is over: Draw agreed."
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


def test_a_draw_is_refused_where_the_game_cannot_end_equal(
    start_server: Callable[[], RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        joined_room(ann, bob, "pilo 6", "Pilo")
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        ann.send("draw")
        assert ann.wait_for("This game") == (
            "This game cannot end equal, so there is no draw to offer."
        )
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
