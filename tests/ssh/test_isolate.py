"""Each session's app in a process of its own (`serve`'s default): the messages between
the server and such a process, and a session whose process dies (the others play on).
The room played through processes by real clients is in `test_online_play.py` (OpenSSH)
and `tests/web/test_rooms.py` (a browser)."""

from __future__ import annotations

import asyncio
import ctypes
import os
import pickle
import signal
import socket
import struct
import time
from pathlib import Path
from typing import Any

import pytest

from abstracts_tui.commands import ChooseSide, Play, SetKomi
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.apply import apply
from abstracts_tui.rooms.link import Create, Hide, Kept, News, RoomView, Send, Show
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.server.messages import (
    HEADER,
    MAX_MESSAGE,
    Ask,
    Message,
    MessageError,
    Post,
    Reply,
    Tell,
    Typed,
    pack,
    read,
)
from abstracts_tui.session import Phase, Session
from tests.processes import left_after, session_processes
from tests.ssh.client import TIMEOUT, connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import ENTER, create_room


def read_back(data: bytes, *, restricted: bool = False) -> Message | None:
    async def main() -> Message | None:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return await read(reader, restricted=restricted)

    return asyncio.run(main())


def test_a_rooms_game_crosses_to_a_process_with_its_clock_and_keeper() -> None:
    session = Session.start(Setup("linage", clock="10m+5s", first="ann", second="bob"))
    session.now = lambda: 5000.0 + time.time()  # the store's clock: not the wall clock
    terms = RoomTerms(keeper=Kept("room k7m2", None))
    apply(session, terms, SetKomi(3.5), "ann", at=session.now())
    apply(session, terms, ChooseSide(1), "bob", at=session.now())
    session.play(session.game.move_name(session.game.legal_moves()[0]))
    message = read_back(pack(Reply(7, True, (session, terms))))
    assert isinstance(message, Reply) and (message.key, message.ok) == (7, True)
    copy, copy_terms = message.value
    assert isinstance(copy, Session) and copy is not session
    assert copy.record.to_sgf() == session.record.to_sgf()
    assert (copy.phase, copy.people) == (Phase.PLAY, session.people)
    assert copy.clock is not None and session.clock is not None
    assert copy.clock.sides == session.clock.sides
    assert copy.clock.running == session.clock.running
    assert abs(copy.now() - session.now()) < 1.0  # read by the same clock over there
    assert copy_terms == terms and copy_terms.keeper == Kept("room k7m2", None)
    assert not copy.listeners and not copy.saving_listeners


def test_what_is_not_a_message_is_refused() -> None:
    with pytest.raises(MessageError, match="at most"):
        read_back(HEADER.pack(MAX_MESSAGE + 1))
    body = pickle.dumps(None)
    with pytest.raises(MessageError, match="not a message"):
        read_back(HEADER.pack(len(body)) + body)
    assert read_back(b"") is None  # the other end closed


def test_the_server_reads_commands_and_setups_from_an_app_and_no_other_object() -> None:
    """An app's process reads what its client sends: the server takes plain values and
    the commands' and setups' classes from it, nothing that names a function."""
    call = Ask(3, Create(Setup("pilo", 8, clock="5m+3s"), True, False))
    assert read_back(pack(call), restricted=True) == call
    move = Ask(4, Send("k7m2", Play("c3")))
    assert read_back(pack(move), restricted=True) == move

    class Shell:
        def __reduce__(self) -> tuple[object, ...]:
            return (os.system, ("echo owned",))

    with pytest.raises(MessageError, match="which no message holds"):
        read_back(pack(Post(Hide(Shell()))), restricted=True)  # type: ignore[arg-type]
    with pytest.raises(MessageError, match="which no message holds"):
        read_back(pack(Ask(5, Send("k7m2", Session))), restricted=True)  # type: ignore[arg-type]
    # Of the link's and the messages' own classes, only what an app sends: not what the
    # server tells it, nor a room's view.
    with pytest.raises(MessageError, match="which no message holds"):
        read_back(pack(Tell(News("k7m2", "your move", True))), restricted=True)
    view = RoomView("k7m2", "pilo", "ann", None, False, False, None, "", "", "")
    with pytest.raises(MessageError, match="which no message holds"):
        read_back(pack(Ask(6, Show(view, 1))), restricted=True)  # type: ignore[arg-type]
    # A message of the old form, naming a method, is no message.
    old = pickle.dumps(("call", 7, "send_there", ("k7m2", Play("c3"))))
    with pytest.raises(MessageError, match="not a message"):
        read_back(HEADER.pack(len(old)) + old, restricted=True)


def test_an_end_closed_while_the_other_writes_is_the_end_of_its_messages() -> None:
    """A session's process that ends (its player's connection closed) as the server
    sends it a key: the server's write finds the socket closed, and its reading ends
    there, as at any end (not a failed app: its exit status says how it ended)."""

    async def closed_while_writing() -> tuple[Any, ...] | None:
        ours, theirs = socket.socketpair()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        theirs.close()
        writer.write(pack(Typed("\t")))
        await asyncio.sleep(0.1)  # the write fails: the reader holds the broken pipe
        try:
            return await read(reader, restricted=True)
        finally:
            writer.close()

    assert asyncio.run(closed_while_writing()) is None


def test_a_session_whose_process_dies_ends_and_the_others_play_on(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        await bob.wait_for("Blue to move (ann)")
        theirs = set(session_processes(server.process.pid))
        assert len(theirs) == 2
        carl_conn, carl = await connect(server.port, "carl", width=100, height=30)
        await carl.wait_for("you are carl")
        [carls] = set(session_processes(server.process.pid)) - theirs
        # carl's process dies (as a crash would end it): his session ends, saying so.
        os.kill(carls, signal.SIGKILL)
        await asyncio.wait_for(carl.closed.wait(), TIMEOUT)
        assert carl.chan is not None and carl.chan.get_exit_status() == 1
        # ann and bob play on.
        ann.send(ENTER)
        await bob.wait_for("(ann) plays d5")
        for conn in (ann_conn, bob_conn, carl_conn):
            conn.close()

    asyncio.run(play())
    assert "carl: session ended: the app failed (status 1)" in server.log, server.log
    assert left_after(server.process.pid, TIMEOUT) == [], server.log


def peer_socket(pid: int, creator: int) -> socket.socket | None:
    """A copy of process `pid`'s end of the socket pair that process `creator` made for
    it (the session's link to its server), taken with pidfd_getfd(2); None where the
    system does not allow it."""
    syscall = ctypes.CDLL(None, use_errno=True).syscall
    pidfd = os.pidfd_open(pid)
    try:
        for entry in Path(f"/proc/{pid}/fd").iterdir():
            if not os.readlink(entry).startswith("socket:"):
                continue
            fd = syscall(PIDFD_GETFD, pidfd, int(entry.name), 0)
            if fd < 0:
                return None
            copy = socket.socket(fileno=fd)
            try:
                credentials = copy.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
            except OSError:
                copy.close()
                continue
            if copy.family == socket.AF_UNIX and struct.unpack("3i", credentials)[0] == creator:
                return copy
            copy.close()
    finally:
        os.close(pidfd)
    return None


PIDFD_GETFD = 438
"""pidfd_getfd(2)'s number on Linux (the same on every architecture)."""


def test_a_message_the_server_does_not_expect_ends_only_that_session(start_server) -> None:
    """An app's process that sends what no app sends (a message of the old form, naming
    a method; a class of the link that only the server sends) is one line in the log and
    the end of that session only: the others play on."""
    server: RunningServer = start_server()
    view = RoomView("k7m2", "pilo", "ann", None, False, False, None, "", "", "")
    hostile = {
        "carl": pickle.dumps(("call", 1, "send_there", ("k7m2", Play("c3")))),
        "dan": pack(Post(Hide(view)))[HEADER.size :],  # type: ignore[arg-type]
    }

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        await bob.wait_for("Blue to move (ann)")
        players = set(session_processes(server.process.pid))
        others: list[Any] = []
        for name, body in hostile.items():
            before = set(session_processes(server.process.pid))
            conn, client = await connect(server.port, name, width=100, height=30)
            await client.wait_for(f"you are {name}")
            [pid] = set(session_processes(server.process.pid)) - before
            link = peer_socket(pid, server.process.pid)
            if link is None:
                pytest.skip("pidfd_getfd(2) is not allowed here")
            with link:
                link.sendall(HEADER.pack(len(body)) + body)
            await asyncio.wait_for(client.closed.wait(), TIMEOUT)
            others.append(conn)
        assert set(session_processes(server.process.pid)) == players
        ann.send(ENTER)
        await bob.wait_for("(ann) plays d5")
        for conn in (ann_conn, bob_conn, *others):
            conn.close()

    asyncio.run(play())
    for name, refusal in (
        ("carl", "not a message (tuple)"),
        ("dan", "holds abstracts_tui.rooms.link.RoomView, which no message holds"),
    ):
        said = [line for line in server.lines if line.split(" ", 2)[-1].startswith(f"{name}:")]
        refused = [line for line in said if "messages cannot be read" in line]
        assert len(refused) == 1 and refusal in refused[0], server.log
    assert "Traceback" not in server.log, server.log
    assert left_after(server.process.pid, TIMEOUT) == [], server.log
