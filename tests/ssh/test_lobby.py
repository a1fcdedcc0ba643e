"""The lobby as players use it: your move first, signals when an opponent moves while
you are elsewhere on the server, ratings in the lists, the rated option, and the ratings
old -> new at a rated game's end. Real server processes, real SSH clients."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.ssh.signals import notice_kind, signal
from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore

from .client import connect
from .conftest import RunningServer
from .test_rooms import CURSOR_RIGHT, ENTER, create_room
from .test_store import near_end

TAB = "\t"


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
        _, _, waiting = await create_room(server.port, "ann")
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        ann.send(CURSOR_RIGHT + ENTER)
        await bob.wait_for("Pie rule")
        # Ann, in the lobby on a kitty terminal: the waiting room is listed first for now.
        lobby_conn, lobby = await connect(server.port, "ann", term_type="xterm-kitty")
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
        # The connection that shows the game is not signalled: it sees the move.
        await ann.wait_for("2. Orange", "f5")
        assert "\a" not in ann.output()[seen:] and "your move" not in ann.output()
        # Ann's move from the lobby's connection: Enter takes the seat of the first game.
        lobby.send(ENTER)
        await lobby.wait_for("Blue to move (ann)", "f5")
        for conn in (ann_conn, bob_conn, lobby_conn):
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
    store.close()
    server: RunningServer = start_server()  # rooms unrated unless their creator says

    async def play() -> None:
        # Carl creates a rated room by the option on the creation screen.
        carl_conn, carl = await connect(server.port, "carl")
        await carl.wait_for("you are carl")
        carl.send("c")
        await carl.wait_for("choose a game", "Rated", "< no >")
        carl.send(TAB * 6)  # from the games: size, the two names and players, rated
        await asyncio.sleep(0.5)
        carl.send(CURSOR_RIGHT)
        await carl.wait_for("< yes >")
        carl.send(ENTER)
        screen = await carl.wait_for("Waiting for a second player")
        found = re.search(r"Room (\w{4})", screen)
        assert found
        carl_code = found.group(1)
        # Dan sees it rated in his lobby.
        dan_conn, dan = await connect(server.port, "dan", width=120)
        await dan.wait_for(f"{carl_code}  Petrify 8x8 rated  carl - waiting for a player")

        ann_conn, ann = await connect(server.port, "ann", command="join q9xr")
        bob_conn, bob = await connect(server.port, "bob", command="join q9xr")
        for client in (ann, bob):
            await client.wait_for(f"to move ({mover})")
        player = ann if mover == "ann" else bob
        player.send(":")
        await player.wait_for("Enter plays")
        player.send(last + ENTER)
        screens = [await client.wait_for("Ratings: ann 1500? -> ") for client in (ann, bob)]
        result = screens[0]
        winner = "ann" if "(ann) wins" in result else "bob" if "(bob) wins" in result else None
        score = 0.5 if not winner else 1.0 if winner == "ann" else 0.0
        new = after_game(Rating(), Rating(), score)
        for screen in screens:  # in the status line (and a notice, which may wrap)
            line = screen.splitlines()[-2]
            assert f"Ratings: ann 1500? -> {new[0].text()}, bob 1500? -> {new[1].text()}" in line

        # The lobby: Ann's rating in her title, the players' in the lists.
        conn, lobby = await connect(server.port, "ann", width=120)
        await lobby.wait_for(f"you are ann (Egotzi {new[0].text()})")
        for conn_ in (carl_conn, dan_conn, ann_conn, bob_conn, conn):
            conn_.close()

    asyncio.run(play())
