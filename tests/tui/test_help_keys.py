"""The keys the help and the footer list are the keys that work there: Tab only where it
moves the focus, no sideways scrolling of what is not wider, F1 named, set-up's keys only
in set-up; `?` on the home screen gives the rules of the game highlighted; at 50 columns
the footer keeps Help and Quit; `p` where passing is not allowed says why."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import TEXTUAL_COPY, AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.help import DESCRIBED, HelpScreen, screen_keys
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen
from tests.tui.test_layout import footer
from tests.tui.waiting import pie_asked, until


def help_keys(
    setup: Setup | None, data: Path, first: tuple[str, ...] = ()
) -> tuple[str | None, dict[str, str], dict[str, bool]]:
    """The help's game and keys (description -> keys) on the first screen of `setup`'s
    app after `first`, and whether each key listed there acts (an enabled binding of
    that screen)."""
    app = build_app(setup, data=data)
    found: list[tuple[str | None, dict[str, str], dict[str, bool]]] = []

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            screen_type = PlayScreen if setup else SelectScreen
            await until(pilot, lambda: isinstance(app.screen, screen_type))
            await pilot.press(*first)
            screen = app.screen
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            keys = {description: key for key, description in help_screen.keys}
            acting = {}
            for description, shown in keys.items():
                if description.endswith("(analysis)") or shown == "mouse":
                    continue
                for name in shown.split(" "):
                    named = [
                        active
                        for key, active in screen.active_bindings.items()
                        if active.enabled
                        and DESCRIBED.get(active.binding.action, active.binding.description)
                        == description
                        and (
                            app.get_key_display(active.binding) == name
                            or key.lower() == name.lower()
                            or app.get_key_display(active.binding.__class__(key, "")) == name
                        )
                    ]
                    acting[f"{name} {description}"] = bool(named)
            found.append((help_screen.game, keys, acting))

    asyncio.run(main())
    return found[0]


def test_the_home_screens_help_lists_the_keys_that_work_and_the_game_highlighted(
    tmp_path: Path,
) -> None:
    game, keys, acting = help_keys(None, tmp_path, ("down",))
    assert game == "pilo"
    assert keys["Previous game"] == "↑/k" and keys["Help"] == "? F1"
    assert not {"Scroll Left", "Scroll Right", "Page Left", "Page Right"} & set(keys)
    assert all(acting.values()), acting


def test_the_play_screens_help_lists_the_keys_that_work(tmp_path: Path) -> None:
    game, keys, acting = help_keys(Setup("partitions", 6), tmp_path)
    assert game == "partitions"
    assert not {"Focus Next", "Focus Previous"} & set(keys)
    assert not any("setup mode" in description for description in keys)
    assert keys["Help"] == "? F1" and keys["Settings"] == "F2"
    assert all(acting.values()), acting


def test_the_footer_keeps_help_and_quit_at_50_columns_and_p_says_why(tmp_path: Path) -> None:
    app = build_app(Setup("pilo", 6), data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(50, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            shown = footer(app.screen)
            assert "? Help" in shown and "^q Quit" in shown, shown
            await pilot.press("p")  # a board move is open: passing is not allowed
            await pilot.pause()
            said = str(app.screen.query_one("#status", Static).render())
            assert said.startswith("Not passed: "), said

    asyncio.run(main())


def test_each_games_options_at_80x24_show_the_start_button(tmp_path: Path) -> None:
    app = build_app(data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            screen = app.screen
            assert isinstance(screen, SelectScreen)
            for name in ("petrify", "pilo", "egotzi", "linage", "partitions"):
                assert screen.info.name == name
                setup = screen.query_one("#setup")
                start = screen.query_one("#start")
                assert setup.scroll_offset.y == 0
                inside = setup.content_region
                assert start.region.y >= inside.y and start.region.bottom <= inside.bottom, name
                await pilot.press("down")
                await pilot.pause()

    asyncio.run(main())


def test_the_computers_move_is_announced_with_its_time(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")
    app = build_app(setup, data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            await pilot.press("colon", "e", "5", "enter")
            await until(pilot, lambda: len(screen.game.moves) == 2)
            said = str(screen.query_one("#status", Static).render())
            announced = r"\w+ \(Computer\) plays \S+ in (under )?\d+\.\d s\. .*"
            assert re.fullmatch(announced, said), said

    asyncio.run(main())


@pytest.mark.parametrize("size", [(100, 30), (40, 20)])  # the question in sight, or not
def test_at_the_pie_question_the_help_lists_s_as_swap(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    setup = Setup("pilo", 6, first="Computer", first_level="easy")
    app = build_app(setup, data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: pie_asked(app))
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            screen.board.focus()  # as a click on the board gives it the keys
            await pilot.pause()
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert isinstance(app.screen, HelpScreen)
            keys = {description: key.split(" ") for key, description in app.screen.keys}
            assert "s" in keys["Swap"] and "s" not in keys.get("Down", []), keys
            if screen.pie_out_of_sight:  # else the board's Enter places a move (and plays on)
                assert "p" in keys["Play on"], keys
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen)
            await pilot.press("s")  # what the help said
            await until(pilot, lambda: len(screen.game.moves) >= 2)
            assert screen.game.move_name(screen.game.moves[1]) == "swap"

    asyncio.run(main())


def home_state(app: AbstractsApp) -> tuple[object, ...]:
    """What a key on the home screen can change: the screen on top, the focus, the game
    highlighted, the notices, whether the app is leaving."""
    screen = app.screen_stack[0]
    games = screen.query_one("#games", OptionList)
    return (type(app.screen), app.focused, games.highlighted, len(app.notices), app._exit)


def test_each_key_the_home_screens_help_lists_does_something(tmp_path: Path) -> None:
    listed: list[str] = []
    app = build_app(data=tmp_path)

    async def keys() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            descriptions = set(screen_keys(app, app.screen, TEXTUAL_COPY))
            listed.extend(
                key
                for key, active in app.screen.active_bindings.items()
                if active.enabled
                and DESCRIBED.get(active.binding.action, active.binding.description) in descriptions
            )

    asyncio.run(keys())
    assert {"up", "k", "tab", "enter", "question_mark", "f1", "f2", "q", "ctrl+p"} <= set(listed)
    for key in listed:

        async def press(app: AbstractsApp, key: str) -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, SelectScreen))
                await pilot.press("down", "down")  # a game in the middle of the list
                before = home_state(app)
                await pilot.press(key)
                await pilot.pause(0.2)
                assert home_state(app) != before, f"{key} did nothing"

        asyncio.run(press(build_app(data=tmp_path / key), key))
