"""The hint: which move, and why, in the side to move's chance, and the key that plays it,
a pass's too. The app as `abstracts-tui` builds it, driven by keys."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules import PASS
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.widgets.board import BoardView
from tests.tui.test_board import SIDE, run
from tests.tui.waiting import until

ONLY_A_PASS = "linage size=5,komi=0 xxxxx/x..../xxxxx/...xx/.x.xx vertical passes=0"
"""Vertical to move, with no cell left to play: passing is the only move."""


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "9")
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "400")


def status(screen: PlayScreen) -> str:
    return str(screen.query_one("#status", Static).content)


def test_a_hinted_pass_says_its_key_and_that_key_passes(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        assert screen.game.legal_moves() == [PASS]
        await pilot.press("b")
        await until(pilot, lambda: screen.hint is not None)
        said = status(screen)
        assert re.match(
            r"Hint: pass - (Vertical's chance \d+%(, (ahead|behind) by [\d.]+|, level)?"
            r"|Vertical loses by force) "
            r"\(the only move tried\); the line pass\.",
            said,
        ), said
        assert said.endswith("p plays it."), said  # not Enter, which acts on the cursor
        moves = len(screen.game.moves)
        await pilot.press("p")
        await until(pilot, lambda: len(screen.game.moves) == moves + 1)
        assert screen.game.moves[-1] == PASS

    setup = Setup("linage", 5, komi=0, first="Ann", second="Bob")
    run(setup, tmp_path, script, position=ONLY_A_PASS, answers=SIDE)


def test_the_hint_and_the_analysis_panel_name_the_side_to_moves_chance(tmp_path: Path) -> None:
    async def script(screen: PlayScreen, board: BoardView, pilot: Pilot[None]) -> None:
        await pilot.press("enter")  # Ann (White) plays where the cursor is: Black to move
        await until(pilot, lambda: len(screen.game.moves) == 1)
        await pilot.press("b")
        await until(pilot, lambda: screen.hint is not None)
        said = status(screen)
        assert re.match(
            r"Hint: \w+ - Black's chance \d+%(, (ahead|behind) by [\d.]+|, level)? "
            r"\(best of \d+ moves tried\)",
            said,
        )
        assert "visits" not in said and "White" not in said
        panel = str(screen.query_one("#analysis", Static).content)
        assert panel.startswith(said.split(";")[0])  # the same words in the panel
        await pilot.press("x")  # analysis: the bar and the column are Black's, named
        await until(pilot, lambda: "playouts" in str(screen.query_one("#analysis", Static).content))
        panel = str(screen.query_one("#analysis", Static).content)
        assert re.search(r"move\s+Black's chance\s+visits", panel), panel
        assert "White %" not in panel

    run(Setup("partitions", 5, first="Ann", second="Bob"), tmp_path, script)
