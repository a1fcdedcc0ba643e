"""The room creation screen, in the app `abstracts-tui` builds: whether anyone may join
the room from the lobby (an open challenge) or only who has its code."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.rooms.create import ACCEPTER, JOINER, RoomScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.waiting import until


def test_a_room_is_made_open_to_anyone_by_its_row(tmp_path: Path) -> None:
    app = build_app(data=tmp_path, settings=Settings())
    chosen: list[Setup | None] = []
    seen: dict[str, str] = {}

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = RoomScreen(Setup("petrify", first="ann", second=JOINER), rated=False)
            app.push_screen(screen, chosen.append)
            await until(pilot, lambda: app.screen is screen)

            def second() -> str:
                return str(screen.query_one("#second-name", Static).content)

            def explanation() -> str:
                return str(screen.query_one("#explanation", Static).content)

            seen["before"] = second()
            seen["explained before"] = explanation()
            await pilot.press("tab", "tab", "tab", "tab")  # size, the clock, rated, who joins
            assert screen.focused is not None and screen.focused.id == "open"
            await pilot.press("right")
            await pilot.pause()
            seen["after"] = second()
            seen["explained after"] = explanation()
            assert screen.open and not screen.rated
            await pilot.press("enter")
            await until(pilot, lambda: bool(chosen))

    asyncio.run(main())
    assert seen["before"] == JOINER and seen["after"] == ACCEPTER
    assert "the player who joins by code plays Orange" in seen["explained before"]
    assert "whoever accepts it in the lobby plays Orange" in seen["explained after"]
    setup = chosen[0]
    assert setup is not None and setup.game == "petrify" and setup.first == "ann"


def test_the_create_screen_offers_no_recent_games_settings_or_puzzles(tmp_path: Path) -> None:
    """Those are of games kept on this machine; a room's game is the server's: their
    keys are neither shown nor working on the rooms' create screen."""
    from abstracts_tui.tui.widgets.key_bar import KeyBar

    app = build_app(data=tmp_path, settings=Settings())
    seen: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            screen = RoomScreen(Setup("petrify", first="ann", second=JOINER), rated=False)
            app.push_screen(screen)
            await until(pilot, lambda: app.screen is screen)
            bar = screen.query_one(KeyBar)
            seen.append(bar.render_lines(bar.region.reset_offset)[0].text)
            await pilot.press("f3", "ctrl+g", "f2")
            await pilot.pause()
            seen.append(type(app.screen).__name__)

    asyncio.run(main())
    bar, shown = seen
    assert "Recent" not in bar and "Settings" not in bar and "Puzzles" not in bar, bar
    assert shown == "RoomScreen"
