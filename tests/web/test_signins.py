"""Sign-ins of `serve --web` per address: a flood of them from one address is refused
past its rate, holds no more than its share, and never signs anybody else out."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from abstracts_tui.server.guesses import Guesses
from abstracts_tui.server.web.signin import (
    COOKIE,
    SIGN_IN_BURST,
    SIGN_IN_RATE,
    SIGNED_IN_PER_ADDRESS,
    SignInRefused,
    SignIns,
)
from tests.ssh.conftest import RunningServer

FLOOD = 10_050
"""Sign-ins from one address: past the 10,000 the server holds at most."""


def session(address: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        connector=aiohttp.TCPConnector(local_addr=(address, 0), limit=16),
    )


def test_a_flood_of_sign_ins_from_one_address_signs_nobody_else_out(tmp_path: Path) -> None:
    server = RunningServer(tmp_path / "data", ["--web", "127.0.0.1:0"]).wait_listening()
    found = re.search(r"web: listening on (http://\S+/)", server.log)
    assert found, server.log
    url = found.group(1)
    statuses: dict[int, int] = {}

    async def flood() -> None:
        async with session("127.0.0.2") as ann:
            async with ann.post(url + "signin", data={"name": "ann"}) as answer:
                assert answer.status == 200
            assert [c.key for c in ann.cookie_jar] == [COOKIE]
            async with session("127.0.0.1") as flooder:

                async def sign_in(number: int) -> None:
                    async with flooder.post(
                        url + "signin", data={"name": f"p{number}"}, allow_redirects=False
                    ) as answer:
                        statuses[answer.status] = statuses.get(answer.status, 0) + 1
                        if answer.status == 429:
                            text = await answer.text()
                            assert "Too many sign-ins from your address: try again in" in text

                for start in range(0, FLOOD, 50):
                    await asyncio.gather(*(sign_in(n) for n in range(start, start + 50)))
            # Ann is still signed in: her page, not the form.
            async with ann.get(url) as page:
                assert "textual-terminal" in await page.text()
            socket = await ann.ws_connect(url.replace("http", "ws") + "ws")
            assert (await socket.receive(60)).type == aiohttp.WSMsgType.BINARY
            await socket.close()

    try:
        asyncio.run(flood())
    finally:
        server.stop()
    assert sum(statuses.values()) == FLOOD
    # The burst, and what the rate gave back meanwhile (the flood takes some seconds).
    assert SIGN_IN_BURST <= statuses[303] < SIGN_IN_BURST + 60, statuses
    assert statuses[429] == FLOOD - statuses[303]
    # Each refused, and the log says so now and then, not for each.
    assert 1 <= server.log.count("Too many sign-ins from your address") <= 3, server.log[-3000:]
    assert "Traceback" not in server.log, server.log


@pytest.fixture
def guesses() -> Iterator[Guesses]:
    checks = Guesses({}, threads=1)
    yield checks
    checks.close()


def test_an_addresses_oldest_sign_ins_go_first_and_others_stay(
    guesses: Guesses, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock of the test's, so that the rate lets every sign-in through."""
    now = [0.0]
    signins = SignIns(guesses, passwords=False, clock=lambda: now[0])

    async def sign_in(address: str, name: str) -> str:
        now[0] += 1 / SIGN_IN_RATE  # within the rate
        return await signins.sign_in(address, name, "")

    async def test() -> None:
        ann = await sign_in("192.0.2.1", "ann")
        flood = [await sign_in("198.51.100.1", f"p{n}") for n in range(SIGNED_IN_PER_ADDRESS + 5)]
        # The flooding address holds its share: its own oldest went.
        assert [signins.who(token) for token in flood[:5]] == [None] * 5
        assert all(signins.who(token) for token in flood[5:])
        assert signins.who(ann) == "ann"
        # The table full (a small one here): the address that holds the most gives way.
        monkeypatch.setattr(
            "abstracts_tui.server.web.signin.MAX_SIGNED_IN", SIGNED_IN_PER_ADDRESS + 1
        )
        bob = await sign_in("203.0.113.1", "bob")
        assert signins.who(bob) == "bob" and signins.who(ann) == "ann"
        assert signins.who(flood[5]) is None and signins.who(flood[6]) == "p6"
        # The rate: a burst at once, then one every 6 s.
        burst = [signins.sign_in("203.0.113.9", f"q{n}", "") for n in range(SIGN_IN_BURST)]
        await asyncio.gather(*burst)
        with pytest.raises(SignInRefused) as refused:
            await signins.sign_in("203.0.113.9", "late", "")
        assert refused.value.status == 429
        assert str(refused.value) == "Too many sign-ins from your address: try again in 6 seconds."

    asyncio.run(test())
