"""The store through the real server: the archive (`games`, `export`), ratings updated once
when a rated game ends, and a store that cannot be written, which must not stop a game."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

import pytest

from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.records import Record, result_text
from abstracts_tui.rules import new_game
from abstracts_tui.session import Session
from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore
from tests.disks import fill, small_disk
from tests.lines.terminal import LineTerminal
from tests.openssh import SSH
from tests.ssh.client import connect, run, run_until
from tests.ssh.conftest import RunningServer
from tests.ssh.test_process_clocks import HELD, RUN_ON, create_clocked_room, face, seconds_of
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER, create_room, has_moves

CURSOR_LEFT = "\x1b[D"
WAITING = "moves wait until the games can be saved again"

HEADER = "code\tgame\tplayers\tresult\trated\tdate (UTC)"


def near_end(seed: int = 3) -> tuple[str, str, str, int]:
    """An Egotzi 5x5 game of ann (first) and bob one move from its end: its record, who
    is to move, the last move, and how many moves the whole game has."""
    game = new_game("egotzi", size=5)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(list(game.legal_moves())))
    moves = len(game.moves)
    last = game.moves[-1]
    game.undo()
    record = Record.from_game(game, players=("ann", "bob"))
    mover = Session(record).waiting_for()
    assert mover is not None and moves > 3
    return record.to_sgf(), mover, game.move_name(last), moves


def table(output: object) -> dict[str, list[str]]:
    """The lines of a tab-separated table by their first field (the header left out)."""
    lines = str(output).splitlines()
    return {line.split("\t")[0]: line.split("\t") for line in lines[1:]}


def test_a_rated_game_ends_in_the_archive_and_rates_both_players_once(
    start_server, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    sgf, mover, last, moves = near_end()
    store = SqliteStore(data / "server.db")
    store.save_room(RoomSave("q9xr", RoomSetup("egotzi", 5, creator="ann", rated=True), "bob", sgf))
    store.close()
    server: RunningServer = start_server("--rated")

    async def play() -> tuple[str, str]:
        # Carl's room, made first (rated, as the server's rooms are), stays unfinished.
        carl_conn, _, carl_code = await create_room(server.port, "carl")
        ann_conn, ann = await connect(server.port, "ann", command="join q9xr")
        bob_conn, bob = await connect(server.port, "bob", command="join q9xr")
        for client in (ann, bob):
            await client.wait_for(f"to move ({mover})")
        player = ann if mover == "ann" else bob
        player.send(":")
        await player.wait_for("Enter plays")
        player.send(last + ENTER)
        for client in (ann, bob):
            screen = await client.wait_until(
                lambda text: "wins" in text or "Draw" in text, "the result"
            )
        for conn in (ann_conn, bob_conn, carl_conn):
            conn.close()

        # Everyone's games, newest first: the finished one, then Carl's, marked unfinished
        # (his room made to be joined by its code: his to see while it is under way).
        games = await run_until(server.port, "carl", "games", lambda out: "unfinished\t" in out)
        assert games.exit_status == 0
        lines = str(games.stdout).splitlines()
        assert lines[0] == HEADER and [line[:4] for line in lines[1:]] == ["q9xr", carl_code]
        finished = table(games.stdout)["q9xr"]
        assert finished[1:3] == ["Egotzi 5x5", "ann - bob"] and finished[4] == "rated"
        winner = "ann" if "(ann) wins" in screen else "bob" if "(bob) wins" in screen else None
        assert finished[3].startswith(f"{winner} won (" if winner else "draw"), finished
        assert table(games.stdout)[carl_code][2:5] == [
            "carl - waiting for a player",
            "unfinished",
            "rated",
        ]
        mine = await run(server.port, "dan", "games ann")
        assert list(table(mine.stdout)) == ["q9xr"]
        assert list(table((await run(server.port, "dan", "games erin")).stdout)) == []

        # The record, for scripts: it reads back, with every move and the result.
        exported = await run(server.port, "dan", "export Q9XR")
        assert exported.exit_status == 0
        record = Record.from_sgf(str(exported.stdout))
        assert len(list(record.root.mainline())) == moves
        assert record.result == result_text(record.main_game()) != ""

        # An unknown code: one sentence, status 1.
        unknown = await run(server.port, "dan", "export zzzz")
        assert unknown.exit_status == 1 and unknown.stdout == ""
        assert unknown.stderr == "abstracts-tui: there is no game zzzz.\n"

        # The finished game is no longer among Ann's games in the lobby.
        conn, lobby = await connect(server.port, "ann")
        await lobby.wait_for("No games yet")
        assert "q9xr" not in lobby.text()
        conn.close()
        return winner or "", (await run(server.port, "dan", "ratings")).stdout

    winner, ratings = asyncio.run(play())
    score = 0.5 if not winner else 1.0 if winner == "ann" else 0.0
    expected = dict(zip(("ann", "bob"), after_game(Rating(), Rating(), score), strict=True))
    lines = table(ratings)
    assert str(ratings).splitlines()[0] == "name\tgame\trating\tdeviation\tgames"
    for name, rating in expected.items():
        assert lines[name] == [name, "egotzi", rating.text(), str(round(rating.deviation)), "1"]
    assert rating.text().endswith("?")  # one game: provisional
    assert "carl" not in lines  # an unfinished game rates nobody
    server.stop()

    # After a restart: the same ratings (the game was not rated again), the same record,
    # and the finished game still opens on its last position.
    restarted: RunningServer = start_server()

    async def again() -> None:
        assert (await run(restarted.port, "dan", "ratings")).stdout == ratings
        assert (await run(restarted.port, "dan", "ratings egotzi")).stdout == ratings
        assert table((await run(restarted.port, "dan", "ratings pilo")).stdout) == {}
        wrong = await run(restarted.port, "dan", "ratings chess")
        assert wrong.exit_status == 2 and "there is no game chess" in str(wrong.stderr)
        exported = await run(restarted.port, "dan", "export q9xr")
        assert len(list(Record.from_sgf(str(exported.stdout)).root.mainline())) == moves
        conn, carl = await connect(restarted.port, "carl", command="watch q9xr")
        await carl.wait_until(lambda text: "wins" in text or "Draw" in text, "the result")
        conn.close()

    asyncio.run(again())
    assert "Traceback" not in server.log + restarted.log


@contextmanager
def locked_store(data: Path) -> Iterator[None]:
    """Another program holds the store's write lock (an sqlite3 shell left in a transaction)."""
    other = sqlite3.connect(data / "server.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


@contextmanager
def full_data_disk(data: Path) -> Iterator[None]:
    """The data folder's disk fills up."""
    filler = fill(data)
    try:
        yield
    finally:
        filler.unlink()


@pytest.mark.parametrize(
    ("failure", "reason"),
    [(locked_store, "locked by another"), (full_data_disk, "the disk is full")],
    ids=["locked", "full"],
)
def test_a_store_that_cannot_be_written_tells_the_players_and_takes_no_move_until_it_can(
    start_server,
    tmp_path: Path,
    failure: Callable[[Path], AbstractContextManager[None]],
    reason: str,
) -> None:
    data = tmp_path / "data"
    with small_disk(data, "8m") if failure is full_data_disk else nullcontext():
        server: RunningServer = start_server()

        async def play() -> str:
            ann_conn, ann, code = await create_room(server.port, "ann")
            with failure(data):
                # Bob joins while nothing can be saved (taken: it is not known yet, and
                # saved when it can be); both are told once the save fails.
                bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
                for client in (ann, bob):
                    await client.wait_for("Not being saved", reason, "moves wait", timeout=30)
                    assert "ctrl+s" not in client.text()  # no files over SSH: not offered
                # Ann's d5 is refused, with the reason: no move is taken that cannot be kept.
                await ann.wait_for("Blue to move (ann)")
                ann.send(ENTER)
                await ann.wait_for("Not played: ", reason)
                assert "1. Blue" not in ann.text() + bob.text()
            # Saved again as soon as it can be, with no move needed; then d5 is taken.
            for client in (ann, bob):
                await client.wait_gone("Not being saved", timeout=30)
                await client.wait_for("being saved again")
            ann.send(ENTER)
            await bob.wait_for("Pie rule")
            bob.send("p")
            await bob.wait_gone("Pie rule")
            bob.send(CURSOR_RIGHT + ENTER)
            for client in (ann, bob):
                await client.wait_for("2. Orange", "e5", "Blue to move (ann)")
            for conn in (ann_conn, bob_conn):
                conn.close()
            return code

        code = asyncio.run(play())
        server.stop()
        assert f"room {code} is not being saved: " in server.log
        assert f"room {code} is saved again" in server.log
        assert "Traceback" not in server.log, server.log

        restarted: RunningServer = start_server()

        async def after() -> None:
            exported = await run(restarted.port, "ann", f"export {code}")
            assert has_moves(2)(str(exported.stdout)), exported.stdout
            games = await run(restarted.port, "ann", "games")
            assert table(games.stdout)[code][2] == "ann - bob"

        asyncio.run(after())
        restarted.stop()


def test_a_store_locked_by_another_program_holds_the_clocks_and_costs_nobody_the_game(
    start_server, tmp_path: Path
) -> None:
    """Another program holds the store's lock for longer than Ann has left, while her
    clock runs: her move is refused, both screens say why and show her clock held; once
    the store is written again it runs on from where it was held, and she plays on."""
    data = tmp_path / "data"
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_clocked_room(server.port, "ann", "20s")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}", width=160)
        await ann.wait_for("> Blue ann", "Orange bob")
        ann.send(CURSOR_RIGHT + ENTER)  # e5
        await bob.wait_for("Pie rule", "> Orange bob")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        await asyncio.sleep(0.5)  # e5 saved
        with locked_store(data):
            locked = time.monotonic()
            # f5 is taken (the lock is not known yet: its save waits for it, then fails).
            bob.send(CURSOR_RIGHT + CURSOR_RIGHT + ENTER)
            for client in (ann, bob):
                await client.wait_for("2. Orange", "> Blue ann")
            for client in (ann, bob):
                await client.wait_for("Not being saved", "locked by another", HELD, timeout=30)
            held = face(ann.text(), "Blue ann")
            ann.send(CURSOR_LEFT + ENTER)  # d5: refused, with the reason
            await ann.wait_for("Not played: the store is locked by another program")
            await asyncio.sleep(25 - (time.monotonic() - locked))  # more than Ann has
            for client in (ann, bob):
                assert face(client.text(), "Blue ann") == held, client.text()
                assert "lost on time" not in client.text()
        for client in (ann, bob):
            await client.wait_for(RUN_ON, timeout=30)
        back = time.monotonic()
        ann.send(ENTER)  # d5 again: played now
        for client in (ann, bob):
            await client.wait_for("3. Blue", "d5", "> Orange bob")
        moved = time.monotonic()
        # Charged what ran after the store was back, none of the 25 s before.
        charged = seconds_of(held) - seconds_of(face(ann.text(), "Blue ann"))
        assert -1 <= charged <= moved - back + 2, (charged, moved - back)
        assert "lost on time" not in ann.text() + bob.text()
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs OpenSSH's ssh")
def test_export_while_another_program_holds_the_lock_waits_for_the_last_moves(
    start_server, tmp_path: Path
) -> None:
    """`ssh -T host export CODE` while a move waits to be saved: the record with it once
    the lock is let go; a lock held past the wait is one sentence and status 1, never a
    record that lacks the move."""
    data = tmp_path / "data"
    server: RunningServer = start_server()
    ssh = [*SSH, "-T", "-p", str(server.port), "carl@127.0.0.1", "export"]

    def export(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*ssh, code], capture_output=True, text=True, timeout=60)

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        ann.send(ENTER)  # d5
        await bob.wait_for("Pie rule")
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + ENTER)  # e5
        await ann.wait_for("2. Orange")
        await asyncio.sleep(0.5)  # saved
        with locked_store(data):
            ann.send(CURSOR_LEFT + ENTER)  # c5: taken, its save waits for the lock
            await bob.wait_for("3. Blue")
            stale = await asyncio.to_thread(export, code)  # the lock outlasts the wait
        assert (stale.returncode, stale.stdout) == (1, "")
        assert stale.stderr == (
            f"abstracts-tui: game {code} has changes not saved yet (the store is locked by "
            "another program), so its record would lack them: try again later.\n"
        )
        for client in (ann, bob):
            await client.wait_for("being saved again", timeout=30)
        with locked_store(data):
            bob.send(CURSOR_RIGHT + ENTER)  # f5: taken, its save waits for the lock
            await ann.wait_for("4. Orange")
            asked = asyncio.create_task(asyncio.to_thread(export, code))
            await asyncio.sleep(2)  # the lock is let go while the export waits
        current = await asked
        assert current.returncode == 0, current.stderr
        assert has_moves(4)(current.stdout), current.stdout
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
    assert "Traceback" not in server.log, server.log


def line_terminal(server: RunningServer, user: str, home: Path) -> LineTerminal:
    """`ssh -tt host lines` as `user` in a terminal of its own, at the lobby."""
    ssh = [*SSH, "-tt", "-p", str(server.port), f"{user}@127.0.0.1", "lines"]
    term = LineTerminal(home=home / user, command=ssh)
    term.wait_for("Type new and a game to make a room, play for a game here, or help.")
    return term


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs OpenSSH's ssh")
def test_line_mode_says_once_when_a_room_is_not_being_saved_and_once_when_it_is_again(
    start_server, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    terms: list[LineTerminal] = []
    with small_disk(data, "8m"):
        server: RunningServer = start_server()
        try:
            ann = line_terminal(server, "ann", tmp_path)
            terms.append(ann)
            ann.send("new petrify clock 5m")
            code = ann.wait_for("Room ").split()[1].rstrip(":")
            bob = line_terminal(server, "bob", tmp_path)
            terms.append(bob)
            bob.send(f"join {code}")
            assert ann.wait_for("Blue to move") == "Blue to move (ann)."
            bob.wait_for("Blue to move")
            filler = fill(data)
            ann.send("d5")  # taken (not known yet); its save fails
            full = f"Not being saved: the disk is full: {WAITING}. {HELD}"
            for term in (ann, bob):
                assert term.wait_for("Not being saved") == full
            bob.send("e5")
            assert bob.wait_for("Not played") == f"Not played: the disk is full: {WAITING}."
            filler.unlink()
            for term in (ann, bob):
                assert term.wait_for("The game is being saved again") == RUN_ON
            bob.send("e5")
            assert ann.wait_for("Orange (bob)") == "Orange (bob) plays e5."
            for term in (ann, bob):
                term.send("quit")
                assert term.close() == 0
                told = term.lines()
                assert sum(line.startswith("Not being saved") for line in told) == 1, told
                assert sum(line.startswith("The game is being saved") for line in told) == 1
        finally:
            for term in terms:
                if term.process.poll() is None:
                    term.process.kill()
            server.stop()
    assert "Traceback" not in server.log, server.log


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs OpenSSH's ssh")
def test_a_game_played_by_lines_says_when_it_is_not_being_saved_and_saved_again(
    start_server, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    with small_disk(data, "8m"):
        server: RunningServer = start_server()
        term = line_terminal(server, "ann", tmp_path)
        try:
            term.send("play")
            term.wait_for("Which game?")
            term.send("1")
            term.wait_for("Who plays?")
            term.send("1")
            term.wait_for("Blue to move (Player 1).")
            filler = fill(data)
            term.send("d5")  # played; its file cannot be written
            assert term.wait_for("Not being saved") == (
                "Not being saved: the disk is full. Play goes on."
            )
            filler.unlink()
            assert term.wait_for("The game is being saved") == "The game is being saved again."
            [saved] = (data / "users" / "ann" / "games").glob("*.sgf")
            assert "d5" in saved.read_text()
            term.send("quit")
            term.wait_for("Back in the lobby.")
            term.send("quit")
            assert term.close() == 0
        finally:
            if term.process.poll() is None:
                term.process.kill()
            server.stop()
    assert "Traceback" not in server.log, server.log


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs OpenSSH's ssh")
def test_openssh_asks_without_a_terminal_and_gets_the_answer_and_status(start_server) -> None:
    # OpenSSH closes its input at once when it has none to send: the answer still comes.
    server: RunningServer = start_server()
    ssh = ["ssh", "-F", "/dev/null", "-p", str(server.port), "-o", "BatchMode=yes"]
    ssh += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
    ssh += ["-o", "LogLevel=ERROR", "ann@127.0.0.1"]

    def ask(*words: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*ssh, *words], stdin=subprocess.DEVNULL, capture_output=True, timeout=60
        )
        # Decoded as sent, line ends kept.
        out, err = done.stdout.decode(), done.stderr.decode()
        return subprocess.CompletedProcess(done.args, done.returncode, out, err)

    games = ask("-T", "games")
    assert (games.returncode, games.stdout) == (0, HEADER + "\n")
    unknown = ask("-T", "export", "zzzz")
    assert (unknown.returncode, unknown.stdout) == (1, "")
    assert unknown.stderr == "abstracts-tui: there is no game zzzz.\n"
    with_terminal = ask("-tt", "ratings")  # a terminal: the lines end in CR LF
    assert with_terminal.returncode == 0
    assert with_terminal.stdout == "name\tgame\trating\tdeviation\tgames\r\n"


def test_a_room_kept_with_a_clock_past_the_bounds_is_left_out_and_the_server_starts(
    start_server, tmp_path: Path
) -> None:
    """Earlier versions took any clock: such a room is not loaded (one log line, no
    traceback), and the server and its other rooms go on."""
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "server.db")
    huge = RoomSetup("petrify", 8, creator="ann", clock="1m+" + "9" * 20 + "s")
    store.save_room(RoomSave("h8ge", huge, None, None))
    store.save_room(RoomSave("k7m2", RoomSetup("pilo", 6, creator="bob"), None, None))
    store.close()
    server: RunningServer = start_server()
    assert "room h8ge in" in server.log and "not loaded: " in server.log
    assert "Traceback" not in server.log

    async def lobby() -> None:
        conn, carl = await connect(server.port, "carl")
        screen = await carl.wait_for("k7m2")
        assert "h8ge" not in screen
        conn.close()

    asyncio.run(lobby())


def test_a_hot_seat_game_that_cannot_be_saved_is_told_and_logged(
    start_server, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    with small_disk(data, "8m"):
        server: RunningServer = start_server()

        async def play() -> None:
            conn, client = await connect(server.port, "ann")
            await client.wait_for("h Hot-seat")
            client.send("h")
            await client.wait_for("choose a game")
            client.send(ENTER)
            await client.wait_for("Blue to move (Player 1)")
            with full_data_disk(data):
                client.send(ENTER)  # d5: the game goes on, its file cannot be written
                await client.wait_for("Pie rule")
                client.send("p")
                await client.wait_gone("Pie rule")
                await client.wait_for(NOT_SAVED_HERE, "the disk is full")
            await client.wait_gone(NOT_SAVED_HERE)  # written again as soon as it can be
            conn.close()

        asyncio.run(play())
        server.stop()
    games = "users/ann/games"
    assert f"ann: the hot-seat game in {data / games}/" in server.log
    assert "is not being saved: the disk is full" in server.log
    assert "is saved again" in server.log
    assert "Traceback" not in server.log, server.log


NOT_SAVED_HERE = "Not being saved"
