"""OpenSSH's own client in a tmux window: `ssh -t HOST -p PORT join CODE`, then a resize."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable

import pytest

from .client import TIMEOUT
from .conftest import RunningServer
from .test_rooms import ENTER, create_room

pytestmark = pytest.mark.skipif(
    not (shutil.which("ssh") and shutil.which("tmux")), reason="needs OpenSSH's ssh and tmux"
)


class TmuxWindow:
    """A detached tmux session running one command; `text()` is what its window shows."""

    def __init__(self, command: list[str], width: int, height: int) -> None:
        self.socket = f"abstracts-{uuid.uuid4().hex[:8]}"
        self.tmux("new-session", "-d", "-x", str(width), "-y", str(height), *command)

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            check=True,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p")

    async def wait_for(self, *texts: str) -> str:
        return await self.wait_until(lambda screen: all(text in screen for text in texts), texts)

    async def wait_until(self, check: Callable[[str], bool], what: object) -> str:
        deadline = time.monotonic() + TIMEOUT
        while True:
            screen = await asyncio.to_thread(self.text)
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{what!r} not in the tmux window:\n{screen}")
            await asyncio.sleep(0.2)  # polling: tmux has no way to say the window changed

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


def dialog_column(screen: str) -> int:
    """Where the pie-rule dialog's title is, from the left."""
    return next((line.find("Pie rule") for line in screen.splitlines() if "Pie rule" in line), -1)


def test_openssh_joins_by_code_and_follows_a_resize(start_server) -> None:
    server: RunningServer = start_server()

    async def play() -> None:
        ann_conn, ann, code = await create_room(server.port, "ann")
        ssh = ["ssh", "-tt", "-F", "/dev/null", "-p", str(server.port)]
        ssh += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
        ssh += ["-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "bob@127.0.0.1", "join", code]
        window = TmuxWindow(ssh, 100, 30)
        try:
            await window.wait_for("Petrify", "Blue to move (ann)")
            await ann.wait_for("Blue to move (ann)")
            ann.send(ENTER)  # d5
            await window.wait_for("Pie rule", "bob (Orange) may now")
            before = dialog_column(window.text())
            window.tmux("resize-window", "-x", "130", "-y", "40")
            # Laid out again for the wider window: the dialog is centred 15 columns further right.
            await window.wait_until(
                lambda screen: dialog_column(screen) == before + 15, "the dialog moved"
            )
        finally:
            window.close()
            ann_conn.close()

    asyncio.run(play())


def test_stopping_the_server_tells_each_player_before_the_connection_closes(
    start_server,
) -> None:
    server: RunningServer = start_server()
    ssh = ["ssh", "-t", "-F", "/dev/null", "-p", str(server.port)]
    ssh += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
    ssh += ["-o", "BatchMode=yes", "-o", "LogLevel=ERROR"]
    shell = " ".join(ssh) + " {}@127.0.0.1; echo SSH-EXIT=$?; sleep 60"
    windows = [TmuxWindow(["sh", "-c", shell.format(name)], 100, 30) for name in ("ann", "bob")]

    async def stop() -> None:
        for window in windows:
            await window.wait_for("Create a room")
        server.stop()
        assert server.process.returncode == 0, server.log
        for window in windows:
            screen = await window.wait_for("SSH-EXIT=")
            assert "the server is stopping; your games are kept" in screen
            assert "SSH-EXIT=0" in screen  # the session ended, not the connection broken

    try:
        asyncio.run(stop())
    finally:
        for window in windows:
            window.close()
