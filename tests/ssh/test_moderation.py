"""Abuse handling through the real server and OpenSSH's client: `mute`, `block` and
`report` over `ssh -T` and in line mode's lobby, a muted player's chat hidden, a block
keeping two people from playing, the admins' `reports` and `suspend` (a suspended name
cannot sign in), and the limit on aborts."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

from abstracts_tui.records.results import VOID
from abstracts_tui.rooms.events import Ended, Joined, Made, Stamped
from abstracts_tui.server.moderation import ABORTS_PER_DAY, REASON_LIMIT
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore
from tests.openssh import SSH, needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of, no_escapes

pytestmark = needs_ssh


def ask(server: RunningServer, user: str, *words: str) -> subprocess.CompletedProcess[str]:
    """`ssh -T user@host WORDS...` through OpenSSH."""
    done = subprocess.run(
        [*SSH, "-p", str(server.port), f"{user}@127.0.0.1", "-T", *words],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, *map(bytes.decode, (done.stdout, done.stderr))
    )


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_mute_block_report_and_an_admins_suspension_over_ssh(
    start_server, request: pytest.FixtureRequest, kind: str
) -> None:
    database = ["--database", request.getfixturevalue("database_url")] if kind != "sqlite" else []
    server: RunningServer = start_server("--admin", "root", *database)
    muted = ask(server, "ann", "mute", "bob")
    assert (muted.returncode, muted.stdout) == (0, "bob's chat is hidden from you.\n")
    assert ask(server, "ann", "mute", "bob").stdout == "bob is muted already.\n"
    assert ask(server, "ann", "block", "carl").stdout == (
        "carl is blocked: their chat is hidden, and you do not play each other.\n"
    )
    assert ask(server, "ann", "mute").stdout == "bob\n"
    assert ask(server, "ann", "block").stdout == "carl\n"
    assert ask(server, "ann", "unblock", "carl").stdout == "carl is no longer blocked.\n"
    assert ask(server, "ann", "block").stdout == ""
    self_muted = ask(server, "ann", "mute", "ann")
    assert (self_muted.returncode, self_muted.stderr) == (
        2,
        "abstracts-tui: you cannot mute yourself.\n",
    )

    reported = ask(server, "ann", "report", "bob", "rude", "in", "chat")
    assert reported.stdout == "bob is reported to the server's admins. Thank you.\n"
    again = ask(server, "ann", "report", "bob", "still rude")
    assert (again.returncode, again.stderr) == (
        1,
        "abstracts-tui: you reported bob in the last 24 hours already.\n",
    )
    no_reason = ask(server, "ann", "report", "bob")
    assert (no_reason.returncode, no_reason.stderr) == (
        2,
        "abstracts-tui: say why: report NAME REASON.\n",
    )
    long = ask(server, "dan", "report", "bob", "x" * (REASON_LIMIT + 1))
    assert long.returncode == 2
    assert (
        long.stderr
        == f"abstracts-tui: a reason is at most {REASON_LIMIT} characters (301 given).\n"
    )

    # The reports are the admins' only.
    not_admin = ask(server, "ann", "reports")
    assert (not_admin.returncode, not_admin.stderr) == (
        1,
        "abstracts-tui: only the server's admins can use reports.\n",
    )
    table = ask(server, "root", "reports")
    assert table.returncode == 0, table.stderr
    rows = [line.split("\t") for line in table.stdout.splitlines()]
    assert rows[0] == ["date (UTC)", "reporter", "reported", "reason"]
    assert [row[1:] for row in rows[1:]] == [["ann", "bob", "rude in chat"]]

    # A suspended name cannot sign in: told until when, and why.
    assert ask(server, "bob", "games").returncode == 0
    suspended = ask(server, "root", "suspend", "bob", "2", "abuse", "in", "chat")
    found = re.fullmatch(r"bob is suspended until (\S+ \S+) UTC\.\n", suspended.stdout)
    assert found, suspended
    refused = ask(server, "bob", "games")
    assert refused.returncode == 1  # said as the server's other refusals of a session
    assert refused.stdout == (
        f"abstracts-tui: bob is suspended until {found.group(1)} UTC (abuse in chat).\r\n"
    )
    assert ask(server, "ann", "suspend", "carl", "spam").returncode == 1  # not an admin
    assert ask(server, "root", "unsuspend", "bob").stdout == "bob may sign in again.\n"
    assert ask(server, "bob", "games").returncode == 0
    assert ask(server, "root", "unsuspend", "bob").returncode == 1


def test_a_muted_players_chat_is_hidden_and_a_block_keeps_two_apart_in_line_mode(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("mute bob")
        assert ann.wait_for("bob's") == "bob's chat is hidden from you."
        ann.send("mute")
        assert ann.wait_for("You mute") == "You mute bob."
        ann.send("mute ann")
        assert ann.wait_for("Not done") == "Not done: you cannot mute yourself."
        ann.send("new pilo 6")
        code = re.fullmatch(r"Room (\w{4}): .*", ann.wait_for("Room ")).group(1)  # type: ignore[union-attr]
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        assert bob.wait_for("Blue to move") == "Blue to move (ann)."
        # Bob's line is not told to Ann, who muted him; hers is told to him.
        bob.send("say hello ann")
        ann.send("c3")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c3."
        bob.send("d3")
        assert ann.wait_for("Orange (bob)") == "Orange (bob) plays d3."
        assert not any("hello ann" in line for line in ann.lines())
        ann.send("say hi bob")
        assert bob.wait_for("ann says") == "ann says: hi bob"
        bob.send("leave")
        bob.wait_for("You leave")

        # Bob blocks Ann: her open challenge is not in his lobby, and he cannot take it.
        assert ask(server, "bob", "block", "ann").returncode == 0
        ann.send("leave")
        ann.wait_for("You leave")
        ann.send("new egotzi 5 open unrated")
        challenge = re.fullmatch(r"Room (\w{4}): .*", ann.wait_for("Room ")).group(1)  # type: ignore[union-attr]
        bob.send("lobby")
        assert bob.wait_for("Open challenges") == "Open challenges: none."
        bob.send(f"join {challenge}")
        assert bob.wait_for("You and ann") == (
            "You and ann do not play each other (a block): you watch."
        )
        bob.send("leave")
        bob.wait_for("You leave")
        bob.send("unblock ann")
        assert bob.wait_for("ann is") == "ann is no longer blocked."
        bob.send("lobby")
        assert bob.wait_for("Open challenges") == "Open challenges:"
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
        no_escapes(ann)
        no_escapes(bob)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_aborts_past_the_days_limit_are_refused_with_when_they_are_allowed(
    start_server, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "server.db")
    first = time.time() - 3600
    setup = RoomSetup("pilo", 8, creator="ann")
    for number in range(ABORTS_PER_DAY):
        at = first + number
        events = (
            Stamped(1, at - 2, Made("ann", "pilo", 8)),
            Stamped(2, at - 1, Joined("bob")),
            Stamped(3, at, Ended(Ended.ABORTED, None, None, "The game is aborted.", by="ann")),
        )
        finish = Finish(VOID, None)
        store.save_room(RoomSave(f"ab{number:02}", setup, "bob", None, finish, events=events))
    store.close()
    server: RunningServer = start_server(data=data)
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        code = re.fullmatch(r"Room (\w{4}): .*", ann.wait_for("Room ")).group(1)  # type: ignore[union-attr]
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        ann.send("abort")
        ann.send("yes")
        again = time.strftime("%H:%M UTC", time.gmtime(first + 86_400))
        assert ann.wait_for("You have aborted") == (
            f"You have aborted {ABORTS_PER_DAY} games in 24 hours: you may abort again at "
            f"{again}; resign instead, or play on."
        )
        bob.send("abort")  # Bob has aborted none
        bob.send("yes")
        for term in (ann, bob):
            assert term.wait_for("The game is aborted") == (
                "The game is aborted: no result, unrated."
            )
        for term in (ann, bob):
            term.send("quit")
        for term in (ann, bob):
            assert term.close() == 0
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_a_game_is_claimed_only_once_the_other_player_has_been_gone_a_minute(
    start_server, tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    bob = lines_of(server, "bob", tmp_path)
    try:
        ann.wait_for("Type new")
        ann.send("new pilo 6")
        code = re.fullmatch(r"Room (\w{4}): .*", ann.wait_for("Room ")).group(1)  # type: ignore[union-attr]
        bob.wait_for("Type new")
        bob.send(f"join {code}")
        assert ann.wait_for("bob joined") == "bob joined the room: the game begins."
        ann.send("claim")  # nobody has left, and each side has not moved yet
        assert ann.wait_for("Each side") == (
            "Each side has not moved yet: abort the game instead (no result, unrated)."
        )
        ann.send("c3")
        assert bob.wait_for("Blue (ann)") == "Blue (ann) plays c3."
        bob.send("d3")
        assert ann.wait_for("Orange (bob)") == "Orange (bob) plays d3."
        ann.send("claim")
        assert ann.wait_for("There is nothing") == "There is nothing to claim: bob is in the room."
        bob.send("quit")
        assert bob.close() == 0
        assert ann.wait_for("bob has left") == "bob has left the room; their seat is kept."
        ann.send("claim")
        early = ann.wait_for("Not yet")
        assert re.fullmatch(
            r"Not yet: bob left \d+s ago, and the game may be claimed once they have been "
            r"gone for 1m \(in \d+s\)\.",
            early,
        ), early
        ann.send("quit")
        assert ann.close() == 0
        no_escapes(ann)
    finally:
        for term in (ann, bob):
            if term.process.poll() is None:
                term.process.kill()


def test_a_game_left_for_two_minutes_is_claimed_as_a_rated_win(
    start_server, tmp_path: Path
) -> None:
    from abstracts_tui.game_setup import Setup
    from abstracts_tui.rooms.events import Arrived, Left, MovePlayed
    from abstracts_tui.session import Session

    data = tmp_path / "data"
    data.mkdir()
    session = Session.start(Setup("pilo", 6, None, None, "ann", "bob"))
    session.play("c3")
    session.play("d3")
    now = time.time()
    events = (
        Stamped(1, now - 300, Made("ann", "pilo", 6, rated=True, title="Pilo 6x6")),
        Stamped(2, now - 290, Joined("bob")),
        Stamped(3, now - 290, Arrived("ann")),
        Stamped(4, now - 290, Arrived("bob")),
        Stamped(5, now - 280, MovePlayed("ann", 0, "c3", "Blue (ann) plays c3.")),
        Stamped(6, now - 270, MovePlayed("bob", 1, "d3", "Orange (bob) plays d3.")),
        Stamped(7, now - 120, Left("bob")),
    )
    store = SqliteStore(data / "server.db")
    setup = RoomSetup("pilo", 6, creator="ann", rated=True)
    store.save_room(RoomSave("k7m2", setup, "bob", session.record.to_sgf(), events=events))
    store.close()
    server: RunningServer = start_server("--rated", data=data)
    ann = lines_of(server, "ann", tmp_path)
    try:
        ann.wait_for("Type")
        ann.send("join k7m2")
        assert ann.wait_for("Blue to move") == "Blue to move (ann)."
        ann.send("claim")
        assert ann.wait_for("The game is over") == (
            "The game is over: Orange (bob) left the game: Blue (ann) wins."
        )
        assert ann.wait_for("Ratings:").startswith("Ratings: ann ")
        ann.send("quit")
        assert ann.close() == 0
    finally:
        if ann.process.poll() is None:
            ann.process.kill()
    record = ask(server, "ann", "export", "k7m2")
    assert "RE[B+F]" in record.stdout, record
    games = ask(server, "bob", "games", "bob").stdout.splitlines()
    assert games[1].split("\t")[:4] == [
        "k7m2",
        "Pilo 6x6",
        "ann - bob",
        "ann won by forfeit (blue+F)",
    ]
