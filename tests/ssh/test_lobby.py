"""The lobby as players use it: your move first, signals when an opponent moves while
you are elsewhere on the server, ratings in the lists, the rated option, and the ratings
old -> new at a rated game's end. Real server processes, real SSH clients."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import asyncssh
import pytest

from abstracts_tui.clock import TimeControl
from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.records import Record, result_text
from abstracts_tui.rules import PASS, Game, new_game
from abstracts_tui.server.held_frames import STALLED_SECONDS, HeldFrames
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore, Store
from abstracts_tui.tui.rooms.driver import STOP
from abstracts_tui.tui.rooms.signals import notice_kind, signal
from tests.ssh.client import TIMEOUT, ScreenClient, connect, run
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER, create_room
from tests.ssh.test_store import near_end

TAB = "\t"
OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def bells(sent: str) -> int:
    """The bells in what a terminal was sent (the BEL that ends an OSC sequence is none)."""
    return OSC.sub("", sent).count("\a")


def test_the_terminals_that_get_a_notification_and_those_that_get_the_bell_only() -> None:
    assert notice_kind("xterm-kitty", {}) == "osc9"
    assert notice_kind("xterm-256color", {"TERM_PROGRAM": "iTerm.app"}) == "osc9"
    assert notice_kind("xterm-256color", {"TERM_PROGRAM": "WezTerm"}) == "osc9"
    assert notice_kind("foot", {}) == "osc777"
    assert notice_kind("xterm-256color", {"VTE_VERSION": "7600"}) == "osc777"
    # Unknown terminals, the Linux console (which prints OSC as text) and multiplexers
    # (the terminal around them is not known): the bell only.
    for term, env in [
        ("xterm-256color", {}),
        ("linux", {}),
        ("screen-256color", {"TERM_PROGRAM": "iTerm.app"}),
        ("tmux-256color", {}),
        ("xterm-kitty", {"TERM_PROGRAM": "tmux"}),
    ]:
        assert notice_kind(term, env) is None, term
        assert signal(None, "t", "x") == "\a"
    # Control characters in a name cannot end the sequence early.
    sent = signal("osc9", "abstracts-tui", "bo\x1b\\b\x07 played")
    assert sent.count("\x1b") == 2 and sent.count("\a") == 1 and sent.endswith("\x1b\\")
    assert signal("osc777", "a;b", "x;y") == "\a\x1b]777;notify;a,b;x;y\x1b\\"


def test_an_opponents_move_signals_the_player_in_the_lobby_and_lists_it_first(
    start_server,
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        # Ann has two rooms: one where bob moves next, one still waiting for a player.
        _, elsewhere, waiting = await create_room(server.port, "ann")
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        ann.send(CURSOR_RIGHT + ENTER)
        await bob.wait_for("Pie rule")
        # Ann, in the lobby on WezTerm (its ssh sends TERM_PROGRAM): the waiting room is
        # listed first for now.
        lobby_conn, lobby = await connect(server.port, "ann", env={"TERM_PROGRAM": "WezTerm"})
        screen = await lobby.wait_for("you are ann", code, waiting)
        assert screen.index(waiting) < screen.index(code)
        assert "your move" not in screen
        before, seen = len(lobby.output()), len(ann.output())
        bob.send("p")
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + CURSOR_RIGHT + ENTER)
        await bob.wait_for("2. Orange", "f5")
        news = f"bob played f5 in room {code} (Petrify): your move."
        screen = await lobby.wait_for(news)
        # The game where it is her move comes first, marked.
        assert screen.index(f"your move  {code}") < screen.index(waiting)
        sent = lobby.output()[before:]
        assert f"\a\x1b]9;abstracts-tui: {news}\x1b\\" in sent
        # Her connection on another screen (the first room's waiting screen) gets a notice.
        await elsewhere.wait_for(f"bob played f5 in room {code}")
        # The connection that shows the game is not signalled: it sees the move.
        await ann.wait_for("2. Orange", "f5")
        assert bells(ann.output()[seen:]) == 0 and "your move" not in ann.output()
        # A join is news too when it makes it her move; the waiting screen that shows
        # the room just goes on to the game.
        before, seen = len(lobby.output()), len(elsewhere.output())
        carl_conn, _ = await connect(server.port, "carl", command=f"join {waiting}")
        await elsewhere.wait_for("Blue to move (ann)")
        await lobby.wait_for(f"carl joined in room {waiting} (Petrify): your move.")
        assert "\x1b]9;abstracts-tui: carl joined" in lobby.output()[before:]
        assert bells(elsewhere.output()[seen:]) == 0 and bells(lobby.output()[before:]) == 1
        # Ann's move from the lobby's connection: Enter takes the seat of the first game.
        lobby.send("r")
        await lobby.wait_for(f"your move  {code}", f"your move  {waiting}")
        lobby.send(ENTER)
        await lobby.wait_for("Blue to move (ann)")
        for conn in (ann_conn, bob_conn, lobby_conn, carl_conn):
            conn.close()

    asyncio.run(play())


def test_ratings_in_the_lobby_and_old_to_new_at_the_end_of_a_rated_game(
    start_server, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    sgf, mover, last, _ = near_end()
    store = SqliteStore(data / "server.db")
    store.save_room(RoomSave("q9xr", RoomSetup("egotzi", 5, creator="ann", rated=True), "bob", sgf))
    # Bob has a rating from a rated game with Eve; Ann has none yet.
    won = random_game(1)
    store.save_room(
        RoomSave(
            "e1e1",
            RoomSetup("egotzi", 5, creator="bob", rated=True),
            "eve",
            Record.from_game(won, players=("bob", "eve")).to_sgf(),
            Finish(result_text(won), "bob"),
        )
    )
    [bob_before] = [r.rating for r in store.ratings("egotzi", ["bob"])]
    store.close()
    server: RunningServer = start_server()  # rooms unrated unless their creator says

    async def play() -> None:
        # Carl creates a rated room, open to anyone, by the options on the creation screen.
        carl_conn, carl = await connect(server.port, "carl")
        await carl.wait_for("you are carl")
        carl.send("c")
        await carl.wait_for("choose a game", "Rated", "< no >")
        carl.send(TAB * 3)  # from the games: size, the clock, rated
        await asyncio.sleep(0.5)
        carl.send(CURSOR_RIGHT)
        await carl.wait_for("< yes >")
        carl.send(TAB + CURSOR_RIGHT)  # who joins
        await carl.wait_for("< anyone >")
        carl.send(ENTER)
        screen = await carl.wait_for("Waiting for a second player")
        found = re.search(r"Room (\w{4})", screen)
        assert found
        carl_code = found.group(1)
        # Dan sees it rated in his lobby, among the open challenges.
        dan_conn, dan = await connect(server.port, "dan", width=120)
        await dan.wait_for(f"{carl_code}  Petrify 8x8  no clock  rated  carl")

        ann_conn, ann = await connect(server.port, "ann", command="join q9xr")
        bob_conn, bob = await connect(server.port, "bob", command="join q9xr")
        for client in (ann, bob):
            await client.wait_for(f"to move ({mover})")
        player = ann if mover == "ann" else bob
        # The move line; a ':' sent while the screen that joined the room is still being
        # set up can be lost (rarely, on a loaded machine): sent again after a while.
        for _ in range(3):
            player.send(":")
            try:
                await player.wait_for("Enter plays", timeout=10)
                break
            except AssertionError:
                player.send("\x1b")  # Esc alone (not the start of an Alt key)
                await asyncio.sleep(0.5)
        else:
            await player.wait_for("Enter plays")
        player.send(last + ENTER)
        screens = [await client.wait_for("Ratings: ann ") for client in (ann, bob)]
        result = screens[0]
        winner = "ann" if "(ann) wins" in result else "bob" if "(bob) wins" in result else None
        score = 0.5 if not winner else 1.0 if winner == "ann" else 0.0
        new = after_game(Rating(), bob_before, score)
        for screen in screens:  # in the status line (and a notice, which may wrap)
            line = screen.splitlines()[-2]
            # Ann's first rating is the change from the one every new player starts with.
            assert (
                f"Ratings: ann {Rating().text()} -> {new[0].text()}, "
                f"bob {bob_before.text()} -> {new[1].text()}" in line
            ), line

        # The lobby: Ann's rating in her title, the players' in the lists.
        conn, lobby = await connect(server.port, "ann", width=120)
        await lobby.wait_for(f"you are ann (Egotzi {new[0].text()})")
        for conn_ in (carl_conn, dan_conn, ann_conn, bob_conn, conn):
            conn_.close()

    asyncio.run(play())


def test_a_move_made_through_another_process_signals_the_player(
    start_server, database_url: str, tmp_path: Path
) -> None:
    one, two = (
        start_server("--database", database_url, data=tmp_path / name) for name in ("one", "two")
    )

    async def play() -> None:
        ann_conn, ann, code = await create_room(one.port, "ann")
        bob_conn, bob = await connect(two.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        ann.send(CURSOR_RIGHT + ENTER)
        await bob.wait_for("Pie rule")
        ann_conn.close()
        # Ann waits in the lobby of the first process, on a terminal that reads OSC 777.
        lobby_conn, lobby = await connect(one.port, "ann", term_type="foot")
        await lobby.wait_for("you are ann", code)
        before = len(lobby.output())
        bob.send("p")  # bob plays on the second process
        await bob.wait_gone("Pie rule")
        bob.send(CURSOR_RIGHT + CURSOR_RIGHT + ENTER)
        news = f"bob played f5 in room {code} (Petrify): your move."
        await lobby.wait_for(news, f"your move  {code}")
        assert f"\a\x1b]777;notify;abstracts-tui;{news}\x1b\\" in lobby.output()[before:]
        for conn in (bob_conn, lobby_conn):
            conn.close()

    asyncio.run(play())


def random_game(seed: int) -> Game:
    game = new_game("egotzi", size=5)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(list(game.legal_moves())))
    return game


def other_move(seed: int, back: int) -> str:
    """A legal move `back` moves before the end of game `seed` other than the one played."""
    game = random_game(seed)
    for _ in range(back):
        game.undo()
    played = random_game(seed).moves[len(game.moves)]
    return next(game.move_name(move) for move in game.legal_moves() if move not in (played, PASS))


def finished_games(store: Store, count: int, players: tuple[str, str], start: int) -> None:
    """`count` finished Egotzi 5x5 games of `players`, codes `a000` on from `start`."""
    for number in range(start, start + count):
        game = random_game(number)
        sgf = Record.from_game(game, players=players).to_sgf()
        outcome = game.outcome()
        assert outcome is not None
        winner = None if outcome.winner is None else players[outcome.winner]
        setup = RoomSetup("egotzi", 5, creator=players[0])
        finish = Finish(result_text(game), winner)
        store.save_room(RoomSave(f"a{number:03d}", setup, players[1], sgf, finish))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_archive_lists_finished_games_by_page_and_opens_a_copy_to_study(
    start_server, tmp_path: Path, request: pytest.FixtureRequest, kind: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    url = request.getfixturevalue("database_url") if kind == "postgresql" else None

    def open_store() -> Store:
        if url is None:
            return SqliteStore(data / "server.db")
        from abstracts_tui.store.postgres import PostgresStore

        return PostgresStore(url)

    store = open_store()
    finished_games(store, 10, ("ann", "bob"), 0)
    finished_games(store, 7, ("carl", "dan"), 10)
    before = store.room("a009")
    store.close()
    assert before is not None and before.sgf is not None
    server: RunningServer = start_server(*(["--database", url] if url else []))

    async def study() -> None:
        conn, ann = await connect(server.port, "ann", width=120, height=32)
        await ann.wait_for("you are ann", "a Archive")
        ann.send("a")
        screen = await ann.wait_for("Your finished games, newest first: page 1", "a009")
        assert "a000" in screen and "carl" not in screen  # hers only: ten, one page
        assert "Next page" not in screen
        ann.send("a")  # everyone's: seventeen, two pages
        screen = await ann.wait_for("Everyone's", "a016  Egotzi 5x5  carl - dan", "Next page")
        assert "a001" not in screen
        ann.send("]")
        screen = await ann.wait_for("page 2", "a001", "a000")
        assert "a016" not in screen
        ann.send("[")
        await ann.wait_for("page 1", "a016")
        ann.send("a")
        await ann.wait_for("Your finished games", "a009", "a000")
        # The newest of hers opens for study, in analysis mode, at its end.
        ann.send(ENTER)
        screen = await ann.wait_for("Game a009, a copy for you alone", "Analysis, move")
        found = re.search(r"Analysis, move (\d+)", screen)
        assert found
        last = int(found.group(1))
        for back in range(1, 4):  # three moves back, and a move of her own there: a variation
            ann.send("[")
            await ann.wait_for(f"Analysis, move {last - back}")
        ann.send(":")
        await ann.wait_for("Enter plays")
        move = other_move(9, 3)
        ann.send(move)
        # The move line, and beside it whether what is typed is a legal move.
        await ann.wait_until(lambda text: text.splitlines()[-2].split()[:1] == [move], move)
        ann.send(ENTER)
        await ann.wait_for("(2/2)")
        ann.send("n")
        await ann.wait_for("Your finished games")
        ann.send("\x1b")
        await ann.wait_for("you are ann", "a Archive")
        conn.close()

    asyncio.run(study())
    # Nothing of the study reached the store: the room is as it was, its version aside
    # (the server gave the room, kept before events, its history of events at its start).
    server.stop()
    after = open_store()
    found = after.room("a009")
    assert found is not None and found.version > before.version
    assert replace(found, version=before.version) == before
    after.close()


def test_a_finished_game_studied_from_the_archive_runs_no_clock(
    start_server, tmp_path: Path
) -> None:
    """Opened for study, stepped back and left with x: the game is over, both clocks stay."""
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "server.db")
    game = random_game(4)
    record = Record.from_game(game, players=("ann", "bob"))
    record.clock = TimeControl.parse("3m")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is not None
    setup = RoomSetup("egotzi", 5, creator="ann", clock="3m")
    finish = Finish(result_text(game), ("ann", "bob")[outcome.winner])
    store.save_room(RoomSave("c001", setup, "bob", record.to_sgf(), finish))
    store.close()
    server: RunningServer = start_server()

    async def study() -> None:
        conn, ann = await connect(server.port, "ann", width=120, height=32)
        await ann.wait_for("you are ann", "a Archive")
        ann.send("a")
        await ann.wait_for("Your finished games", "c001")
        ann.send(ENTER)
        screen = await ann.wait_for("Game c001, a copy for you alone", "Analysis, move")
        assert screen.count("3:00") == 2, screen
        ann.send("[")
        await ann.wait_for(f"Analysis, move {len(game.moves) - 1}")
        ann.send("x")
        screen = await ann.wait_for("Back to play.")
        assert "wins" in screen.split("Back to play.")[1], screen  # the game's end again
        await asyncio.sleep(2.5)
        screen = ann.text()
        assert screen.count("3:00") == 2 and "2:5" not in screen, screen
        conn.close()

    asyncio.run(study())


TAB = "\t"


async def sent_for(client: ScreenClient, keys: str, quiet: float = 0.5) -> int:
    """The bytes the server sends for `keys`: until nothing more comes for `quiet` s."""
    before = client.received
    client.send(keys)
    while True:
        client.changed.clear()
        try:
            await asyncio.wait_for(client.changed.wait(), quiet)
        except TimeoutError:
            return client.received - before


def test_moving_the_focus_sends_what_it_changes_not_the_whole_screen(start_server) -> None:
    """Tab from one part of the lobby or of the room form to the next draws the parts
    whose look changes (the part left, the part reached, the keys shown); the whole
    screen (about 23 KB at 100x31) went out at every Tab before, for a player over a
    slow link to wait for and for a busy server to send."""
    server: RunningServer = start_server()

    async def play() -> None:
        conn, ann = await connect(server.port, "ann", width=100, height=30)
        await ann.wait_for("you are ann", "Games to watch", "^q Quit")
        await sent_for(ann, "")
        # The whole screen: a window one row taller draws every line again.
        ann.resize(100, 31)
        whole = await sent_for(ann, "")
        assert whole > 6_000, whole
        # Your games, the open challenges, the code field (whose keys are its own), and on.
        tabs = [await sent_for(ann, TAB) for _ in range(2)]
        keys = " ".join(ann.text().splitlines()[-1].split())
        assert keys == "tab Next part ? Help ^q Quit", keys
        tabs += [await sent_for(ann, TAB) for _ in range(2)]
        assert max(tabs) < whole / 2, (tabs, whole)
        assert "c New room" in ann.text().splitlines()[-1]
        ann.send("c")
        await ann.wait_for("choose a game", "Who joins")
        await sent_for(ann, "")
        tabs = [await sent_for(ann, TAB) for _ in range(4)]
        assert max(tabs) < whole / 2, (tabs, whole)
        conn.close()

    asyncio.run(play())


def test_the_tab_cost_script_prints_what_a_tab_costs() -> None:
    """`scripts/tab_cost.py`, as the README runs it: its figures, and a Tab's frame well
    under the whole lobby (about 7,800 characters at 100x30)."""
    done = subprocess.run(
        [sys.executable, "scripts/tab_cost.py", "--tabs", "5"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "processor of the player's app:" in done.stdout, done.stdout
    assert re.search(r"key to first byte: median [\d.]+ ms", done.stdout), done.stdout
    sent = re.search(r"characters sent: (\d+)", done.stdout)
    assert sent is not None and int(sent.group(1)) < 5_000, done.stdout


async def made_in_lines(
    port: int, user: str, words: str
) -> tuple[asyncssh.SSHClientConnection, str]:
    """`user` makes a room in line mode (`new WORDS`, as `ssh host lines` types it), and
    leaves it waiting: the connection, and the room's code."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=None, agent_path=None
    )
    process = await conn.create_process("lines", encoding="utf-8")
    process.stdin.write(f"new {words}\n")
    while True:
        line = await asyncio.wait_for(process.stdout.readline(), TIMEOUT)
        found = re.match(r"Room (\w{4}):", line)
        if found:
            process.stdin.write("leave\n")
            return conn, found.group(1)
        assert line, "the line session ended"


def test_a_room_by_its_code_is_listed_to_its_players_only_and_joined_by_its_code(
    start_server,
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, private = await create_room(server.port, "ann")
        ann_open, public = await made_in_lines(server.port, "ann", "pilo open")
        # Bob's lobby lists the open challenge, made after it, and not the room by code.
        bob_conn, bob = await connect(server.port, "bob", width=120)
        screen = await bob.wait_for("you are bob", f"{public}  Pilo 8x8  no clock  casual  ann")
        assert private not in screen
        # Nor does `games`, run by anybody else; its players' own list has it.
        listed = await run(server.port, "carl", "games")
        assert public in str(listed.stdout) and private not in str(listed.stdout)
        own = await run(server.port, "ann", "games")
        assert private in str(own.stdout) and public in str(own.stdout)
        # Given the code, Bob joins by it in the code field.
        bob.send("j")
        await bob.wait_gone("New room")
        bob.send(private + ENTER)
        await bob.wait_for("Petrify", "Blue to move (ann)")
        await ann.wait_for("Blue to move (ann)")
        # Under way, its game is not among Carl's games to watch; by its code he watches.
        carl_conn, carl = await connect(server.port, "carl", width=120)
        screen = await carl.wait_for("you are carl", f"{public}  Pilo 8x8")
        assert private not in screen
        watch_conn, watcher = await connect(server.port, "carl", command=f"watch {private}")
        await watcher.wait_for("You are watching: ann and bob make the moves.")
        for conn in (ann_conn, ann_open, bob_conn, carl_conn, watch_conn):
            conn.close()

    asyncio.run(play())


def test_a_lobby_is_not_drawn_again_for_rooms_it_does_not_list(start_server) -> None:
    """Rooms made by their code and called off in a loop are nobody else's to see: an
    idle lobby of another name is sent nothing for them (it was drawn again for each
    room made and each called off)."""
    server: RunningServer = start_server()

    async def play() -> None:
        bob_conn, bob = await connect(server.port, "bob")
        await bob.wait_for("you are bob", "No open challenges now")
        await sent_for(bob, "", quiet=1.0)
        before = bob.received
        conn = await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="ann",
            known_hosts=None,
            client_keys=None,
            agent_path=None,
        )
        process = await conn.create_process("lines", encoding="utf-8")
        for _ in range(5):
            process.stdin.write("new pilo\n")
            while not (await asyncio.wait_for(process.stdout.readline(), TIMEOUT)).startswith(
                "Room "
            ):
                pass
            process.stdin.write("abort\nyes\nleave\n")  # abort asks first
            while not (await asyncio.wait_for(process.stdout.readline(), TIMEOUT)).startswith(
                "Type "
            ):
                pass
        await asyncio.sleep(1.0)
        assert bob.received == before, bob.output()[-500:]
        conn.close()
        bob_conn.close()

    asyncio.run(play())


STALLED_WINDOW = 32 * 1024
"""The SSH window of the client that stops reading in the test below (OpenSSH's is 2 MiB:
the server's side fills sooner)."""


@pytest.mark.parametrize("mode", ["process", "thread"])
def test_a_lobby_that_stops_reading_is_sent_less_and_drawn_whole_when_it_reads(
    start_server, mode: str
) -> None:
    """A client that reads nothing (ctrl+s, a laptop asleep) while its screen changes is
    neither sent every frame it missed nor closed: once it reads again it is sent the
    screen as it is then, whole (the app in a process of its own, or on a thread)."""
    server: RunningServer = start_server(*(["--threads"] if mode == "thread" else []))

    async def play() -> None:
        conn = await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="bob",
            known_hosts=None,
            client_keys=None,
            agent_path=None,
        )
        _, bob = await conn.create_session(
            lambda: ScreenClient(100, 30),
            term_type="xterm-256color",
            term_size=(100, 30),
            encoding="utf-8",
            window=STALLED_WINDOW,
        )
        await bob.wait_for("you are bob", "No open challenges now")
        await sent_for(bob, "")
        assert bob.chan is not None
        bob.chan.pause_reading()
        stalled = bob.received
        # The screen is drawn whole again and again (a window changed back and forth, as
        # a lobby flooded with changes is): about a megabyte of frames.
        for number in range(40):
            bob.chan.change_terminal_size(100, 30 + number % 2)
            await asyncio.sleep(0.3)
        ann_open, public = await made_in_lines(server.port, "ann", "pilo open")
        await asyncio.sleep(1.0)
        bob.screen.resize(30 + 39 % 2, 100)
        bob.chan.resume_reading()
        screen = await bob.wait_for("you are bob", f"{public}  Pilo 8x8")
        await sent_for(bob, "", quiet=1.0)
        assert not bob.closed.is_set()
        sent = bob.received - stalled
        # The window and the server's own buffer (64 KiB), and the screen drawn whole.
        assert sent < 300_000, sent
        assert "No games yet" in screen and "^q Quit" in bob.text().splitlines()[-1]
        assert "does not read its screen" not in server.log
        for closing in (conn, ann_open):
            closing.close()

    asyncio.run(play())


def test_a_client_that_reads_nothing_for_minutes_is_closed_at_last() -> None:
    """The frames held for a client that does not read: left out while it does not (the
    terminal given back all the same at the end), drawn again whole once it reads, and
    after `STALLED_SECONDS` unread no longer held: the session is closed."""
    now = [0.0]
    frames = HeldFrames(lambda: now[0])
    sent: list[str] = []
    assert not frames.hold("frame", sent.append)  # it reads: sent
    frames.pause()
    assert frames.hold("frame", sent.append) and sent == []
    assert frames.hold("last frame" + STOP, sent.append) and sent == [STOP]
    assert frames.resume()  # drawn again whole
    assert not frames.resume()  # nothing left out since
    frames.pause()
    now[0] += STALLED_SECONDS - 1
    assert frames.hold("frame", sent.append) and not frames.stalled()
    now[0] += 2
    assert frames.stalled() and not frames.hold("frame", sent.append)
