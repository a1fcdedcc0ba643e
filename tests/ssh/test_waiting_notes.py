"""What the waiting room says of a room besides its game, through the real server: an
open challenge's rating range as the lobby lists it (around the creator's rating, read
from the store), and `Time odds: not rated.` for a room asked rated with time odds, on
the full screen (an asyncssh client whose screen the test reads) and in line mode
(OpenSSH's own client)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from tests.openssh import needs_ssh
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_colours import rate
from tests.ssh.test_line_rooms import lines_of
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER

TAB = "\t"

pytestmark = needs_ssh


def test_the_waiting_screen_shows_the_rating_range_and_that_time_odds_are_not_rated(
    start_server: Callable[..., RunningServer],
) -> None:
    server: RunningServer = start_server()
    rate(server.data, "ann", "petrify", 1700)

    async def make() -> None:
        ann_conn, ann = await connect(server.port, "ann", width=100, height=30)
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        await ann.wait_for("choose a game", "Who joins")
        ann.send(TAB * 2 + "5m+3s/1m+2s")  # from the games: size, the clock
        await ann.wait_for("5m+3s/1m+2s")
        ann.send(TAB + CURSOR_RIGHT)  # rated: yes
        ann.send(TAB + CURSOR_RIGHT)  # who joins: anyone
        await ann.wait_for("< anyone >")
        ann.send(TAB + TAB + CURSOR_RIGHT + CURSOR_RIGHT)  # the colour kept; ratings
        await ann.wait_for("< ±200 >")
        ann.send(ENTER)
        screen = await ann.wait_for("Waiting for a second player")
        assert "Open to ratings 1500-1900 only." in screen, screen
        assert "Time odds: not rated." in screen, screen
        ann_conn.close()

    asyncio.run(make())
    assert "Traceback" not in server.log, server.log


def test_line_modes_waiting_room_shows_the_rating_range_and_that_time_odds_are_not_rated(
    start_server: Callable[..., RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server("--rated")
    rate(server.data, "ann", "pilo", 1700)
    ann = lines_of(server, "ann", tmp_path)
    ann.wait_for("Type new")
    ann.send("challenge pilo 6 range 200")
    assert ann.wait_for("It waits for a player").startswith("It waits for a player, listed")
    assert ann.wait_for("Open to") == "Open to ratings 1500-1900 only."
    ann.send("leave")
    ann.send("new pilo 6 clock 5m+3s/1m+2s")  # the server's rooms are rated: this one not
    made = ann.wait_for("Room ")
    assert "rated" not in made, made
    ann.wait_for("It waits for a player")
    assert ann.wait_for("Time odds") == "Time odds: not rated."
    ann.send("quit")
    assert ann.close() == 0
    assert "Traceback" not in server.log, server.log
