"""The home screen as `abstracts-tui` builds it: snapshots at 80x24, and a check that its
styles are loaded (a home screen without them once passed snapshots of a stand-in app)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.select import PLAYERS, SelectScreen

SnapCompare = Callable[..., bool]


async def steady_cursor(pilot: Pilot[Any]) -> None:
    """Stop the text cursors blinking so that every snapshot is the same."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


def test_select_screen_petrify(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The list of games with Petrify highlighted: its size, the names, the pie rule."""
    assert snap_compare(build_app(data=tmp_path), run_before=steady_cursor)


def test_select_screen_egotzi_squared_bad_komi(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Egotzi squared with an odd komi typed: the reason is shown under the field."""
    keys = ["j", "j", "tab", "tab", "right", "tab", "3"]
    assert snap_compare(build_app(data=tmp_path), press=keys, run_before=steady_cursor)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_select_screen_computer_at_strongest_and_a_size_refused(
    snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]
) -> None:
    """The first seat given to the computer at its strongest: the name it will have, the
    level between both arrows; and a size typed that the game has not, refused."""
    keys = ["tab", "tab", "tab", "left", "right", "right", "right", "right"]
    keys += ["shift+tab", "shift+tab", "4"]
    assert snap_compare(
        build_app(data=tmp_path), press=keys, run_before=steady_cursor, terminal_size=size
    )


def test_the_home_screen_has_its_title_bar_and_field_labels_styled(tmp_path: Path) -> None:
    async def main() -> None:
        app = build_app(data=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SelectScreen)
            title = screen.query_one("#select-title")
            strip = title.render_lines(title.region.reset_offset)[0]
            assert strip.text.startswith(" abstracts-tui: choose a game")
            styles = {segment.style for segment in strip if segment.text.strip()}
            colours = {style.bgcolor for style in styles if style is not None}
            assert colours and None not in colours  # the title bar has its background
            assert all(style is not None and style.bold for style in styles)
            # Field labels have their column: the person/computer fields are not squeezed.
            label = screen.query_one("#first-label")
            assert label.region.width == 11
            name, player = screen.query_one("#first"), screen.query_one("#first-player")
            assert name.region.width >= 10 and player.region.width == 14
            assert name.region.x >= label.region.right
            # The longest level keeps both its arrows at 80 columns.
            player.focus()
            await pilot.press("left", *["right"] * len(PLAYERS))
            await pilot.pause()
            drawn = player.render_lines(player.region.reset_offset)[0].text
            assert drawn.strip() == "< strongest >"

    asyncio.run(main())
