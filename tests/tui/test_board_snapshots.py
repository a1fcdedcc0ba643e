"""Snapshots of the boards in the real app's play screen: how each geometry looks with the
score overlay, a selection and the last move, in colour and in ASCII."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.test_board import LINAGE, PARTITIONS, PETRIFY, PILO, SETUPS, SIDE
from tests.tui.waiting import until

SnapCompare = Callable[..., bool]


def shown(
    position: str, answers: Sequence[str] = (), keys: Sequence[str] = ("t",)
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Answer the dialog asked first (`answers`), set up `position` as the app does, then
    press `keys` (by default `t`: the score overlay)."""

    async def steps(pilot: Pilot[Any]) -> None:
        app = pilot.app
        await pilot.pause()
        await pilot.press(*answers)
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.session.set_up(position)
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()

    return steps


def test_petrify_selection_targets_and_last_move(snap_compare: SnapCompare, tmp_path: Path) -> None:
    # Blue plays f1 (the last move), then Orange chooses f4, whose captures are f1 and d2.
    before = PETRIFY.replace(".bx..b orange passes=0,last=blue", ".bx... blue passes=0,last=orange")
    keys = ("right", "right", "right", "down", "down", "down", "enter", "up", "up", "up", "enter")
    app = build_app(SETUPS["petrify"], data=tmp_path)
    assert snap_compare(app, run_before=shown(before, keys=keys), terminal_size=(80, 24))


def test_pilo_score_overlay(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = build_app(SETUPS["pilo"], data=tmp_path)
    assert snap_compare(app, run_before=shown(PILO), terminal_size=(80, 24))


def test_linage_score_overlay(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = build_app(SETUPS["linage"], data=tmp_path)
    assert snap_compare(app, run_before=shown(LINAGE, SIDE), terminal_size=(80, 24))


def test_partitions_fragments(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = build_app(SETUPS["partitions"], data=tmp_path)
    assert snap_compare(app, run_before=shown(PARTITIONS), terminal_size=(80, 24))


def test_partitions_fragments_ascii(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = build_app(SETUPS["partitions"], ascii=True, data=tmp_path)
    assert snap_compare(app, run_before=shown(PARTITIONS), terminal_size=(80, 24))
