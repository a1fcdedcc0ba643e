"""Several `serve` processes on one PostgreSQL database are one server.

Two real server processes, each with a data folder of its own (as on two machines),
share a database the tests start; real SSH clients connect to either. A room made on
one is listed and played on the other; a process killed mid-game loses nothing, and its
players take their seats back through the other; a seat is held by one connection; the
limit of sessions per name counts both processes; who is connected is known on every
process; a database lost mid-game refuses moves and tells the players until it is back,
and then every process knows again who is connected and who holds each seat.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

from abstracts_tui.records import Record
from tests.postgres import Cluster, cluster
from tests.ssh.client import connect, run, run_until
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER, create_room, has_moves

CURSOR_LEFT = "\x1b[D"


def two_servers(start_server, url: str, tmp_path: Path, *args: str) -> list[RunningServer]:
    return [start_server("--database", url, *args, data=tmp_path / name) for name in ("one", "two")]


def test_a_room_made_on_one_process_is_played_from_the_other(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> str:
        ann_conn, ann, code = await create_room(one.port, "ann")
        # Ann, on the other process, sees the new room among her games.
        carl_conn, carl = await connect(two.port, "ann")
        await carl.wait_for("you are ann")
        carl.send("r")  # refresh the lobby
        await carl.wait_for(code, "ann - waiting for a player")
        # Bob joins through the other process; the game starts on both.
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)")
        await ann.wait_for("Blue to move (ann)")
        carl_conn.close()
        carl_conn, carl = await connect(two.port, "carl", command=f"watch {code}")
        await carl.wait_for("Blue to move (ann)")
        # Both processes show clients the same host key (it is kept in the database).
        keys = {conn.get_server_host_key() for conn in (ann_conn, bob_conn)}
        assert len({key.get_fingerprint() for key in keys if key is not None}) == 1

        ann.send(CURSOR_RIGHT)
        await ann.wait_for("Cursor e5")
        ann.send(ENTER)
        await carl.wait_for("1. Blue", "e5", "Orange to move (bob)")
        await bob.wait_for("Pie rule", "Orange to move (bob)")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + CURSOR_RIGHT)
        await bob.wait_for("Cursor f5")
        bob.send(ENTER)
        for client in (ann, bob, carl):
            await client.wait_for("2. Orange", "f5", "Blue to move (ann)")
        for conn in (ann_conn, bob_conn, carl_conn):
            conn.close()
        return code

    code = asyncio.run(play())

    async def archive() -> None:
        for server in (one, two):
            exported = await run_until(server.port, "dan", f"export {code}", has_moves(2))
            record = Record.from_sgf(str(exported.stdout))
            assert [n.move for n in record.root.mainline()] == ["e5", "f5"]

    asyncio.run(archive())
    for server in (one, two):
        assert "Traceback" not in server.log, server.log


def test_a_process_killed_mid_game_loses_nothing_and_its_players_come_back_elsewhere(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> None:
        ann_conn, ann, code = await create_room(one.port, "ann")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        ann.send(ENTER)  # d5
        await bob.wait_for("Pie rule")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + ENTER)  # e5
        await ann.wait_for("2. Orange", "e5", "Blue to move (ann)")

        one.kill()  # Ann's process dies mid-game
        await ann.wait_until(lambda _: ann_conn.is_closed(), "a closed connection")
        # Bob, on the other process, plays on the position as it was; Ann comes back
        # through his process, takes her seat and moves.
        ann_conn, ann = await connect(two.port, "ann")
        await ann.wait_for("Your games", code, "ann - bob")
        ann.send(ENTER)
        await ann.wait_for("1. Blue", "d5", "2. Orange", "e5", "Blue to move (ann)")
        ann.send(CURSOR_LEFT)
        await ann.wait_for("Cursor c5")
        ann.send(ENTER)
        await bob.wait_for("3. Blue", "c5", "Orange to move (bob)")
        ann_conn.close()
        bob_conn.close()
        exported = await run_until(two.port, "dan", f"export {code}", has_moves(3))
        record = Record.from_sgf(str(exported.stdout))
        assert [n.move for n in record.root.mainline()] == ["d5", "e5", "c5"]

    asyncio.run(play())
    assert "Traceback" not in two.log, two.log


def test_a_seat_is_played_from_one_connection_at_a_time(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> None:
        ann_conn, ann, code = await create_room(one.port, "ann")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        # Ann opens the room again through the other process: that connection has her seat.
        again_conn, again = await connect(two.port, "ann", command=f"join {code}")
        await again.wait_for("Blue to move (ann)", "Cursor d5")  # the game, not the lobby
        ann.send(ENTER)  # the first connection may no longer move for her
        await ann.wait_for("Not played: ann's seat is played from another connection")
        assert "1. Blue" not in bob.text()
        again.send(ENTER)
        for client in (ann, again):
            await client.wait_for("1. Blue", "d5", "Orange to move (bob)")
        await bob.wait_for("Pie rule", "Orange to move (bob)")
        for conn in (ann_conn, bob_conn, again_conn):
            conn.close()

    asyncio.run(play())


def test_the_sessions_of_a_name_are_counted_on_every_process(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path, "--sessions-per-user", "1")

    async def play() -> None:
        ann_conn, ann = await connect(one.port, "ann")
        await ann.wait_for("you are ann")
        refused = await run(two.port, "ann", "games")
        assert refused.exit_status == 1
        assert "ann has 1 sessions open already; close one first." in str(refused.stdout)
        ann_conn.close()
        await ann.wait_until(lambda _: ann_conn.is_closed(), "a closed connection")
        # Once it is closed, the other process lets her in.
        done = await run_until(two.port, "ann", "games", lambda out: out.startswith("code\t"))
        assert done.exit_status == 0

    asyncio.run(play())


def lost(name: str) -> str:
    return f"{name}'s connection is lost"


def test_who_is_connected_is_known_on_every_process(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> None:
        ann_conn, ann, code = await create_room(one.port, "ann")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)", "Cursor d5")
        await bob.wait_for("Blue to move (ann)", "Cursor d5")
        await asyncio.sleep(1.5)  # more than a second: the processes have read each other
        for client, other in ((ann, "bob"), (bob, "ann")):
            assert lost(other) not in client.text(), client.text()
        # Bob leaves: Ann, on the other process, is told at once; he comes back.
        bob_conn.close()
        await ann.wait_for(lost("bob"), timeout=10)
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)", "Cursor d5")
        await ann.wait_gone(lost("bob"), timeout=10)
        # His process is killed: it tells nobody, and is found gone within seconds.
        two.kill()
        await ann.wait_for(lost("bob"), timeout=15)
        ann_conn.close()

    asyncio.run(play())
    assert "Traceback" not in one.log, one.log


def test_a_database_that_cannot_be_reached_at_the_start_is_one_sentence(tmp_path: Path) -> None:
    from tests.postgres import free_port

    port = free_port()
    url = f"postgresql://abstracts@127.0.0.1:{port}/none"
    serve = [sys.executable, "-m", "abstracts_tui", "serve", "--port", "0"]
    done = subprocess.run(
        [*serve, "--data", str(tmp_path / "data"), "--database", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"Error: database none on 127.0.0.1:{port} cannot be used: "
        "the database cannot be reached (connection refused)"
    ]


def test_a_database_lost_mid_game_refuses_moves_until_it_is_back(
    start_server, tmp_path: Path
) -> None:
    with cluster() as server:  # a database server of this test's own, to stop and start
        _lost_and_back(start_server, server, tmp_path)


def _lost_and_back(start_server, database: Cluster, tmp_path: Path) -> None:
    url = database.create_database("lost")
    one, two = two_servers(start_server, url, tmp_path)

    async def play() -> None:
        ann_conn, ann, code = await create_room(one.port, "ann")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        await bob.wait_for("Blue to move (ann)")

        await asyncio.sleep(1.5)  # each process has read who the other shows the room to
        for client, other in ((ann, "bob"), (bob, "ann")):
            assert lost(other) not in client.text(), client.text()

        database.stop()
        stopped = time.monotonic()
        for client in (ann, bob):  # both told, on both processes
            await client.wait_for("Not being saved")
            assert "Play goes on" not in client.text()  # it does not: moves wait
        ann.send(ENTER)  # d5: refused, not dropped
        await ann.wait_for("Not played:", "moves wait until it is back")
        assert "1. Blue" not in ann.text()
        # Meanwhile Bob leaves the game for the lobby: his process cannot say so yet.
        bob.send("n")
        await bob.wait_for("you are bob")
        await asyncio.sleep(max(0.0, 10 - (time.monotonic() - stopped)))  # 10 s without it

        database.start()  # the same port: the processes reconnect by themselves
        await ann.wait_for("being saved again")
        # Each process puts back who it shows the room to and reads the other's: Ann's
        # panel says Bob is not there, then that he is, once he opens the game again.
        await ann.wait_for(lost("bob"), timeout=15)
        screen = await bob.wait_for("Your games", code)
        assert "ann - bob" in screen
        bob.send(ENTER)
        await bob.wait_for("Blue to move (ann)", "Cursor d5")
        await ann.wait_gone(lost("bob"), timeout=10)
        await asyncio.sleep(1.5)
        for client, other in ((ann, "bob"), (bob, "ann")):
            assert lost(other) not in client.text(), client.text()
        # Their moves go through, each seen by the other.
        ann.send(ENTER)
        await ann.wait_for("1. Blue", "d5", "Orange to move (bob)")
        await bob.wait_for("Pie rule", "Orange to move (bob)")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + ENTER)  # e5
        for client in (ann, bob):
            await client.wait_for("2. Orange", "e5", "Blue to move (ann)")
        for client, other in ((ann, "bob"), (bob, "ann")):
            assert lost(other) not in client.text(), client.text()
        # And a connection that closes now is still told to the other process.
        bob_conn.close()
        await ann.wait_for(lost("bob"), timeout=10)
        ann_conn.close()

    asyncio.run(play())
    for server in (one, two):
        assert "lost:" in server.log and "is back" in server.log, server.log
        assert "Traceback" not in server.log, server.log


def test_komi_set_on_one_process_and_a_side_chosen_on_the_other(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> None:
        ann_conn, ann = await connect(one.port, "ann")
        await ann.wait_for("New room")
        ann.send("c")
        await ann.wait_for("choose a game")
        for game in ("Pilo", "Egotzi", "Linage"):
            ann.send("\x1b[B")
            await ann.wait_for(f"> {game}")
        ann.send(ENTER)
        code = re.search(r"Room (\w{4})", await ann.wait_for("Waiting for"))
        assert code is not None
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code.group(1)}")
        await ann.wait_for("Linage: set komi")
        ann.send("\x1b[F\x7f")  # End, Backspace: the 0 proposed goes
        await ann.wait_for("type a komi")
        ann.send("3.5")
        await ann.wait_gone("type a komi")
        ann.send(ENTER)
        await bob.wait_for("Linage: choose a side", "komi 3.5")
        one.kill()  # Ann's process dies before the side is chosen: her komi is kept
        bob.send("1")  # Vertical, moving first
        await bob.wait_for("Vertical to move (bob)")
        ann_conn, ann = await connect(two.port, "ann", command=f"join {code.group(1)}")
        await ann.wait_for("Vertical to move (bob)", "Cursor")
        bob.send(ENTER)
        await ann.wait_for("1. Vertical", "Horizontal to move (ann)")
        exported = await run_until(two.port, "dan", f"export {code.group(1)}", has_moves(1))
        record = Record.from_sgf(str(exported.stdout))
        assert record.options.komi == 3.5 and record.players == ("bob", "ann")
        ann_conn.close()
        bob_conn.close()

    asyncio.run(play())
    assert "Traceback" not in two.log, two.log


def test_a_database_that_hangs_delays_only_the_move_that_needs_it(
    start_server, postgres: Cluster, database_url: str, tmp_path: Path
) -> None:
    server = start_server("--database", database_url, data=tmp_path / "one")

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        carl_conn, carl, other = await create_room(server.port, "carl")
        dan_conn, _ = await connect(server.port, "dan", command=f"join {other}")
        for client in (ann, bob, carl):
            await client.wait_for("Blue to move", "Cursor d5")
        postgres.pause()  # every process of the database stops: it answers nothing
        try:
            ann.send(ENTER)  # d5: sent, and shown as sent until the database answers
            await ann.wait_for("Sent: d5, waiting for the server.")
            # Carl, who does not move, has every key answered at once meanwhile.
            slowest = 0.0
            for key, cell in ((CURSOR_RIGHT, "e5"), (CURSOR_LEFT, "d5")) * 3:
                pressed = time.monotonic()
                carl.send(key)
                await carl.wait_for(f"Cursor {cell}")
                slowest = max(slowest, time.monotonic() - pressed)
            assert slowest < 1.0, slowest
            # The move is refused in a few seconds, and nothing changed.
            await ann.wait_for("Not played: the database did not answer", timeout=15)
            assert "1. Blue" not in ann.text() and "1. Blue" not in bob.text()
        finally:
            postgres.go_on()
        # Refused, it is not made after all once the database answers (the time it hung
        # would be charged to it); played again, it is, and both players see it.
        await ann.wait_for("being saved again", timeout=30)
        assert "1. Blue" not in ann.text() and "1. Blue" not in bob.text()
        ann.send(ENTER)
        for client in (ann, bob):
            await client.wait_for("1. Blue", "d5", "Orange to move (bob)", timeout=15)
        for conn in (ann_conn, bob_conn, carl_conn, dan_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def test_the_load_script_measures_keys_during_a_database_stall() -> None:
    script = Path(__file__).parents[2] / "scripts" / "ssh_load.py"
    done = subprocess.run(
        [sys.executable, str(script), "--stall", "1", "--sessions", "4", "--hold", "6"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = r"median \d+\.\d ms, 95th percentile \d+\.\d ms \(\d+ answers, \d+ keys unanswered"
    for window in ("without a stall", "during a 1 s stall of PostgreSQL"):
        line = f"key to first byte, sessions that do not move, {window}: {figures}"
        assert re.search(line, done.stdout), done.stdout
