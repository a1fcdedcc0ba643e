"""The product as a user installs it: `.ci/installed` makes a plain install (a clean
clone, `pip install .`, not editable, no extras) for every Python from 3.11 on the
machine and runs these tests against it, naming it in `ABSTRACTS_TUI_INSTALLED` (the
virtual environment) and `ABSTRACTS_TUI_SOURCE` (the clone it was installed from).

The tests drive that install only from outside, as its users do: its `abstracts-tui`
command and its Python in subprocesses, in tmux and through OpenSSH. Nothing here imports
the package into the tests' own process, whose environment is the developers' one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

INSTALLED = "ABSTRACTS_TUI_INSTALLED"
SOURCE = "ABSTRACTS_TUI_SOURCE"


@dataclass(frozen=True)
class Product:
    """A plain install: its virtual environment and the clone it came from."""

    venv: Path
    source: Path
    outside: Path
    """An empty folder to run it from: Python puts the current folder first on its path
    (`python -c`, `python -m`), and run from a checkout it would import the checkout's
    package instead of the installed one."""

    @property
    def command(self) -> str:
        return str(self.venv / "bin" / "abstracts-tui")

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    def run(
        self,
        *args: str,
        env: dict[str, str],
        stdin: str | None = None,
        timeout: float = 120,
        python: bool = False,
    ) -> subprocess.CompletedProcess[str]:
        """`abstracts-tui ARGS` (or with `python`, the install's `python ARGS`)."""
        return subprocess.run(
            [self.python if python else self.command, *args],
            env=env,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.outside,
        )

    def has(self, module: str) -> bool:
        """Whether the install's Python can import `module`."""
        found = subprocess.run(
            [self.python, "-c", f"import {module}"],
            capture_output=True,
            timeout=60,
            cwd=self.outside,
        )
        return found.returncode == 0


@pytest.fixture(scope="session")
def product(tmp_path_factory: pytest.TempPathFactory) -> Product:
    venv, source = os.environ.get(INSTALLED), os.environ.get(SOURCE)
    if not venv or not source:
        pytest.skip(
            "tests of a plain install: `bash .ci/installed` makes one and runs them "
            f"({INSTALLED} and {SOURCE} name it)"
        )
    return Product(Path(venv), Path(source), tmp_path_factory.mktemp("outside"))


@pytest.fixture
def user(tmp_path: Path) -> dict[str, str]:
    """The environment of a new user: a home, data and settings folders of their own, and
    nothing of the tests' own Python (its virtual environment, its path)."""
    home = tmp_path / "home"
    home.mkdir()
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "TMUX")
        and not key.startswith(("ABSTRACTS_TUI_", "PYTEST_"))
    }
    return {
        **environment,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "TERM": "xterm-256color",
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_until(done: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not done in {seconds:g} s")
        time.sleep(0.2)
