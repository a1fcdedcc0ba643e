"""What the forkserver does so that a session's process copies fewer of its pages: the
code sessions run copied side by side (`server.hot_code`), the bounded caches the
warm-up filled emptied (`server.bounded_caches`), and a warm-up that draws what a session
draws, the game's board included (`server.warm`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from abstracts_tui.server.warm import can_immortalize
from tests.ssh.client import TIMEOUT

COPIES = """
from abstracts_tui.server.hot_code import calls_seen, copy_hot_code

def outer(n):
    def inner(m):
        return m * 2
    return inner(n) + 1

def cold(n):
    return n - 1

before = outer.__code__, cold.__code__
inner_before = [c for c in outer.__code__.co_consts if hasattr(c, "co_code")][0]
with calls_seen() as hot:
    first = outer(20)
made = copy_hot_code(hot)
inner_after = [c for c in outer.__code__.co_consts if hasattr(c, "co_code")][0]
print(
    made >= 2,
    outer.__code__ is not before[0],
    outer.__code__.co_code == before[0].co_code,
    inner_after is not inner_before,
    cold.__code__ is before[1],
    first == outer(20) == 41,
)
"""


def run_python(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_functions_called_run_from_copies_of_their_code_the_others_keep_theirs() -> None:
    # Copied side by side, the code a session runs lies on few pages; a closure made
    # after the copy comes from the copy of its code too, and every function still does
    # what it did.
    assert run_python(COPIES) == ["True"] * 6


CACHES = """
import functools
from abstracts_tui.server.bounded_caches import empty_bounded_caches

@functools.lru_cache(maxsize=64)
def bounded(n):
    return n * n

@functools.lru_cache(maxsize=None)
def unbounded(n):
    return n + n

for n in range(10):
    bounded(n)
    unbounded(n)
emptied = empty_bounded_caches()
print(emptied >= 1, bounded.cache_info().currsize, unbounded.cache_info().currsize, bounded(3))
"""


def test_the_bounded_caches_are_emptied_and_the_unbounded_kept() -> None:
    # A bounded cache writes its entries when it is read; one without a bound does not,
    # and stays shared as the warm-up filled it.
    assert run_python(CACHES) == ["True", "0", "10", "9"]


def test_the_warm_up_draws_the_games_board(tmp_path: Path, monkeypatch: Any) -> None:
    # Left as soon as its screen was there, the warm-up once never drew the board, so
    # every session drew it first (its code and caches its own).
    from abstracts_tui.server.warm import run_one
    from abstracts_tui.tui.widgets.board_view import BoardView

    lines: list[int] = []
    draw = BoardView.render_line

    def render_line(self: BoardView, y: int) -> Any:
        lines.append(y)
        return draw(self, y)

    monkeypatch.setattr(BoardView, "render_line", render_line)
    assert asyncio.run(run_one(tmp_path, game=True)) is True
    assert len(set(lines)) >= 8  # a board's rows, drawn


def copied() -> None:
    """A process forked as a session's: exits 0 if its forkserver copied the code the
    warm-up ran (more than a thousand functions)."""
    from abstracts_tui.server import warm

    sys.exit(0 if warm.COPIED and warm.COPIED[0] > 1000 else 3)


@pytest.mark.skipif(
    not can_immortalize(),
    reason="copied only where objects are immortal (3.12, 3.13): on 3.11 the copies cost more",
)
def test_a_sessions_process_runs_the_code_the_warm_up_copied() -> None:
    from abstracts_tui.server.session_process import context

    process = context().Process(target=copied)
    process.start()
    process.join(TIMEOUT)
    assert process.exitcode == 0
