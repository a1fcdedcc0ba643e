"""Two people play one room over SSH; watchers see it; a dropped player takes the seat back.

Everything goes through the real server process and a real SSH client; the tests read
the screens the clients draw from what the server sent them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import asyncssh

from abstracts_tui.records import Record, RecordError
from tests.ssh.client import ScreenClient, connect, run, run_until
from tests.ssh.conftest import RunningServer

CURSOR_RIGHT = "\x1b[C"
ENTER = "\r"


async def create_room(
    port: int, user: str, *, open: bool = False
) -> tuple[asyncssh.SSHClientConnection, ScreenClient, str]:
    """`user` creates a Petrify room (the default game), joined by its code (or `open`
    to anyone), and waits on the waiting screen."""
    conn, client = await connect(port, user)
    await client.wait_for(f"abstracts-tui over SSH: you are {user}", "New room")
    client.send("c")
    await client.wait_for("choose a game", "Who joins")
    if open:  # from the games: size, the clock, rated, who joins
        client.send("\t" * 4 + CURSOR_RIGHT)
        await client.wait_for("< anyone >")
    client.send(ENTER)
    screen = await client.wait_for("Waiting for a second player")
    found = re.search(r"Room (\w{4})", screen)
    assert found, screen
    return conn, client, found.group(1)


async def first_move_played(
    port: int,
) -> tuple[asyncssh.SSHClientConnection, ScreenClient, asyncssh.SSHClientConnection, str]:
    """Ann creates a room, Bob joins it by its code, Ann places on e5 (Ann's connection and
    screen, Bob's connection, and the code)."""
    ann_conn, ann, code = await create_room(port, "ann")
    bob_conn, _ = await connect(port, "bob", command=f"join {code}")
    await ann.wait_for("Blue to move (ann)")
    ann.send(CURSOR_RIGHT + ENTER)
    await ann.wait_for("1. Blue", "e5")
    return ann_conn, ann, bob_conn, code


def test_two_players_and_a_watcher_see_each_move(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        assert f"join {code}" in ann.text()  # the waiting screen says how to join

        # Bob joins from the lobby by typing the code; the game starts on both screens.
        bob_conn, bob = await connect(server.port, "bob")
        await bob.wait_for("you are bob", "j Join")
        bob.send("j")
        await bob.wait_gone("New room")  # the footer: the code field has the keys now
        bob.send(code + ENTER)
        await bob.wait_for("Petrify", "Blue to move (ann)")
        await ann.wait_for("Blue to move (ann)")

        # Carl watches directly from the command line.
        carl_conn, carl = await connect(server.port, "carl", command=f"watch {code}")
        await carl.wait_for("Blue to move (ann)")
        # A shared game has no keys for files, taking back or analysis.
        footer = (await carl.wait_for("? Help")).splitlines()
        assert not [line for line in footer if "^s" in line or "Undo" in line or "Hint" in line]

        # Bob may not move for Ann: his move is held as a premove, and Esc clears it.
        bob.send(ENTER)
        await bob.wait_for("Premove: d5 (played when your turn comes; Esc clears it).")
        bob.send("\x1b")  # Esc alone
        await bob.wait_for("Premove cleared.")

        # Ann moves the cursor one right of d5 and places: all three screens show e5.
        ann.send(CURSOR_RIGHT)
        await ann.wait_for("Cursor e5")
        ann.send(ENTER)
        for client in (ann, carl):
            await client.wait_for("1. Blue", "e5", "Orange to move (bob)")
        # Only Bob, whose turn it is, is asked about the pie rule (beside his board).
        await bob.wait_for("Pie rule", "(Orange) may now")
        bob.send("p")  # play on
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + CURSOR_RIGHT)  # each screen has its own cursor: d5 to f5
        await bob.wait_for("Cursor f5")
        bob.send(ENTER)
        for client in (ann, bob, carl):
            await client.wait_for("2. Orange", "f5", "Blue to move (ann)")
        assert "Pie rule" not in ann.text()
        # n leaves the room for the lobby (the game goes on), and the footer says so.
        assert "n Lobby" in ann.text() and "n New" not in ann.text()
        ann.send("n")
        await ann.wait_for("you are ann")
        for conn in (ann_conn, bob_conn, carl_conn):
            conn.close()

    asyncio.run(play())


def test_a_dropped_player_takes_the_seat_back_even_after_a_restart(start_server) -> None:
    server: RunningServer = start_server()

    async def first_part() -> tuple[str, str]:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)")
        key = ann_conn.get_server_host_key()
        assert key is not None
        ann.send(ENTER)  # d5
        await bob.wait_for("Pie rule")
        bob_conn.abort()  # the connection drops
        # Ann still sees the game; Bob comes back through the lobby: his game is listed.
        bob_conn, bob = await connect(server.port, "bob")
        screen = await bob.wait_for("Your games", code)
        assert "ann - bob" in screen
        bob.send(ENTER)  # the first of his games: take the seat
        await bob.wait_for("Pie rule")
        bob.send("p")  # play on
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT)
        await bob.wait_for("Cursor e5")
        bob.send(ENTER)
        await ann.wait_for("2. Orange", "e5")
        ann_conn.close()
        bob_conn.close()
        return code, key.get_fingerprint()

    code, fingerprint = asyncio.run(first_part())
    server.stop()

    restarted: RunningServer = start_server()

    async def second_part() -> None:
        # The same host key, the same room, the same position; the seat is Ann's again.
        ann_conn, ann = await connect(restarted.port, "ann", command=f"join {code}")
        key = ann_conn.get_server_host_key()
        assert key is not None and key.get_fingerprint() == fingerprint
        await ann.wait_for("1. Blue", "d5", "2. Orange", "e5", "Blue to move (ann)")
        ann.send("\x1b[D")
        await ann.wait_for("Cursor c5")
        ann.send(ENTER)
        await ann.wait_for("3. Blue", "c5")
        bob_conn, bob = await connect(restarted.port, "bob", command=f"join {code}")
        await bob.wait_for("3. Blue", "c5", "Orange to move (bob)")
        ann_conn.close()
        bob_conn.close()
        # The store has the record with its three moves.
        exported = await run_until(restarted.port, "carl", f"export {code}", has_moves(3))
        assert exported.exit_status == 0, exported.stderr

    asyncio.run(second_part())
    assert not (restarted.data / "rooms").exists()  # no file per room: the store has them


def has_moves(count: int) -> Callable[[str], bool]:
    """Whether a record's main line has `count` moves."""

    def check(sgf: str) -> bool:
        try:
            return len(list(Record.from_sgf(sgf).root.mainline())) == count
        except RecordError:
            return False

    return check


def test_a_full_room_is_watched_and_unknown_codes_are_refused(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, _, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)")
        dan_conn, dan = await connect(server.port, "dan", command=f"join {code}")
        await dan.wait_for("is full", "Blue to move (ann)")
        dan.send(ENTER)
        await dan.wait_for("You are watching: ann and bob make the moves.")
        eve_conn, eve = await connect(server.port, "eve", command="join zzzz")
        await eve.wait_for("There is no room zzzz", "you are eve")
        for conn in (ann_conn, bob_conn, dan_conn, eve_conn):
            conn.close()

    asyncio.run(play())


def test_hot_seat_in_one_session_and_resize(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        conn, client = await connect(server.port, "ann", width=100, height=30)
        await client.wait_for("h Hot-seat")
        client.send("h")
        await client.wait_for("choose a game")
        client.send(ENTER)
        await client.wait_for("Blue to move (Player 1)")
        client.send(ENTER)  # Player 1 places; Player 2 is asked about the pie rule here
        await client.wait_for("Pie rule")
        client.send("p")
        await client.wait_gone("Pie rule")
        await client.wait_for("Orange to move (Player 2)")
        # A small window shows the board alone with a summary line (the compact view);
        # too small a one is said; a bigger one brings the full layout back.
        client.resize(40, 12)
        await client.wait_for("Orange to move · last ")
        assert "too small" not in client.text() and "Score now" not in client.text()
        client.resize(30, 8)
        await client.wait_for("too small")
        client.resize(120, 40)
        await client.wait_gone("too small")
        await client.wait_for("Score now")
        await client.wait_for("Orange to move (Player 2)")
        # The status line now has 120 columns: analysis mode's long note fits whole.
        client.send("x")
        await client.wait_for("moves start variations; x leaves.")
        conn.close()

    asyncio.run(play())


def test_a_room_called_off_before_anybody_joined_is_not_kept_in_the_archive(
    start_server,
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, empty = await create_room(server.port, "ann")
        made = await run(server.port, "ann", "games")
        assert f"{empty}\tPetrify 8x8\tann - waiting for a player\tunfinished" in str(made.stdout)
        ann.send("x")
        await ann.wait_for(f"Room {empty} is called off.", "you are ann")
        # A game somebody joined is kept, aborted before each side moved as it may be.
        _, ann, played = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {played}")
        await ann.wait_for("Blue to move (ann)")
        ann.send("x")
        await ann.wait_for("Abort this game?")
        ann.send("y")
        await bob.wait_for("Aborted: no result")
        aborted = f"{played}\tPetrify 8x8\tann - bob\taborted (no result)"
        games = await run_until(
            server.port, "ann", "games", lambda out: aborted in out and empty not in out
        )
        assert aborted in str(games.stdout) and empty not in str(games.stdout)
        exported = await run(server.port, "ann", f"export {empty}")
        assert exported.exit_status == 1
        assert exported.stderr == f"abstracts-tui: there is no game {empty}.\n"
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
