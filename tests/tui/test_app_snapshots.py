"""Snapshots of the play screen in the real app: each board at 80x24 and 160x50, the end
of a game, a small terminal, and a room's game as a player and as a watcher see it."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.presence import Presences, RoomPresence
from abstracts_tui.session import Session
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from tests.test_game_clocks import FakeTime
from tests.tui.waiting import pie_asked, until

SnapCompare = Callable[..., bool]

BOARDS = {
    "petrify": Setup("petrify", 8, first="Ann", second="Bob"),
    "pilo": Setup("pilo", 8, first="Ann", second="Bob"),
    "egotzi": Setup("egotzi", 7, first="Ann", second="Bob"),
    "linage": Setup("linage", 11, komi=0.5, first="Ann", second="Bob"),
    "partitions": Setup("partitions", 6, first="Ann", second="Bob"),
}


def midgame(moves: int, seed: int) -> Callable[[Pilot[Any]], Any]:
    """Random legal moves from a fixed seed, played through the session (the keys are
    tested elsewhere), then the cursor moved by a key."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = next(s for s in pilot.app.screen_stack if isinstance(s, PlayScreen))
        session = screen.session
        if session.phase.name == "SIDE":  # answered by its dialog, once it is up
            await until(pilot, lambda: type(pilot.app.screen).__name__ == "SideDialog")
            await pilot.press("2")
            await until(pilot, lambda: pilot.app.screen is screen)
        rng = random.Random(seed)
        for _ in range(moves):
            if session.game.is_over():
                break
            session.play(rng.choice(session.game.legal_moves()))
        await pilot.pause()
        for _ in range(3):  # a dialog asked before the moves: answer it
            if pilot.app.screen is screen:
                break
            await pilot.press("1" if type(pilot.app.screen).__name__ == "SideDialog" else "p")
            await pilot.pause()
        await pilot.press("right")
        await pilot.pause()

    return steps


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
@pytest.mark.parametrize("name", list(BOARDS))
def test_board(name: str, size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = build_app(BOARDS[name], data=tmp_path)
    assert snap_compare(app, run_before=midgame(20, seed=7), terminal_size=size)


def test_partitions_finished_game_shows_the_result_and_the_legend(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    app = build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=tmp_path)
    assert snap_compare(app, run_before=midgame(200, seed=3), terminal_size=(100, 30))


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_pie_rule_is_asked_beside_the_board(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    """Bob decides whether to swap with Ann's first move in sight."""
    app = build_app(Setup("pilo", 6, first="Ann", second="Bob"), data=tmp_path)

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press("colon", "b", "4", "enter")
        await until(pilot, lambda: pie_asked(pilot.app))

    assert snap_compare(app, run_before=steps, terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_count_in_full_of_a_finished_game(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    """`f` at the end of a Pilo game: every patch in a box that scrolls."""
    app = build_app(Setup("pilo", 10, first="Ann", second="Bob"), data=tmp_path)
    assert snap_compare(app, run_before=midgame(400, seed=0), press=["f"], terminal_size=size)


def test_egotzi_too_small_a_terminal(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Too narrow even for the board alone (the compact view needs 33 x 10)."""
    setup = Setup("egotzi", 9, first="Ann", second="Bob")
    assert snap_compare(build_app(setup, data=tmp_path), terminal_size=(32, 14))


@pytest.mark.parametrize("who", ["player", "watcher"])
def test_a_room_as_a_player_and_as_a_watcher(
    who: str, snap_compare: SnapCompare, tmp_path: Path
) -> None:
    """A shared game as the SSH server shows it: bob at his seat, or dan watching, with
    ann's connection lost."""
    session = Session.start(Setup("pilo", 6, first="ann", second="bob"))
    for move in ("c3", "d4", "c4"):
        session.play(move)
    people = frozenset({"bob"}) if who == "player" else frozenset()
    code = f"SNAP{who}"
    presences = Presences()
    presence = RoomPresence(code, "bob" if who == "player" else "dan", presences)
    seat = Seat(local_people=people, shared=True, files=False, presence=presence)
    app = build_app(data=tmp_path)
    bob = RoomPresence(code, "bob", presences)

    def ignore() -> None:
        pass

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.app.push_screen(PlayScreen(session, seat=seat))
        await pilot.pause()

    bob.follow(True, ignore)  # bob's connection shows the game (ann's dropped)
    try:
        assert snap_compare(app, run_before=steps, terminal_size=(80, 24))
    finally:
        bob.follow(False, ignore)


@pytest.mark.parametrize("state", ["byo-yomi", "low", "flagged"])
def test_clock_faces_in_the_panel(state: str, snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The faces with the side to move highlighted: byo-yomi in its main time, Fischer
    short of time, and a game lost on time (time driven by the session's source)."""
    spec = "10m+3x30s" if state == "byo-yomi" else "1m+2s"
    app = build_app(Setup("petrify", 8, first="Ann", second="Bob", clock=spec), data=tmp_path)

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        time = FakeTime()
        screen.session.use_time(time)
        time.wait(12.4)
        screen.session.play("d5")
        await until(pilot, lambda: pie_asked(pilot.app))
        await pilot.press("p")  # Bob plays on
        time.wait({"byo-yomi": 95, "low": 52.7, "flagged": 61}[state])
        await pilot.pause(0.6)  # the screen's timer notices a flag
        screen.draw_panel()  # the faces as they stand now (their timer is in real time)
        await pilot.pause()

    assert snap_compare(app, run_before=steps, terminal_size=(80, 24))
