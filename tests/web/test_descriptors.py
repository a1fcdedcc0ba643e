"""`serve --web` under a small limit of open files, set for the server's process by the
test: a flood of half-sent requests on the web port leaves SSH's logins their
descriptors, and descriptors run out (a flood on the SSH port) are a line in the log now
and then, never a traceback for each connection."""

from __future__ import annotations

import asyncio
import contextlib
import re
import resource
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer

LIMITED = (
    "import resource, runpy, sys; "
    "limit = int(sys.argv.pop(1)); "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit)); "
    "sys.argv[0] = 'abstracts-tui'; "
    "runpy.run_module('abstracts_tui', run_name='__main__')"
)
"""Runs `python -m abstracts_tui` with a soft and hard limit of open files: the first
argument."""


@pytest.fixture(autouse=True)
def many_files() -> Iterator[None]:
    """The test's own process opens hundreds of sockets: its soft limit at its hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def limited_server(data: Path, limit: int) -> RunningServer:
    server = RunningServer(
        data, ["--web", "127.0.0.1:0"], program=[sys.executable, "-c", LIMITED, str(limit)]
    )
    return server.wait_listening()


def web_port(server: RunningServer) -> int:
    found = re.search(r"web: listening on http://127\.0\.0\.1:(\d+)/", server.log)
    assert found, server.log
    return int(found.group(1))


async def hold(port: int, addresses: int, each: int, data: bytes) -> list[asyncio.StreamWriter]:
    """`each` connections from each of `addresses` loopback addresses, each sent `data`
    and held open (those the server refuses or cannot take are held too; one that the
    kernel's queue has no room for is given up after a second)."""
    held = []
    for n in range(addresses):
        for _ in range(each):
            with contextlib.suppress(OSError, TimeoutError):
                opening = asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(f"127.0.1.{n + 1}", 0)
                )
                _, writer = await asyncio.wait_for(opening, 1)
                writer.write(data)
                held.append(writer)
    return held


def test_half_sent_requests_under_few_descriptors_leave_ssh_logins_in(tmp_path: Path) -> None:
    server = limited_server(tmp_path / "data", 256)

    async def test() -> None:
        # 400 connections with half a head, from 40 addresses (10 each: within what one
        # address may hold): the web listener takes its share of the 256 and refuses
        # the rest at once.
        flood = await hold(web_port(server), 40, 10, b"GET / HTTP/1.1\r\nHost: x\r\n")
        await asyncio.sleep(1)
        try:
            conn, zed = await connect(server.port, "zed", local_addr=("127.0.0.200", 0))
            await zed.wait_for("you are zed", timeout=20)
            conn.close()
        finally:
            for writer in flood:
                writer.close()

    try:
        asyncio.run(test())
    finally:
        server.stop()
    log = server.log
    assert "at most 256 open files (the system's hard limit)" in log
    refused = [line for line in log.splitlines() if "web: refused a connection" in line]
    assert 1 <= len(refused) <= 3, refused
    assert "connections that are not pages are open, the most the listener takes" in log
    assert "Traceback" not in log


def test_descriptors_run_out_are_a_line_now_and_then(tmp_path: Path) -> None:
    """Silent connections to the SSH port from 30 addresses take every descriptor for a
    few seconds: the accepts that fail are one line, and once they are gone a login
    gets in."""
    server = limited_server(tmp_path / "data", 128)

    async def test() -> None:
        flood = await hold(server.port, 30, 10, b"")
        await asyncio.sleep(3)
        for writer in flood:
            writer.close()
        await asyncio.sleep(1)
        conn, zed = await connect(server.port, "zed", local_addr=("127.0.0.200", 0))
        await zed.wait_for("you are zed", timeout=20)
        conn.close()

    try:
        asyncio.run(test())
    finally:
        server.stop()
    log = server.log
    failed = [line for line in log.splitlines() if "could not be accepted" in line]
    assert 1 <= len(failed) <= 2, failed
    assert "Too many open files (at most 128 open files)" in failed[0]
    assert "Traceback" not in log
    assert "out of system resource" not in log
