"""`serve --web`'s addresses to share: `/room/CODE` (the page opened in that room, through
the sign-in; a reload comes back to it), `/@/NAME` (a profile) and `/leaderboard/GAME`,
in a real headless Chromium and as plain HTTP requests; what is not there, or cannot be
a name, a game or a code, is a 404 page of one sentence."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from abstracts_tui.server.auth import hash_password
from abstracts_tui.server.web.signin import own_page
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_standings import played
from tests.web.test_rooms import TIMEOUT, sign_in, web_url
from tests.web.test_web import CHROMIUM, Visitor, browser  # noqa: F401 (browser: a fixture)


def path_of(visitor: Visitor) -> str:
    return str(visitor.page.evaluate("window.location.pathname"))


def wait_path(visitor: Visitor, path: str) -> None:
    """Wait until the page's address is at `path` (the app tells it where it is)."""
    deadline = time.monotonic() + TIMEOUT
    while path_of(visitor) != path:
        assert time.monotonic() < deadline, f"the page is at {path_of(visitor)}, not {path}"
        visitor.page.wait_for_timeout(100)


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")
def test_a_room_link_signs_in_opens_the_room_and_a_reload_comes_back_to_it(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    played(tmp_path / "data")  # ann has a profile and pilo a leaderboard
    passwords = tmp_path / "passwords"
    passwords.write_text(
        f"ann:{hash_password('s3cret', iterations=1000)}\n"
        f"bob:{hash_password('b0b-pass', iterations=1000)}\n"
    )
    server = RunningServer(
        tmp_path / "data", ["--password-file", str(passwords), "--web", "127.0.0.1:0"]
    ).wait_listening()
    url = web_url(server)
    ann = Visitor(browser, url)
    bob: Visitor | None = None
    try:
        sign_in(ann, "ann", "s3cret")
        ann.wait_for("you are ann", "New room")
        ann.type("c")
        ann.wait_for("choose a game")
        ann.type("Enter")
        screen = ann.wait_for("Waiting for a second player")
        found = re.search(r"Room (\w{4})", screen)
        assert found, screen
        code = found.group(1)
        wait_path(ann, f"/room/{code}")  # her page's address is the room's
        # Bob opens the link: the sign-in form first, then the room, his seat taken.
        bob = Visitor(browser, f"{url}room/{code}")
        sign_in(bob, "bob", "b0b-pass")
        bob.wait_for("Blue to move (ann)", "n Lobby")  # the game's screen
        assert path_of(bob) == f"/room/{code}"
        ann.wait_for("Blue to move (ann)")
        # A reload comes back to the room, as a reopened tab does.
        bob.screen.reset()
        bob.page.reload()
        bob.wait_for("Blue to move (ann)", "n Lobby")  # the game's screen
        assert path_of(bob) == f"/room/{code}"
        # Back in the lobby, the address is the lobby's again.
        bob.type("n")
        bob.wait_for("New room")
        wait_path(bob, "/")
        # The profile and the leaderboard are pages of their own, linked to each other.
        bob.page.goto(f"{url}@/ann")
        bob.page.get_by_text("3 games played: 2 won, 1 lost, 0 drawn").wait_for()
        assert bob.page.locator("svg.chart").count() == 1
        bob.page.click("text=Pilo")
        bob.page.get_by_text("Pilo: leaderboard").wait_for()
        assert bob.page.locator("td a").nth(2).inner_text() == "bob"  # the lowest of three
    finally:
        if bob is not None:
            bob.context.close()
        ann.context.close()
        server.stop()


def test_the_pages_by_http_and_what_is_not_there(tmp_path: Path) -> None:
    played(tmp_path / "data")
    server = RunningServer(tmp_path / "data", ["--web", "127.0.0.1:0"]).wait_listening()
    url = web_url(server)

    async def visit() -> None:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:

            async def get(path: str, status: int = 200) -> str:
                async with session.get(url + path, allow_redirects=False) as answer:
                    text = await answer.text()
                    assert answer.status == status, (path, answer.status, text)
                    return text

            # Not signed in: the form, which goes on to the page asked for, and to no
            # other site's.
            form = await get("@/ann")
            assert 'name="next" value="@/ann"' in form and f'action="{url}signin"' in form
            for wrong in ("//elsewhere.example/", "https://elsewhere.example/", "../x"):
                data = {"name": "ann", "next": wrong}
                async with session.post(url + "signin", data=data, allow_redirects=False) as a:
                    assert a.status == 303 and a.headers["Location"] == url
            data = {"name": "ann", "next": "leaderboard/pilo"}
            async with session.post(url + "signin", data=data, allow_redirects=False) as answer:
                assert answer.headers["Location"] == url + "leaderboard/pilo"
            # The profile: the games counted, the ratings with their charts, the last
            # games linked to their rooms.
            profile = await get("@/ann")
            assert "3 games played: 2 won, 1 lost, 0 drawn" in profile
            assert profile.count("<svg") == 1 and "<polyline" in profile
            assert f'href="{url}room/a1a1"' in profile
            assert f'href="{url}leaderboard/pilo"' in profile
            board = await get("leaderboard/PILO")
            names = re.findall(r'href="[^"]*/@/(\w+)"', board)
            assert sorted(names) == ["ann", "bob", "carl"] and names[2] == "bob"  # highest first
            egotzi = await get("leaderboard/egotzi")
            assert "Nobody has played a rated game of Egotzi yet." in egotzi
            # What is not there: one sentence, escaped.
            assert "dan has played no game here." in await get("@/dan", 404)
            odd = await get("@/%3Cscript%3E", 404)
            assert "&#x27;&lt;script&gt;&#x27; cannot be a player&#x27;s name." in odd
            assert "<script>" not in odd
            assert "There is no game chess (" in await get("leaderboard/chess", 404)
            assert "There is no room zzzz." in await get("room/zzzz", 404)
            assert "There is no room toolongacode." in await get("room/toolongacode", 404)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url.replace("http", "ws") + "ws/room/x%22y")
            assert refused.value.status == 404

    try:
        asyncio.run(visit())
    finally:
        server.stop()


def test_a_sign_in_goes_on_only_to_this_sites_rooms_profiles_and_leaderboards() -> None:
    assert own_page("room/k7m2") == "room/k7m2"
    assert own_page("@/ann.b_c-d") == "@/ann.b_c-d"
    assert own_page("leaderboard/pilo") == "leaderboard/pilo"
    for wrong in ("", "/room/k7m2", "//evil.example", "room/k7m2/../../x", "@/a b", "ws"):
        assert own_page(wrong) == ""


def test_with_a_public_url_the_lobbies_and_the_waiting_room_give_each_rooms_link(
    tmp_path: Path,
) -> None:
    public = "https://games.example.org/play/"
    args = ["--open", "--web", "127.0.0.1:0", "--public-url", public]
    server = RunningServer(tmp_path / "data", args).wait_listening()

    async def visit() -> None:
        conn, ann = await connect(server.port, "ann", width=160, height=40)
        try:
            await ann.wait_for("New room")
            ann.send("c")
            await ann.wait_for("choose a game")
            ann.send("\r")
            screen = await ann.wait_for("Waiting for a second player")
            found = re.search(r"Room (\w{4})", screen)
            assert found, screen
            link = f"{public}room/{found.group(1)}"
            assert f"or they open {link} in a browser" in screen
            ann.send("\x1b")  # back to the lobby: the room's line has its link
            await ann.wait_for(f"  {link}")
            # And line mode's lobby, and its waiting room.
            typed = f"join {found.group(1)}\nleave\nquit\n"
            said = await conn.run("lines", input=typed, timeout=TIMEOUT)
            lines = str(said.stdout).splitlines()
            listed = [line for line in lines if line.startswith(f"1. Room {found.group(1)},")]
            assert len(listed) == 2  # the lobby, twice
            assert all(line.endswith(f". In a browser: {link}") for line in listed)
            assert f"In a browser: {link}" in lines  # the waiting room
        finally:
            conn.close()

    try:
        asyncio.run(visit())
    finally:
        server.stop()
