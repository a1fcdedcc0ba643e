"""A room's clock is the server's: both screens show it, and a player who has gone keeps
losing time until the server, with nobody pressing a key, ends the game on time."""

from __future__ import annotations

import asyncio

from .client import connect, run
from .conftest import RunningServer
from .test_process_clocks import create_clocked_room
from .test_rooms import CURSOR_RIGHT, ENTER

TAB = "\t"


def test_a_player_who_has_gone_loses_on_time(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_clocked_room(server.port, "ann", "6s")

        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await bob.wait_for("> Blue ann", "Orange bob")  # the same faces on both screens
        await ann.wait_for("> Blue ann", "Orange bob")
        ann.send(CURSOR_RIGHT + ENTER)
        await bob.wait_for("Pie rule")
        bob_conn.close()  # Bob goes; his clock goes on
        await ann.wait_for("Orange (bob) lost on time: Blue (ann) wins", timeout=20)
        ann_conn.close()

        done = await run(server.port, "ann", "games")
        assert f"{code}\t" in done.stdout and "ann won (blue+time)" in done.stdout, done.stdout

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def test_the_lobby_shows_the_time_left_in_a_game_of_days_per_move(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_clocked_room(server.port, "ann", "3d")
        bob_conn, _ = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        # Ann, from another terminal, sees the game in her lobby with the days she has.
        lobby_conn, lobby = await connect(server.port, "ann")
        await lobby.wait_for(f"your move  {code}", "Blue to move (ann), 2d 23h left")
        # The lobby's help: the rules of the five games and the lobby's keys.
        lobby.send("?")
        await lobby.wait_for("Help: the five games")
        for conn in (ann_conn, bob_conn, lobby_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log
