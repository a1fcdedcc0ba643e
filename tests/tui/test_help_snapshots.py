"""Snapshot of the help screen at 80x24."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from abstracts_tui.tui.screens.help import HelpScreen

SnapCompare = Callable[..., bool]


class Host(App[None]):
    """A bare app showing the help for Petrify."""

    TITLE = "abstracts-tui"
    ENABLE_COMMAND_PALETTE = False

    def on_mount(self) -> None:
        self.push_screen(HelpScreen("petrify", [("u", "Undo"), ("?", "Help")]))


def test_help_screen_petrify(snap_compare: SnapCompare) -> None:
    """The top of Petrify's rules, scrollable, with the close keys in the footer."""
    assert snap_compare(Host())
