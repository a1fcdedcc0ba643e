"""What each screen of a room says: the news of every move on every screen, a watcher
who is not taken for a player, and the sign that a player's connection dropped."""

from __future__ import annotations

import asyncio

from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER, create_room

TAB = "\t"
CURSOR_DOWN = "\x1b[B"
CURSOR_UP = "\x1b[A"


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
            await client.wait_for("Orange (bob) plays e5. Blue to move (ann).")

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
        await bob.wait_for("you are bob", "j Join")
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


def setup_pane(screen: str) -> str:
    """The text of the creation screen's right-hand pane, its wrapped lines joined."""
    lines = [line.split("││", 1)[1].rstrip("│ ") for line in screen.splitlines() if "││" in line]
    return " ".join(" ".join(lines).split())


def test_the_room_creation_screen_names_the_creator_and_the_joiner_as_text(
    start_server,
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        conn, ann = await connect(server.port, "ann")
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        screen = await ann.wait_for("choose a game", "Rated")
        pane = setup_pane(screen)
        assert "Blue ann Orange (joins by code) Clock" in pane
        assert (
            "ann plays Blue and moves first; the player who joins by code plays Orange. "
            "On Orange's first turn the player who joins by code may swap" in pane
        )
        # Neither name is a field: Tab goes from the size to the clock, then Rated.
        ann.send(TAB + TAB + TAB)
        await asyncio.sleep(0.5)
        ann.send(CURSOR_RIGHT)
        await ann.wait_for("< yes >")
        ann.send(ENTER)
        await ann.wait_for("Waiting for a second player")
        conn.close()

    asyncio.run(play())


def test_the_lobby_arrows_and_enter_reach_the_games_to_watch(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        carl_conn, carl, code = await create_room(server.port, "carl", open=True)
        conn, ann = await connect(server.port, "ann")
        screen = await ann.wait_for("you are ann", f"{code}  Petrify")
        assert "tab Next part" in screen.splitlines()[-1]  # the key bar says how to move
        # No games of her own: ↓ goes on to the open challenge, on past the games to watch
        # (none), and on to the code field.
        ann.send(CURSOR_DOWN + CURSOR_DOWN + CURSOR_DOWN + "x")
        await ann.wait_for("Room code: x")
        # Back up to the challenge; Enter accepts it and takes the seat.
        ann.send(CURSOR_UP + CURSOR_UP + ENTER)
        await ann.wait_for("Blue to move (carl)")
        await carl.wait_for("Blue to move (carl)")

        dan_conn, dan = await connect(server.port, "dan")
        await dan.wait_for("you are dan", f"{code}  Petrify 8x8  carl - ann")
        # Enter on his empty list goes on to the games to watch; Enter again watches.
        dan.send(ENTER)
        await asyncio.sleep(0.5)
        dan.send(ENTER)
        await dan.wait_for("You are watching: carl and ann make the moves.")
        for conn_ in (carl_conn, conn, dan_conn):
            conn_.close()

    asyncio.run(play())
