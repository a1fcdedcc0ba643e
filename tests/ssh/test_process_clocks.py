"""Room clocks on a server of several processes are kept by the database's time: every
process shows the same faces, a player who has gone loses on time even when the
process that held their connection was killed, the end recorded once, and nobody loses
time (or the game) while the database is away."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import psycopg

from tests.postgres import Cluster
from tests.ssh.client import connect, run_until
from tests.ssh.test_processes import two_servers
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER

TAB = "\t"
CURSOR_LEFT = "\x1b[D"


async def create_clocked_room(port: int, user: str, clock: str):
    """`user` creates a Petrify room with the clock `clock` (connection, screen, code)."""
    conn, client = await connect(port, user)
    await client.wait_for(f"you are {user}", "New room")
    # In one burst, as a quick typist's keys arrive: the screen opened by `c` gets the
    # keys typed after it. Tab goes to the size, then the clock (the two players are
    # not typed: the creator and whoever joins).
    client.send("c" + TAB * 2 + clock)
    await client.wait_for("choose a game", f"Clock       {clock}")
    client.send(ENTER)
    screen = await client.wait_for("Waiting for a second player")
    found = re.search(r"Room (\w{4})", screen)
    assert found, screen
    return conn, client, found.group(1)


async def first_moves(ann, bob) -> None:
    """Ann plays e5, Bob f5 (after the pie rule's question): each side has moved, and
    Ann's clock runs (none ran before, as on lichess)."""
    await ann.wait_for("> Blue ann", "Orange bob")
    ann.send(CURSOR_RIGHT + ENTER)
    await bob.wait_for("Pie rule", "> Orange bob")
    bob.send("p")
    await bob.wait_gone("Pie rule")
    bob.send(CURSOR_RIGHT + CURSOR_RIGHT + ENTER)
    for client in (ann, bob):
        await client.wait_for("2. Orange", "> Blue ann")


def face(screen: str, who: str) -> str:
    """The clock face beside `who` (`Blue ann`) on a screen."""
    found = re.search(rf"{who}\s+(\d+:\d+(?:\.\d)?)", screen)
    assert found, screen
    return found.group(1)


def test_a_clocked_room_shows_the_same_faces_on_both_processes(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> None:
        ann_conn, ann, code = await create_clocked_room(one.port, "ann", "5m")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        for client in (ann, bob):
            await client.wait_for("> Blue ann", "Orange bob", "Blue to move (ann)")
        await first_moves(ann, bob)
        moved = time.monotonic()  # Ann's clock starts once each side has moved
        await asyncio.sleep(2.5)  # Ann thinks; her clock runs on both screens
        ann.send(CURSOR_LEFT + ENTER)
        for client in (ann, bob):
            await client.wait_for("3. Blue", "> Orange bob")
        passed = time.monotonic() - moved
        # Ann's clock stopped at the move, by the database's time: the same face on both.
        faces = {face(client.text(), "Blue ann") for client in (ann, bob)}
        assert len(faces) == 1, faces
        minutes, seconds = faces.pop().split(":")
        spent = 300 - (int(minutes) * 60 + float(seconds))
        # the time she thought, charged once: never more than has passed since Bob's first
        # move (a face shows whole seconds: one more at most)
        assert 2 <= spent <= passed + 1, (spent, passed)
        assert face(ann.text(), "Orange bob") == face(bob.text(), "Orange bob")
        ann_conn.close()
        bob_conn.close()

    asyncio.run(play())
    for server in (one, two):
        assert "Traceback" not in server.log, server.log


def test_a_player_whose_process_was_killed_loses_on_time_once(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> str:
        ann_conn, ann, code = await create_clocked_room(one.port, "ann", "8s")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await first_moves(ann, bob)
        ann.send(CURSOR_LEFT + ENTER)
        await bob.wait_for("3. Blue", "> Orange bob")
        two.kill()  # Bob's process dies while his clock runs
        await bob.wait_until(lambda _: bob_conn.is_closed(), "a closed connection")
        # Nobody presses a key: Ann's process notices Bob's time ran out.
        await ann.wait_for("Orange (bob) lost on time: Blue (ann) wins", timeout=20)
        ann_conn.close()
        done = await run_until(one.port, "ann", "games", lambda out: "ann won (blue+time)" in out)
        assert f"{code}\t" in str(done.stdout), done.stdout
        return code

    code = asyncio.run(play())
    with psycopg.connect(database_url) as db:
        rows = db.execute(
            "SELECT kind, clock_main FROM room_changes WHERE code = %s "
            "AND kind <> 'presence' ORDER BY version",  # who came and went aside
            (code,),
        ).fetchall()
    assert [kind for kind, _ in rows] == ["join", "move", "move", "move", "flag"], rows
    assert 0 < rows[3][1] <= 8  # Ann's time left after her move, kept with it
    assert "Traceback" not in one.log, one.log


def test_the_end_on_time_is_recorded_once_when_both_processes_notice_it(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = two_servers(start_server, database_url, tmp_path)

    async def play() -> str:
        ann_conn, ann, code = await create_clocked_room(one.port, "ann", "3s")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await first_moves(ann, bob)
        # Ann does not move again: both processes' timers find her time gone.
        for client in (ann, bob):
            await client.wait_for("Blue (ann) lost on time: Orange (bob) wins", timeout=20)
        ann_conn.close()
        bob_conn.close()
        return code

    code = asyncio.run(play())
    with psycopg.connect(database_url) as db:
        flags = db.execute(
            "SELECT count(*) FROM room_changes WHERE code = %s AND kind = 'flag'", (code,)
        ).fetchone()
        finished = db.execute(
            "SELECT result, winner FROM rooms WHERE code = %s", (code,)
        ).fetchone()
    assert flags == (1,)
    assert finished is not None and finished[1] == "bob", finished
    for server in (one, two):
        # The process that did not record it read the end as it reads a move.
        assert "does not fit" not in server.log and "Traceback" not in server.log, server.log


HELD = "The clocks are held meanwhile."
RUN_ON = "The game is being saved again. The clocks run on from where they were held."


def seconds_of(shown: str) -> float:
    """A face (`0:17`, `0:09.4`, `4:57`) in seconds."""
    minutes, _, rest = shown.rpartition(":")
    return int(minutes or 0) * 60 + float(rest)


def test_a_database_outage_holds_the_clock_and_costs_the_player_to_move_nothing(
    start_server, postgres: Cluster, database_url: str, tmp_path: Path
) -> None:
    """The database stops for longer than Bob has left, while his clock runs: his move is
    refused, every screen says why and shows his clock held; once the database is back
    his clock runs on from where it was held, the same on both processes (one `hold`
    change, whoever commits it), and he is not lost on time."""
    one, two = two_servers(start_server, database_url, tmp_path)
    outage = 22.0  # more than the 20 s Bob has

    async def play() -> str:
        ann_conn, ann, code = await create_clocked_room(one.port, "ann", "20s")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}", width=160)
        await first_moves(ann, bob)
        ann.send(CURSOR_LEFT + ENTER)  # d5: Bob's clock runs
        await bob.wait_for("3. Blue", "> Orange bob")
        runs = time.monotonic()
        postgres.stop()
        stopped = time.monotonic()
        try:
            for client in (ann, bob):
                await client.wait_for("Not being saved", HELD, timeout=20)
            held = face(bob.text(), "Orange bob")
            bob.send(CURSOR_RIGHT + ENTER)  # g5, refused with the reason
            await bob.wait_for("Not played: ", "moves wait until it is back")
            await asyncio.sleep(outage - (time.monotonic() - stopped))
            # Held on both screens all along, and not lost on time.
            for client in (ann, bob):
                assert face(client.text(), "Orange bob") == held, client.text()
                assert "lost on time" not in client.text()
        finally:
            postgres.start()
        for client in (ann, bob):
            await client.wait_for(RUN_ON, timeout=30)
        back = time.monotonic()
        bob.send(ENTER)  # g5 again: played now
        for client in (ann, bob):
            await client.wait_for("4. Orange", "g5", "> Blue ann")
        moved = time.monotonic()
        faces = {face(client.text(), "Orange bob") for client in (ann, bob)}
        assert len(faces) == 1, faces  # both processes charged him alike
        charged = 20 - seconds_of(faces.pop())
        # What ran outside the outage, and nothing of it (a face shows whole seconds;
        # the hold starts at the database's last answer, up to a second before).
        before, after = stopped - runs, moved - back
        assert before - 2 <= charged <= before + after + 5 + 2, (charged, before, after)
        assert "lost on time" not in ann.text() + bob.text()
        ann_conn.close()
        bob_conn.close()
        return code

    code = asyncio.run(play())
    with psycopg.connect(database_url) as db:
        kinds = db.execute(
            "SELECT kind FROM room_changes WHERE code = %s AND kind <> 'presence' "
            "ORDER BY version",  # who came and went aside
            (code,),
        ).fetchall()
    assert [kind for (kind,) in kinds] == ["join", "move", "move", "move", "hold", "move"], kinds
    for server in (one, two):
        assert "Traceback" not in server.log, server.log
