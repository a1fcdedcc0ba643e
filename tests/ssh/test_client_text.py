"""What a client sends that is shown to somebody else: in the server's log (a terminal
type, a user name), back to the client (a command's argument), and on other people's
screens (chat). It is shown as text, never acted on by a terminal, never forging a line
of the log or of the server, and never hidden (blank lines are refused).

Through the real server, OpenSSH's client and asyncssh's, as an attacker would send it.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path

import pyte

from abstracts_tui.rooms.chat import ChatLine
from abstracts_tui.tui.widgets import chat_panel
from tests.lines.terminal import LineTerminal
from tests.openssh import SSH, needs_ssh
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import heard, lines_of
from tests.ssh.test_rooms import create_room

FORGED = "2026-01-01 00:00:00 root: the server stops now"
"""A log line of the server's shape, which a newline in a client's text would start."""
HOSTILE_TERM = f"xterm\n{FORGED}\x1b]0;pwned\x07\x1b[2J" + "A" * 5000
"""A terminal type with a newline, a title change, a screen clear and 5,000 characters
(ASCII: asyncssh refuses any other terminal type)."""
RESIGNED = "Orange (bob) resigned: Blue (ann) wins."
"""What a chat line's tail could pass for, if it started a row of the screen."""


def logged_line(server: RunningServer, text: str, timeout: float = 60) -> str:
    """The first line of the server's log that holds `text` (waited for)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in server.log.splitlines():
            if text in line:
                return line
        time.sleep(0.05)
    raise AssertionError(f"{text!r} not logged:\n{server.log}")


def printable_log(server: RunningServer, started: str) -> None:
    """The log holds the session's line with the terminal type shown escaped and cut,
    and nothing a terminal acts on, nor a forged line."""
    log = server.log
    assert "\x1b" not in log and "\x07" not in log
    assert not any(line.startswith(FORGED) for line in log.splitlines())
    assert "xterm\\n2026-01-01 00:00:00 root" in started
    assert "A" * 100 not in started and started.endswith("…)")
    assert len(started) < 150


def test_a_terminal_type_from_asyncssh_is_logged_as_one_printable_line(start_server) -> None:
    server: RunningServer = start_server()

    async def visit() -> None:
        conn, client = await connect(server.port, "ann", term_type=HOSTILE_TERM)
        await client.wait_for("abstracts-tui over SSH: you are ann")
        conn.close()

    asyncio.run(visit())
    printable_log(server, logged_line(server, "ann: session started"))


@needs_ssh
def test_a_terminal_type_from_openssh_is_logged_as_one_printable_line(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ssh = [*SSH, "-tt", "-p", str(server.port), "bob@127.0.0.1"]
    term = LineTerminal(home=tmp_path / "bob", env={"TERM": HOSTILE_TERM}, command=ssh)
    try:
        started = logged_line(server, "bob: session started")
    finally:
        term.process.kill()
        term.close()
    printable_log(server, started)


@needs_ssh
def test_a_commands_argument_is_answered_without_its_escapes(start_server) -> None:
    server: RunningServer = start_server()
    for command, said in (
        ("ratings \x1b]0;x\x07", b"there is no game \\x1b]0;x\\x07 ("),
        ("games \x1b[2J\u202e", b"'\\x1b[2J\\u202e' is not a player's name"),
    ):
        done = subprocess.run(
            [*SSH, "-T", "-p", str(server.port), "ann@127.0.0.1", command],
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert said in done.stderr
        for sent in (b"\x1b", b"\x07", "\u202e".encode()):
            assert sent not in done.stdout + done.stderr


def chat_rows(screen: list[str]) -> list[str]:
    """The rows of the chat panel's lines on `screen` (inside its border, above the
    field to type in), those with text."""
    top = next(number for number, row in enumerate(screen) if "╭─ Chat" in row)
    left, right = screen[top].index("╭"), screen[top].index("╮")
    inside = [row[left + 1 : right].rstrip() for row in screen[top + 1 :]]
    field = next(number for number, row in enumerate(inside) if "Say something" in row)
    return [row for row in inside[:field] if row]


def screen_rows(raw: bytes, width: int = 80) -> list[str]:
    """What a terminal `width` columns wide shows of `raw` (long lines wrapped by it)."""
    screen = pyte.Screen(width, 500)
    pyte.Stream(screen).feed(raw.decode("utf-8", "replace"))
    return [row.rstrip() for row in screen.display if row.strip()]


def test_chat_that_would_pass_for_the_server_or_shows_nothing(start_server, tmp_path: Path) -> None:
    """Bob, by lines, says a line padded with braille blanks and one padded with dots,
    each placing "Orange (bob) resigned..." where an 80-column terminal would start a row:
    Carl, watching by lines at 80 columns, and Ann, on the full screen 80 columns wide,
    see bob's name at the start of every row (Ann's panel is narrower: there the rows of
    the padding would start with it). A line of Hangul fillers is refused."""
    server: RunningServer = start_server()
    bob = carl = None

    async def play() -> None:
        nonlocal bob, carl
        ann_conn, ann, code = await create_room(server.port, "ann")
        ann.resize(80, 50)  # the panel beside the board, tall enough for every row
        bob = lines_of(server, "bob", tmp_path)
        await heard(bob, "Type")
        bob.send(f"join {code}")
        await heard(bob, "You play")
        carl = lines_of(server, "carl", tmp_path)
        await heard(carl, "Type")
        carl.send(f"watch {code}")
        await heard(carl, "You watch")
        await ann.wait_for("Blue to move (ann)")
        ann.send(";")
        await ann.wait_for("Say something")
        # "bob says: " and 69 cells, then a space: the 80th column.
        for padding in ("x" + "\u2800" * 68, "." * 69):
            bob.send(f"say {padding} {RESIGNED}")
            await heard(carl, "bob says")
        bob.send("say done")
        await heard(carl, "bob says: done")
        rows = screen_rows(bytes(carl.raw))  # as the terminal wraps them
        told = [row for row in rows if "resigned" in row]
        assert len(told) == 2, "\n".join(rows)
        assert all(row.startswith(("bob says: ", "bob goes on: ")) for row in told), "\n".join(rows)
        await ann.wait_for("bob: done")
        rows = chat_rows(ann.screen.display)
        said = " ".join(row.removeprefix("bob: ") for row in rows)
        assert said.count(RESIGNED) == 2, "\n".join(ann.screen.display)
        assert all(row.startswith("bob: ") for row in rows), "\n".join(ann.screen.display)
        bob.send("say " + "\u3164" * 20)
        assert await heard(bob, "Not said") == "Not said: There is nothing to say in that line."
        bob.send("say \u2800\u115f\u1160\uffa0\u200b")
        assert await heard(bob, "Not said") == "Not said: There is nothing to say in that line."
        for term in (bob, carl):
            term.send("quit")
        ann_conn.close()

    try:
        asyncio.run(play())
        for term in (bob, carl):
            assert term is not None and term.close() == 0
    finally:
        for term in (bob, carl):
            if term is not None and term.process.poll() is None:
                term.process.kill()


def test_chat_told_in_the_status_line_stays_on_its_one_row() -> None:
    """Where the panel is hidden, a line said is told in the status line: cut to its
    width, so that its tail cannot wrap onto a row of its own."""
    line = ChatLine("bob", "." * 100 + " " + RESIGNED)
    told = chat_panel.status_text(line, 80, "; opens the chat")
    assert len(told) <= 80 and told.startswith("bob: ....") and "resigned" not in told
    assert told.endswith("… (; opens the chat)")
    short = chat_panel.status_text(ChatLine("bob", "hello"), 80, "; opens the chat")
    assert short == "bob: hello (; opens the chat)"
