"""`ssh -T host leaderboard GAME` and `ssh -T host profile NAME` through OpenSSH: a game's
top ratings ranked, and a player's ratings with their history, games and last games."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore, Store
from tests.openssh import SSH, needs_ssh
from tests.ssh.conftest import RunningServer

PILO = RoomSetup("pilo", 8, creator="ann", rated=True)


def played(data: Path, url: str | None = None) -> None:
    """Ann beats bob twice at Pilo, then loses to carl; bob and carl draw at Petrify (in
    the SQLite store of `data`, or the PostgreSQL database at `url`)."""
    data.mkdir()
    store: Store
    if url is None:
        store = SqliteStore(data / "server.db")
    else:
        from abstracts_tui.store.postgres import PostgresStore

        store = PostgresStore(url)
    store.save_room(RoomSave("a1a1", PILO, "bob", "(;)", Finish("Blue+2", "ann")))
    store.save_room(RoomSave("a2a2", PILO, "bob", "(;)", Finish("Blue+R", "ann")))
    store.save_room(RoomSave("a3a3", PILO, "carl", "(;)", Finish("Orange+4", "carl")))
    petrify = RoomSetup("petrify", 6, creator="bob", rated=True)
    store.save_room(RoomSave("a4a4", petrify, "carl", "(;)", Finish("draw", None)))
    store.close()


def ask(server: RunningServer, *words: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*SSH, "-p", str(server.port), "dan@127.0.0.1", "-T", *words],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, *map(bytes.decode, (done.stdout, done.stderr))
    )


def rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()]


@needs_ssh
def test_the_leaderboard_ranks_a_games_players_highest_first(start_server, tmp_path) -> None:
    played(tmp_path / "data")
    server: RunningServer = start_server(data=tmp_path / "data")
    pilo = ask(server, "leaderboard", "Pilo")
    assert pilo.returncode == 0, pilo.stderr
    table = rows(pilo.stdout)
    assert table[0] == ["rank", "name", "rating", "deviation", "games"]
    assert [row[0] for row in table[1:]] == ["1", "2", "3"]
    games = {row[1]: row[4] for row in table[1:]}
    assert games == {"ann": "3", "carl": "1", "bob": "2"} and table[3][1] == "bob"
    ratings = [int(row[2].rstrip("?")) for row in table[1:]]
    assert ratings == sorted(ratings, reverse=True)
    assert rows(ask(server, "leaderboard", "egotzi").stdout) == [table[0]]  # nobody yet
    wrong = ask(server, "leaderboard", "chess")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.startswith("abstracts-tui: there is no game chess (")
    bare = ask(server, "leaderboard")
    assert bare.returncode == 2 and "leaderboard GAME" in bare.stderr


@needs_ssh
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_profile_gives_ratings_with_their_history_and_the_games(
    start_server, tmp_path: Path, request: pytest.FixtureRequest, kind: str
) -> None:
    url = request.getfixturevalue("database_url") if kind == "postgresql" else None
    played(tmp_path / "data", url)
    database = ["--database", url] if url else []
    server: RunningServer = start_server(*database, data=tmp_path / "data")
    ann = ask(server, "profile", "ann")
    assert ann.returncode == 0, ann.stderr
    lines = ann.stdout.splitlines()
    assert lines[0] == "ann: 3 games played: 2 won, 1 lost, 0 drawn"
    table = rows(ann.stdout)
    assert table[2] == ["game", "rating", "deviation", "games", "chart", "history"]
    game, rating, _, games, chart, history = table[3]
    assert (game, games, len(chart)) == ("pilo", "3", 3)
    points = [int(point) for point in history.split()]
    # Two wins, then a loss: up, up, down; the last point is the rating now.
    assert points[0] < points[1] and points[2] < points[1]
    assert rating.rstrip("?") == str(points[-1])
    assert lines[4] == ""
    assert table[5][0] == "code"
    assert [row[0] for row in table[6:]] == ["a3a3", "a2a2", "a1a1"]  # the last first
    bob = rows(ask(server, "profile", "bob").stdout)
    assert bob[0] == ["bob: 3 games played: 0 won, 2 lost, 1 drawn"]
    assert [row[0] for row in bob[3:5]] == ["petrify", "pilo"]
    nobody = ask(server, "profile", "zed")
    assert (nobody.returncode, nobody.stdout) == (1, "")
    assert nobody.stderr == "abstracts-tui: zed has played no game here.\n"
    wrong = ask(server, "profile", "a/b")
    assert wrong.returncode == 2 and "'a/b' is not a player's name" in wrong.stderr


@needs_ssh
def test_line_mode_says_a_leaderboard_and_a_profile(start_server, tmp_path) -> None:
    from tests.ssh.test_line_rooms import lines_of

    played(tmp_path / "data")
    store = SqliteStore(tmp_path / "data" / "server.db")
    bob = {rating.game: rating for rating in store.ratings(names=["bob"])}
    history = [round(point.rating.value) for point in store.rating_history("bob", "pilo")]
    store.close()
    server: RunningServer = start_server("--rated", data=tmp_path / "data")
    term = lines_of(server, "bob", tmp_path)
    try:
        term.send("leaderboard pil")
        assert term.wait_for("Pilo, the highest") == "Pilo, the highest ratings:"
        third = term.wait_for("3. ")
        assert third.startswith(f"3. bob {bob['pilo'].rating.text()}, deviation ")
        assert third.endswith(", 2 games.")
        term.send("leaderboard egotzi")
        assert term.wait_for("Nobody") == "Nobody is rated at Egotzi yet."
        term.send("profile")
        assert term.wait_for("bob: ") == "bob: 3 games played: 0 won, 2 lost, 1 drawn."
        points = ", ".join(map(str, history))
        assert term.wait_for("Pilo ") == (
            f"Pilo {bob['pilo'].rating.text()}, 2 rated games; after each, the oldest first: "
            f"{points}."
        )
        assert term.wait_for("Last games") == "Last games:"
        assert term.wait_for("Room ").startswith("Room a4a4, Petrify 6x6, bob - carl, draw,")
        term.send("profile zed")
        assert term.wait_for("zed") == "zed has played no game here."
        term.send("quit")
        assert term.close() == 0
    finally:
        if term.process.poll() is None:
            term.process.kill()


def test_the_lobbys_ratings_screen_charts_a_profile_and_ranks_a_game(
    start_server, tmp_path
) -> None:
    import asyncio

    from abstracts_tui.standings import sparkline
    from tests.ssh.client import connect

    played(tmp_path / "data")
    store = SqliteStore(tmp_path / "data" / "server.db")
    ann = [point.rating.value for point in store.rating_history("ann", "pilo")]
    store.close()
    server: RunningServer = start_server("--rated", data=tmp_path / "data")

    async def look() -> None:
        conn, screen = await connect(server.port, "ann", width=120, height=32)
        await screen.wait_for("you are ann", "l Ratings")
        screen.send("l")
        # Her profile, with the chart of her Pilo rating, beside Pilo's leaderboard.
        # The two halves load one after the other: wait for both.
        text = await screen.wait_for(
            "ann's profile", "3 games played: 2 won, 1 lost", "Pilo leaderboard"
        )
        assert sparkline(ann) in text
        assert "a3a3" in text
        assert " 3. bob " in text
        screen.send("g")  # the next game's: nobody yet
        await screen.wait_for("Egotzi leaderboard", "Nobody rated yet.")
        for title in ("Linage", "Partitions", "Petrify"):  # then round to the first
            screen.send("g")
            await screen.wait_for(f"{title} leaderboard")
        await screen.wait_for("Petrify leaderboard", " 1. ")
        screen.send("\r")  # the first of Petrify's: bob or carl, a draw each
        text = await screen.wait_for("'s profile", "1 drawn")
        assert "bob's profile" in text or "carl's profile" in text
        screen.send("p")
        await screen.wait_for("ann's profile")
        screen.send("\x1b")
        await screen.wait_for("you are ann", "l Ratings")
        conn.close()

    asyncio.run(look())
