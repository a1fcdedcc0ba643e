"""The computer against itself plays at a pace a person can watch: at least the pace
between its moves, in the full-screen app and in line mode (`play --pace`)."""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import pytest

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.lines.terminal import LineTerminal

PACE = 0.4
"""The pace the tests ask for (shorter than the default, to keep them short)."""
SLACK = 0.05
"""What the tests' own polling may take off a gap they measure."""
MOVES = 5


def gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in itertools.pairwise(times)]


def test_the_app_paces_the_computer_against_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_PACE", str(PACE))
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "3")
    setup = Setup("petrify", 6, first_level="easy", second_level="easy")
    app = build_app(setup, data=tmp_path)
    seen: list[float] = []

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            deadline = time.monotonic() + 60
            while len(seen) < MOVES and time.monotonic() < deadline:
                if len(screen.game.moves) > len(seen):
                    seen.append(time.monotonic())
                await pilot.pause(0.01)

    asyncio.run(main())
    assert len(seen) == MOVES
    assert min(gaps(seen)) >= PACE - SLACK, gaps(seen)


def test_line_mode_paces_the_computer_against_itself_as_play_pace_says(tmp_path: Path) -> None:
    term = LineTerminal(
        "play",
        "petrify",
        "--computer",
        "both",
        "--level",
        "easy",
        "--pace",
        str(PACE),
        "--lines",
        home=tmp_path,
        env={"ABSTRACTS_TUI_SEED": "3", "ABSTRACTS_TUI_PACE": "0"},  # the option wins
    )
    seen: list[float] = []
    deadline = time.monotonic() + 60
    try:
        while len(seen) < MOVES and time.monotonic() < deadline:
            played = sum(" plays " in line for line in term.lines()[:-1])
            if played > len(seen):
                seen.append(time.monotonic())
            time.sleep(0.01)
    finally:
        term.process.kill()
        term.close()
    assert len(seen) == MOVES, term.text()[-2000:]
    assert min(gaps(seen)) >= PACE - SLACK, gaps(seen)
