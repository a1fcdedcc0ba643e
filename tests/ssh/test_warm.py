"""The forkserver that forks each session's process has first run one session to its
lobby (`server.warm`), so that its caches and specialized code are shared instead of
copied into every session. The warm-up runs a session as a session's process does; a
session forked after it, and after others, starts with nothing of theirs."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from abstracts_tui.server.warm import can_immortalize
from tests.processes import session_processes
from tests.ssh.client import TIMEOUT, connect

CURSOR_RIGHT = "\x1b[C"


def test_the_warm_up_draws_a_lobby_as_a_session_process_does(tmp_path: Path) -> None:
    from abstracts_tui.server.warm import run_one

    # The session's own code, its messages answered as a server with no room open: if
    # a change to the session's start left the warm-up behind, it would be found here,
    # not as sessions that cost more.
    assert asyncio.run(run_one(tmp_path)) is True
    assert list(tmp_path.iterdir()) == []  # nothing left behind for a session to find


def test_the_warm_up_draws_a_games_screen_after_the_lobby(tmp_path: Path) -> None:
    # The forkserver's warm-up (`warm()`) goes on to a game's screen, the board a room
    # shows, so that its code and styles are ready before any session is forked.
    from abstracts_tui.server.warm import run_one

    assert asyncio.run(run_one(tmp_path, game=True)) is True


def warmed() -> None:
    """A process forked as a session's: exits 0 if its forkserver drew the warm-up's lobby."""
    from abstracts_tui.server import warm

    sys.exit(0 if warm.DRAWN is True else 3)


def test_the_forkserver_of_sessions_has_warmed_up_before_it_forks() -> None:
    from abstracts_tui.server.session_process import context

    process = context().Process(target=warmed)
    process.start()
    process.join(TIMEOUT)
    assert process.exitcode == 0


def uses_without_writing() -> None:
    """A process forked as a session's: exits 0 if using the forkserver's objects (the
    lobby's class, its method, a module's name) leaves their reference counts unwritten."""
    from abstracts_tui.server import warm
    from abstracts_tui.tui.rooms.lobby import LobbyScreen

    used = [LobbyScreen, LobbyScreen.compose, warm.__name__]
    before = [sys.getrefcount(thing) for thing in used]
    held = [list(used) for _ in range(100)]
    after = [sys.getrefcount(thing) for thing in used]
    del held
    sys.exit(0 if before == after == [warm.IMMORTAL] * len(used) else 3)


@pytest.mark.skipif(
    not can_immortalize(), reason="immortal objects laid out as CPython 3.12's and 3.13's only"
)
def test_a_sessions_process_uses_the_forkservers_objects_without_writing_them() -> None:
    # Each object written (its reference count) is a page copied into the session's
    # process: the forkserver has made what it holds immortal.
    from abstracts_tui.server.session_process import context

    process = context().Process(target=uses_without_writing)
    process.start()
    process.join(TIMEOUT)
    assert process.exitcode == 0


def test_immortal_objects_are_made_only_where_the_python_has_them() -> None:
    # Run in a process of its own: what it makes immortal is never freed.
    import subprocess

    code = (
        "from abstracts_tui.server import warm\n"
        "made = warm.immortalize()\n"
        "print(made > 1000 if warm.can_immortalize() else made == 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True\n"


def board_size(screen: str) -> str:
    found = re.search(r"\b(\d+ x \d+)\b", screen)
    assert found, screen
    return found.group(1)


def test_a_session_starts_with_none_of_the_choices_another_made(start_server) -> None:
    server = start_server()

    async def main() -> tuple[str, str, str, str]:
        ann_conn, ann = await connect(server.port, "ann")
        await ann.wait_for("you are ann", "New room")
        ann.send("c")
        first = board_size(await ann.wait_for("choose a game", "Who joins"))
        ann.send("\t" + CURSOR_RIGHT)  # from the games to the size: one larger
        changed = board_size(
            await ann.wait_until(lambda screen: board_size(screen) != first, "another size")
        )
        # Ann's choice is on her screen still: Bob's session is forked now.
        bob_conn, bob = await connect(server.port, "bob")
        lobby = await bob.wait_for("you are bob", "New room")
        bob.send("c")
        seen = board_size(await bob.wait_for("choose a game", "Who joins"))
        assert len(session_processes(server.process.pid)) == 2  # each in a process of its own
        for conn in (ann_conn, bob_conn):
            conn.close()
        return first, changed, seen, lobby

    first, changed, seen, lobby = asyncio.run(main())
    assert changed != first
    assert seen == first
    assert "warm-up" not in lobby  # the warm-up's own session is nobody's
    assert "Traceback" not in server.log, server.log


def test_the_memory_script_measures_the_floor_under_a_lobby() -> None:
    # `scripts/session_memory.py --floor`, whose figures the benchmarks page gives: a
    # loop, a one-widget app and a lobby, each forked from a process warmed as the
    # forkserver is (what each costs is printed, not asserted).
    import subprocess

    script = Path(__file__).resolve().parents[2] / "scripts" / "session_memory.py"
    done = subprocess.run(
        [sys.executable, str(script), "--floor"], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    measured = re.findall(r"forked, running (.+): private \d+\.\d\d MiB", done.stdout)
    assert measured == ["an asyncio loop", "a one-widget Textual app", "a session in its lobby"]


MAIN_SCRIPT = """
print("the main module runs", flush=True)
if __name__ == "__main__":
    import time
    from abstracts_tui.server.session_process import context

    process = context().Process(target=time.sleep, args=(0,))
    process.start()
    process.join(60)
    print("exit", process.exitcode, flush=True)
"""


def test_a_sessions_process_does_not_run_the_servers_main_script_again(tmp_path: Path) -> None:
    # Started as `abstracts-tui serve`, the server's main module is that script, which
    # multiprocessing would compile and run again in every session's process (4.4 MiB
    # more of each one's own memory): the forkserver's processes keep it as it is.
    import subprocess

    script = tmp_path / "serve_script.py"
    script.write_text(MAIN_SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["the main module runs", "exit 0"], done.stdout
