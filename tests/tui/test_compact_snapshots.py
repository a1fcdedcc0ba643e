"""Snapshots of the compact view (the board alone and a summary line, on a terminal too
small for the side panel) and of Partitions' coordinates on every edge of its board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.test_game_clocks import FakeTime
from tests.tui.test_app_snapshots import midgame
from tests.tui.waiting import pie_asked, until

SnapCompare = Callable[..., bool]

LINAGE_19 = Setup("linage", 19, komi=0.5, first="Ann", second="Bob")
PARTITIONS_10 = Setup("partitions", 10, first="Ann", second="Bob")


@pytest.mark.parametrize(
    "size",
    [(80, 24), (160, 50), (47, 22), (47, 20)],
    ids=["80x24", "160x50", "compact-47x22", "compact-47x20"],
)
def test_partitions_10_coordinates(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    """Row letters left, the last cell's name right, positions above and below (in the
    compact view, below only at 22 lines, and neither at 20)."""
    app = build_app(PARTITIONS_10, data=tmp_path)
    assert snap_compare(app, run_before=midgame(30, seed=5), terminal_size=size)


@pytest.mark.parametrize(
    "size", [(60, 20), (60, 24), (80, 24)], ids=["compact-60x20", "compact-60x24", "80x24"]
)
def test_linage_19(size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path) -> None:
    """At 60x20 the 19 rows and the summary line; at 60x24 the coordinates, the status
    line and the footer too; at 80x24 the full layout."""
    app = build_app(LINAGE_19, data=tmp_path)
    assert snap_compare(app, run_before=midgame(25, seed=11), terminal_size=size)


def test_linage_19_compact_with_the_side_panel(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """100x20 is too short for the full layout; `i` puts the side panel beside the board."""
    app = build_app(LINAGE_19, data=tmp_path)
    steps = midgame(25, seed=11)

    async def with_panel(pilot: Pilot[Any]) -> None:
        await steps(pilot)
        await pilot.press("i")
        await pilot.pause()

    assert snap_compare(app, run_before=with_panel, terminal_size=(100, 20))


def test_petrify_10_compact_with_a_clock(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The summary line names the clocks (time driven by the session's source)."""
    app = build_app(Setup("petrify", 10, first="Ann", second="Bob", clock="5m+3s"), data=tmp_path)

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        time = FakeTime()
        screen.session.use_time(time)
        time.wait(12.4)
        screen.session.play("e5")
        await until(pilot, lambda: pie_asked(pilot.app))
        await pilot.press("p")  # Bob plays on
        await until(pilot, lambda: not pie_asked(pilot.app))
        time.wait(7.2)
        screen.draw_panel()  # the line as it stands now (its timer is in real time)
        await pilot.pause()

    assert snap_compare(app, run_before=steps, terminal_size=(60, 16))
