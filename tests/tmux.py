"""A real terminal for the tests: one shell command in a tmux window of a given size, its
screen read as text (`tmux capture-pane`), keys sent as a person types them."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType

import pytest

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="needs tmux to give the program a terminal"
)


class Tmux:
    """A tmux server of its own (nothing else on the machine can disturb it) running
    `command` with `sh -c` in one window of `width` x `height`; `env` is added to the
    environment of the tests' process."""

    def __init__(
        self,
        command: str,
        width: int = 80,
        height: int = 24,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        self.socket = f"abstracts-{uuid.uuid4().hex[:10]}"
        environment = {**os.environ, **(env or {})}
        environment.pop("TMUX", None)
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-x", str(width), "-y", str(height), command],
            check=True,
            env=environment,
            cwd=cwd,
            timeout=30,
        )
        shown = subprocess.run(
            [*self.tmux, "display-message", "-p", "#{socket_path}"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        self.socket_path = shown.stdout.strip()

    @property
    def tmux(self) -> list[str]:
        return ["tmux", "-L", self.socket, "-f", "/dev/null"]

    def screen(self) -> str:
        return subprocess.run(
            [*self.tmux, "capture-pane", "-p"], capture_output=True, text=True, timeout=30
        ).stdout

    def wait_for(self, found: str | Callable[[str], bool], seconds: float = 60) -> str:
        """The screen once it shows `found` (a text, or a test of the screen)."""
        check = found if callable(found) else (lambda screen: found in screen)
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{found!r} not seen in {seconds:g} s:\n{screen}")
            time.sleep(0.1)  # tmux cannot say when the window changed

    def keys(self, *keys: str) -> None:
        """Keys as tmux names them (`Enter`, `C-q`, `Up`): text that is also a key's name
        is that key (`f3` is F3), so text goes by `type`."""
        subprocess.run([*self.tmux, "send-keys", *keys], check=True, timeout=30)

    def type(self, text: str, *then: str) -> None:
        """`text` typed as it is, character by character, then the keys `then` (`Enter`)."""
        subprocess.run([*self.tmux, "send-keys", "-l", text], check=True, timeout=30)
        if then:
            self.keys(*then)

    def resize(self, width: int, height: int) -> None:
        """The window made `width` x `height`, as a person resizing it."""
        subprocess.run(
            [*self.tmux, "resize-window", "-x", str(width), "-y", str(height)],
            check=True,
            timeout=30,
        )

    def close(self) -> None:
        """Kill the tmux server: the window closes as a closed terminal does (SIGHUP, then
        its programs' reads and writes fail)."""
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=30)
        if self.socket_path:  # tmux leaves it behind
            Path(self.socket_path).unlink(missing_ok=True)

    def __enter__(self) -> Tmux:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
