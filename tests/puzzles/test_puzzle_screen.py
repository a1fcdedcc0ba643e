"""The puzzle screen: the player plays the solution's moves (typed or on the board), the
replies are played, and the status line says right or wrong."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from abstracts_tui.puzzles.puzzle import Puzzle
from abstracts_tui.puzzles.shipped import load, load_all
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.puzzle_app import PuzzleApp
from abstracts_tui.tui.screens.puzzle import PuzzleScreen
from abstracts_tui.tui.screens.select import SelectScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.test_palette import choose
from tests.tui.waiting import until

Scenario = Callable[[PuzzleScreen, Pilot[None]], Awaitable[None]]


def run(puzzles: list[Puzzle], scenario: Scenario) -> None:
    async def main() -> None:
        app = PuzzleApp(puzzles)
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PuzzleScreen)
            await scenario(screen, pilot)

    asyncio.run(main())


async def type_move(pilot: Pilot[None], text: str) -> None:
    for key in text:
        await pilot.press("minus" if key == "-" else key)
    await pilot.press("enter")
    await pilot.pause()


def test_typed_moves_play_the_line_and_the_status_says_so() -> None:
    puzzle = next(p for p in load_all() if p.depth >= 3)
    wrong_names = [
        puzzle.start().move_name(m)
        for m in puzzle.start().legal_moves()
        if puzzle.start().move_name(m) != puzzle.solution[0]
    ]

    async def scenario(screen: PuzzleScreen, pilot: Pilot[None]) -> None:
        assert "to play and win" in str(screen.query_one("#puzzle-task").render())
        await type_move(pilot, wrong_names[0])
        assert "Try again" in screen.status
        assert len(screen.trial.game.moves) == len(puzzle.moves)
        await type_move(pilot, puzzle.solution[0])
        assert screen.status.startswith("Right.")
        assert f"answers {puzzle.solution[1]}" in screen.status
        for move in puzzle.solution[2::2]:
            await type_move(pilot, move)
        assert "Solved." in screen.status
        assert screen.solved == 1

    run([puzzle, puzzle], scenario)


def test_a_placement_is_chosen_on_the_board_and_f5_f6_show_and_go_on() -> None:
    puzzle = next(p for p in load("egotzi", 5) if p.depth == 1)

    async def scenario(screen: PuzzleScreen, pilot: Pilot[None]) -> None:
        game = screen.trial.game
        cell = game.parse_move(puzzle.solution[0])
        screen.board.focus()
        screen.board.cursor = cell
        await pilot.press("enter")
        await pilot.pause()
        assert screen.status.startswith("Right. Solved.")
        await pilot.press("f6")
        await pilot.pause()
        assert screen.number == 1
        await pilot.press("f5")
        await pilot.pause()
        assert screen.status.startswith("The move is")
        assert screen.solved == 1

    run([puzzle, puzzle], scenario)


def test_the_apps_palette_opens_the_puzzles_from_the_home_screen(tmp_path: Path) -> None:
    app = build_app(data=tmp_path / "data", settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            await choose(pilot, "puzzles")
            await until(pilot, lambda: isinstance(app.screen, PuzzleScreen))
            screen = app.screen
            assert isinstance(screen, PuzzleScreen)
            assert len(screen.puzzles) == len(load_all())
            await type_move(pilot, screen.puzzles[0].solution[0])
            assert screen.status.startswith("Right.")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))

    asyncio.run(main())
