"""What each screen of a room says: the news of every move on every screen, a watcher
who is not taken for a player, and the sign that a player's connection dropped."""

from __future__ import annotations

import asyncio

from .client import connect
from .conftest import RunningServer
from .test_rooms import CURSOR_RIGHT, ENTER, create_room


def test_every_screen_tells_the_last_move_and_a_dropped_connection(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)")
        dan_conn, dan = await connect(server.port, "dan", command=f"watch {code}")
        await dan.wait_for("You are watching: ann and bob make the moves.")
        footer = dan.text().splitlines()[-1]
        assert "Type" not in footer and "Pass" not in footer, footer
        dan.send(ENTER)  # a watcher is told so, not that it is ann's turn
        await dan.wait_for("You are watching")

        ann.send(ENTER)  # d5
        await bob.wait_for("Pie rule")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + ENTER)  # e5
        # Ann's own status line is not left at her move: every screen tells Bob's.
        for client in (ann, bob, dan):
            await client.wait_for("bob played e5. Blue to move (ann).")

        bob_conn.abort()  # bob's connection drops
        for client in (ann, dan):
            await client.wait_for("bob's connection is lost")
        for conn in (ann_conn, dan_conn):
            conn.close()

    asyncio.run(play())


def test_a_room_code_typed_in_one_burst_after_j_joins(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, _ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob")
        await bob.wait_for("you are bob", "Join by code")
        bob.send("j" + code + ENTER)  # pasted, or typed fast: one read on the server
        await bob.wait_for("Blue to move (ann)")
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())


def test_a_room_offers_only_the_keys_that_work_there(start_server) -> None:
    """A room has no hint, no analysis: its tip and its help do not offer them."""
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        for client in (ann, bob):
            screen = await client.wait_for("Enter plays there; ? lists every key.")
            assert "hints" not in screen, screen
        ann.send("b")
        ann.send("?")
        screen = await ann.wait_for("Help")
        assert "Hint" not in screen and "(analysis)" not in screen, screen
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
