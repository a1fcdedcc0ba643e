"""Finished games are findable: a game that ends (on time too) is kept among the recent
games when the next one starts, listed on the home screen (and in line mode's menu) with
its game, players and result, and opened again from there; only the newest are kept."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from abstracts_tui import recent_games
from abstracts_tui.game_setup import Setup
from abstracts_tui.recent_games import RecentGames
from abstracts_tui.records import Record
from abstracts_tui.saved_games import SavedGames
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.recent_games import RecentGamesDialog
from abstracts_tui.tui.dialogs.resume import ResumeDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen
from tests.lines.terminal import LineTerminal
from tests.test_game_clocks import FakeTime
from tests.tui import test_clocks
from tests.tui.test_play import play_screen, run, text, type_move
from tests.tui.test_saving import partitions_game
from tests.tui.waiting import until

FINISHED = "(;FF[4]GM[1000]GA[pilo]COLOURS[blue:orange]SZ[6]PB[Ann]PW[Bob]RE[W+R];B[c3])"
"""A Pilo game Ann resigned after her first move."""
LOST_ON_TIME = "Petrify 6x6, Ann - Bob, 1 move, Orange (Bob) lost on time: Blue (Ann) wins"


def lose_on_time(data: Path) -> None:
    """A hot-seat Petrify game with a clock that Bob loses on time, in the app."""
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob", clock="20s+1s"), data=data)

    async def scenario(app: AbstractsApp, pilot: Pilot[None], time: FakeTime) -> None:
        await type_move(pilot, "c3")
        await test_clocks.pie_dialog(pilot)
        await pilot.press("p")  # Bob plays on
        time.wait(19.5)  # the faces notice the flag within a tenth under ten seconds
        await test_clocks.tick(pilot)
        time.wait(1)
        await test_clocks.tick(pilot)
        assert text(app, "#status") == (
            "Time is up. Orange (Bob) lost on time: Blue (Ann) wins. It is kept in the recent "
            "games (ctrl+g on the home screen); ctrl+s saves it as a record."
        )
        assert play_screen(app).session.flush()

    test_clocks.run(app, scenario)


def test_a_game_lost_on_time_is_kept_and_opened_from_the_home_screen(tmp_path: Path) -> None:
    lose_on_time(tmp_path)
    [lost] = SavedGames(tmp_path).files()
    partitions_game(tmp_path, "c3")  # the next game: the one lost on time is not deleted
    assert not lost.exists()
    [kept] = RecentGames(tmp_path).files()
    assert kept.name == lost.name and Record.load(kept).result == "blue+time"

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, ResumeDialog))
        await pilot.press("escape")  # not the game in progress: to the home screen
        await until(pilot, lambda: isinstance(app.screen, SelectScreen))
        await pilot.press("ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, RecentGamesDialog))
        dialog = app.screen
        assert isinstance(dialog, RecentGamesDialog)
        [entry] = [game.describe() for game in dialog.games]
        assert entry == LOST_ON_TIME
        listed = str(dialog.query_one(OptionList).get_option_at_index(0).prompt)
        assert listed.startswith("today ") and listed.endswith(LOST_ON_TIME)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.session.over and len(screen.game.moves) == 1
        assert text(app, "#turn") == "Orange (Bob) lost on time: Blue (Ann) wins"
        await pilot.press("x")  # to analyse it
        await until(pilot, lambda: screen.analysing)

    run(build_app(data=tmp_path), scenario)


def test_the_home_screen_says_when_no_game_has_finished(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert isinstance(app.screen, SelectScreen)
        assert list(app.notices) == ["No game has finished here yet."]

    run(build_app(data=tmp_path), scenario)


def test_only_the_newest_finished_games_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recent_games, "RECENT_GAMES", 3)
    saved = SavedGames(tmp_path)
    start = datetime.datetime(2026, 11, 1, 9, 0)
    names = []
    for day in range(5):
        path = saved.new_path("pilo", start + datetime.timedelta(days=day))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(FINISHED)
        os.utime(path, (1_000_000 + day, 1_000_000 + day))
        names.append(path.name)
    RecentGames(saved.data).take_finished(saved)
    assert saved.files() == []
    assert [path.name for path in RecentGames(tmp_path).files()] == names[:1:-1]


def test_line_modes_menu_lists_the_recent_games_and_opens_one(tmp_path: Path) -> None:
    data = tmp_path / "data" / "abstracts-tui"
    lose_on_time(data)
    term = LineTerminal("--lines", home=tmp_path)
    term.wait_for("Start:")
    term.wait_for("2. Recent games (1 finished)")
    term.send("recent")
    term.wait_for("Recent games, newest first:")
    assert term.wait_for("1. ").startswith(f"1. {LOST_ON_TIME}, played today ")
    term.send("1")
    term.wait_for("Petrify, 6 by 6: Ann against Bob")
    term.send("quit")
    assert term.close() == 0
