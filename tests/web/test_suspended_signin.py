"""A name suspended by an admin (`ssh -T host suspend NAME ...`) cannot sign in to the
browsers' page of `serve --web` either: the form says until when, and why."""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path

import aiohttp

from tests.openssh import needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_moderation import ask


@needs_ssh
def test_a_suspended_name_is_refused_at_the_browsers_sign_in(tmp_path: Path) -> None:
    server = RunningServer(
        tmp_path / "data", ["--web", "127.0.0.1:0", "--admin", "root"]
    ).wait_listening()
    try:
        found = re.search(r"web: listening on (http://\S+/)", server.log)
        assert found, server.log
        url = found.group(1)
        done = ask(server, "root", "suspend", "bob", "spam in chat")
        assert done.stdout == "bob is suspended until an admin lifts it.\n"
        answers: dict[str, tuple[int, str]] = {}

        async def sign_in() -> None:
            for name in ("bob", "ann"):
                jar = aiohttp.CookieJar(unsafe=True)
                async with (
                    aiohttp.ClientSession(cookie_jar=jar) as browser,
                    browser.post(
                        url + "signin", data={"name": name}, allow_redirects=False
                    ) as answer,
                ):
                    answers[name] = (answer.status, await answer.text())

        asyncio.run(sign_in())
    finally:
        server.stop()
    status, page = answers["bob"]
    assert status == 403
    assert html.escape("bob is suspended until an admin lifts it (spam in chat).") in page
    assert answers["ann"][0] == 303  # signed in, and on to the page
