"""Snapshots of analysis mode and setup mode (reproducible: a seed and a playout budget)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.setup import SetupScreen
from abstracts_tui.tui.widgets.win_rate_graph import WinRateGraph
from tests.tui.waiting import until

SnapCompare = Callable[..., bool]


def moves(*played: str) -> Callable[[Pilot[Any]], Any]:
    """Type the moves, playing on at the pie rule."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for move in played:
            await pilot.press("colon", *move, "enter")
            await pilot.pause()
            if not isinstance(pilot.app.screen, PlayScreen):
                await pilot.press("p")

    return steps


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "3")
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "600")
    # The pictures must not depend on whether the compiled core was built, nor on the
    # machine's number of cores (the compiled search grows a tree per thread).
    monkeypatch.setenv("ABSTRACTS_TUI_CORE", "python")


def test_analysis_with_a_variation_candidates_bar_and_graph(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    setup = Setup("egotzi", 5, variant="squared", komi=2, first="Ann", second="Bob")

    async def steps(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "SideDialog")
        await pilot.press("1")
        await moves("c3", "b2", "d4", "b4")(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("u")
        await moves("d2")(pilot)  # the new main line; b4 is kept as a variation
        # Only this position is analysed (to the end of its budget: the same figures in
        # every run); the review gives the others theirs.
        await pilot.press("x")
        await pilot.press("semicolon", *"blocks the corner", "enter")
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        await pilot.press("percent_sign")
        nodes = [screen.session.record.root, *screen.session.line_nodes()]
        await until(pilot, lambda: not screen.searches.busy("review"))
        assert all(node.evaluation is not None for node in nodes)
        screen.draw_analysis()
        await pilot.pause()

    assert snap_compare(build_app(setup, data=tmp_path), run_before=steps, terminal_size=(80, 30))


def test_setting_up_a_pilo_position(snap_compare: SnapCompare, tmp_path: Path) -> None:
    setup = Setup("pilo", 6, first="Ann", second="Bob")

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("ctrl+e")
        await pilot.pause()
        setting_up = pilot.app.screen
        assert isinstance(setting_up, SetupScreen)
        cells = screen.game.geometry
        for cell, keys in (("b2", "11"), ("e5", "222"), ("c4", "3")):
            setting_up.board.cursor = cells.parse(cell)
            await pilot.press(*keys)
        await pilot.press("t")
        await pilot.pause()

    assert snap_compare(build_app(setup, data=tmp_path), run_before=steps, terminal_size=(80, 24))


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_graph_numbers_its_moves(
    size: tuple[int, int],
    snap_compare: SnapCompare,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reviewed line of 30 moves, move 12 shown: the graph's columns and their numbers."""
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "60")
    setup = Setup("partitions", 6, first="Ann", second="Bob")

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        rng = random.Random(11)
        for _ in range(30):
            screen.session.play(rng.choice(screen.session.game.legal_moves()))
        await pilot.press("x")
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        await pilot.press("percent_sign")
        await until(pilot, lambda: not screen.searches.busy("review"))
        await pilot.press("g", "1", "2", "enter")
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        screen.query_one(WinRateGraph).scroll_visible(animate=False)
        await pilot.pause()

    assert snap_compare(build_app(setup, data=tmp_path), run_before=steps, terminal_size=size)
