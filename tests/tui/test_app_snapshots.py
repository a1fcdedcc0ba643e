"""Snapshots of the play screen inside the real app: each board type, the end, small terminals."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen

SnapCompare = Callable[..., bool]


def moves(*played: str, then: tuple[str, ...] = ()) -> Callable[[Pilot[Any]], Any]:
    """Type the moves (playing on at the pie rule), then press `then`."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for move in played:
            await pilot.press("colon", *move, "enter")
            await pilot.pause()
            if not isinstance(pilot.app.screen, PlayScreen):
                await pilot.press("p")
        await pilot.press(*then)
        await pilot.pause()

    return steps


def app(tmp_path: Path, setup: Setup) -> AbstractsApp:
    return build_app(setup, data=tmp_path)


def test_petrify_a_selected_disk_shows_its_targets(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    setup = Setup("petrify", 6, first="Ann", second="Bob")

    async def steps(pilot: Pilot[Any]) -> None:
        await moves("c3", "c5", "e3", "a1")(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        screen.board.cursor = screen.game.geometry.parse("c3")
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(app(tmp_path, setup), run_before=steps, terminal_size=(80, 24))


def test_pilo_stacks_and_blocks(snap_compare: SnapCompare, tmp_path: Path) -> None:
    setup = Setup("pilo", 6, first="Ann", second="Bob")
    run = moves("c3", "c5", "c3-c5", "a1", "a2", "a1-a2", "f6")
    assert snap_compare(app(tmp_path, setup), run_before=run, terminal_size=(80, 24))


def test_linage_points_with_the_score_on_the_board(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    setup = Setup("linage", 7, komi=2.5, first="Ann", second="Bob")

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press("2")  # Bob takes Horizontal
        await moves("a3", "b3", "c3", "d3", "e3", "f3", then=("t",))(pilot)

    assert snap_compare(app(tmp_path, setup), run_before=steps, terminal_size=(80, 24))


def test_partitions_finished_game_shows_the_result(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Bob")
    order = [
        f"{row}{pos}"
        for row, length in zip("abcdefghi", (5, 6, 7, 8, 9, 8, 7, 6, 5), strict=True)
        for pos in range(1, length + 1)
    ]
    assert snap_compare(app(tmp_path, setup), run_before=moves(*order), terminal_size=(100, 30))


def test_egotzi_too_small_a_terminal(snap_compare: SnapCompare, tmp_path: Path) -> None:
    setup = Setup("egotzi", 9, first="Ann", second="Bob")
    assert snap_compare(app(tmp_path, setup), terminal_size=(50, 14))
