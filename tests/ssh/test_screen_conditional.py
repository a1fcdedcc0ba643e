"""A reply kept ready on the full screen over SSH: bob, on the app's room screen, types
`:if c3 then d3` on ann's turn in a Petrify room of 3 days per move (ann plays by lines,
OpenSSH's own client); ann's c3 is answered at once by bob's d3, told to both."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from tests.openssh import needs_ssh
from tests.ssh.client import connect
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import heard, lines_of

pytestmark = needs_ssh

ENTER = "\r"


def test_a_reply_kept_ready_on_the_full_screen(
    start_server: Callable[[], RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann = lines_of(server, "ann", tmp_path)
        await heard(ann, "Type new")
        ann.send("new petrify clock 3d")
        found = re.match(r"Room (\w{4}): Petrify", await heard(ann, "Room "))
        assert found
        bob_conn, bob = await connect(server.port, "bob", command=f"join {found.group(1)}")
        try:
            assert await heard(ann, "Blue to move") == "Blue to move (ann)."
            ann.send("e5")
            await bob.wait_for("Pie rule")
            bob.send("p")  # play on
            await bob.wait_gone("Pie rule")
            bob.send(":d5" + ENTER)
            assert await heard(ann, "Orange (bob)") == "Orange (bob) plays d5."
            await bob.wait_for("Blue to move (ann)")
            bob.send(":if c3 then d3")
            await bob.wait_for("Enter sends it")
            bob.send(ENTER)
            await bob.wait_for("Kept: if ann plays c3, d3 is played.")
            ann.send("c3")
            line = await heard(ann, "bob's move, kept ready")
            assert line.startswith("bob's move, kept ready: d3.")
            await bob.wait_for("4. Orange", "d3", "Blue to move (ann)")
            ann.send("quit")
            assert ann.close() == 0
        finally:
            bob_conn.close()
            if ann.process.poll() is None:
                ann.process.kill()

    asyncio.run(play())
