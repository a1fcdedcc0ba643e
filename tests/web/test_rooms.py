"""`abstracts-tui serve --web`: a browser player in the SSH server's rooms.

Ann plays in a real headless Chromium (Playwright), Bob from OpenSSH's own client in a
real terminal (tmux), in one room of one server: the sign-in with SSH's names and
passwords (a wrong one refused), the room's clocks, each other's moves, the chat, a
resignation, and the game in the archive; on PostgreSQL, a page and an SSH player of
another process in one room. Then what a page may send is bounded as in `abstracts-tui web`: a
malformed message closes that page, with one line in the server's log."""

from __future__ import annotations

import asyncio
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pytest

from abstracts_tui.server.auth import hash_password
from abstracts_tui.server.web.signin import COOKIE
from tests.openssh import SSH, needs_ssh
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.tmux import Tmux, needs_tmux
from tests.web.client import Page
from tests.web.proxy import Proxy
from tests.web.test_web import CHROMIUM, Visitor, browser  # noqa: F401 (browser: a fixture)

TIMEOUT = 60.0
SEMICOLON = "\\;"
"""`;` as tmux's send-keys takes it (a `;` alone separates its commands)."""


def web_url(server: RunningServer) -> str:
    """The web listener's address, from the server's log (said before it listens for SSH)."""
    found = re.search(r"web: listening on (http://\S+/)", server.log)
    assert found, server.log
    return found.group(1)


@pytest.fixture
def rooms_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningServer]:
    """A server on loopback with passwords for ann and bob, serving browsers too (with the
    options a test gives it as its parameter)."""
    passwords = tmp_path / "passwords"
    passwords.write_text(
        f"ann:{hash_password('s3cret', iterations=1000)}\n"
        f"bob:{hash_password('b0b-pass', iterations=1000)}\n"
    )
    args = ["--password-file", str(passwords), "--web", "127.0.0.1:0"]
    args += getattr(request, "param", ())
    server = RunningServer(tmp_path / "data", args).wait_listening()
    yield server
    server.stop()


def sign_in(visitor: Visitor, name: str, password: str) -> None:
    page = visitor.page
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def typed(window: Tmux, *texts: str) -> str:
    return window.wait_for(lambda screen: all(text in screen for text in texts), TIMEOUT)


@needs_ssh
@needs_tmux
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")
@pytest.mark.parametrize(
    "rooms_server", [("--threads",), ()], ids=["threads", "processes"], indirect=True
)
def test_a_browser_and_openssh_play_chat_and_resign_in_one_room(
    browser: Any,  # noqa: F811
    rooms_server: RunningServer,
) -> None:
    server = rooms_server
    ann = Visitor(browser, web_url(server))
    # The sign-in form first: a wrong password is refused with a sentence, on the form.
    sign_in(ann, "ann", "not-hers")
    ann.page.get_by_text("Wrong name or password.").wait_for(timeout=TIMEOUT * 1000)
    assert "127.0.0.1: a sign-in as 'ann' refused: Wrong name or password." in server.log
    # The right one (a second after the wrong one: the address's budget, as over SSH).
    sign_in(ann, "ann", "s3cret")
    ann.wait_for("abstracts-tui in a browser: you are ann", "New room")
    ann.press("c")
    ann.wait_for("choose a game")
    ann.type("Tab", "Tab")  # to the clock: ten minutes each, five seconds a move
    ann.page.keyboard.type("10m+5s")
    ann.wait_for("Clock       10m+5s")
    ann.type("Enter")
    screen = ann.wait_for("Waiting for a second player")
    found = re.search(r"Room (\w{4})", screen)
    assert found, screen
    code = found.group(1)
    # Bob joins from OpenSSH, with his password.
    prompts = ("-o", "BatchMode=no", "-o", "PreferredAuthentications=keyboard-interactive")
    ssh = [SSH[0], *prompts, *SSH[1:], "-tt", "-p", str(server.port), "bob@127.0.0.1"]
    bob = Tmux(shlex.join([*ssh, "join", code]), 100, 30)
    try:
        typed(bob, "Password:")
        bob.keys("b0b-pass", "Enter")
        # The same clocks on both screens, both full: neither runs before each side has
        # moved (and the first move is due at once: Ann makes it).
        clocks = re.compile(r"> Blue ann +10:00\s.*Orange bob +10:00", re.DOTALL)
        bob.wait_for(lambda screen: "Blue to move (ann)" in screen and bool(clocks.search(screen)))
        ann.wait_until(lambda screen: bool(clocks.search(screen)), "the clocks")
        ann.type("Enter")  # d5
        typed(bob, "(ann) plays d5")
        bob.keys(":", "c3", "Enter")
        ann.wait_for("(bob) plays c3")
        # The chat, both ways.
        bob.keys(SEMICOLON, "hi ann", "Enter")
        ann.wait_for("bob: hi ann")
        ann.type(";")
        ann.page.keyboard.type("hello from a browser")
        ann.type("Enter")
        typed(bob, "ann: hello from a browser")
        # Ann resigns (confirmed): the end on both screens.
        ann.type("Escape")
        ann.wait_for("x Resign")
        ann.type("x")
        ann.wait_for("Resign this game? bob wins.")
        ann.type("y")
        over = "Blue (ann) resigned: Orange (bob) wins"
        ann.wait_for(over)
        typed(bob, over)
        # And in the archive, from the browser's lobby.
        ann.type("n")
        ann.wait_for("a Archive")
        ann.type("a")
        ann.wait_for("Your finished games", code, "bob won by resignation")
    finally:
        bob.close()
        ann.context.close()
    assert re.search(r"ann: web session started from 127\.0\.0\.1", server.log), server.log


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")
def test_signing_out_ends_the_browsers_pages_and_forgets_its_sign_in(
    browser: Any,  # noqa: F811
    rooms_server: RunningServer,
) -> None:
    server, url = rooms_server, web_url(rooms_server)
    ann = Visitor(browser, url)
    sign_in(ann, "ann", "s3cret")
    ann.wait_for("you are ann", "New room")
    (token,) = [c["value"] for c in ann.context.cookies() if c["name"] == COOKIE]
    other = ann.context.new_page()  # a second tab of the same browser
    other.goto(url)
    until_logged(server, "ann: web session started", times=2)
    # Ann quits: the closed dialog offers to sign out, and signing out shows the form.
    ann.type("Control+q")
    ann.page.locator("#signout").click(timeout=TIMEOUT * 1000)
    ann.page.get_by_text("Sign in with your name").wait_for(timeout=TIMEOUT * 1000)
    assert "ann signed out from 127.0.0.1 (web)" in server.log
    # Her other tab's game ends at once, and says why.
    other.get_by_text("You signed out: open the page to sign in again.").wait_for(
        timeout=TIMEOUT * 1000
    )
    # The sign-in is forgotten by the server, not only the browser's cookie.
    assert not [c for c in ann.context.cookies() if c["name"] == COOKIE]

    async def with_old_cookie() -> int:
        async with aiohttp.ClientSession(cookies={COOKIE: token}) as session:
            async with session.get(url) as page:
                assert "Sign in with your name" in await page.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url + "ws")
            return refused.value.status

    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this one
        assert thread.submit(asyncio.run, with_old_cookie()).result() == 403
    ann.page.goto(url)  # and the page asks again
    ann.page.get_by_text("Sign in with your name").wait_for(timeout=TIMEOUT * 1000)


def test_behind_an_https_proxy_at_the_public_url_a_page_signs_in_and_out(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A reverse proxy serves the page at https://.../games/ and strips the path: with
    --public-url the page's links, its websocket and the sign-in's cookie are the
    proxy's, and the forms posted through it are taken as the page's own."""
    passwords = tmp_path / "passwords"
    passwords.write_text(f"ann:{hash_password('s3cret', iterations=1000)}\n")
    proxy = Proxy(tmp_path, "/games/", strip=True, headers=lambda request: {})
    args = ["--password-file", str(passwords), "--web", "127.0.0.1:0", "--public-url", proxy.url]
    server = RunningServer(tmp_path / "data", args).wait_listening()
    proxy.upstream = web_url(server)
    try:
        assert f"web: browsers open {proxy.url}" in server.log
        ann = Visitor(browser, proxy.url, ignore_https_errors=True)
        sign_in(ann, "ann", "s3cret")
        ann.wait_for("you are ann", "New room")
        (cookie,) = [c for c in ann.context.cookies() if c["name"] == COOKIE]
        assert cookie["path"] == "/games/" and cookie["secure"]
        secure_socket = "wss" + proxy.url.removeprefix("https")
        assert any(url.startswith(f"{secure_socket}ws") for url in ann.asked), ann.asked
        for url in ann.asked:
            assert url.startswith((proxy.url, secure_socket)), url
        ann.type("Control+q")
        ann.page.locator("#signout").click(timeout=TIMEOUT * 1000)
        ann.page.get_by_text("Sign in with your name").wait_for(timeout=TIMEOUT * 1000)
        assert not [c for c in ann.context.cookies() if c["name"] == COOKIE]
        assert "ann signed out from 127.0.0.1 (web)" in server.log
    finally:
        server.stop()
        proxy.stop()


def test_the_proxys_options_are_refused_without_web(tmp_path: Path) -> None:
    refused = run_serve(tmp_path, "--public-url", "https://games.example.org/")
    assert refused.returncode == 2
    assert "--public-url is for the browsers' page: give --web too" in refused.stderr
    wrong = run_serve(tmp_path, "--web", "0", "--public-url", "games.example.org")
    assert wrong.returncode == 2
    assert "--public-url 'games.example.org' is not an address like https://" in wrong.stderr
    # Behind a proxy the page is reached from anywhere: names alone are not enough.
    open_to_all = run_serve(tmp_path, "--web", "0", "--public-url", "https://games.example.org/")
    assert open_to_all.returncode == 2
    assert "games.example.org is not a loopback address" in open_to_all.stderr


def until_logged(server: RunningServer, line: str, times: int = 1) -> None:
    deadline = time.monotonic() + TIMEOUT
    while server.log.count(line) < times:
        assert time.monotonic() < deadline, server.log
        time.sleep(0.1)


def test_a_malformed_message_closes_that_page_with_one_logged_line(tmp_path: Path) -> None:
    """On loopback without passwords a name is enough; a page's message that textual.js
    would never send closes that page (and its app, the game kept), once logged."""
    server = RunningServer(tmp_path / "data", ["--web", "0"]).wait_listening()
    url = web_url(server)

    async def visit() -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as unsigned:
                await session.ws_connect(url.replace("http", "ws") + "ws")
            assert unsigned.value.status == 403  # no app without a sign-in
            async with session.post(url + "signin", data={"name": "dan"}) as answer:
                assert answer.status == 200 and "textual-terminal" in await answer.text()
            socket = await session.ws_connect(
                url.replace("http", "ws") + "ws?width=100&height=30", max_msg_size=0
            )
            page = Page(socket, 100, 30)
            await page.wait_for("you are dan", "New room")
            await page.send('["stdin", "c", "and more"]')
            code, reason = await page.wait_closed()
            assert code == 1008
            assert reason == (
                "The page sent a message the server does not understand: this session is closed."
            )

    try:
        asyncio.run(visit())
        deadline = time.monotonic() + TIMEOUT
        while "dan: web session ended" not in server.log and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "dan: web session ended" in server.log, server.log
        assert server.log.count("closed, a malformed message") == 1, server.log
    finally:
        server.stop()


def test_the_pages_sizes_and_pages_per_address_are_bounded(tmp_path: Path) -> None:
    """server.web.limits' bounds on this path too: a page of a made-up size is drawn at
    500 x 200 at most, and a fifth page from one address is refused with the sentence it
    shows."""
    args = ["--sessions-per-user", "10", "--web", "0"]
    server = RunningServer(tmp_path / "data", args).wait_listening()
    url = web_url(server)

    async def visit() -> None:
        sessions = [
            aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(5)
        ]
        try:
            pages = []
            for number, session in enumerate(sessions, start=1):
                async with session.post(url + "signin", data={"name": f"p{number}"}) as answer:
                    assert answer.status == 200
                query = "ws?width=99999&height=99999" if number == 1 else "ws"
                socket = await session.ws_connect(url.replace("http", "ws") + query)
                pages.append(Page(socket, 600, 250) if number == 1 else Page(socket, 80, 24))
                if number < 5:
                    await pages[-1].wait_for(f"you are p{number}", "New room")
            huge = pages[0]
            lines = huge.text().splitlines()
            widest = max(len(line.rstrip()) for line in lines)
            assert 480 < widest <= 500, widest
            keys = max(row for row, line in enumerate(lines) if "New room" in line)
            assert 190 < keys < 200, keys
            assert await pages[4].wait_closed() == (
                1008,
                "Your address has 4 pages open already, the most it may have: close one, "
                "then press Restart.",
            )
        finally:
            for session in sessions:
                await session.close()

    try:
        asyncio.run(visit())
    finally:
        server.stop()
    assert "127.0.0.1: refused, 4 pages open from there already" in server.log


def test_pages_count_among_a_names_sessions_and_hear_the_server_stop(tmp_path: Path) -> None:
    """A page is one of its name's sessions with the SSH ones (`--sessions-per-user`); a
    page open when the server stops is told so."""
    args = ["--sessions-per-user", "1", "--web", "0"]
    server = RunningServer(tmp_path / "data", args).wait_listening()
    url = web_url(server)

    async def visit() -> None:
        conn, ann = await connect(server.port, "ann")
        await ann.wait_for("you are ann")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.post(url + "signin", data={"name": "ann"}) as answer:
                assert answer.status == 200
            socket = await session.ws_connect(url.replace("http", "ws") + "ws", max_msg_size=0)
            page = Page(socket, 80, 24)
            code, reason = await page.wait_closed()
            assert (code, reason) == (1008, "ann has 1 sessions open already; close one first.")
            conn.close()
            await ann.closed.wait()
            # Her SSH session gone, her page gets in; then the server stops.
            while True:
                socket = await session.ws_connect(url.replace("http", "ws") + "ws")
                page = Page(socket, 80, 24)
                if await page.answered():
                    break
                await asyncio.sleep(0.2)  # the SSH session is still being closed
            await page.wait_for("you are ann", "New room")
            server.process.send_signal(signal.SIGTERM)
            code, reason = await page.wait_closed()
            assert code == 1001
            assert reason == (
                "The server is stopping; your games are kept: open the page again when it is back."
            )

    try:
        asyncio.run(visit())
    finally:
        server.stop()
    assert server.process.returncode == 0, server.log
    assert "Traceback" not in server.log


def test_on_postgresql_a_page_plays_an_ssh_player_of_another_process(
    tmp_path: Path, database_url: str
) -> None:
    """Two server processes on one database: Ann's page on the one serving browsers, Bob
    over SSH on the other, in one room: moves, the chat both ways, the end, the archive."""
    one = RunningServer(tmp_path / "one", ["--database", database_url, "--web", "0"])
    two = RunningServer(tmp_path / "two", ["--database", database_url])
    try:
        one.wait_listening()
        two.wait_listening()
        asyncio.run(play_across(web_url(one), two.port))
    finally:
        one.stop()
        two.stop()
    assert "Traceback" not in one.log + two.log


async def play_across(url: str, port: int) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.post(url + "signin", data={"name": "ann"}) as answer:
            assert answer.status == 200
        socket = await session.ws_connect(
            url.replace("http", "ws") + "ws?width=100&height=30", max_msg_size=0
        )
        ann = Page(socket, 100, 30)
        await ann.wait_for("you are ann", "New room")
        await ann.keys("c")
        await ann.wait_for("choose a game")
        await ann.keys("enter")
        await ann.wait_for("Waiting for a second player")
        found = re.search(r"Room (\w{4})", ann.text())
        assert found, ann.text()
        code = found.group(1)
        bob_conn, bob = await connect(port, "bob", command=f"join {code}")
        await bob.wait_for("Blue to move (ann)")
        await ann.wait_for("Blue to move (ann)")
        # The moves are waited for on the board and the move lists, not in the news
        # lines: a replica on another process may be copied whole instead of told.
        await ann.keys("enter")  # d5
        await bob.wait_for("Pie rule", "1. Blue       d5")
        bob.send(":c3\r")
        await ann.wait_for("Orange     c3", "Blue to move (ann)")
        bob.send(";from the other process\r")
        await ann.wait_for("bob: from the other process")
        await ann.keys(";", "hi bob", "enter")
        await bob.wait_for("ann: hi bob")
        bob.send("\x1b")  # back to the board
        await bob.wait_for("x Resign")
        bob.send("x")
        await bob.wait_for("Resign this game? ann wins.")
        bob.send("y")
        over = "Orange (bob) resigned: Blue (ann) wins"
        await bob.wait_for(over)
        await ann.wait_for(over)
        await ann.keys("\x1b")  # from the chat line to the board
        await ann.wait_for("n Lobby")
        await ann.keys("n")
        await ann.wait_for("a Archive")
        await ann.keys("a")
        await ann.wait_for("Your finished games", code, "ann won by resignation")
        bob_conn.close()
        await ann.close()


def test_a_page_without_input_is_closed_after_the_idle_timeout(tmp_path: Path) -> None:
    server = RunningServer(tmp_path / "data", ["--idle-timeout", "3", "--web", "0"])
    url = web_url(server.wait_listening())

    async def visit() -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.post(url + "signin", data={"name": "ann"}) as answer:
                assert answer.status == 200
            page = Page(await session.ws_connect(url.replace("http", "ws") + "ws"), 80, 24)
            await page.wait_for("you are ann")
            await page.keys("r")  # input: the wait starts again
            started = time.monotonic()
            assert await page.wait_closed() == (
                1000,
                "Closed after 0.05 minutes without input; your games are kept: press "
                "Restart to go on.",
            )
            assert time.monotonic() - started > 2.5

    try:
        asyncio.run(visit())
    finally:
        server.stop()


def run_serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *(sys.executable, "-m", "abstracts_tui", "serve"),
            "--port",
            "0",
            "--data",
            str(tmp_path / "data"),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def test_browsers_are_refused_where_they_could_not_sign_in(tmp_path: Path) -> None:
    """A browser has no SSH key: a server of keys only does not serve it; nor does a
    web address open to the network without passwords, unless --open says so."""
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_public_key())
    refused = run_serve(tmp_path, "--authorized-keys", str(keys), "--web", "0")
    assert refused.returncode == 2, refused.stderr
    assert "a browser has none: give --password-file too" in refused.stderr
    refused = run_serve(tmp_path, "--web", "0.0.0.0:0")
    assert refused.returncode == 2, refused.stderr
    assert "0.0.0.0 is not a loopback address" in refused.stderr
    wrong = run_serve(tmp_path, "--web", "host:port")
    assert wrong.returncode == 2 and "--web: 'host:port' is not [HOST:]PORT" in wrong.stderr
