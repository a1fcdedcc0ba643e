"""The move line (`:`): what is typed is checked at each character, a move not allowed is
refused with the rules' reason on the screen, the line kept to correct it, and Esc gives
the status line back as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

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
    assert "plays d5" in status, visible_text(app)
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
            for typed, reason in (
                ("d5", "Not played: d5 is occupied by a Blue disk"),
                ("zz9", "Not played: 'zz9' is not a cell name like c3"),
                ("pass", "Not played: you may pass only when you have no board play"),
            ):
                await pilot.press("colon", *typed, "enter")
                await pilot.pause()
                assert reason in visible_text(app), visible_text(app)
                # Kept, to be corrected: the line stays open with the text.
                assert play_screen(app).typing and status_row(app).startswith(typed)
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


def test_keys_typed_on_the_move_line_are_its_text_and_not_the_screens_keys(
    tmp_path: Path,
) -> None:
    """The line takes the keys while it is open (the board keeps the focus): letters bound
    to the screen's keys are text, the arrows leave the board's cursor, the footer leaves
    out the keys that would be typed, a paste is added, and a text too long is refused."""
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = play_screen(app)
            footer = visible_text(app).splitlines()[-1]
            assert ": Type" in footer and "u Undo" in footer and "x Analysis" in footer
            cursor = screen.board.cursor
            await pilot.press("colon", "x", "u", "left", "up", "n")
            await pilot.pause()
            assert status_row(app).startswith("xun"), visible_text(app)
            assert screen.board.cursor == cursor and not screen.analysing
            footer = visible_text(app).splitlines()[-1]
            assert "^z Undo" in footer and ": Type" not in footer and "x Analysis" not in footer
            await pilot.press("ctrl+u")
            app.post_message(events.Paste("c3\nignored"))  # as the terminal sends it
            await pilot.pause()
            assert "c3: legal. Enter plays it." in visible_text(app)
            await pilot.press(*"x" * 30)
            await pilot.pause()
            assert "Not taken: a move is typed in at most 24 characters." in visible_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not screen.typing and played(app) == []
            assert ": Type" in visible_text(app).splitlines()[-1]

    asyncio.run(main())
