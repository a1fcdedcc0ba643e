"""A room's creator's colour and an open challenge's rating range, through the real
server: made on the full screen and accepted from OpenSSH's own client in a real
terminal (the joiner moves first, the create screen starts from the last choices the
next time), and made in line mode, where a player rated outside the range is told why
not and an unrated one accepts it."""

from __future__ import annotations

import asyncio
import re
import shlex
import sqlite3
from pathlib import Path

from tests.openssh import SSH, needs_ssh
from tests.ssh.client import TIMEOUT, connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER
from tests.tmux import Tmux, needs_tmux

TAB = "\t"

pytestmark = needs_ssh


async def wait_for(window: Tmux, *texts: str) -> str:
    return await asyncio.to_thread(
        window.wait_for, lambda screen: all(text in screen for text in texts), TIMEOUT
    )


@needs_tmux
def test_a_challenge_to_play_second_is_accepted_and_the_next_starts_from_it(
    start_server,
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann = await connect(server.port, "ann", width=100, height=30)
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        await ann.wait_for("choose a game", "Who joins", "Colour")
        # From the games: size, the clock, rated, who joins (anyone), colour, ratings.
        ann.send(TAB * 4 + CURSOR_RIGHT)
        await ann.wait_for("< anyone >", "Ratings")
        ann.send(TAB + CURSOR_RIGHT)
        await ann.wait_for("< second >", "the other moves first")
        await ann.wait_for("first; ann plays Orange.")
        ann.send(TAB + CURSOR_RIGHT + CURSOR_RIGHT)
        await ann.wait_for("< ±200 >")
        ann.send(ENTER)
        screen = await ann.wait_for("An open challenge", "ann (plays second) - waiting")
        found = re.search(r"Room (\w{4})", screen)
        assert found, screen
        code = found.group(1)
        ssh = [*SSH, "-tt", "-p", str(server.port), "bob@127.0.0.1"]
        bob = Tmux(shlex.join(ssh), 110, 30)
        try:
            line = f"{code}  Petrify 8x8  no clock  casual  ann (plays second)  ratings 1300-1700"
            await wait_for(bob, "Open challenges", line)
            bob.keys("Down", "Enter")
            # Bob, the joiner, plays Blue and moves first.
            await wait_for(bob, "Blue to move (bob)")
            await ann.wait_for("Blue to move (bob)")
            bob.keys("Enter")  # d5
            await ann.wait_for("Orange to move (ann)")  # bob has moved
        finally:
            bob.close()
        # Back in the lobby, the next room starts from these choices.
        ann.send("n")
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        await ann.wait_for("< anyone >", "< second >", "< ±200 >")
        ann_conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def rate(data: Path, name: str, game: str, value: float) -> None:
    """`name`'s rating in `game`, as a rated game would have left it."""
    with sqlite3.connect(data / "server.db") as db:
        db.execute(
            "INSERT INTO ratings VALUES (?, ?, ?, 60, 0.06, 12, '2026-01-01 00:00:00')",
            (name, game, value),
        )


def test_line_mode_makes_a_challenge_only_some_ratings_accept(start_server, tmp_path: Path) -> None:
    server: RunningServer = start_server()
    rate(server.data, "bob", "pilo", 1800)
    ann = lines_of(server, "ann", tmp_path)
    ann.send("challenge pilo 6 second range 1400-1600")
    assert ann.wait_for("Room ").endswith("Pilo 6x6, ann (plays second) against whoever joins.")
    bob = lines_of(server, "bob", tmp_path)
    listed = bob.wait_for("1. ")
    assert listed == (
        f"1. Room {listed[8:12]}, Pilo 6x6, ann (plays second) waits for a player, "
        "ratings 1400-1600 only."
    )
    code = listed[8:12]
    bob.send("1")
    assert bob.wait_for("This challenge") == (
        "This challenge is for players rated 1400 to 1600 in Pilo, and yours is 1800: you watch."
    )
    carl = lines_of(server, "carl", tmp_path)
    assert carl.wait_for("1. ").startswith(f"1. Room {code}, Pilo 6x6, ann (plays second)")
    carl.send("1")  # unrated: counts as 1500
    assert carl.wait_for("You play") == "You play Blue. Type help for the commands of a room."
    assert carl.wait_for("Blue to move") == "Blue to move (carl)."
    for term in (ann, bob, carl):
        term.send("quit")
        assert term.close() == 0
    assert "Traceback" not in server.log, server.log
