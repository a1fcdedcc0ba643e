"""A real SSH client (asyncssh) with a terminal emulator (pyte): what a player would see."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import asyncssh
import pyte

TIMEOUT = 60.0
"""Generous: the machine is small and shared; waits end as soon as the screen is right."""


class ScreenClient(asyncssh.SSHClientSession[str]):
    """Feeds what the server sends into a pyte screen the test reads."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)
        self.received = 0
        self.raw: list[str] = []
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel[str] | None = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: str, datatype: Any) -> None:
        self.received += len(data.encode())
        self.raw.append(data)
        self.stream.feed(data)
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def output(self) -> str:
        return "".join(self.raw)

    def send(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys)

    def resize(self, width: int, height: int) -> None:
        assert self.chan is not None
        self.screen.resize(height, width)
        self.chan.change_terminal_size(width, height)

    async def wait_for(self, *texts: str, timeout: float = TIMEOUT) -> str:
        """Wait until every text is on the screen; fail with the screen if it never is."""
        return await self.wait_until(
            lambda screen: all(text in screen for text in texts), repr(texts), timeout
        )

    async def wait_gone(self, text: str, timeout: float = TIMEOUT) -> str:
        """Wait until `text` is no longer on the screen."""
        return await self.wait_until(lambda screen: text not in screen, f"no {text!r}", timeout)

    async def wait_until(
        self, check: Callable[[str], bool], what: str, timeout: float = TIMEOUT
    ) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if check(screen):
                return screen
            left = deadline - time.monotonic()
            if left <= 0 or self.closed.is_set():
                raise AssertionError(f"{what} not on the screen:\n{screen}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))


async def connect(
    port: int,
    user: str,
    *,
    width: int = 100,
    height: int = 30,
    command: str | None = None,
    host: str = "127.0.0.1",
    term_type: str = "xterm-256color",
    env: dict[str, str] | None = None,
    **options: Any,
) -> tuple[asyncssh.SSHClientConnection, ScreenClient]:
    """Log in as `user` with a terminal of `width` x `height` and type `term_type` (and
    `env` sent, as ssh's SendEnv does); the lobby (or `command`) opens."""
    options.setdefault("known_hosts", None)
    options.setdefault("client_keys", None)
    options.setdefault("agent_path", None)
    conn = await asyncssh.connect(host, port, username=user, **options)
    _, client = await conn.create_session(
        lambda: ScreenClient(width, height),
        command,
        term_type=term_type,
        env=env or (),
        term_size=(width, height),
        encoding="utf-8",
    )
    return conn, client


async def run(port: int, user: str, command: str) -> asyncssh.SSHCompletedProcess:
    """Run `command` as `user` without a terminal (as `ssh -T host COMMAND` does)."""
    async with asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=None, agent_path=None
    ) as conn:
        return await conn.run(command, timeout=TIMEOUT)


async def run_until(
    port: int, user: str, command: str, check: Callable[[str], bool]
) -> asyncssh.SSHCompletedProcess:
    """Run `command` until its output passes `check` (a room is saved just after a move
    shows: the command may come first)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        result = await run(port, user, command)
        if check(str(result.stdout)) or time.monotonic() > deadline:
            return result
        await asyncio.sleep(0.2)
