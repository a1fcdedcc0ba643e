"""The computer as a player in the real app: moves, pie rule, komi and side, undo, stop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.engine.levels import LEVELS
from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rules import SWAP
from abstracts_tui.session import Phase
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.test_play import text, type_move
from tests.tui.waiting import until


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "5")
    # The strongest level thinks for as long as the tests need: until Esc.
    monkeypatch.setitem(LEVELS, "strongest", (600.0, None))


def play_screen(app: AbstractsApp) -> PlayScreen:
    """The play screen, whether or not a dialog stands over it."""
    return next(s for s in app.screen_stack if isinstance(s, PlayScreen))


def run(app: AbstractsApp, scenario: object, size: tuple[int, int] = (100, 30)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)  # type: ignore[operator]

    asyncio.run(main())


def test_the_computer_answers_a_move_and_undo_takes_both_back(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await type_move(pilot, "e5")
        await until(pilot, lambda: len(screen.game.moves) == 2)
        assert text(app, "#status").startswith("Black (Computer) plays ")
        assert screen.game.turn == 0  # Ann's turn again
        await pilot.press("u")
        await pilot.pause()
        assert screen.game.moves == []  # the reply and Ann's move
        assert text(app, "#turn") == "White to move (Ann)"

    run(app, scenario)


def test_a_person_cannot_move_for_the_computer(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Computer", second="Bob", first_level="strongest")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await until(pilot, lambda: screen.searches.busy("turn"))
        await type_move(pilot, "e5")
        assert "the computer" in text(app, "#status")
        assert screen.game.moves == []
        await pilot.press("escape")  # decide now
        await until(pilot, lambda: len(screen.game.moves) == 1)

    run(app, scenario)


def test_keys_are_answered_while_the_computer_thinks_and_esc_makes_it_move(
    tmp_path: Path,
) -> None:
    setup = Setup("linage", 7, first="Computer", second="Bob", first_level="strongest")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        # The computer sets komi, then Bob takes the second colour: the computer moves first.
        await until(pilot, lambda: type(app.screen).__name__ == "SideDialog")
        await pilot.press("2")
        await until(pilot, lambda: screen.searches.busy("turn"))
        before = screen.board.cursor
        await pilot.press("left", "left")
        assert screen.board.cursor != before  # the UI thread is free during the search
        assert "thinking" in text(app, "#analysis") or screen.searches.busy("turn")
        await pilot.press("escape")
        await until(pilot, lambda: len(screen.game.moves) == 1, seconds=10)
        assert " (Computer) plays " in text(app, "#status")

    run(app, scenario)


def test_two_computers_play_a_whole_game(tmp_path: Path) -> None:
    setup = Setup(
        "partitions",
        5,
        first="Computer",
        second="Computer 2",
        first_level="easy",
        second_level="easy",
    )
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await until(pilot, screen.game.is_over, seconds=120)
        await pilot.pause()  # the panel is redrawn on the message the last move posted
        assert text(app, "#turn").endswith("wins")
        assert screen.session.flush() and screen.session.autosave_path is not None
        record = Record.load(screen.session.autosave_path)
        assert record.computers == {"Computer": "easy", "Computer 2": "easy"}
        assert len(list(record.root.mainline())) == len(screen.game.moves)

    run(app, scenario)


def test_the_computer_sets_komi_and_the_person_chooses_a_side(tmp_path: Path) -> None:
    setup = Setup("linage", 5, first="Computer", second="Bob", first_level="easy")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await until(pilot, lambda: type(app.screen).__name__ == "SideDialog")
        assert screen.session.phase is Phase.SIDE
        assert str(screen.query_one("#status", Static).content).startswith("Computer sets komi to ")
        await pilot.press("1")  # Bob moves first
        await pilot.pause()
        assert screen.session.person(0) == "Bob"

    run(app, scenario)


def test_the_computer_chooses_a_side_after_the_person_sets_komi(tmp_path: Path) -> None:
    setup = Setup("linage", 5, first="Ann", second="Computer", second_level="easy")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await until(pilot, lambda: type(app.screen).__name__ == "KomiDialog")
        await pilot.press("ctrl+u", *"30", "enter")  # far too much for Horizontal
        await until(pilot, lambda: screen.session.phase is Phase.PLAY)
        # Horizontal (the second colour) gets the komi: the computer takes it.
        assert screen.session.person(1) == "Computer"
        assert "takes Horizontal" in str(screen.query_one("#status", Static).content)

    run(app, scenario)


def test_the_computer_decides_on_the_pie_rule_without_a_dialog(tmp_path: Path) -> None:
    setup = Setup("petrify", 6, first="Ann", second="Computer", second_level="easy")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen = play_screen(app)
        await type_move(pilot, "c3")  # a central first move: worth taking
        await until(pilot, lambda: len(screen.game.moves) >= 2)
        assert type(app.screen) is PlayScreen  # no pie dialog for the computer
        if screen.game.moves[1] == SWAP:
            assert screen.session.person(0) == "Computer"
            assert screen.game.turn == 1 or len(screen.game.moves) > 2

    run(app, scenario)
