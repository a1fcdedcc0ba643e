"""ctrl+c leaves the app from every screen, as ctrl+q does and as line mode does, the game
in progress kept in its autosave; the help says so."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.test_help import flat, scroll_to_end
from tests.tui.waiting import pie_asked, until

Steps = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


def leaves(app: AbstractsApp, steps: Steps) -> None:
    """`steps`, then ctrl+c: the app ends of itself, with status 0."""

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await steps(app, pilot)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running, seconds=10)

    asyncio.run(main())
    assert app.return_code == 0


async def home(app: AbstractsApp, pilot: Pilot[None]) -> None:
    assert type(app.screen).__name__ == "SelectScreen"


async def a_move(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await pilot.press("colon", "d", "5", "enter")
    await until(pilot, lambda: pie_asked(app))
    await pilot.press("p")
    await until(pilot, lambda: not pie_asked(app))


async def typing_a_move(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await a_move(app, pilot)
    await pilot.press("colon", "e")  # a text field has the focus
    await pilot.pause()
    assert isinstance(app.screen, PlayScreen) and app.screen.typing


async def opening_a_record(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await a_move(app, pilot)
    await pilot.press("ctrl+o", "tab", "tab", "a")  # the path's field
    await pilot.pause()
    assert type(app.screen).__name__ == "OpenRecordDialog"


async def in_the_help(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await a_move(app, pilot)
    await pilot.press("question_mark")
    await pilot.pause()
    assert type(app.screen).__name__ == "HelpScreen"


@pytest.mark.parametrize(
    ("setup", "steps"),
    [
        (None, home),
        (Setup("petrify", 6), typing_a_move),
        (Setup("petrify", 6), opening_a_record),
        (Setup("petrify", 6), in_the_help),
    ],
    ids=["home", "typing a move", "opening a record", "help"],
)
def test_ctrl_c_leaves_from_every_screen(tmp_path: Path, setup: Setup | None, steps: Steps) -> None:
    app = build_app(setup, data=tmp_path)
    leaves(app, steps)
    assert not app.notices  # no "Do you want to quit?"
    if setup is not None:  # the game is kept, its move in it
        games, problems = build_app(data=tmp_path).saved_games.read()
        assert not problems and len(games) == 1
        moves = games[0].record.main_game().moves
        assert len(moves) == 1


def test_the_help_lists_ctrl_c_as_quit(tmp_path: Path) -> None:
    app = build_app(Setup("petrify", 6), data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            pages: list[str] = []
            await scroll_to_end(app, pilot, pages)
            shown = flat("\n".join(pages))
            assert "^c ^q Quit" in shown, shown
            assert "Copy selected text" not in shown, shown
            assert "mouse Copy: select with Shift held, then the terminal's copy key" in shown, (
                shown
            )

    asyncio.run(main())
