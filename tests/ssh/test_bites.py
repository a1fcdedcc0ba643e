"""A client's connection is read a bite a turn of the loop (abstracts_tui.server.bites):
a flood waits in the kernel between bites while the loop serves the others, on a real
loopback connection; and the libraries' transports still have what the bite sets."""

from __future__ import annotations

import asyncio
import itertools
import logging
import select
import socket
import threading
import time
from collections import Counter
from typing import Any

import asyncssh
import pytest

from abstracts_tui.server import bites
from abstracts_tui.server.bites import (
    ACCEPT_BITE,
    READ_BITE,
    bite_connection,
    bite_reads,
    queue_accepts,
)

FLOOD = 1024 * 1024


class Reads(asyncio.Protocol):
    """Notes the size of each read, and how many turns of a ticker came before it."""

    def __init__(self, bite: bool, ticks: list[int]) -> None:
        self.bite = bite
        self.ticks = ticks
        self.reads: list[tuple[int, int]] = []
        self.done = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: Any) -> None:
        if self.bite:
            assert bite_reads(transport)

    def data_received(self, data: bytes) -> None:
        self.reads.append((len(data), self.ticks[0]))
        if sum(size for size, _ in self.reads) >= FLOOD and not self.done.done():
            self.done.set_result(None)


async def flooded(bite: bool) -> list[tuple[int, int]]:
    """The reads of a megabyte sent at once over loopback, and the ticker's turns."""
    loop = asyncio.get_running_loop()
    ticks = [0]
    protocols: list[Reads] = []

    def made() -> Reads:
        protocols.append(Reads(bite, ticks))
        return protocols[-1]

    server = await loop.create_server(made, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]

    def send() -> None:
        with socket.create_connection(("127.0.0.1", port)) as client:
            client.sendall(b"x" * FLOOD)

    def tick() -> None:  # once a turn of the loop, until the flood is read
        ticks[0] += 1
        if not protocols or not protocols[0].done.done():
            loop.call_soon(tick)

    sender = threading.Thread(target=send)
    sender.start()
    tick()
    try:
        while not protocols:
            await asyncio.sleep(0.01)
        await asyncio.wait_for(protocols[0].done, 30)
    finally:
        sender.join()
        server.close()
    return protocols[0].reads


def test_a_flood_is_read_a_bite_at_a_time_between_the_loops_other_work() -> None:
    reads = asyncio.run(flooded(bite=True))
    assert max(size for size, _ in reads) <= READ_BITE
    assert sum(size for size, _ in reads) == FLOOD
    # Each bite in a turn of its own: the ticker ran between one read and the next.
    turns = [tick for _, tick in reads]
    assert sum(1 for a, b in itertools.pairwise(turns) if b > a) >= len(reads) - 2


def test_without_the_bite_asyncio_reads_far_more_at_once() -> None:
    """The measure above is not the kernel's doing: the same flood read as asyncio reads
    it comes in reads of more than a bite."""
    reads = asyncio.run(flooded(bite=False))
    assert max(size for size, _ in reads) > READ_BITE


def test_an_asyncssh_connection_has_the_transport_the_bite_sets() -> None:
    """asyncssh's connection keeps an asyncio transport with a read size (its internals,
    which this relies on)."""
    bitten: list[bool] = []

    class Server(asyncssh.SSHServer):
        def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
            bitten.append(bite_connection(conn))

        def begin_auth(self, username: str) -> bool:
            return False  # anyone is let in

    async def run() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        listener = await asyncssh.listen(
            "127.0.0.1", 0, server_host_keys=[key], server_factory=Server
        )
        port = listener.sockets[0].getsockname()[1]
        try:
            async with asyncssh.connect(
                "127.0.0.1", port, username="ann", known_hosts=None, client_keys=None
            ):
                pass
        finally:
            listener.close()

    asyncio.run(run())
    assert bitten == [True]


def test_a_transport_without_a_read_size_is_read_as_before_and_said_once(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bites, "said", False)
    with caplog.at_level(logging.WARNING, logger="abstracts_tui.server.bites"):
        assert not bite_reads(object())
        assert not bite_connection(object())
        assert not bite_reads(None)
    [said] = [record.getMessage() for record in caplog.records]
    assert f"not {READ_BITE} bytes at a time" in said


def test_a_browser_page_has_the_transport_the_bite_sets() -> None:
    """aiohttp hands a page's request an asyncio transport with a read size (what the
    browser mode's pages are read through)."""
    web = pytest.importorskip(
        "aiohttp.web", reason="the browser mode is not installed (pip install '.[web]')"
    )
    from aiohttp import ClientSession

    async def handle(request: Any) -> Any:
        return web.Response(text=str(bite_reads(request.transport)))

    async def run() -> str:
        app = web.Application()
        app.router.add_get("/", handle)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            async with ClientSession() as session, session.get(f"http://127.0.0.1:{port}/") as got:
                return await got.text()
        finally:
            await runner.cleanup()

    assert asyncio.run(run()) == "True"


def test_a_storm_of_connections_waits_in_the_kernel_and_is_accepted_a_few_a_turn() -> None:
    """60 connections at once while the loop is busy: the kernel completes them all
    (its queue given `ACCEPT_QUEUE` again after asyncio's listen), and the loop then
    starts at most `ACCEPT_BITE` of them a turn."""
    count = 60

    async def run() -> tuple[int, list[int]]:
        loop = asyncio.get_running_loop()
        turn = [0]
        made: list[int] = []

        class Made(asyncio.Protocol):
            def connection_made(self, transport: Any) -> None:
                made.append(turn[0])

        server = await loop.create_server(Made, "127.0.0.1", 0, backlog=ACCEPT_BITE)
        queue_accepts(server.sockets)
        port = server.sockets[0].getsockname()[1]
        clients = [socket.socket() for _ in range(count)]
        try:
            # The loop held (this test runs on it): only the kernel takes them.
            for client in clients:
                client.setblocking(False)
                client.connect_ex(("127.0.0.1", port))
            _, writable, _ = select.select([], clients, [], 2.0)
            time.sleep(0.5)
            _, writable, _ = select.select([], clients, [], 0)
            completed = sum(
                1 for c in writable if c.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
            )

            def tick() -> None:
                turn[0] += 1
                if len(made) < count:
                    loop.call_soon(tick)

            tick()
            for _ in range(500):
                if len(made) >= count:
                    break
                await asyncio.sleep(0.01)
            return completed, made
        finally:
            for client in clients:
                client.close()
            server.close()

    completed, made = asyncio.run(run())
    assert completed == count  # none left to TCP's retries
    assert len(made) == count
    assert max(Counter(made).values()) <= ACCEPT_BITE
