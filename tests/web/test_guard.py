"""What both web listeners (`abstracts-tui web` and `serve --web`) take before a request
is a page: the names they answer for (a page of another name, as DNS rebinding makes
one, gets no cookie and no socket), the time a request's head may take, the
connections one address may hold, malformed requests (one line in the log), and a
websocket's frames (masked, as RFC 6455 asks). Real servers in subprocesses; the clients
are aiohttp's and raw sockets from several loopback addresses."""

from __future__ import annotations

import asyncio
import base64
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest

from abstracts_tui.server.web.address import Address, served_names, split_host
from abstracts_tui.server.web.guard import (
    CONNECTIONS_PER_ADDRESS,
    HEAD_SECONDS,
    MISDIRECTED,
    TOO_MANY,
    MaskCheck,
)
from abstracts_tui.server.web.signin import COOKIE as PLAYER
from tests.ssh.conftest import RunningServer
from tests.web.server import WebServer

VISITOR = "abstracts_tui_visitor"
TIMEOUT = 60.0


@contextmanager
def visitors_server(tmp_path: Path, *args: str) -> Iterator[WebServer]:
    server = WebServer(tmp_path / "web", *args).wait()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def rooms_server(tmp_path: Path, *args: str) -> Iterator[tuple[RunningServer, str]]:
    """`serve --web` on loopback (a name is enough to sign in), and its page's address."""
    server = RunningServer(tmp_path / "data", ["--web", "127.0.0.1:0", *args])
    try:
        server.wait_listening()
        found = re.search(r"web: listening on (http://\S+/)", server.log)
        assert found, server.log
        yield server, found.group(1)
    finally:
        server.stop()
        print("the server's log:\n" + server.log)  # shown with a failure


def session(address: str = "127.0.0.1") -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        connector=aiohttp.TCPConnector(local_addr=(address, 0)),
    )


def port_of(url: str) -> int:
    found = re.search(r":(\d+)/", url)
    assert found, url
    return int(found.group(1))


# -- the names served (no server) ---------------------------------------------------------


def test_the_names_served_are_the_listeners_and_the_public_urls() -> None:
    loopback = served_names("127.0.0.1", 8000, ["127.0.0.1"])
    assert loopback.serves("127.0.0.1:8000") and loopback.serves("localhost:8000")
    assert loopback.serves("LOCALHOST:8000")  # a browser may keep the case typed
    for other in ("evil.example:8000", "127.0.0.1:8001", "127.0.0.1", "localhost.:8000"):
        assert not loopback.serves(other), other
    assert not loopback.serves("127.0.0.2:8000")  # not where it listens
    six = served_names("::1", 8000, ["::1"])
    assert six.serves("[::1]:8000") and six.serves("[0:0:0:0:0:0:0:1]:8000")
    assert six.serves("localhost:8000") and not six.serves("[::2]:8000")
    # On every address: any address at the port (none can be made to point elsewhere),
    # localhost, and no name.
    everywhere = served_names("0.0.0.0", 8080, ["0.0.0.0"])
    assert everywhere.serves("192.0.2.7:8080") and everywhere.serves("[2001:db8::1]:8080")
    assert everywhere.serves("localhost:8080")
    assert not everywhere.serves("games.example.org:8080")
    assert not everywhere.serves("192.0.2.7:8081")
    # Port 80 is the one a browser leaves out.
    assert served_names("127.0.0.1", 80).serves("127.0.0.1")
    # --public-url's host, at any port (a proxy passes it on with or without its own).
    public = Address("https", "games.example.org")
    named = served_names("127.0.0.1", 8000, ["127.0.0.1"], public)
    assert named.serves("games.example.org") and named.serves("Games.Example.org:443")
    assert not named.serves("evil.example")
    assert split_host('x"><script>') is None


def test_the_mask_check_follows_frames_across_reads() -> None:
    def frame(payload: bytes, *, masked: bool = True) -> bytes:
        size = len(payload)
        if size < 126:
            head = bytes([0x81, size | (0x80 if masked else 0)])
        elif size < 65536:
            head = bytes([0x81, 126 | (0x80 if masked else 0)]) + size.to_bytes(2, "big")
        else:
            head = bytes([0x81, 127 | (0x80 if masked else 0)]) + size.to_bytes(8, "big")
        return head + (b"\x01\x02\x03\x04" if masked else b"") + payload

    # Masked frames of each length's form, a byte at a time and whole: all taken (an
    # unmasked-looking byte inside a payload is not a frame's head).
    stream = frame(b"\x00" * 5) + frame(b"\x01" * 300) + frame(b"\x7f" * 70_000) + frame(b"")
    whole = MaskCheck()
    assert whole.feed(stream)
    bytewise = MaskCheck()
    assert all(bytewise.feed(stream[i : i + 1]) for i in range(len(stream)))
    # The next frame unmasked: found, whether it comes whole or its head cut in two.
    bad = frame(b"hello", masked=False)
    assert not MaskCheck().feed(stream + bad)
    cut = MaskCheck()
    assert cut.feed(stream + bad[:1])
    assert not cut.feed(bad[1:])


# -- names, cookies and sockets ---------------------------------------------------------------


async def refused_socket(client: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> int:
    """The status of a websocket handshake that must be refused."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(url.replace("http://", "ws://") + "ws", headers=headers)
    return refused.value.status


def test_a_page_of_another_name_gets_no_visitors_cookie_and_no_socket(tmp_path: Path) -> None:
    """`abstracts-tui web`: the page as DNS rebinding serves it (its name points at
    127.0.0.1) is refused on every route, before its cookie; the page's own names work."""

    async def test(url: str) -> None:
        port = port_of(url)
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        async with session() as client:
            for path in ("", "static/css/xterm.css", "download/x", "nowhere"):
                async with client.get(url + path, headers=evil) as answer:
                    assert answer.status == 421, path
                    assert await answer.text() == MISDIRECTED
                    assert "Set-Cookie" not in answer.headers
            assert not list(client.cookie_jar)
            # A visitor's own cookie (as the browser has it) does not open a socket either.
            async with client.get(url) as page:
                assert page.status == 200
            assert [c.key for c in client.cookie_jar] == [VISITOR]
            assert await refused_socket(client, url, evil) == 421
            # Nor a page of another site on a name served (localhost at another port).
            other = {"Origin": f"http://localhost:{port + 1}"}
            assert await refused_socket(client, url, other) == 403
        # The page's own names: its address, and localhost at its port.
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            async with session() as client:
                own = {"Host": host, "Origin": f"http://{host}"}
                async with client.get(url, headers={"Host": host}) as page:
                    assert page.status == 200
                    assert f'data-session-websocket-url="ws://{host}/ws"' in await page.text()
                socket = await client.ws_connect(url.replace("http", "ws") + "ws", headers=own)
                assert (await socket.receive(TIMEOUT)).type == aiohttp.WSMsgType.BINARY
                await socket.close()

    with visitors_server(tmp_path) as server:
        asyncio.run(test(server.url))
        log = "".join(server.lines)
    assert f"refused a request for the host evil.example:{port_of(server.url)}" in log
    assert log.count("refused a request for the host") == 1  # a flood is one line at first
    assert "Traceback" not in log


def test_a_page_of_another_name_cannot_sign_in_or_open_a_socket(tmp_path: Path) -> None:
    """`serve --web` on loopback, where a name is enough: the rebinding page's sign-in
    gets no cookie, its socket no app, even with a player's cookie; the page's own
    names sign in and play."""

    async def test(url: str) -> None:
        port = port_of(url)
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        async with session() as client:
            async with client.post(url + "signin", data={"name": "ann"}, headers=evil) as answer:
                assert answer.status == 421
                assert "Set-Cookie" not in answer.headers
            async with client.post(url + "signout", headers=evil) as answer:
                assert answer.status == 421
            assert not list(client.cookie_jar)
            # With the player's cookie, from her own page's sign-in at localhost.
            own = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}
            async with client.post(
                url + "signin", data={"name": "ann"}, headers=own, allow_redirects=False
            ) as answer:
                assert answer.status == 303
                assert answer.headers["Location"] == f"http://localhost:{port}/"
            assert [c.key for c in client.cookie_jar] == [PLAYER]
            assert await refused_socket(client, url, evil) == 421
            # The Origin is checked against the names served, not against the Host.
            spoofed = {"Origin": f"http://evil.example:{port}"}
            assert await refused_socket(client, url, spoofed) == 403
            async with client.post(url + "signin", data={"name": "bob"}, headers=spoofed) as no:
                assert no.status == 403
            socket = await client.ws_connect(url.replace("http", "ws") + "ws", headers=own)
            assert (await socket.receive(TIMEOUT)).type == aiohttp.WSMsgType.BINARY
            await socket.close()

    with rooms_server(tmp_path) as (server, url):
        asyncio.run(test(url))
        assert f"refused a request for the host evil.example:{port_of(url)}" in server.log
        assert "ann signed in from 127.0.0.1 (web)" in server.log
        assert "bob signed in" not in server.log


def test_behind_a_trusted_proxy_the_host_it_says_is_taken(tmp_path: Path) -> None:
    """With --behind-proxy the host the proxy forwards is taken as it says; a request
    that names none (not through the proxy) is held to the names served; with
    --public-url too, the proxy's word must be that host."""

    async def test(url: str, pinned: bool) -> None:
        port = port_of(url)
        async with session() as client:
            said = {"X-Forwarded-Host": "games.example.org", "X-Forwarded-Proto": "https"}
            async with client.get(url, headers=said) as page:
                assert page.status == 200
            async with client.get(url, headers={"X-Forwarded-Host": "evil.example"}) as page:
                assert page.status == (421 if pinned else 200)
            async with client.get(url, headers={"Host": f"evil.example:{port}"}) as page:
                assert page.status == 421

    for pinned in (False, True):
        args = ["--behind-proxy"]
        if pinned:
            args += ["--public-url", "https://games.example.org/"]
        with visitors_server(tmp_path / str(pinned), *args) as server:
            asyncio.run(test(server.url, pinned))


# -- what a connection may hold -------------------------------------------------------------


async def closed_after(reader: asyncio.StreamReader, limit: float) -> tuple[float, bytes]:
    """Seconds until the server closes the connection (its last words)."""
    start = time.monotonic()
    said = await asyncio.wait_for(reader.read(), limit)
    return time.monotonic() - start, said


def test_a_head_sent_a_byte_a_second_is_closed_within_the_limit(tmp_path: Path) -> None:
    """A slow loris: its first request, or its next one on a connection kept open, a
    byte a second; both are closed within HEAD_SECONDS, and the page still loads."""

    async def drip(writer: asyncio.StreamWriter, data: bytes) -> None:
        for byte in data:
            writer.write(bytes([byte]))
            await asyncio.sleep(1)

    async def test(url: str) -> None:
        port = port_of(url)
        head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode() + b"a" * 60
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        dripping = asyncio.create_task(drip(writer, head))
        took, said = await closed_after(reader, HEAD_SECONDS + 15)
        dripping.cancel()
        assert took < HEAD_SECONDS + 5, took
        assert said.startswith(b"HTTP/1.1 408 Request Timeout")
        writer.close()
        # The next request on a connection kept open after an answer.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET /static/css/xterm.css HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        )
        first = await reader.readuntil(b"\r\n\r\n")
        assert first.startswith(b"HTTP/1.1 200")
        length = re.search(rb"Content-Length: (\d+)", first, re.IGNORECASE)
        assert length, first
        await reader.readexactly(int(length.group(1)))
        dripping = asyncio.create_task(drip(writer, head))
        took, _ = await closed_after(reader, HEAD_SECONDS + 15)
        dripping.cancel()
        assert took < HEAD_SECONDS + 5, took
        writer.close()
        async with session() as client, client.get(url) as page:
            assert page.status == 200

    with visitors_server(tmp_path) as server:
        asyncio.run(test(server.url))
        log = "".join(server.lines)
    assert "closed a connection from 127.0.0.1 that sent no whole request within 10 s" in log
    assert "Traceback" not in log


def test_half_sent_heads_from_one_address_are_bounded(tmp_path: Path) -> None:
    """`serve --web`: an address that holds CONNECTIONS_PER_ADDRESS connections with half
    a head each is refused one more at once, with a sentence; another address still gets
    the page, and signs in."""

    async def test(url: str) -> None:
        port = port_of(url)
        held = []
        for _ in range(CONNECTIONS_PER_ADDRESS):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.5", 0)
            )
            writer.write(b"GET / HTTP/1.1\r\n")
            held.append((reader, writer))
        await asyncio.sleep(0.5)  # each taken in (a few a turn of the server's loop)
        for _ in range(10):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.5", 0)
            )
            writer.write(b"GET / HTTP/1.1\r\n")
            _, said = await closed_after(reader, 5)
            assert said.startswith(b"HTTP/1.1 429 Too Many Requests"), said
            assert said.endswith(TOO_MANY.encode() + b"\n")
            writer.close()
        async with session("127.0.0.6") as client:
            async with client.get(url) as page:
                assert page.status == 200 and "Sign in" in await page.text()
            async with client.post(url + "signin", data={"name": "ann"}) as answer:
                assert answer.status == 200
        for reader, writer in held:  # still held: they have time left
            assert not reader.at_eof()
            writer.close()

    with rooms_server(tmp_path) as (server, url):
        asyncio.run(test(url))
        assert "web: refused a connection from 127.0.0.5: 32 connections" in server.log
        assert server.log.count("web: refused a connection from") == 1
        assert "Traceback" not in server.log


MALFORMED = {
    "10,000 headers": b"GET / HTTP/1.1\r\nHost: H\r\n"
    + b"".join(b"X-%d: a\r\n" % i for i in range(10_000))
    + b"\r\n",
    "a long line": b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: H\r\n\r\n",
    "a long header": b"GET / HTTP/1.1\r\nHost: H\r\nX: " + b"a" * 100_000 + b"\r\n\r\n",
    "a bad version": b"GET / HTTP/9.9\r\nHost: H\r\n\r\n",
    "TLS": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 100,
    "a bad chunk": b"POST /signin HTTP/1.1\r\nHost: H\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "smuggling": b"POST / HTTP/1.1\r\nHost: H\r\nContent-Length: 5\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "a bad header": b"GET / HTTP/1.1\r\nHo st: H\r\n\r\n",
    "a NUL": b"GET / HTTP/1.1\r\nHost: H\x00\r\n\r\n",
    "a bad escape": b"GET /\x1b[2J HTTP/1.1\r\nHost: H\r\n\r\n",
}


@pytest.mark.parametrize("mode", ["web", "serve --web"])
def test_malformed_requests_are_one_line_in_the_log(tmp_path: Path, mode: str) -> None:
    async def test(url: str) -> None:
        port = port_of(url)
        for data in MALFORMED.values():
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(data.replace(b"Host: H", f"Host: 127.0.0.1:{port}".encode()))
            _, said = await closed_after(reader, TIMEOUT)
            assert said.startswith(b"HTTP/1.0 400 Bad Request"), said[:80]
            writer.close()

    if mode == "web":
        with visitors_server(tmp_path) as server:
            asyncio.run(test(server.url))
            log = "".join(server.lines)
    else:
        with rooms_server(tmp_path) as (rooms, url):
            asyncio.run(test(url))
            log = rooms.log
    assert "Traceback" not in log
    assert "\x1b" not in log
    said = [line for line in log.splitlines() if "Error handling request" in line]
    assert 1 <= len(said) <= 2, said  # the first at once; the others counted
    assert "web: Error handling request from 127.0.0.1: Too many headers received" in said[0]


# -- a page's websocket frames ------------------------------------------------------------


async def handshake(
    port: int, cookie: str, *, extra: bytes = b""
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A websocket's handshake to the page's socket, by hand; what the server answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nCookie: {VISITOR}={cookie}\r\n\r\n"
        ).encode()
        + extra
    )
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    return reader, writer, answer


def text_frame(payload: bytes, *, masked: bool) -> bytes:
    if not masked:
        return bytes([0x81, len(payload)]) + payload
    mask = os.urandom(4)
    return (
        bytes([0x81, 0x80 | len(payload)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


def test_an_unmasked_frame_closes_the_page(tmp_path: Path) -> None:
    """RFC 6455: a client masks every frame, and the server closes the connection on one
    that is not (1002, protocol error). A masked one is read as ever."""

    async def test(url: str) -> None:
        port = port_of(url)
        async with session() as client, client.get(url) as page:
            assert page.status == 200
            cookie = next(c.value for c in client.cookie_jar if c.key == VISITOR)
        reader, writer, answer = await handshake(port, cookie)
        assert answer.startswith(b"HTTP/1.1 101")
        writer.write(text_frame(b'["focus"]', masked=True))  # taken
        writer.write(text_frame(b'["stdin","x"]', masked=False))
        said = await asyncio.wait_for(reader.read(), TIMEOUT)  # until the server closes
        close = said.rfind(b"\x88")
        assert close >= 0, said[-80:]
        assert said[close + 2 : close + 4] == (1002).to_bytes(2, "big")
        assert said[close + 4 :] == b"Frames from a client must be masked."
        writer.close()
        # Frames sent before the handshake's answer (with it) are refused: unread, they
        # would reach the page unchecked.
        _, writer, answer = await handshake(
            port, cookie, extra=text_frame(b'["stdin","y"]', masked=False)
        )
        assert answer.startswith(b"HTTP/1.1 400"), answer
        writer.close()

    with visitors_server(tmp_path) as server:
        asyncio.run(test(server.url))
        deadline = time.monotonic() + TIMEOUT
        said = ("closed, an unmasked websocket frame", "refused, websocket frames sent before")
        while not all(line in "".join(server.lines) for line in said):  # both logged yet
            assert time.monotonic() < deadline, "".join(server.lines)
            time.sleep(0.1)
        log = "".join(server.lines)
    assert "127.0.0.1: closed, an unmasked websocket frame" in log
    assert "refused, websocket frames sent before the handshake's answer" in log
    assert "Traceback" not in log
