"""The optional parts stay optional: the real command run where the extras' packages are
missing, as after `pip install abstracts-tui` with no extras.

The tests' own environment has every extra, so each run here takes them away from its
process before anything is imported (a `sitecustomize` that makes their import fail
exactly as a missing package does). The plain install that `.ci/installed` makes has
none of them for real, and its tests (`tests/installed/`) run the same commands there.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.openssh import SSH, needs_ssh
from tests.tmux import Tmux, needs_tmux

EXTRAS = {"psycopg", "psycopg_pool", "psycopg_binary", "textual_serve", "aiohttp"}
"""The packages of the `postgres` and the `web` extras."""
MISSING = """\
import sys


class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {names!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, Missing())
"""


@pytest.fixture
def without_extras(tmp_path: Path) -> dict[str, str]:
    """The environment of a process in which no extra's package can be imported."""
    folder = tmp_path / "no-extras"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(MISSING.format(names=EXTRAS))
    return {
        **os.environ,
        "PYTHONPATH": str(folder),
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_only_the_extras_modules_need_them(without_extras: dict[str, str]) -> None:
    program = (
        "import importlib, pkgutil, abstracts_tui\n"
        "for module in pkgutil.walk_packages(abstracts_tui.__path__, 'abstracts_tui.'):\n"
        "    if not module.name.endswith('__main__'):\n"
        "        try:\n"
        "            importlib.import_module(module.name)\n"
        "        except ImportError as error:\n"
        "            print(module.name, error.name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        env=without_extras,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    # The PostgreSQL store and the live rooms on it, and the web server's seven
    # modules: nothing else of the package needs an extra.
    assert sorted(done.stdout.split("\n")[:-1]) == [
        "abstracts_tui.server.web.guard aiohttp",
        "abstracts_tui.server.web.internals textual_serve",
        "abstracts_tui.server.web.links aiohttp",
        "abstracts_tui.server.web.page_session aiohttp",
        "abstracts_tui.server.web.room_page aiohttp",
        "abstracts_tui.server.web.rooms aiohttp",
        "abstracts_tui.server.web.visitors aiohttp",
        "abstracts_tui.store.live_postgres psycopg",
        "abstracts_tui.store.postgres psycopg",
    ]


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (
            ["serve", "--database", "postgresql://127.0.0.1:1/games"],
            "--database needs psycopg, which is not installed: "
            "pip install 'abstracts-tui[postgres]' adds it",
        ),
        (
            ["web"],
            "web needs textual-serve, which is not installed: "
            "pip install 'abstracts-tui[web]' adds it",
        ),
        (
            ["serve", "--web", "0"],
            "--web needs textual-serve, which is not installed: "
            "pip install 'abstracts-tui[web]' adds it",
        ),
    ],
)
def test_an_option_or_command_without_its_extra_says_which_to_install(
    without_extras: dict[str, str], args: list[str], sentence: str
) -> None:
    done = run(without_extras, *args)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"Error: {sentence}"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@needs_ssh
@needs_tmux
def test_the_ssh_server_plays_without_any_extra(
    without_extras: dict[str, str], tmp_path: Path
) -> None:
    port = free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "abstracts_tui", "serve", "--port", str(port)),
            *("--data", str(tmp_path / "server"), "--log-level", "warning"),
        ],
        env=without_extras,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert server.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.2)
        games = subprocess.run(
            [*SSH, "-T", "-p", str(port), "ann@127.0.0.1", "games"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert games.returncode == 0, games.stderr
        assert games.stdout.startswith("code\tgame\tplayers")
        lobby = " ".join([*SSH, "-t", "-p", str(port), "ann@127.0.0.1"])
        with Tmux(f"{lobby}; echo SSH-EXIT=$?; sleep 30", 80, 24) as terminal:
            terminal.wait_for("New room")
            terminal.keys("C-q")
            assert "SSH-EXIT=0" in terminal.wait_for("SSH-EXIT=")
    finally:
        server.send_signal(signal.SIGTERM)
        log, _ = server.communicate(timeout=30)
    assert server.returncode == 0
    # --log-level warning: the start and the sessions are not logged, and nothing failed.
    assert "listening on" not in log and "session started" not in log
    assert "Traceback" not in log
