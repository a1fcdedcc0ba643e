"""A draw claimed from a player who left a game that can end equal, through the real
server and OpenSSH's client in line mode: `claim draw` ends the game drawn, rated as a
draw, and the record says `Draw`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.events import Arrived, Joined, Left, Made, MovePlayed, Stamped
from abstracts_tui.session import Session
from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore
from tests.openssh import needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of
from tests.ssh.test_moderation import ask

pytestmark = needs_ssh


def test_a_game_that_can_end_equal_left_for_two_minutes_is_claimed_as_a_rated_draw(
    start_server: Callable[..., RunningServer], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    session = Session.start(Setup("linage", 5, komi=0, first="ann", second="bob"))
    session.choose_side(1)  # bob takes the second colour: ann moves first
    session.play("a1")
    session.play("b1")
    now = time.time()
    events = (
        Stamped(1, now - 300, Made("ann", "linage", 5, rated=True, title="Linage 5x5")),
        Stamped(2, now - 290, Joined("bob")),
        Stamped(3, now - 290, Arrived("ann")),
        Stamped(4, now - 290, Arrived("bob")),
        Stamped(5, now - 280, MovePlayed("ann", 0, "a1", "ann plays a1.")),
        Stamped(6, now - 270, MovePlayed("bob", 1, "b1", "bob plays b1.")),
        Stamped(7, now - 120, Left("bob")),
    )
    store = SqliteStore(data / "server.db")
    setup = RoomSetup("linage", 5, komi=0, creator="ann", rated=True)
    store.save_room(RoomSave("d7m2", setup, "bob", session.record.to_sgf(), events=events))
    store.close()
    server: RunningServer = start_server("--rated", data=data)
    ann = lines_of(server, "ann", tmp_path)
    try:
        ann.wait_for("Type")
        ann.send("join d7m2")
        assert ann.wait_for("Vertical to move") == "Vertical to move (ann)."
        ann.send("claim draw")
        assert ann.wait_for("The game is over") == (
            "The game is over: bob left the game: ann claims a draw."
        )
        assert ann.wait_for("Ratings:").startswith("Ratings: ann ")
        ann.send("quit")
        assert ann.close() == 0
    finally:
        if ann.process.poll() is None:
            ann.process.kill()
    record = ask(server, "ann", "export", "d7m2")
    assert "RE[Draw]" in record.stdout, record
