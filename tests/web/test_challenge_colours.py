"""An open challenge's colour and rating range in the browser's lobby (the same app as
over SSH): Bob makes one over SSH, colour at random, for ratings within 100 of his;
Ann, in a real headless Chromium, sees both in the challenge's line, accepts it (both
unrated: 1500), and is told the colours drawn."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import CURSOR_RIGHT, ENTER
from tests.web.test_rooms import rooms_server, sign_in, web_url  # noqa: F401 (fixtures)
from tests.web.test_web import CHROMIUM, Visitor, browser  # noqa: F401 (browser: a fixture)

TAB = "\t"


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")
def test_the_browser_lobby_shows_the_colour_and_range_and_accepts(
    browser: Any,  # noqa: F811
    rooms_server: RunningServer,  # noqa: F811
) -> None:
    server = rooms_server

    async def challenge() -> str:
        conn, bob = await connect(server.port, "bob", password="b0b-pass")
        await bob.wait_for("you are bob", "New room")
        bob.send("c")
        await bob.wait_for("choose a game", "Who joins")
        bob.send(TAB * 4 + CURSOR_RIGHT)  # open to anyone
        await bob.wait_for("< anyone >")
        bob.send(TAB + CURSOR_RIGHT + CURSOR_RIGHT)  # colour: random
        await bob.wait_for("< random >")
        bob.send(TAB + CURSOR_RIGHT)  # ratings: ±100
        await bob.wait_for("< ±100 >")
        bob.send(ENTER)
        screen = await bob.wait_for("An open challenge", "bob (colour at random)")
        found = re.search(r"Room (\w{4})", screen)
        assert found, screen
        conn.close()  # the challenge stays open
        return found.group(1)

    with ThreadPoolExecutor(1) as pool:  # off the browser's loop
        code = pool.submit(asyncio.run, challenge()).result()
    ann = Visitor(browser, web_url(server))
    sign_in(ann, "ann", "s3cret")
    line = f"{code}  Petrify 8x8  no clock  casual  bob (colour at random)  ratings 1400-1600"
    ann.wait_for("abstracts-tui in a browser: you are ann", line)
    ann.type("ArrowDown", "Enter")  # her own games are none: down to the challenges
    screen = ann.wait_for("Colours drawn at random: bob plays", "to move")
    assert re.search(r"Blue to move \((ann|bob)\)", screen), screen
    assert "Traceback" not in server.log, server.log
