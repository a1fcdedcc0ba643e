"""Muting a player from the full-screen room's chat, through the real server: `/mute
bob` typed in the chat line is the same server call as `ssh -T host mute bob` (kept in
the store, listed by `ssh -T host mute`), hides bob's lines on the screen at once and
keeps his later lines from it; `/unmute bob` shows them again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tests.openssh import needs_ssh
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_moderation import ask
from tests.ssh.test_rooms import ENTER, create_room

pytestmark = needs_ssh


def test_a_player_mutes_and_unmutes_another_from_the_rooms_chat(
    start_server: Callable[..., RunningServer],
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        bob_conn, bob = await connect(server.port, "bob", command=f"join {code}")
        await ann.wait_for("Blue to move (ann)")
        bob.send(";")
        bob.send("hello ann" + ENTER)
        await ann.wait_for("bob: hello ann")
        ann.send(";")  # the chat line beside the board
        ann.send("/mute bob" + ENTER)
        await ann.wait_for("bob's chat is hidden from you.")
        await ann.wait_gone("bob: hello ann")  # at once, the line shown already too
        muted = await asyncio.to_thread(ask, server, "ann", "mute")
        assert muted.stdout == "bob\n", muted
        bob.send("a line ann does not see" + ENTER)
        await bob.wait_for("bob: a line ann does not see")
        ann.send("/unmute bob" + ENTER)
        await ann.wait_for("bob's chat is shown to you again.", "bob: hello ann")
        bob.send("and one she sees" + ENTER)
        screen = await ann.wait_for("bob: and one she sees")
        assert "a line ann does not see" not in screen, screen
        assert "/mute" not in screen and "ann: /" not in screen, screen  # never said
        for conn in (ann_conn, bob_conn):
            conn.close()

    asyncio.run(play())
