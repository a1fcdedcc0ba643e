"""Notices to a player who is not connected to their game (`notify`), through the real
server and OpenSSH's client: set with `ssh -T host notify ...`, sent to a real HTTP
receiver on loopback (ntfy's form) and a real SMTP server (aiosmtpd) on loopback, by a
server started with `--notify-private` (loopback is inside its network) and `--smtp`.

The players play in line mode (`ssh -tt host lines`); the receiver records what it is
sent, and can answer late or with an error, as a receiver that is down does.
"""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from abstracts_tui.rules import new_game
from abstracts_tui.rules.base import Game
from tests.lines.terminal import LineTerminal
from tests.openssh import SSH, needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of

pytestmark = needs_ssh

WAIT_SECONDS = 60.0
"""How long a test waits for what must come (a loaded machine is slow), never a bound
it asserts."""


class Receiver:
    """An HTTP server on loopback that records each POST (path, headers, body) and
    answers each with the next of `answers` (200 once they are used up); "hang" holds
    the answer until `release` is set."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], str]] = []
        self.answers: list[int | str] = []
        self.release = threading.Event()
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.changed:
                    receiver.posts.append((self.path, dict(self.headers), body.decode()))
                    answer = receiver.answers.pop(0) if receiver.answers else 200
                    receiver.changed.notify_all()
                if answer == "hang":
                    receiver.release.wait(WAIT_SECONDS)
                    answer = 200
                self.send_response(int(answer))
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait(self, count: int) -> list[tuple[str, dict[str, str], str]]:
        """The posts once there are `count` of them."""
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.posts) >= count, WAIT_SECONDS), (
                f"{len(self.posts)} posts, not {count}: {self.posts}"
            )
            return list(self.posts)

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.close()


def notify(server: RunningServer, user: str, *words: str) -> subprocess.CompletedProcess[str]:
    """`ssh -T -p PORT user@127.0.0.1 notify WORDS`."""
    command = [*SSH, "-T", "-p", str(server.port), f"{user}@127.0.0.1", "notify", *words]
    return subprocess.run(command, capture_output=True, text=True, timeout=WAIT_SECONDS)


def wait_in_log(server: RunningServer, text: str, after: int = 0) -> int:
    """Wait until the server's log has `text` past character `after`: where it ends."""
    deadline = time.monotonic() + WAIT_SECONDS
    while (found := server.log.find(text, after)) < 0:
        assert time.monotonic() < deadline, f"no {text!r} in the log:\n{server.log[after:]}"
        time.sleep(0.05)
    return found + len(text)


class Game2:
    """Ann and Bob in line mode in room `code` of Pilo 6x6, and the game as played."""

    def __init__(self, ann: LineTerminal, bob: LineTerminal, code: str, game: Game) -> None:
        self.ann, self.bob, self.code, self.game = ann, bob, code, game

    def next_move(self) -> str:
        names = [self.game.move_name(move) for move in self.game.legal_moves()]
        move = next((name for name in names if "-" not in name), names[0])
        self.game.play(move)
        return move

    def bob_plays(self) -> str:
        """Bob plays a move (the other player's screen told of it if it shows the room)."""
        move = self.next_move()
        self.bob.send(move)
        assert self.bob.wait_for("Orange (bob)") == f"Orange (bob) plays {move}."
        return move

    def ann_comes_plays_and_leaves(self) -> str:
        """Ann comes back to the room, plays a move and goes back to the lobby."""
        self.ann.send(f"join {self.code}")
        assert self.ann.wait_for("Blue to move") == "Blue to move (ann)."
        move = self.next_move()
        self.ann.send(move)
        assert self.bob.wait_for("Blue (ann)") == f"Blue (ann) plays {move}."
        self.ann_leaves()
        return move

    def ann_leaves(self) -> None:
        """Ann goes back to the lobby: once its lists are drawn, her screen shows the
        room no more (the room's events say so within their own bounds, `attending`)."""
        self.ann.send("leave")
        assert self.ann.wait_for("You leave") == f"You leave room {self.code}; the game goes on."
        assert self.ann.wait_for("Type ").startswith("Type 1 to enter")


def start_game(server: RunningServer, tmp_path: Path) -> Game2:
    """Ann makes a room of Pilo 6x6, Bob joins it, and both play their first moves."""
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    ann.send("new pilo 6")
    code = ann.wait_for("Room ").split()[1].rstrip(":")
    bob.send(f"join {code}")
    assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
    played = Game2(ann, bob, code, new_game("pilo", 6))
    played.game.play("c3")
    ann.send("c3")
    assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c3."
    bob.send("play on")
    assert bob.wait_for("bob plays on") == "bob plays on: type a move."
    return played


def your_move(code: str, move: str) -> str:
    return f"bob played {move} in room {code} (Pilo): your move."


def test_a_move_reaches_a_player_away_once_and_not_while_their_screen_shows_the_room(
    start_server, tmp_path: Path, receiver: Receiver
) -> None:
    server: RunningServer = start_server("--notify-private")
    url = f"http://127.0.0.1:{receiver.port}/ann-topic"
    done = notify(server, "ann", url)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"Notices go to {url}: your move in a game you are not connected to, a challenge "
        "of yours accepted, a game's end.\n"
    )
    played = start_game(server, tmp_path)
    ann, bob, code = played.ann, played.bob, played.code
    try:
        # Ann's screen shows the room: Bob's move is said there, and sent nowhere.
        move = played.bob_plays()
        assert ann.wait_for("Orange (bob)") == f"Orange (bob) plays {move}."
        played.game.play("c4")
        ann.send("c4")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c4."
        played.ann_leaves()
        # Ann is in the lobby, not in the room: Bob's move reaches her, once.
        move = played.bob_plays()
        assert ann.wait_for("bob played") == your_move(code, move)
        ((path, headers, body),) = receiver.wait(1)
        assert (path, headers["Title"], body) == (
            "/ann-topic",
            f"Your move in room {code}",
            your_move(code, move),
        )
        assert headers["Content-Type"] == "text/plain; charset=utf-8"

        # Quiet hours (now, in UTC) hold the next one; ending them sends it.
        hour = datetime.now(UTC).hour
        quiet = f"{hour}-{(hour + 2) % 24}"
        done = notify(server, "ann", "quiet", quiet)
        assert done.stdout == f"Quiet hours {quiet} UTC: notices wait until they end.\n"
        played.ann_comes_plays_and_leaves()
        move = played.bob_plays()
        assert ann.wait_for("bob played") == your_move(code, move)
        wait_in_log(server, f"a notice to ann of room {code} waits for the quiet hours' end")
        assert len(receiver.posts) == 1
        assert notify(server, "ann", "quiet", "off").stdout == (
            "No quiet hours: notices go at any hour.\n"
        )
        assert receiver.wait(2)[1][2] == your_move(code, move)

        # Off: nothing is sent, until notices are set again.
        assert notify(server, "ann").stdout == f"Notices go to {url}.\n"
        assert notify(server, "ann", "off").stdout == (
            "No more notices: notify URL or notify mailto:ADDRESS sets them again.\n"
        )
        assert notify(server, "ann").stdout == (
            "You get no notices: notify URL or notify mailto:ADDRESS sets where they go.\n"
        )
        played.ann_comes_plays_and_leaves()
        move = played.bob_plays()
        assert ann.wait_for("bob played") == your_move(code, move)
        assert notify(server, "ann", url).returncode == 0
        played.ann_comes_plays_and_leaves()
        move = played.bob_plays()
        assert ann.wait_for("bob played") == your_move(code, move)
        posts = receiver.wait(3)
        assert [body for _, _, body in posts[2:]] == [your_move(code, move)]

        # A receiver that does not answer holds no game: Ann comes back and plays while
        # the notice waits for its answer.
        receiver.answers = ["hang"]
        played.ann_comes_plays_and_leaves()
        move = played.bob_plays()
        assert receiver.wait(4)[3][2] == your_move(code, move)
        played.ann_comes_plays_and_leaves()
        receiver.release.set()
        # A receiver that answers with an error is tried again, and the notice goes.
        receiver.answers = [503]
        move = played.bob_plays()
        posts = receiver.wait(6)
        assert [body for _, _, body in posts[4:]] == [your_move(code, move)] * 2
        assert "tried again in 2 s: 127.0.0.1 answered 503" in server.log

        # The game's end reaches her too.
        bob.send("resign")
        bob.wait_for("Resign")
        bob.send("yes")
        _, headers, body = receiver.wait(7)[6]
        assert headers["Title"] == f"The game in room {code} is over"
        assert body.startswith(f"bob resigned in room {code} (Pilo): ")
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
    assert len(receiver.posts) == 7


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_accepted_challenge_reaches_its_maker_by_email(start_server, tmp_path: Path) -> None:
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    mails: list[object] = []
    arrived = threading.Event()

    class Keep(Message):
        def handle_message(self, message: object) -> None:
            mails.append(message)
            arrived.set()

    mail_server = Controller(Keep(), hostname="127.0.0.1", port=free_port())
    mail_server.start()
    try:
        server: RunningServer = start_server(
            "--smtp", f"127.0.0.1:{mail_server.port}", "--smtp-from", "games@example.org"
        )
        ann = lines_of(server, "ann", tmp_path)
        bob = lines_of(server, "bob", tmp_path)
        try:
            # Set in line mode's lobby, as with ssh -T.
            ann.send("notify mailto:ann@")
            assert ann.wait_for("'ann@'") == "'ann@' is not an e-mail address (NAME@DOMAIN)."
            ann.send("notify mailto:ann@example.org")
            assert ann.wait_for("Notices go") == (
                "Notices go to mailto:ann@example.org: your move in a game you are not "
                "connected to, a challenge of yours accepted, a game's end."
            )
            ann.send("notify")
            assert ann.wait_for("Notices go") == "Notices go to mailto:ann@example.org."
            ann.send("new pilo 6 open")
            code = ann.wait_for("Room ").split()[1].rstrip(":")
            ann.send("leave")
            ann.wait_for("You leave")
            bob.send("rooms")
            assert bob.wait_for("1. ").startswith(f"1. Room {code}")
            bob.send("1")
            assert bob.wait_for("Blue to move") == "Blue to move (ann)."
            assert arrived.wait(WAIT_SECONDS), server.log
            (mail,) = mails
            assert mail["To"] == "ann@example.org"
            assert mail["From"] == "games@example.org"
            assert mail["Subject"] == f"bob joined room {code}"
            text = mail.get_payload(decode=True).decode()
            assert text.strip() == f"bob joined in room {code} (Pilo): your move."
            for term in (ann, bob):
                term.send("quit")
                assert term.close() == 0
        finally:
            for term in (ann, bob):
                if term.process.poll() is None:
                    term.process.kill()
    finally:
        mail_server.stop()


def test_the_notify_commands_bad_words_are_each_one_sentence(start_server) -> None:
    server: RunningServer = start_server()
    refused = {
        ("ftp://example.org/x",): (
            "Notices go only to http:// or https:// URLs (or mailto:ADDRESS)."
        ),
        ("https://example.org/" + "a" * 300,): "A notice target has at most 300 characters.",
        ("https://",): "That URL names no host: give http://HOST/PATH or https://HOST/PATH.",
        ("https://user:secret@example.org/x",): (
            "A notice URL carries no user or password: use a token in its path."
        ),
        ("mailto:ann",): "'ann' is not an e-mail address (NAME@DOMAIN).",
        ("mailto:ann@@example.org",): "'ann@@example.org' is not an e-mail address (NAME@DOMAIN).",
        ("quiet", "25-3"): "Quiet hours are whole hours from 0 to 23.",
        ("quiet", "7-7"): "Quiet hours need two different hours, such as 22-7.",
        ("quiet", "night"): "'night' is not hours FROM-TO, such as 22-7.",
        ("quiet", "22-7", "+99"): "'+99' is not an offset from UTC, such as +2, -5 or +05:30.",
        ("one", "two"): "Too many words: notify alone shows how you are told; notify URL (http "
        "or https: ntfy, or Gotify's /message?token=...), notify mailto:ADDRESS, notify off, "
        "notify quiet 22-7 [+HH], notify quiet off.",
    }
    for words, sentence in refused.items():
        done = notify(server, "ann", *words)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", sentence + "\n"), words
    # Nothing was set by them; a Gotify URL's token is not said back.
    done = notify(server, "ann", "gotify:https://push.example.org/message?token=Secret")
    assert done.stdout.startswith(
        "Notices go to gotify:https://push.example.org/message (its query not repeated): "
    )
    done = notify(server, "ann", "quiet", "22-7", "+2")
    assert done.stdout == "Quiet hours 22-7 UTC+02:00: notices wait until they end.\n"
    assert notify(server, "ann").stdout == (
        "Notices go to gotify:https://push.example.org/message (its query not repeated). "
        "Quiet hours 22-7 UTC+02:00: notices wait until they end.\n"
    )


def test_two_processes_of_one_database_send_each_notice_once(
    start_server, database_url: str, tmp_path: Path, receiver: Receiver
) -> None:
    """Ann plays on one process, Bob on the other: both hear every move, and whichever
    sends a notice claims it in the database first; the other sends nothing."""
    one, two = (
        start_server("--database", database_url, "--notify-private", data=tmp_path / name)
        for name in ("one", "two")
    )
    url = f"http://127.0.0.1:{receiver.port}/ann"
    assert notify(one, "ann", url).returncode == 0
    ann = lines_of(two, "ann", tmp_path)
    bob = lines_of(one, "bob", tmp_path)
    try:
        ann.send("new pilo 6")
        code = ann.wait_for("Room ").split()[1].rstrip(":")
        bob.send(f"join {code}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        played = Game2(ann, bob, code, new_game("pilo", 6))
        played.game.play("c3")
        ann.send("c3")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c3."
        bob.send("play on")
        bob.wait_for("bob plays on")
        # Her screen on the other process shows the room: nothing is sent.
        move = played.bob_plays()
        assert ann.wait_for("Orange (bob)") == f"Orange (bob) plays {move}."
        played.game.play("c4")
        ann.send("c4")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c4."
        played.ann_leaves()
        moves = [played.bob_plays()]
        assert ann.wait_for("bob played") == your_move(code, moves[0])
        receiver.wait(1)
        played.ann_comes_plays_and_leaves()
        moves.append(played.bob_plays())
        assert ann.wait_for("bob played") == your_move(code, moves[1])
        posts = receiver.wait(2)
        for term in (ann, bob):
            term.send("quit")
            assert term.close() == 0
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()
    assert [body for _, _, body in posts] == [your_move(code, move) for move in moves]
    assert len(receiver.posts) == 2


def test_the_lobbys_notices_screen_shows_and_sets_them(start_server) -> None:
    import asyncio

    from tests.ssh.client import connect

    server: RunningServer = start_server()

    async def look() -> None:
        conn, screen = await connect(server.port, "ann", width=120, height=32)
        await screen.wait_for("you are ann", "n Notices")
        screen.send("n")
        await screen.wait_for("Notices while you are away", "You get no notices")
        screen.send("https://ntfy.sh/ann-games\r")
        await screen.wait_for("Notices go to https://ntfy.sh/ann-games.")
        screen.send("quiet 22-7\r")
        await screen.wait_for("Quiet hours 22-7 UTC: notices wait until they end.")
        screen.send("ftp://example.org\r")
        await screen.wait_for("Notices go only to http:// or https:// URLs")
        screen.send("\x1b")
        await screen.wait_for("you are ann", "n Notices")
        conn.close()

    asyncio.run(look())
    done = notify(server, "ann")
    assert done.stdout == (
        "Notices go to https://ntfy.sh/ann-games. Quiet hours 22-7 UTC: notices wait until "
        "they end.\n"
    )


def test_gotify_is_sent_json_and_the_servers_own_network_is_not_posted_to(
    receiver: Receiver,
) -> None:
    import json

    from abstracts_tui.server.notify_send import Outgoing, SendError, post

    base = f"http://127.0.0.1:{receiver.port}"
    # Without --notify-private, loopback is inside the server's network: nothing is sent.
    with pytest.raises(SendError, match=r"inside the server's network \(127\.0\.0\.1\)"):
        post(Outgoing(f"{base}/ann", "Your move in room k7m2", "bob played d3."))
    assert receiver.posts == []
    # Gotify, by its path or by the prefix: JSON with the title and the text.
    for target in (f"{base}/message?token=T1", f"gotify:{base}/push?token=T2"):
        post(Outgoing(target, "Your move in room k7m2", "bob played d3."), private=True)
    posts = receiver.wait(2)
    assert [path for path, _, _ in posts] == ["/message?token=T1", "/push?token=T2"]
    for _, headers, body in posts:
        assert headers["Content-Type"] == "application/json"
        assert json.loads(body) == {
            "title": "Your move in room k7m2",
            "message": "bob played d3.",
            "priority": 5,
        }
    # A receiver's refusal for good (4xx) is not tried again; a 5xx is.
    receiver.answers = [404, 503]
    with pytest.raises(SendError, match="404") as refused:
        post(Outgoing(f"{base}/ann", "t", "x"), private=True)
    assert not refused.value.again
    with pytest.raises(SendError, match="503") as failed:
        post(Outgoing(f"{base}/ann", "t", "x"), private=True)
    assert failed.value.again
