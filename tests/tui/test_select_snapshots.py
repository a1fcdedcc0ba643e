"""Snapshots of the game-selection screen at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from abstracts_tui.tui.screens.select import SelectScreen

SnapCompare = Callable[..., bool]


class Host(App[None]):
    """A bare app showing the selection screen."""

    TITLE = "abstracts-tui"
    ENABLE_COMMAND_PALETTE = False

    def on_mount(self) -> None:
        self.push_screen(SelectScreen())


async def steady_cursor(pilot: Pilot[Any]) -> None:
    """Stop the text cursors blinking so that every snapshot is the same."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


def test_select_screen_petrify(snap_compare: SnapCompare) -> None:
    """The list of games with Petrify highlighted: its size, the names, the pie rule."""
    assert snap_compare(Host(), run_before=steady_cursor)


def test_select_screen_egotzi_squared_bad_komi(snap_compare: SnapCompare) -> None:
    """Egotzi squared with an odd komi typed: the reason is shown under the field."""
    keys = ["j", "j", "tab", "tab", "right", "tab", "3"]
    assert snap_compare(Host(), press=keys, run_before=steady_cursor)
