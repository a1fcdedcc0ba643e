"""`y` shows the position string whole at 80x24 (wrapped, however long the board's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.dialogs.position import PositionDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.test_layout import drawn
from tests.tui.waiting import until


def test_the_longest_position_string_is_shown_whole_at_80x24(tmp_path: Path) -> None:
    app = build_app(Setup("linage", 19, komi=0.5), data=tmp_path, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("2")  # the second person takes Horizontal
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            for move in ("a1", "s19", "j10"):
                screen.session.play(move)
            await pilot.pause()
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, PositionDialog))
            position = screen.game.position()
            assert app.clipboard == position
            shown = app.screen.query_one("#position-text", Static)
            assert shown.region.bottom <= 23 and shown.region.right <= 80  # inside the screen
            assert shown.max_scroll_y == 0  # not scrolled away: every line in sight
            assert "".join(drawn(shown).split()) == "".join(position.split())

    asyncio.run(main())
