"""The pie rule's question is asked in the play screen's panel: the first move stays in
sight on the board while the second player decides, and the screen's keys (undo, help)
work meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.help import HelpScreen
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings
from abstracts_tui.tui.widgets.clock_faces import ClockFaces
from abstracts_tui.tui.widgets.pie_question import PieQuestion
from tests.tui.test_layout import drawn
from tests.tui.test_play import play_screen, text, type_move
from tests.tui.waiting import pie_asked, until

Scenario = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


def run(app: AbstractsApp, scenario: Scenario, size: tuple[int, int] = (80, 24)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def assert_in_sight(app: AbstractsApp, screen: PlayScreen, cell: int) -> None:
    """`cell` is drawn on the board and nothing lies over it: the widget the terminal
    shows at its place is the board of the play screen on top."""
    board = screen.board
    x, y = board._layout.cells[cell]
    origin = board.content_region.offset
    widget, _ = app.get_widget_at(origin.x + x, origin.y + y)
    assert app.screen is screen and widget is board
    assert board.render_line(y).text[x] in "●○", board.render_line(y).text


def test_the_computers_first_move_stays_in_sight_while_the_swap_is_asked(
    tmp_path: Path,
) -> None:
    setup = Setup("pilo", 6, first="Computer", first_level="easy", clock="5m+3s")
    app = build_app(setup, data=tmp_path, settings=Settings())

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await until(pilot, lambda: pie_asked(app))
        assert_in_sight(app, screen, screen.thinking.cell_of(screen.game.moves[0]))
        question = " ".join(drawn(screen.query_one(PieQuestion)).replace("│", " ").split())
        assert "Computer (Blue) has made the first move" in question
        # The clock goes on in sight, beside no border of a box drawn over it.
        faces = drawn(screen.query_one(ClockFaces))
        assert "Computer" in faces and "> Orange" in faces, faces
        clock = screen.query_one(ClockFaces).region
        assert app.get_widget_at(clock.right - 1, clock.y + 1)[0] is screen.query_one(ClockFaces)
        # Help is at hand while it is asked, and the question waits for its answer.
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert pie_asked(app)
        await pilot.press("s")
        await until(pilot, lambda: len(screen.game.moves) >= 2)
        assert screen.game.move_name(screen.game.moves[1]) == "swap"
        assert not pie_asked(app)

    run(app, scenario)


def test_undo_while_the_swap_is_asked_takes_the_first_move_back(tmp_path: Path) -> None:
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await type_move(pilot, "c3")
        await until(pilot, lambda: pie_asked(app))
        assert_in_sight(app, screen, screen.game.geometry.parse("c3"))
        await pilot.press("u")
        await until(pilot, lambda: not screen.game.moves)
        assert not pie_asked(app)
        assert text(app, "#status") == "Took back 1 move. Blue to move (Ann)."
        await pilot.press("r")  # replayed: the question is asked again
        await until(pilot, lambda: pie_asked(app))

    run(app, scenario)


def test_play_on_by_key_or_by_a_move_on_the_board(tmp_path: Path) -> None:
    for answer in ("p", "enter", "board"):
        app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path / answer)

        async def scenario(app: AbstractsApp, pilot: Pilot[None], answer: str = answer) -> None:
            screen = play_screen(app)
            await type_move(pilot, "c3")
            await until(pilot, lambda: pie_asked(app))
            if answer == "board":  # a click on a cell plays there: that is playing on
                board = screen.board
                x, y = board._layout.cells[screen.game.geometry.parse("d4")]
                await pilot.click(board, offset=(x, y))
                await until(pilot, lambda: len(screen.game.moves) == 2)
                assert screen.game.move_name(screen.game.moves[1]) == "d4"
            else:
                await pilot.press(answer)
                await until(pilot, lambda: not pie_asked(app))
                assert len(screen.game.moves) == 1 and screen.focused is screen.board
                await pilot.press("right", "enter")  # the board has the keys again
                await until(pilot, lambda: len(screen.game.moves) == 2)
            assert not pie_asked(app)

        run(app, scenario, size=(100, 30))
