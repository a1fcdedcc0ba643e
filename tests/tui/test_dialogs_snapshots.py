"""Snapshots of the dialogs in the real app, each over the game that asks it, at 80x24."""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rules import new_game
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings, load_settings
from tests.tui.waiting import until

SnapCompare = Callable[..., bool]


def steady(*keys: str, dialog: str = "") -> Callable[[Pilot[Any]], Any]:
    """Wait for `dialog`, press `keys`, and stop the text cursors blinking."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        if dialog:
            await until(pilot, lambda: type(pilot.app.screen).__name__ == dialog)
        await pilot.press(*keys)
        await pilot.pause()
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False

    return steps


def test_komi_dialog_refusing_an_odd_komi(snap_compare: SnapCompare, tmp_path: Path) -> None:
    setup = Setup("egotzi", 7, variant="squared", first="Ann", second="Bob")
    run = steady("ctrl+u", "3", dialog="KomiDialog")
    assert snap_compare(build_app(setup, data=tmp_path), run_before=run, terminal_size=(80, 24))


def test_side_dialog(snap_compare: SnapCompare, tmp_path: Path) -> None:
    setup = Setup("linage", 11, komi=6.5, first="Ann", second="Bob")
    run = steady(dialog="SideDialog")
    assert snap_compare(build_app(setup, data=tmp_path), run_before=run, terminal_size=(80, 24))


def test_confirm_dialog(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleting a variation in analysis asks first (over the figures of a search that
    is the same in every run: a seed, a playout budget and the pure-Python core, whose
    results do not depend on the machine's cores)."""
    monkeypatch.setenv("ABSTRACTS_TUI_CORE", "python")
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "5")
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "200")
    app = build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=tmp_path)

    async def run(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press("colon", "a", "1", "enter", "colon", "b", "2", "enter", "x", "u")
        await pilot.press("colon", "c", "3", "enter")
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        await pilot.pause(0.6)  # the panel's next tick
        await pilot.press("delete")
        await pilot.pause()

    assert snap_compare(app, run_before=run, terminal_size=(80, 24))


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_resume_dialog_listing_two_games_in_the_app(
    snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]
) -> None:
    """Each game with when it was last played (a year before any run: `2 Jan 2025`)."""
    for number, moves in enumerate((("c3", "a1"), ("e5",))):
        game = new_game("partitions", 5)
        for move in moves:
            game.play(move)
        path = tmp_path / "games" / f"2026-01-0{number + 1}-120000-partitions.sgf"
        path.parent.mkdir(exist_ok=True)
        Record.from_game(game, ("Ann", "Bob"), date="2026-01-01").save(path)
        played = datetime.datetime(2025, 1, 1 + number, 12).timestamp()
        os.utime(path, (played, played))
    assert snap_compare(build_app(data=tmp_path), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_position_string_shown_whole(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    """Linage 19x19's string, the longest, wrapped in the box at both sizes."""
    app = build_app(Setup("linage", 19, komi=0.5, first="Ann", second="Bob"), data=tmp_path)

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press("2")
        screen = next(s for s in pilot.app.screen_stack if isinstance(s, PlayScreen))
        for move in ("a1", "s19", "j10"):
            screen.session.play(move)
        await pilot.pause()
        await steady("y", dialog="")(pilot)

    assert snap_compare(app, run_before=steps, terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_wrong_settings_reported_in_one_box(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "pink"\nlevel = 3\nsizes = { pilo = 99 }\ncolour = 1\n')
    settings = load_settings(path)
    settings = replace(settings, path=Path("/home/ann/.config/abstracts-tui/settings.toml"))
    app = build_app(data=tmp_path / "data", settings=settings)
    assert snap_compare(app, run_before=steady(dialog="ReadingDialog"), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_keys_in_force_from_the_command_palette(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    settings = Settings(keymap={"play.undo": "backspace"}, path=tmp_path / "settings.toml")
    app = build_app(Setup("pilo", 6, first="Ann", second="Bob"), data=tmp_path, settings=settings)

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "CommandPalette")
        await pilot.press(*"keys in force")
        await pilot.pause(0.5)
        await pilot.press("down", "enter")
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "ReadingDialog")

    assert snap_compare(app, run_before=steps, terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_who_plays_each_side(
    size: tuple[int, int], snap_compare: SnapCompare, tmp_path: Path
) -> None:
    """`C` against the computer: a row a side, the second handed to the computer at the
    settings' level (medium here), the first focused, a person here."""
    setup = Setup("pilo", 6, first="Ann", second="Computer", second_level="medium")

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await until(pilot, lambda: isinstance(pilot.app.screen, PlayScreen))
        await pilot.press("C")
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "SeatsDialog")
        await pilot.pause()

    app = build_app(setup, data=tmp_path, settings=Settings(level="medium"))
    assert snap_compare(app, run_before=steps, terminal_size=size)
