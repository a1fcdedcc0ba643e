"""Snapshots of the dialogs at 80x24."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from abstracts_tui.records import Record
from abstracts_tui.rules import GAMES, new_game
from abstracts_tui.tui.dialogs.confirm import ConfirmDialog
from abstracts_tui.tui.dialogs.komi import KomiDialog
from abstracts_tui.tui.dialogs.pie import PieDialog
from abstracts_tui.tui.dialogs.side import SideDialog
from abstracts_tui.tui.factory import build_app

SnapCompare = Callable[..., bool]


class Host(App[None]):
    """A bare app showing one dialog."""

    TITLE = "abstracts-tui"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, dialog: Screen[Any]) -> None:
        super().__init__()
        self.dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self.dialog)


async def steady_cursor(pilot: Pilot[Any]) -> None:
    """Stop the text cursors blinking so that every snapshot is the same."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


def test_pie_dialog(snap_compare: SnapCompare) -> None:
    assert snap_compare(Host(PieDialog(("blue", "orange"), "Ann", "Bob")))


def test_komi_dialog_refusing_an_odd_komi(snap_compare: SnapCompare) -> None:
    dialog = KomiDialog(GAMES["egotzi"].info, "Ann")
    assert snap_compare(Host(dialog), press=["3"], run_before=steady_cursor)


def test_side_dialog(snap_compare: SnapCompare) -> None:
    assert snap_compare(Host(SideDialog(GAMES["linage"].info, "Bob", 6.5)))


def test_confirm_dialog(snap_compare: SnapCompare) -> None:
    dialog = ConfirmDialog("Delete this variation (3 positions from here on)?")
    assert snap_compare(Host(dialog))


def test_resume_dialog_listing_two_games_in_the_app(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    for number, moves in enumerate((("c3", "a1"), ("e5",))):
        game = new_game("partitions", 5)
        for move in moves:
            game.play(move)
        path = tmp_path / "games" / f"2026-01-0{number + 1}-120000-partitions.sgf"
        path.parent.mkdir(exist_ok=True)
        Record.from_game(game, ("Ann", "Bob"), date="2026-01-01").save(path)
        os.utime(path, (number, number))
    assert snap_compare(build_app(data=tmp_path), terminal_size=(80, 24))
