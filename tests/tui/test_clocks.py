"""Clocks in the real app: the faces in the panel, a flag in hot-seat, Fischer and
byo-yomi played by keys, a game with a clock saved and resumed, the computer on a clock.

Time is driven through the session's clock source (`Session.use_time`), never slept."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from abstracts_tui.clock import Clock, TimeControl, thinking_time
from abstracts_tui.engine.search import Budget
from abstracts_tui.game_setup import Setup
from abstracts_tui.play.searching import clocked
from abstracts_tui.records import Record
from abstracts_tui.session import Session
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.widgets.clock_faces import ClockFaces
from tests.test_game_clocks import FakeTime
from tests.tui.test_play import play_screen, text, type_move
from tests.tui.waiting import pie_asked, until

Scenario = Callable[[AbstractsApp, Pilot[None], FakeTime], Awaitable[None]]


def run(app: AbstractsApp, scenario: Scenario, size: tuple[int, int] = (100, 30)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            time = FakeTime()
            play_screen(app).session.use_time(time)
            await scenario(app, pilot, time)

    asyncio.run(main())


def faces(app: AbstractsApp) -> list[str]:
    """The two face lines as the panel shows them."""
    widget = app.screen.query_one(ClockFaces)
    widget.tick()
    return [widget.render_line(side).text.rstrip() for side in (0, 1)]


async def pie_dialog(pilot: Pilot[None]) -> None:
    await until(pilot, lambda: pie_asked(pilot.app))


async def tick(pilot: Pilot[None]) -> None:
    """Let the faces' timer run (a tenth of a second under ten seconds: it notices the
    flag)."""
    await pilot.pause(0.6)
    await pilot.pause()


def test_a_hot_seat_game_is_lost_on_time_and_takes_no_move_after(tmp_path: Path) -> None:
    setup = Setup("petrify", 6, first="Ann", second="Bob", clock="20s+1s")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None], time: FakeTime) -> None:
        assert faces(app) == ["> Blue Ann                0:20", "  Orange Bob              0:20"]
        time.wait(4)
        await type_move(pilot, "c3")
        await pie_dialog(pilot)
        await pilot.press("p")  # Bob plays on
        await pilot.pause()
        assert faces(app) == ["  Blue Ann                0:17", "> Orange Bob              0:20"]
        time.wait(19.5)
        await tick(pilot)
        assert faces(app)[1] == "> Orange Bob          ! 0:00.5"
        time.wait(1)
        await tick(pilot)
        screen = play_screen(app)
        assert text(app, "#turn") == "Orange (Bob) lost on time: Blue (Ann) wins"
        assert text(app, "#status") == (
            "Time is up. Orange (Bob) lost on time: Blue (Ann) wins. It is kept in the recent "
            "games (ctrl+g on the home screen); ctrl+s saves it as a record."
        )
        await type_move(pilot, "d4")
        assert text(app, "#status") == "Not played: the game is over: Bob lost on time"
        await pilot.press("u")
        assert "cannot be taken back" in text(app, "#status")
        assert len(screen.game.moves) == 1
        assert screen.session.flush() and screen.session.autosave_path is not None
        assert Record.load(screen.session.autosave_path).result == "blue+time"

    run(app, scenario)


def test_fischer_and_byo_yomi_run_in_the_panel(tmp_path: Path) -> None:
    for spec, after_move, later in (
        ("5m+3s", "4:53", "> Blue Ann                4:33"),
        ("10m+3x30s", "9:50 +3x30s", "> Blue Ann        0:20 (2x30s)"),
    ):
        setup = Setup("pilo", 6, first="Ann", second="Bob", clock=spec)
        app = build_app(setup, data=tmp_path / spec)

        async def scenario(
            app: AbstractsApp,
            pilot: Pilot[None],
            time: FakeTime,
            spec: str = spec,
            after_move: str = after_move,
            later: str = later,
        ) -> None:
            time.wait(10)
            await type_move(pilot, "c3")
            await pie_dialog(pilot)
            await pilot.press("p")
            await pilot.pause()
            assert faces(app)[0].endswith(" " + after_move), spec
            time.wait(5)
            await type_move(pilot, "d4")
            await pilot.pause()
            time.wait(20 if spec == "5m+3s" else 630)
            assert faces(app)[0] == later

        run(app, scenario)


def test_analysis_and_leaving_the_game_hold_the_clock(tmp_path: Path) -> None:
    setup = Setup("egotzi", 5, first="Ann", second="Bob", clock="1m")
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None], time: FakeTime) -> None:
        time.wait(10)
        await pilot.press("x")  # analysis: held
        await pilot.pause()
        time.wait(500)
        await pilot.press("x")
        await pilot.pause()
        assert faces(app)[0].endswith(" 0:50")
        await pilot.press("n")  # the selection screen over the game: held
        await pilot.pause()
        time.wait(500)
        await pilot.press("escape")
        await pilot.pause()
        time.wait(5)
        assert faces(app)[0].endswith(" 0:45")

    run(app, scenario)


def test_a_game_with_a_clock_is_saved_and_resumed_with_its_times(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Bob", clock="3m+2s")
    app = build_app(setup, data=tmp_path)
    saved: list[Path] = []

    async def first(app: AbstractsApp, pilot: Pilot[None], time: FakeTime) -> None:
        time.wait(30)
        await type_move(pilot, "a1")
        time.wait(70)
        await type_move(pilot, "e5")
        await pilot.pause()
        session = play_screen(app).session
        assert session.flush() and session.autosave_path is not None
        saved.append(session.autosave_path)

    run(app, first)
    text_saved = saved[0].read_text()
    # White (Ann) moves first: the first player's times under B, the second's under W.
    assert "TM[180]OT[2s fischer]" in text_saved and "BL[152]" in text_saved
    assert "WL[112]" in text_saved
    resumed = build_app(load=str(saved[0]), data=tmp_path / "other")

    async def second(app: AbstractsApp, pilot: Pilot[None], time: FakeTime) -> None:
        assert faces(app) == ["> White Ann               2:32", "  Black Bob               1:52"]
        time.wait(2)
        assert faces(app)[0].endswith(" 2:30")

    run(resumed, second)


def test_the_computer_budgets_its_move_from_its_clock() -> None:
    session = Session.start(Setup("linage", 9, komi=0.5, first="Ann", second="Bob", clock="20s+1s"))
    session.choose_side(0)
    time = FakeTime()
    session.use_time(time)
    session.resume_clock()
    budget = clocked(Budget(seconds=3.0), session)
    clock = Clock(TimeControl(20, increment=1))
    allowed = thinking_time(clock, 0, 0, 81 // 2)
    assert budget.seconds == allowed and allowed < 3.0
    assert clocked(Budget(playouts=100), session).playouts == 100  # playouts still bound it


def test_two_computers_on_a_short_clock_never_flag(tmp_path: Path) -> None:
    # At its level alone (3 s a move) the strongest would run out of 3 s + 0.25 s a move.
    setup = Setup(
        "egotzi",
        5,
        first="Computer",
        second="Computer 2",
        first_level="strongest",
        second_level="strongest",
        clock="3s+0.25s",
    )
    app = build_app(setup, data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = play_screen(app)
            await until(pilot, lambda: screen.session.over, seconds=240)
            session = screen.session
            assert session.game.is_over() and not session.record.result.endswith("+time")
            times = [n.time_left for n in session.record.root.mainline()]
            assert all(t is not None and t.seconds > 0 for t in times)

    asyncio.run(main())
