"""A room's clock is the server's: both screens show it, it runs once each side has moved
(as on lichess), and a player who has gone keeps losing time until the server, with
nobody pressing a key, ends the game on time."""

from __future__ import annotations

import asyncio
import time

from tests.ssh.client import ScreenClient, connect, run
from tests.ssh.conftest import RunningServer
from tests.ssh.test_lobby import made_in_lines
from tests.ssh.test_process_clocks import create_clocked_room, face
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER

CURSOR_LEFT = "\x1b[D"

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
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + CURSOR_RIGHT + ENTER)  # each side has moved: clocks run
        await ann.wait_for("2. Orange", "> Blue ann")
        ann.send(CURSOR_LEFT + ENTER)
        await bob.wait_for("3. Blue", "> Orange bob")
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


def seconds(shown: str) -> int:
    """A clock's face (`59:52`, `1:00:00`) in seconds."""
    whole, _, _ = shown.partition(".")  # tenths, under ten seconds, left out
    total = 0
    for part in whole.split(":"):
        total = total * 60 + int(part)
    return total


def drawn(client: ScreenClient) -> list[list[tuple[str, str, str, bool, bool]]]:
    """Every cell of the client's terminal: the character (a digit as `#`: the running
    clock changes them), its colours, bold and reverse."""
    screen = client.screen
    return [
        [
            ("#" if cell.data.isdigit() else cell.data, cell.fg, cell.bg, cell.bold, cell.reverse)
            for cell in (screen.buffer[row][column] for column in range(screen.columns))
        ]
        for row in range(screen.lines)
    ]


def test_a_screen_drawn_a_piece_at_a_time_is_the_screen_drawn_whole(start_server) -> None:
    """Cursor keys, moves and a running clock each send only the cells that changed: the
    player's terminal then shows what a whole redraw of the screen shows."""
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_clocked_room(server.port, "ann", "60m")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("> Blue ann")
        ann.send(CURSOR_RIGHT + ENTER)
        await bob.wait_for("Pie rule")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_LEFT + CURSOR_LEFT + ENTER)
        await ann.wait_for("2. Orange")
        for keys in (CURSOR_RIGHT * 3, CURSOR_LEFT, "\x1b[B" * 2):
            ann.send(keys)
            await asyncio.sleep(0.5)
        await asyncio.sleep(1.5)  # the clock's faces go on
        in_pieces = drawn(ann)
        # A resize, and back: the server draws the whole screen again.
        width, height = ann.screen.columns, ann.screen.lines
        ann.resize(width + 1, height)
        await asyncio.sleep(1)
        ann.resize(width, height)
        await asyncio.sleep(1.5)
        whole = drawn(ann)
        changed = [
            (row, column, cell, whole[row][column])
            for row, line in enumerate(in_pieces)
            for column, cell in enumerate(line)
            if cell != whole[row][column]
        ]
        assert not changed, (changed[:10], "\n".join(ann.screen.display))
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def test_a_dialog_over_a_running_clock_costs_few_bytes(start_server) -> None:
    """Under a dialog (the help, over Bob's turn) the game's screen is drawn whole for any
    change of it: the faces wait ten seconds between redraws there, and are up to date
    once it closes."""
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_clocked_room(server.port, "ann", "60m")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("> Blue ann")
        ann.send(ENTER)
        await bob.wait_for("Pie rule")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + CURSOR_RIGHT + ENTER)  # each side has moved: clocks run
        await ann.wait_for("2. Orange", "> Blue ann")
        ann.send(CURSOR_LEFT + ENTER)
        await bob.wait_for("3. Blue", "> Orange bob")
        await asyncio.sleep(1.5)
        first, first_read = seconds(face(bob.text(), "> Orange bob")), time.monotonic()
        assert 3594 <= first < 3600, bob.text()  # running in sight
        bob.send("?")
        await bob.wait_for("Help: Petrify")
        await asyncio.sleep(1)
        before = bob.received
        await asyncio.sleep(5)
        # A whole screen is about 8 KB: one redraw at most in 5 seconds (one a second before).
        assert bob.received - before < 12_000, bob.received - before
        bob.send("\x1b")
        await bob.wait_gone("Help: Petrify")
        await asyncio.sleep(1.5)
        shown, read = seconds(face(bob.text(), "> Orange bob")), time.monotonic()
        # Up to date: it went down by the time that passed (a face shows whole seconds).
        assert abs((first - shown) - (read - first_read)) <= 2, bob.text()
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def test_the_room_form_refuses_a_clock_past_its_bounds(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        conn, ann = await connect(server.port, "ann")
        await ann.wait_for("you are ann", "New room")
        ann.send("c" + TAB * 2 + "1m+99999999999999999999s")  # 10^20 seconds of increment
        await ann.wait_for("Clock: the increment is at most 1 day (1d)")
        ann.send(ENTER)
        await asyncio.sleep(1)
        screen = await ann.wait_for("choose a game")  # no room: still the form
        assert "Waiting for a second player" not in screen
        ann.send("\x7f" * 21 + "3s" + ENTER)  # 1m+3s
        await ann.wait_for("Waiting for a second player")
        conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def test_the_waiting_room_and_the_games_to_watch_show_the_clock(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, _ = await create_clocked_room(server.port, "ann", "5m+3s")
        assert "Clock: 5m+3s" in ann.text()  # the waiting room says it
        # An open challenge, made by lines, joined by Bob: Carl's games to watch say its clock.
        # Carl's lobby is up first: the game is listed as soon as it begins, well within
        # the 30 s its first move is due in.
        carl_conn, carl = await connect(server.port, "carl", width=120)
        await carl.wait_for("you are carl")
        open_conn, public = await made_in_lines(server.port, "ann", "pilo clock 10m+5s open")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {public}")
        await bob.wait_for("Blue to move (ann)")
        await carl.wait_for("Games to watch", f"{public}  Pilo 8x8 10m+5s  ann - bob")
        for conn in (ann_conn, open_conn, bob_conn, carl_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log
