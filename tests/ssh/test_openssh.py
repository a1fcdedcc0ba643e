"""OpenSSH's own client in a tmux window: `ssh -t HOST -p PORT join CODE`, then a resize."""

from __future__ import annotations

import asyncio
import re
import shlex
import time

from abstracts_tui.server.auth import hash_password
from tests.openssh import SSH, needs_ssh
from tests.ssh.client import TIMEOUT
from tests.ssh.conftest import RunningServer
from tests.ssh.test_rooms import ENTER, create_room
from tests.tmux import Tmux, needs_tmux

pytestmark = [needs_ssh, needs_tmux]


async def wait_for(window: Tmux, *texts: str) -> str:
    """The window's screen once it shows all of `texts` (waited for off the loop, which
    the room's other client runs on)."""
    return await asyncio.to_thread(
        window.wait_for, lambda screen: all(text in screen for text in texts), TIMEOUT
    )


def question_end(screen: str) -> int:
    """Where the pie rule's question box ends, from the left (it spans the side panel)."""
    return next((len(line.rstrip()) for line in screen.splitlines() if "Pie rule" in line), -1)


def test_openssh_joins_by_code_and_follows_a_resize(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        ssh = [*SSH, "-tt", "-p", str(server.port), "bob@127.0.0.1", "join", code]
        window = Tmux(shlex.join(ssh), 100, 30)
        try:
            await wait_for(window, "Petrify", "Blue to move (ann)")
            await ann.wait_for("Blue to move (ann)")
            ann.send(ENTER)  # d5
            await wait_for(window, "Pie rule", "(Orange) may now")
            before = question_end(window.screen())
            window.resize(130, 40)
            # Laid out again for the wider window: the panel beside the board, and the
            # question in it, reach further right.
            await asyncio.to_thread(
                window.wait_for, lambda screen: question_end(screen) > before, TIMEOUT
            )
        finally:
            window.close()
            ann_conn.close()

    asyncio.run(play())


def test_openssh_in_a_small_window_plays_in_the_compact_view(start_server) -> None:
    """A 40x12 window has no room for Petrify 8's side panel: bob's screen shows the board
    alone and a summary line, he plays by keys there, and a larger window brings the
    panel back."""
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        ssh = [*SSH, "-tt", "-p", str(server.port), "bob@127.0.0.1", "join", code]
        window = Tmux(shlex.join(ssh), 100, 30)
        try:
            await wait_for(window, "Petrify", "Blue to move (ann)")
            await ann.wait_for("Blue to move (ann)")
            ann.send(ENTER)  # d5
            await wait_for(window, "Pie rule: swap?", "may now swap")
            window.keys("p")  # play on
            await wait_for(window, "Orange to move (bob)", "Score now")
            window.resize(40, 12)
            screen = await wait_for(window, "Orange to move · last d5")
            assert "Score now" not in screen and "too small" not in screen, screen
            assert " 8 " in screen and " 1 " in screen, screen  # the rows from 8 down to 1
            window.keys("Right", "Enter")  # e5
            await wait_for(window, "Blue to move · last e5")
            await ann.wait_for("(bob) plays e5")
            window.resize(100, 30)
            await wait_for(window, "Score now", "(bob) plays e5")
        finally:
            window.close()
            ann_conn.close()

    asyncio.run(play())


def test_stopping_the_server_tells_each_player_before_the_connection_closes(
    start_server,
) -> None:
    server: RunningServer = start_server()
    ssh = shlex.join([*SSH, "-t", "-p", str(server.port)])
    shell = ssh + " {}@127.0.0.1; echo SSH-EXIT=$?; sleep 60"
    windows = [Tmux(shell.format(name), 100, 30) for name in ("ann", "bob")]

    async def stop() -> None:
        for window in windows:
            await wait_for(window, "New room")
        server.stop()
        assert server.process.returncode == 0, server.log
        for window in windows:
            screen = await wait_for(window, "SSH-EXIT=")
            assert "the server is stopping; your games are kept" in screen
            assert "SSH-EXIT=0" in screen  # the session ended, not the connection broken

    try:
        asyncio.run(stop())
    finally:
        for window in windows:
            window.close()


def test_openssh_from_a_terminal_of_2000x2000_gets_the_lobby_drawn_for_500x200(
    start_server,
) -> None:
    """`stty rows 65535 cols 65535` before ssh once took the server to 18 GB (2000 here,
    so that the machine survives should the bound be lost): the size is used as 500x200,
    and said once in the log."""
    server: RunningServer = start_server()
    ssh = shlex.join([*SSH, "-tt", "-p", str(server.port), "ann@127.0.0.1"])
    window = Tmux(f"stty rows 2000 cols 2000; {ssh}", 100, 30)
    try:
        # The window shows the lobby's last lines (the rows past its 30th scroll it).
        window.wait_for("c New room", TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while "is drawn as" not in server.log and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "ann: a terminal of 2000x2000 is drawn as 500x200" in server.log
    finally:
        window.close()
    assert server.log.count("is drawn as") == 1
    assert "Traceback" not in server.log


def test_openssh_wrong_passwords_close_the_connection_then_make_the_address_wait(
    start_server, tmp_path
) -> None:
    """As a person sees it: three wrong passwords and the connection is closed with the
    reason; at once again, even the right one is refused with how long to wait; after
    that wait it logs in."""
    passwords = tmp_path / "passwords"
    passwords.write_text(f"ann:{hash_password('s3cret')}\n")
    server: RunningServer = start_server("--password-file", str(passwords))
    prompts = (
        *("-o", "BatchMode=no", "-o", "PreferredAuthentications=keyboard-interactive"),
        *("-o", "NumberOfPasswordPrompts=4"),  # it would give up itself after 3
    )
    # Options before the tests' own: ssh takes the first value it is given for each.
    ssh = [SSH[0], *prompts, *SSH[1:], "-tt", "-p", str(server.port), "ann@127.0.0.1"]
    shell = shlex.join(ssh) + "; echo SSH-EXIT=$?; sleep 60"

    def typed(*answers: str) -> str:
        """The screen of one ssh that was given `answers` at its password prompts."""
        with Tmux(shell, 200, 30) as window:  # wide: the reasons on one line
            for number, answer in enumerate(answers, start=1):
                window.wait_for(lambda screen, n=number: screen.count("Password:") >= n)
                window.type(answer, "Enter")
            return window.wait_for(lambda screen: "SSH-EXIT=" in screen or "New room" in screen)

    screen = typed("wrong1", "wrong2", "wrong3")
    assert "3 wrong passwords: closed" in screen and "SSH-EXIT=255" in screen
    screen = typed("s3cret")
    found = re.search(
        r"too many wrong passwords from your address: try again in (\d+) seconds", screen
    )
    assert found, screen
    time.sleep(int(found.group(1)) + 1)
    assert "New room" in typed("s3cret")
