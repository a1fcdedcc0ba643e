"""Online play over SSH, through the real server: an open challenge accepted from the
lobby, chat, a watcher counted, a take-back asked and declined, a resignation, and a
rematch with the colours reversed that both players' screens go to; on PostgreSQL, the
same commands between two server processes. Bob plays from OpenSSH's own client in a
real terminal (tmux); the others from asyncssh clients whose screens the tests read."""

from __future__ import annotations

import asyncio
import re
import shlex

import pytest

from tests.openssh import SSH, needs_ssh
from tests.processes import left_after, session_processes
from tests.ssh.client import TIMEOUT, connect, run_until
from tests.ssh.conftest import RunningServer
from tests.ssh.test_processes import two_servers
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER, create_room
from tests.tmux import Tmux, needs_tmux

TAB = "\t"
SEMICOLON = "\\;"
"""`;` as tmux's send-keys takes it (a `;` alone separates its commands)."""


async def wait_for(window: Tmux, *texts: str) -> str:
    """The window's screen once it shows all of `texts` (waited for off the loop)."""
    return await asyncio.to_thread(
        window.wait_for, lambda screen: all(text in screen for text in texts), TIMEOUT
    )


@needs_ssh
@needs_tmux
@pytest.mark.parametrize("options", [("--threads",), ()], ids=["threads", "processes"])
def test_an_open_challenge_played_chatted_resigned_and_played_again(
    start_server, options: tuple[str, ...]
) -> None:
    """The same in a process of its own for each session (the default), whose processes
    end with their sessions, and on a thread of the server for each (`serve --threads`)."""
    server: RunningServer = start_server(*options)

    async def play() -> None:
        # Ann makes an open challenge: Petrify, anyone may join.
        ann_conn, ann = await connect(server.port, "ann", width=100, height=30)
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        await ann.wait_for("choose a game", "Who joins")
        ann.send(TAB * 4 + CURSOR_RIGHT)
        await ann.wait_for("< anyone >")
        ann.send(ENTER)
        screen = await ann.wait_for("An open challenge: anyone may accept it")
        found = re.search(r"Room (\w{4})", screen)
        assert found, screen
        code = found.group(1)
        # Bob, a stranger, finds it in his lobby and accepts it with Enter.
        ssh = [*SSH, "-tt", "-p", str(server.port), "bob@127.0.0.1"]
        bob = Tmux(shlex.join(ssh), 100, 30)
        try:
            await wait_for(bob, "Open challenges", f"{code}  Petrify 8x8  no clock  casual  ann")
            bob.keys("Down", "Enter")  # his own games are none: down to the challenges
            await wait_for(bob, "Blue to move (ann)")
            await ann.wait_for("Blue to move (ann)", "nobody watching")
            ann.send(ENTER)  # d5
            await wait_for(bob, "(ann) plays d5")
            bob.keys(":", "c3", "Enter")
            await ann.wait_for("(bob) plays c3")
            # Chat: shown literally to the other player; a watcher is counted and marked.
            bob.keys(SEMICOLON)
            bob.type("hi [b]ann[/b]", "Enter")
            await ann.wait_for("bob: hi [b]ann[/b]")
            carol_conn, carol = await connect(server.port, "carol", command=f"watch {code}")
            await ann.wait_for("1 watching")
            await carol.wait_for("n Lobby", "Blue to move (ann)")  # her room's screen
            carol.send(";")
            # The chat's field has the keys once the key bar leaves out those it takes.
            await carol.wait_gone("n Lobby")
            carol.send("go on" + ENTER)
            await ann.wait_for("carol (watching): go on")
            await wait_for(bob, "carol (watching): go on")
            bob.keys("Escape")  # back to the board (the footer has the game's keys again)
            await wait_for(bob, "x Resign")
            # Ann asks to take back; Bob is asked, and declines.
            ann.send("u")
            await ann.wait_for("Take-back asked: waiting for bob's answer.")
            await wait_for(bob, "ann asks to take back their last move and your reply")
            await carol.wait_for("ann asks to take back.")
            bob.keys("n")
            await ann.wait_for("bob declined the take-back: play on.")
            # Ann resigns (confirmed): the game is over on every screen.
            ann.send("x")
            await ann.wait_for("Resign this game? bob wins.")
            ann.send("y")
            over = "Blue (ann) resigned: Orange (bob) wins"
            await ann.wait_for(over)
            await wait_for(bob, over)
            await carol.wait_for(over)
            # Bob offers a rematch; Ann accepts: both go to a new room, Bob moves first.
            bob.keys("r")
            await ann.wait_for("bob offers a rematch")
            ann.send("y")
            await ann.wait_for("Blue to move (bob)")
            screen = await wait_for(bob, "Blue to move (bob)")
            assert "resigned" not in screen
            # The watcher is taken along: she watches the rematch.
            await carol.wait_for("You are watching: bob and ann make", "Blue to move (bob)")
            if not options:  # a process for each of the three sessions
                assert len(session_processes(server.process.pid)) == 3, server.log
            for conn in (ann_conn, carol_conn):
                conn.close()
        finally:
            bob.close()

    asyncio.run(play())
    assert left_after(server.process.pid, TIMEOUT) == [], server.log
    assert "Traceback" not in server.log, server.log


def test_two_processes_chat_take_back_and_resign(start_server, database_url: str, tmp_path) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> None:
        ann_conn, ann, code = await create_room(one.port, "ann")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        await bob.wait_for("Blue to move (ann)")
        ann.send(ENTER)  # d5
        await bob.wait_for("(ann) plays d5")
        bob.send(":c3" + ENTER)
        await ann.wait_for("(bob) plays c3")
        bob.send(";from the other process" + ENTER)
        await ann.wait_for("bob: from the other process")
        bob.send("\x1b")  # back to the board (the footer has the game's keys again)
        await bob.wait_for("x Resign")
        bob.send("u")  # ask to take back
        await ann.wait_for("bob asks to take back their last move")
        ann.send("y")
        await bob.wait_for("ann accepted the take-back. Orange to move (bob).")
        await ann.wait_for("Taken back. Orange to move (bob).")
        bob.send(":c3" + ENTER)
        await ann.wait_for("(bob) plays c3")
        bob.send("x")
        await bob.wait_for("Resign this game? ann wins.")
        bob.send("y")
        await ann.wait_for("Orange (bob) resigned: Blue (ann) wins")
        await bob.wait_for("Orange (bob) resigned: Blue (ann) wins")
        ann_conn.close()
        bob_conn.close()

    asyncio.run(play())


def test_a_challenge_reaches_every_lobby_at_once_and_is_called_off(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        bob_conn, bob = await connect(server.port, "bob")
        await bob.wait_for("you are bob", "No open challenges now")
        ann_conn, ann = await connect(server.port, "ann")
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        await ann.wait_for("choose a game", "Who joins")
        ann.send(TAB * 4 + CURSOR_RIGHT + ENTER)
        screen = await ann.wait_for("An open challenge", "x Call it off")
        found = re.search(r"Room (\w{4})", screen)
        assert found, screen
        code = found.group(1)
        # Bob's lobby shows it without asking again (no `r`).
        await bob.wait_for(f"{code}  Petrify 8x8  no clock  casual  ann")
        ann.send("x")
        await ann.wait_for(f"Room {code} is called off.", "you are ann")
        await bob.wait_for("No open challenges now")
        # Called off before anybody joined: not kept in the archive (deleted just after).
        games = await run_until(server.port, "ann", "games", lambda out: code not in out)
        assert code not in str(games.stdout)
        ann_conn.close()
        bob_conn.close()

    asyncio.run(play())


def test_a_player_elsewhere_is_told_of_the_resignation(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        ann.send(ENTER)  # d5
        await bob.wait_for("(ann) plays d5")
        bob.send(":c3" + ENTER)
        await ann.wait_for("(bob) plays c3")
        bob.send("n")  # to the lobby: the game goes on without this screen
        await bob.wait_for("you are bob", code)
        ann.send("x")
        await ann.wait_for("Resign this game?")
        ann.send("y")
        await bob.wait_for(
            f"ann resigned in room {code} (Petrify): Blue (ann) resigned: Orange (bob) wins."
        )
        ann_conn.close()
        bob_conn.close()

    asyncio.run(play())


def test_a_player_back_from_the_lobby_is_told_the_resignation_and_the_rating_change(
    start_server, tmp_path
) -> None:
    from tests.ssh.test_line_rooms import lines_of

    server: RunningServer = start_server("--rated")
    ann = lines_of(server, "ann", tmp_path)

    async def play() -> None:
        await asyncio.to_thread(ann.wait_for, "Type new")
        ann.send("new petrify rated")
        made = await asyncio.to_thread(ann.wait_for, "Room ")
        found = re.match(r"Room (\w{4}): Petrify 8x8, rated", made)
        assert found, made
        code = found.group(1)
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)")
        ann.send("d5")
        await bob.wait_for("(ann) plays d5")
        bob.send(":c3" + ENTER)
        await asyncio.to_thread(ann.wait_for, "Orange (bob) plays c3")
        bob.send("n")  # to the lobby mid-game: the game goes on without this screen
        await bob.wait_for("you are bob", code)
        ann.send("resign")
        await asyncio.to_thread(ann.wait_for, "Resign this game?")
        ann.send("yes")
        ratings = await asyncio.to_thread(ann.wait_for, "Ratings: ann ")
        await bob.wait_for(f"ann resigned in room {code}")
        # Back (a connection of his own again): what he missed, with the rating change.
        bob_conn.close()
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}", width=200)
        screen = await bob.wait_for("While you were away")
        # The notice: the right of its coloured edge, on each of its rows.
        rows = [line.rsplit("▌", 1)[1].strip(" ╯│") for line in screen.splitlines() if "▌" in line]
        text = " ".join(row for row in rows if row)
        assert f"While you were away: ann resigned: you win. {ratings}" in text, screen
        ann.send("quit")
        bob_conn.close()

    try:
        asyncio.run(play())
        assert ann.close() == 0
    finally:
        if ann.process.poll() is None:
            ann.process.kill()
