"""Snapshots of the dialogs at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from abstracts_tui.rules import GAMES
from abstracts_tui.tui.dialogs.confirm import ResumeDialog
from abstracts_tui.tui.dialogs.komi import KomiDialog
from abstracts_tui.tui.dialogs.pie import PieDialog
from abstracts_tui.tui.dialogs.side import SideDialog

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
    dialog = ResumeDialog("Resume the game in progress?")
    assert snap_compare(Host(dialog))
