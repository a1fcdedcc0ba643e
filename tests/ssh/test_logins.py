"""A connection that has logged in is there for its sessions: one with none open is
closed after `no_session_seconds` (30 s), since logging in or since its last session
ended, and its address's place goes to the next connection. Through asyncssh's client
against the real server, with the real bound."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator

import asyncssh
import pytest

from abstracts_tui.server.limits import Limits
from tests.ssh.client import TIMEOUT, connect
from tests.ssh.conftest import RunningServer

SECONDS = 30.0
"""`Limits.no_session_seconds`, which the test waits for."""


class Heard(logging.Handler):
    """The disconnect messages asyncssh's client received, from its own log (it gives
    the program no reason for a close "by application", which this one is)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.reasons: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "Received disconnect: " in message:
            self.reasons.append(message.split("Received disconnect: ", 1)[1])


@contextlib.contextmanager
def heard() -> Iterator[Heard]:
    logger = logging.getLogger("asyncssh")
    handler, level = Heard(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    asyncssh.set_debug_level(1)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def log_in(port: int, user: str) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=None, agent_path=None
    )


async def closed(conn: asyncssh.SSHClientConnection) -> None:
    await asyncio.wait_for(conn.wait_closed(), SECONDS + TIMEOUT)


def test_a_login_without_a_session_is_closed_and_its_place_given_to_a_player(
    start_server,
) -> None:
    server: RunningServer = start_server("--connections-per-address", "2")

    async def attempts() -> list[str]:
        # A player with the lobby open, from another address: its session keeps it.
        dan_conn, dan = await connect(server.port, "dan", local_addr=("127.0.0.2", 0))
        await dan.wait_for("you are dan")
        with heard() as client:
            began = time.monotonic()
            idle = await log_in(server.port, "ann")  # no channel at all
            after_command = await log_in(server.port, "bob")
            done = await after_command.run("games", timeout=TIMEOUT)  # as ssh -T host games
            assert done.exit_status == 0 and "code\tgame" in str(done.stdout)
            # Both hold the address's two places: a player from there is refused for now.
            with pytest.raises(asyncssh.DisconnectError) as refused:
                await log_in(server.port, "carl")
            assert refused.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
            await asyncio.gather(closed(idle), closed(after_command))
            assert time.monotonic() - began >= SECONDS - 1
        # Their places are free: the player from that address gets in.
        carl_conn, carl = await connect(server.port, "carl")
        await carl.wait_for("you are carl")
        # The player whose session was open all along is still there.
        assert not dan.closed.is_set() and "you are dan" in dan.text()
        for conn in (carl_conn, dan_conn):
            conn.close()
        return client.reasons

    reasons = asyncio.run(attempts())
    assert f"closed: no session opened within {SECONDS:g} seconds since logging in (11)" in (
        reasons
    )
    assert (
        f"closed: no session opened within {SECONDS:g} seconds since its last session ended (11)"
        in reasons
    )
    assert (
        f"closed a connection from 127.0.0.1 (ann): no session open for {SECONDS:g} seconds "
        "since logging in" in server.log
    )
    assert "(bob): no session open for 30 seconds since its last session ended" in server.log
    assert "(dan): no session" not in server.log
    assert "Traceback" not in server.log
    assert Limits().no_session_seconds == SECONDS
