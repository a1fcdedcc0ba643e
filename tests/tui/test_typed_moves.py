"""The move line (`:`): what is typed is checked at each character, a move not allowed is
refused with the rules' reason on the screen, the line kept to correct it, and Esc gives
the status line back as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.test_help import visible_text
from tests.tui.waiting import pie_asked, until


def play_screen(app: AbstractsApp) -> PlayScreen:
    screen = app.screen
    assert isinstance(screen, PlayScreen), type(screen)
    return screen


def status_row(app: AbstractsApp) -> str:
    """The row above the footer: the status line, or the move line while it is open."""
    rows = [row.strip() for row in visible_text(app).splitlines() if row.strip()]
    return rows[-2]


def played(app: AbstractsApp) -> list[str]:
    game = play_screen(app).session.game
    return [game.move_name(m) for m in game.moves]


async def d5_played_on(app: AbstractsApp, pilot: Pilot[None]) -> str:
    """Blue's d5, Orange plays on (the pie rule); the status line's text then."""
    await pilot.press("colon", "d", "5", "enter")
    await until(pilot, lambda: pie_asked(app))
    await pilot.press("p")
    await until(pilot, lambda: not pie_asked(app))
    status = status_row(app)
    assert "played d5" in status, visible_text(app)
    return status


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_a_typed_move_not_allowed_says_why_and_stays_to_be_corrected(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            status = await d5_played_on(app, pilot)
            line = app.screen.query_one("#move-line", Input)
            for typed, reason in (
                ("d5", "Not played: d5 is occupied by a Blue disk"),
                ("zz9", "Not played: 'zz9' is not a cell name like c3"),
                ("pass", "Not played: you may pass only when you have no board play"),
            ):
                await pilot.press("colon", *typed, "enter")
                await pilot.pause()
                assert reason in visible_text(app), visible_text(app)
                assert line.value == typed and line.has_focus  # kept, to be corrected
                assert played(app) == ["d5"]
                await pilot.press("escape")
                await pilot.pause()
                # The status line as it was before the line opened, not blank.
                assert status_row(app) == status
                assert not play_screen(app).typing
            # Corrected on the line, the move is played.
            await pilot.press("colon", "d", "5", "enter")
            await pilot.pause()
            await pilot.press("backspace", "4", "enter")
            await until(pilot, lambda: played(app) == ["d5", "d4"])

    asyncio.run(main())


def test_the_move_line_says_at_each_character_whether_a_legal_move_is_typed(
    tmp_path: Path,
) -> None:
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await d5_played_on(app, pilot)
            await pilot.press("colon")
            await pilot.pause()
            assert "Type a move, e.g. c3" in visible_text(app)
            for key, said in (
                ("d", "d...: can be a legal move (d1, d2, d3, d4 and 1 more)"),
                ("5", "Not legal: d5 is occupied by a Blue disk"),
                ("backspace", "d...: can be a legal move"),
                ("4", "d4: legal. Enter plays it."),
            ):
                await pilot.press(key)
                await pilot.pause()
                assert said in visible_text(app), visible_text(app)
            assert played(app) == ["d5"]  # nothing is played before Enter

    asyncio.run(main())
