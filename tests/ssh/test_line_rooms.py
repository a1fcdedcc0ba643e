"""The SSH rooms in line mode (`ssh -t host lines`), through the real server: the lobby as
numbered lists, a room made, joined by its number and played between two line-mode
players, and a line-mode player against a full-screen one, with a line-mode watcher.

The line-mode people use OpenSSH's own client in a real pseudo-terminal and every line
they are told is read back whole, with every byte kept (not one escape sequence); the
full-screen player is an asyncssh client whose screen the test reads.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from abstracts_tui.records import Record
from abstracts_tui.rooms.bounds import ROOMS_AT_ONCE, ROOMS_PER_MINUTE
from abstracts_tui.rooms.kept import Finish
from abstracts_tui.rules import new_game
from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore
from tests.lines.terminal import LineTerminal
from tests.openssh import SSH, needs_ssh
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import ENTER, create_room

pytestmark = needs_ssh


def lines_of(server: RunningServer, user: str, home: Path) -> LineTerminal:
    """`ssh -tt -p PORT user@127.0.0.1 lines` in a terminal of its own, at its lobby."""
    ssh = [*SSH, "-tt", "-p", str(server.port), f"{user}@127.0.0.1", "lines"]
    term = LineTerminal(home=home / user, command=ssh)
    assert term.wait_for("abstracts-tui in line mode over SSH") == (
        f"abstracts-tui in line mode over SSH: you are {user}. Type help for the commands, "
        "quit to leave."
    )
    return term


def joined_room(ann: LineTerminal, bob: LineTerminal, words: str, title: str) -> str:
    """Ann makes a room with `new WORDS` (its game named `title` in her answer), and Bob
    joins it by its code, both from their lobbies; the code."""
    ann.wait_for("Type new")
    ann.send(f"new {words}")
    found = re.match(rf"Room (\w{{4}}): {title}", ann.wait_for("Room "))
    assert found
    bob.wait_for("Type new")
    bob.send(f"join {found.group(1)}")
    return found.group(1)


async def heard(term: LineTerminal, start: str) -> str:
    """The next line `term` is told that starts with `start` (waited for off the loop)."""
    return await asyncio.to_thread(term.wait_for, start)


def no_escapes(term: LineTerminal) -> None:
    assert b"\x1b" not in term.raw, "an escape sequence was written"


def test_a_line_mode_player_against_a_full_screen_one_with_a_line_mode_watcher(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    bob = carl = dave = None

    async def play() -> None:
        nonlocal bob, carl, dave
        # Ann makes a Petrify room on the full screen, open to anyone: Bob finds it in
        # his lobby's list, and takes it by its number.
        ann_conn, ann, code = await create_room(server.port, "ann", open=True)
        bob = lines_of(server, "bob", tmp_path)
        assert await heard(bob, "Your games") == "Your games: none."
        assert await heard(bob, "Open challenges") == "Open challenges:"
        assert await heard(bob, "1. ") == (f"1. Room {code}, Petrify 8x8, ann waits for a player.")
        assert await heard(bob, "Games to watch") == "Games to watch: none."
        await heard(bob, "Type 1 to enter")
        bob.send("1")  # joins: the seat is open
        assert await heard(bob, f"Room {code}:") == f"Room {code}: Petrify 8x8, ann against bob."
        assert await heard(bob, "You play") == (
            "You play Orange. Type help for the commands of a room."
        )
        assert await heard(bob, "Blue to move") == "Blue to move (ann)."
        await ann.wait_for("Blue to move (ann)")

        # Ann places on d5: Bob hears it, whose turn, and the pie rule's question.
        ann.send(ENTER)
        assert await heard(bob, "Blue (ann)") == "Blue (ann) plays d5."
        assert await heard(bob, "Orange to move") == "Orange to move (bob)."
        assert await heard(bob, "bob, you may swap") == (
            "bob, you may swap, taking Blue's move as yours, or play on: type swap, or play a move."
        )
        # Bob chats and plays by lines; Ann's screen shows both.
        bob.send("say good luck")
        assert await heard(bob, "bob says") == "bob says: good luck"
        await ann.wait_for("bob: good luck")
        bob.send("c3")
        assert await heard(bob, "Sent: c3") == "Sent: c3, waiting for the server."
        assert await heard(bob, "Orange (bob)") == "Orange (bob) plays c3."
        assert await heard(bob, "Blue to move") == "Blue to move (ann)."
        await ann.wait_for("(bob) plays c3")
        # Not his turn: refused with one sentence, nothing sent.
        bob.send("e5")
        assert await heard(bob, "Not played") == "Not played: it is ann's turn."

        # Carl watches by lines, from the lobby's command.
        carl = lines_of(server, "carl", tmp_path)
        await heard(carl, "Type 1 to enter")
        carl.send(f"watch {code}")
        assert await heard(carl, f"Room {code}:") == f"Room {code}: Petrify 8x8, ann against bob."
        await heard(carl, "You watch")
        assert await heard(carl, "Blue to move") == "Blue to move (ann)."
        assert await heard(bob, "1 watching") == "1 watching."
        # Ann chats on the full screen and plays e5 by its name: both hear it.
        ann.send(";hi bob" + ENTER)
        await ann.wait_for("ann: hi bob")
        assert await heard(bob, "ann says") == "ann says: hi bob"
        assert await heard(carl, "ann says") == "ann says: hi bob"
        ann.send("\x1b")  # back to the board
        await ann.wait_for("x Resign")
        ann.send(":e5" + ENTER)
        for term in (bob, carl):
            assert await heard(term, "Blue (ann)") == "Blue (ann) plays e5."
            assert await heard(term, "Orange to move") == "Orange to move (bob)."
        # A watcher's move is refused; a question is answered.
        carl.send("f5")
        assert await heard(carl, "You watch this game") == (
            "You watch this game: the moves are the players'. say and a line chats."
        )
        carl.send("row 5")
        assert await heard(carl, "Row 5") == "Row 5: 3 empty, Blue d5, Blue e5, 3 empty."

        # Bob resigns, asked first: the end on every screen, said once.
        bob.send("resign")
        assert await heard(bob, "Resign this game?") == (
            "Resign this game? ann wins. Type yes to resign; anything else plays on."
        )
        bob.send("yes")
        end = "The game is over: Orange (bob) resigned: Blue (ann) wins."
        assert await heard(bob, "The game is over") == end
        assert await heard(carl, "The game is over") == end
        await ann.wait_for("Orange (bob) resigned: Blue (ann) wins")

        # Dave, later, watches the finished game by its code: he is told its end.
        dave = lines_of(server, "dave", tmp_path)
        await heard(dave, "Type")
        dave.send(f"watch {code}")
        await heard(dave, f"Room {code}:")
        assert await heard(dave, "The game is over") == end
        for term in (bob, carl, dave):
            term.send("quit")
        ann_conn.close()

    try:
        asyncio.run(play())
        for term in (bob, carl, dave):
            assert term is not None
            assert term.close() == 0
            assert term.lines()[-2] == "Goodbye: your games are kept."
            no_escapes(term)
    finally:
        for term in (bob, carl, dave):
            if term is not None and term.process.poll() is None:
                term.process.kill()


def test_two_line_mode_players_make_join_and_play_a_room(start_server, tmp_path: Path) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        assert ann.wait_for("Your games") == "Your games: none."
        assert ann.wait_for("Type") == (
            "Type new and a game to make a room, play for a game here, or help."
        )
        # A room that cannot be made is one sentence, and nothing is made.
        ann.send("new pilo 4")
        assert ann.wait_for("Not made") == "Not made: Pilo is played on sizes 6 to 10, not 4."
        ann.send("new pilo 6 clock 10m+5s")
        found = re.fullmatch(
            r"Room (\w{4}): Pilo 6x6, clock 10m\+5s, ann against whoever joins\.",
            ann.wait_for("Room "),
        )
        assert found
        code = found.group(1)
        assert ann.wait_for("It waits for a player").startswith(
            f"It waits for a player: give them the code {code} (ssh -t -p {server.port} "
            f"127.0.0.1 join {code})"
        )
        # Made to be joined by its code: Bob's lists do not have it, nor his numbers.
        bob.send("rooms")
        assert bob.wait_for("Open challenges") == "Open challenges: none."
        assert bob.wait_for("Games to watch") == "Games to watch: none."
        assert bob.wait_for("Type") == (
            "Type new and a game to make a room, play for a game here, or help."
        )
        bob.send("1")
        assert bob.wait_for("There is no room") == (
            "There is no room to choose: type new and a game to make one."
        )
        bob.send(f"join {code}")  # the code Ann gave him
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        assert bob.wait_for("You play") == "You play Orange. Type help for the commands of a room."
        ann.send("c3")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c3."
        bob.send("play on")
        assert bob.wait_for("bob plays on") == "bob plays on: type a move."
        bob.send("d3")
        assert ann.wait_for("Orange (bob)") == "Orange (bob) plays d3."
        # The clock, in words.
        ann.send("clock")
        assert ann.wait_for("Time left").startswith("Time left: Blue (ann) ")
        # Ann captures; then asks to take it back, and Bob accepts.
        ann.send("c3-d3")
        assert (
            bob.wait_for("Blue (ann)")
            == "Blue (ann) moves c3 to d3, capturing Orange, leaving a block on c3."
        )
        ann.send("takeback")
        assert ann.wait_for("Take-back asked") == "Take-back asked: waiting for bob's answer."
        assert bob.wait_for("ann asks") == (
            "ann asks to take back their move c3-d3: type takeback to accept, or decline."
        )
        bob.send("takeback")
        assert bob.wait_for("Taken back") == "Taken back. Blue to move (ann)."
        assert ann.wait_for("bob accepted") == "bob accepted the take-back. Blue to move (ann)."
        ann.send("moves")
        assert ann.wait_for("Moves") == "Moves 1 to 2: 1 Blue c3, 2 Orange d3."
        # A chat line past the room's limit: one sentence, nothing said.
        bob.send("say " + "x" * 301)
        assert bob.wait_for("Not said") == (
            "Not said: A chat line has at most 300 characters, not 301."
        )
        # Bob goes back to the lobby: his game is listed, his move or not; Ann hears him go.
        bob.send("leave")
        assert bob.wait_for("You leave") == f"You leave room {code}; the game goes on."
        assert ann.wait_for("bob has left") == "bob has left the room; their seat is kept."
        assert bob.wait_for("1. ") == (
            f"1. Room {code}, Pilo 6x6, clock 10m+5s, ann against bob, Blue to move (ann)."
        )
        # Ann moves: Bob, in the lobby, is told it is his move there.
        ann.send("c4")
        assert bob.wait_for("ann played") == f"ann played c4 in room {code} (Pilo): your move."
        bob.send("1")
        assert bob.wait_for("Orange to move") == "Orange to move (bob)."
        assert ann.wait_for("bob is back") == "bob is back in the room."
        # Bob resigns; Ann offers a rematch, and Bob declines it.
        bob.send("resign")
        bob.wait_for("Resign")
        bob.send("yes")
        assert ann.wait_for("The game is over") == (
            "The game is over: Orange (bob) resigned: Blue (ann) wins."
        )
        ann.send("rematch")
        assert ann.wait_for("Rematch offered") == "Rematch offered: waiting for bob's answer."
        assert bob.wait_for("ann offers") == (
            "ann offers a rematch, the colours reversed: type rematch to accept, or decline."
        )
        bob.send("decline")
        assert bob.wait_for("Rematch declined") == "Rematch declined."
        assert ann.wait_for("bob declined") == "bob declined the rematch."
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
            assert term.lines()[-2] == "Goodbye: your games are kept."
        no_escapes(ann)
        no_escapes(bob)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_an_open_challenge_made_by_lines_is_accepted_from_a_lobby_and_aborted(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new egotzi 5 open unrated")
        found = re.fullmatch(
            r"Room (\w{4}): Egotzi 5x5, ann against whoever joins\.", ann.wait_for("Room ")
        )
        assert found
        code = found.group(1)
        assert ann.wait_for("It waits").startswith(
            "It waits for a player, listed in every lobby as an open challenge: give them "
            f"the code {code}"
        )
        bob.wait_for("Type new")
        bob.send("lobby")
        assert bob.wait_for("Open challenges") == "Open challenges:"
        assert bob.wait_for("1. ") == f"1. Room {code}, Egotzi 5x5, ann waits for a player."
        assert bob.wait_for("Games to watch") == "Games to watch: none."
        bob.send("1")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        assert bob.wait_for("Black to move") == "Black to move (ann)."
        # Before each side has moved the game is aborted, not resigned.
        ann.send("resign")
        assert ann.wait_for("Each side") == (
            "Each side has not moved yet: abort the game instead (no result, unrated)."
        )
        ann.send("abort")
        ann.send("yes")  # asked first
        for term in (ann, bob):
            assert term.wait_for("The game is aborted") == (
                "The game is aborted: no result, unrated."
            )
        bob.send("leave")
        assert bob.wait_for("You leave") == f"You leave room {code}."
        assert bob.wait_for("Open challenges") == "Open challenges: none."
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
            assert term.lines()[-2] == "Goodbye: your games are kept."
        no_escapes(ann)
        no_escapes(bob)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_time_running_out_in_a_room_is_said_to_both_players(start_server, tmp_path: Path) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6 clock 5s")
        found = re.fullmatch(
            r"Room (\w{4}): Pilo 6x6, clock 5s, ann against whoever joins\.", ann.wait_for("Room ")
        )
        assert found
        bob.wait_for("Type")
        bob.send(f"join {found.group(1)}")
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        # No clock runs before each side has moved (as on lichess); then Ann's runs: she
        # is warned, then her time is up on both sides.
        ann.send("c3")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c3."
        bob.send("play on")
        assert bob.wait_for("bob plays on") == "bob plays on: type a move."
        bob.send("d3")
        assert ann.wait_for("Orange (bob)") == "Orange (bob) plays d3."
        assert ann.wait_for("You have") == "You have 10 seconds left."
        for term in (ann, bob):
            assert term.wait_for("Time is up") == "Time is up."
            assert term.wait_for("The game is over") == (
                "The game is over: Blue (ann) lost on time: Orange (bob) wins."
            )
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
            no_escapes(term)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_a_first_move_not_made_in_time_aborts_the_game_for_both_players(
    start_server, tmp_path: Path
) -> None:
    """As on lichess: the clocks wait for each side's first move, and a first move not
    made within 30 seconds (a game of minutes) aborts the game, unrated, said to both."""
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6 clock 5s")
        found = re.fullmatch(
            r"Room (\w{4}): Pilo 6x6, clock 5s, ann against whoever joins\.", ann.wait_for("Room ")
        )
        assert found
        bob.wait_for("Type")
        bob.send(f"join {found.group(1)}")
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        # Ann's 5 seconds do not run: nobody loses on time, the game is called off.
        for term in (ann, bob):
            assert term.wait_for("The game is", timeout=60) == (
                "The game is aborted: ann made no first move within 30s: no result, unrated."
            )
        assert not any("lost on time" in line for line in ann.lines() + bob.lines())
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
            no_escapes(term)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_the_lobby_by_lines_names_the_players_ratings(start_server, tmp_path: Path) -> None:
    # A rated Pilo game of Ann's and Bob's, finished (and so rated), and a rated room of
    # Bob's waiting for a player, in the store before the server starts.
    data = tmp_path / "data"
    data.mkdir()
    played = new_game("pilo", size=6)
    for _ in range(4):
        played.play(played.legal_moves()[0])
    sgf = Record.from_game(played, players=("ann", "bob")).to_sgf()
    store = SqliteStore(data / "server.db")
    rated = RoomSetup("pilo", 6, creator="ann", rated=True)
    store.save_room(RoomSave("r4te", rated, "bob", sgf, finish=Finish("blue+R", "ann")))
    challenge = RoomSetup("pilo", 6, creator="bob", rated=True, open=True)
    store.save_room(RoomSave("w8it", challenge, None, None))
    ratings = {rating.name: rating.rating.text() for rating in store.ratings("pilo", None)}
    store.close()
    assert set(ratings) == {"ann", "bob"}
    server: RunningServer = start_server("--rated")
    ann = lines_of(server, "ann", tmp_path)
    try:
        assert ann.wait_for("Your ratings") == f"Your ratings: Pilo {ratings['ann']}."
        assert ann.wait_for("1. ") == (
            f"1. Room w8it, Pilo 6x6, rated, bob {ratings['bob']} waits for a player."
        )
        ann.send("quit")
        assert ann.close() == 0
    finally:
        if ann.process.poll() is None:
            ann.process.kill()


def test_a_room_by_its_code_is_not_a_strangers_to_see_or_to_take_by_number(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = carl = None
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        found = re.fullmatch(
            r"Room (\w{4}): Pilo 6x6, ann against whoever joins\.", ann.wait_for("Room ")
        )
        assert found
        private = found.group(1)
        assert ann.wait_for("It waits").startswith(
            f"It waits for a player: give them the code {private} (ssh -t -p {server.port} "
            f"127.0.0.1 join {private})"
        )
        ann.send("leave")
        ann.wait_for("Type 1 to enter")
        ann.send("new egotzi 5 open")
        found = re.fullmatch(
            r"Room (\w{4}): Egotzi 5x5, ann against whoever joins\.", ann.wait_for("Room ")
        )
        assert found
        public = found.group(1)
        # A stranger's lists have the open challenge only; its numbers take it only.
        bob = lines_of(server, "bob", tmp_path)
        assert bob.wait_for("Open challenges") == "Open challenges:"
        assert bob.wait_for("1. ") == f"1. Room {public}, Egotzi 5x5, ann waits for a player."
        assert bob.wait_for("Games to watch") == "Games to watch: none."
        assert bob.wait_for("Type") == (
            "Type 1 to enter, new and a game to make a room, play for a game here, or help."
        )
        bob.send("2")
        assert bob.wait_for("There is") == "There is one room: type 1."
        # Given the code, he joins by it.
        bob.send(f"join {private}")
        assert bob.wait_for(f"Room {private}") == f"Room {private}: Pilo 6x6, ann against bob."
        assert bob.wait_for("You play") == "You play Orange. Type help for the commands of a room."
        # Under way, its game is not among the games to watch; by its code it is watched.
        carl = lines_of(server, "carl", tmp_path)
        assert carl.wait_for("1. ") == f"1. Room {public}, Egotzi 5x5, ann waits for a player."
        assert carl.wait_for("Games to watch") == "Games to watch: none."
        carl.send(f"watch {private}")
        assert carl.wait_for(f"Room {private}") == f"Room {private}: Pilo 6x6, ann against bob."
        assert carl.wait_for("You watch").startswith("You watch (")
        for term in (ann, bob, carl):
            term.send("quit")
        for term in (ann, bob, carl):
            assert term.close() == 0
            no_escapes(term)
    finally:
        for term in (ann, bob, carl):
            if term is not None and term.process.poll() is None:
                term.process.kill()


def test_rooms_made_and_called_off_in_a_loop_are_refused_past_the_rate(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    try:
        ann.wait_for("Type new")
        for _ in range(ROOMS_AT_ONCE):
            ann.send("new pilo")
            assert ann.wait_for("Room ").endswith("Pilo 8x8, ann against whoever joins.")
            ann.send("abort")
            ann.send("yes")  # asked first
            ann.send("leave")
            ann.wait_for("You leave")
            ann.wait_for("Type new")
        ann.send("new pilo")
        refused = ann.wait_for("Not made")
        assert re.fullmatch(
            rf"Not made: you make rooms too fast \(at most {ROOMS_PER_MINUTE} a minute\): "
            r"wait \d s before you make another\.",
            refused,
        ), refused
        ann.send("rooms")
        assert ann.wait_for("Your games") == "Your games: none."

        # The full screen's creation screen is refused with the same sentence.
        async def full_screen() -> None:
            conn, screen = await connect(server.port, "ann", width=120)
            await screen.wait_for("you are ann", "New room")
            screen.send("c")
            await screen.wait_for("choose a game")
            screen.send(ENTER)
            await screen.wait_for(
                f"You make rooms too fast (at most {ROOMS_PER_MINUTE} a minute): wait"
            )
            conn.close()

        asyncio.run(full_screen())
        ann.send("quit")
        assert ann.close() == 0
        no_escapes(ann)
    finally:
        if ann.process.poll() is None:
            ann.process.kill()


def pilo_moves(*played: str) -> str:
    """A legal move of Pilo 6x6 after `played`."""
    game = new_game("pilo", size=6)
    for name in played:
        game.play(name)
    return game.move_name(game.legal_moves()[0])


def test_a_rated_game_by_lines_says_the_join_the_rating_change_and_what_was_missed(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server("--rated")
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    carl = lines_of(server, "carl", tmp_path)
    terms = (ann, bob, carl)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6 rated")
        found = re.fullmatch(
            r"Room (\w{4}): Pilo 6x6, rated, ann against whoever joins\.", ann.wait_for("Room ")
        )
        assert found
        code = found.group(1)
        ann.wait_for("It waits for a player")
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        # Bob's first arrival is his joining, said once: he was never in the room before.
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        bob.wait_for("You play")
        carl.wait_for("Type new")
        carl.send(f"watch {code}")
        carl.wait_for("You watch")
        assert ann.wait_for("1 watching") == "1 watching."
        ann.send("c3")
        bob.wait_for("Blue (ann) plays c3")
        bob.send("d3")
        ann.wait_for("Orange (bob) plays d3")
        ann.send("c4")
        bob.wait_for("Blue (ann) plays c4")
        assert not [line for line in ann.lines() if "is back in the room" in line]
        # Ann goes to the lobby; Bob plays and resigns meanwhile.
        ann.send("leave")
        assert ann.wait_for("You leave") == f"You leave room {code}; the game goes on."
        ann.wait_for("Type")
        move = pilo_moves("c3", "d3", "c4")
        bob.send(move)
        assert ann.wait_for("bob played") == f"bob played {move} in room {code} (Pilo): your move."
        bob.send("resign")
        bob.wait_for("Resign this game?")
        bob.send("yes")
        # The rating change is said to both players and to the watcher, after the end.
        ratings = []
        for term in (bob, carl):
            assert term.wait_for("The game is over") == (
                "The game is over: Orange (bob) resigned: Blue (ann) wins."
            )
            ratings.append(term.wait_for("Ratings: "))
        assert ratings[0] == ratings[1]
        assert re.fullmatch(r"Ratings: ann .+, bob .+\.", ratings[0]), ratings[0]
        ann.wait_for("bob resigned")
        # Back in the room, Ann is told once what she missed, before anything else.
        ann.send(f"join {code}")
        assert ann.wait_for(f"Room {code}") == f"Room {code}: Pilo 6x6, rated, ann against bob."
        assert ann.wait_for("While you were away") == (
            f"While you were away: bob played {move}; bob resigned: you win. {ratings[0]}"
        )
        assert ann.wait_for("The game is over") == (
            "The game is over: Orange (bob) resigned: Blue (ann) wins."
        )
        for term in terms:
            term.send("quit")
        for term in terms:
            assert term.close() == 0
            no_escapes(term)
        assert sum("While you were away" in line for line in ann.lines()) == 1
        assert sum("is back in the room" in line for line in ann.lines()) == 0
    finally:
        for term in terms:
            if term.process.poll() is None:
                term.process.kill()


def test_a_game_aborted_while_komi_is_chosen_is_nobodys_move_in_the_lobby(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new linage")
        found = re.match(r"Room (\w{4}): Linage", ann.wait_for("Room "))
        assert found
        code = found.group(1)
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        ann.wait_for("ann, ")  # asked for komi
        ann.send("abort")
        ann.send("yes")  # asked first
        for term in (ann, bob):
            assert term.wait_for("The game is aborted") == (
                "The game is aborted: no result, unrated."
            )
        for term in (ann, bob):
            term.send("leave")
            term.wait_for("You leave")
            assert term.wait_for("Your games") == "Your games: none."
            term.wait_for("Type")
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
            after = term.lines()[term.mark - 1 :]
            assert not [line for line in after if "your move" in line.lower()], after
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_a_rematchs_players_arrive_as_joining_never_as_coming_back(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    carl = lines_of(server, "carl", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        found = re.match(r"Room (\w{4}): Pilo", ann.wait_for("Room "))
        assert found
        bob.wait_for("Type new")
        bob.send(f"join {found.group(1)}")
        ann.wait_for("Blue to move")
        carl.wait_for("Type new")
        carl.send(f"watch {found.group(1)}")  # a watcher is taken along to the rematch
        carl.wait_for("You watch")
        ann.send("abort")
        ann.send("yes")  # asked first
        bob.wait_for("The game is aborted")
        ann.send("rematch")
        bob.wait_for("ann offers a rematch")
        bob.send("rematch")
        # Each goes to the new room; the one there first hears the other arrive, who
        # joins it for the first time.
        rooms = {term.wait_for("The rematch is agreed") for term in (ann, bob)}
        assert len(rooms) == 1
        new = rooms.pop().removeprefix("The rematch is agreed: on to room ").rstrip(".")
        assert carl.wait_for("The players play again") == (
            f"The players play again in room {new}: you watch it there."
        )
        assert carl.wait_for(f"Room {new}:") == f"Room {new}: Pilo 6x6, bob against ann."
        assert carl.wait_for("You watch").startswith("You watch")
        marks = [term.wait_for("Room ") and term.mark for term in (ann, bob)]

        def arrivals() -> list[str]:
            return [
                line
                for term, mark in zip((ann, bob), marks, strict=True)
                for line in term.lines()[mark:]
                if "joined the room" in line or "is back in the room" in line
            ]

        # Whoever is there first hears the other arrive, unless both came at once.
        deadline = time.monotonic() + 5
        while not arrivals() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert arrivals() in (
            [],
            ["bob joined the room: the game begins."],
            ["ann joined the room: the game begins."],
        )
        for term in (ann, bob, carl):
            term.send("quit")
        for term in (ann, bob, carl):
            assert term.close() == 0
        said = ann.lines() + bob.lines()
        assert not [line for line in said if "is back in the room" in line], said
    finally:
        for term in (ann, bob, carl):
            if term.process.poll() is None:
                term.process.kill()


def test_a_room_entered_again_in_its_own_process_has_the_offer_waiting_and_the_rematch_agreed(
    start_server, tmp_path: Path
) -> None:
    """Each person's session runs in a process of its own: the replica a screen shows there
    is built from the room's values, its offers and rematch among them. Bob, away when ann
    offers a rematch, is asked on coming back; ann, back in the old room once the rematch
    is agreed, is told where it is."""
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        found = re.match(r"Room (\w{4}): Pilo", ann.wait_for("Room "))
        assert found
        code = found.group(1)
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        ann.wait_for("Blue to move")
        ann.send("abort")
        ann.send("yes")  # asked first
        bob.wait_for("The game is aborted")
        bob.send("leave")
        bob.wait_for("You leave")
        ann.send("rematch")
        assert ann.wait_for("Rematch offered") == "Rematch offered: waiting for bob's answer."
        bob.send(f"join {code}")
        assert bob.wait_for("ann offers") == (
            "ann offers a rematch, the colours reversed: type rematch to accept, or decline."
        )
        bob.send("rematch")
        new = [term.wait_for("The rematch is agreed") for term in (ann, bob)]
        found = re.match(r"The rematch is agreed: on to room (\w{4})\.", new[0])
        assert found and new[1] == new[0]
        again = found.group(1)
        ann.wait_for("Room ")
        ann.send("leave")
        ann.wait_for("You leave")
        ann.send(f"join {code}")
        ann.wait_for("The game is aborted")
        ann.send("rematch")
        assert ann.wait_for("The rematch is agreed already") == (
            f"The rematch is agreed already: room {again}."
        )
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
