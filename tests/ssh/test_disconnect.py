"""Clients that close their input or their channel: the session ends quietly, the game stays."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time

import pytest

from tests.ssh.client import TIMEOUT, connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import ENTER, first_move_played


async def wait_for_log(server: RunningServer, text: str, count: int = 1) -> None:
    deadline = time.monotonic() + TIMEOUT
    while server.log.count(text) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} not {count} times in the server's log:\n{server.log}")
        await asyncio.sleep(0.1)


def test_closed_input_and_closed_channel_end_quietly_and_keep_the_game(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, bob_conn, code = await first_move_played(server.port)

        # Ann's client says it will send nothing more: her session ends, the terminal is
        # put back (the alternate screen left) and the exit status arrives.
        assert ann.chan is not None
        ann.chan.write_eof()
        await asyncio.wait_for(ann.closed.wait(), TIMEOUT)
        assert "\x1b[?1049l" in ann.output()
        assert ann.chan.get_exit_status() == 0
        ann_conn.close()

        # Bob's client closes the channel while the server may still be drawing on it.
        bob_conn.close()
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await bob.wait_for("Pie rule")
        bob.resize(90, 28)
        assert bob.chan is not None
        bob.chan.close()
        await asyncio.wait_for(bob.closed.wait(), TIMEOUT)
        bob_conn.close()
        await wait_for_log(server, "session ended", 3)

        # The game is kept: Ann finds it in the lobby and her seat in it.
        ann_conn, ann = await connect(server.port, "ann")
        await ann.wait_for(f"{code}  Petrify 8x8  ann - bob  Orange to move (bob)")
        ann.send(ENTER)
        await ann.wait_for("1. Blue", "e5", "Orange to move (bob)")
        ann_conn.close()

    asyncio.run(play())
    assert "closed its input" in server.log
    assert "Traceback" not in server.log and "Error" not in server.log, server.log


@pytest.mark.skipif(not shutil.which("ssh"), reason="needs OpenSSH's ssh")
def test_openssh_with_its_input_closed_leaves_no_traceback(start_server) -> None:
    server: RunningServer = start_server()
    ssh = ["ssh", "-tt", "-F", "/dev/null", "-p", str(server.port)]
    ssh += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
    ssh += ["-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "ann@127.0.0.1"]
    for _ in range(2):  # as `(sleep 3) | ssh -tt ...` does: the pipe closes once the app runs
        client = subprocess.Popen(
            ssh, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        asyncio.run(wait_for_log(server, "ann: session started", _ + 1))
        assert client.stdin is not None
        client.stdin.close()
        assert client.wait(TIMEOUT) == 0
    asyncio.run(wait_for_log(server, "ann: session ended", 2))
    assert server.log.count("ann: the client closed its input") == 2
    assert "Traceback" not in server.log and "Error" not in server.log, server.log
