"""The settings file: theme, keymap, ASCII, the computer's level and board sizes; wrong
values are named in one sentence and the app starts with the defaults for them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.color import Color

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen, Stepper
from abstracts_tui.tui.settings import Settings, load_settings

SETTINGS = """
theme = "colour-blind"
ascii = true
level = "easy"
[sizes]
petrify = 10
[keymap]
"play.undo" = "backspace"
"""


def test_a_settings_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(SETTINGS)
    settings = load_settings(path)
    assert settings == Settings(
        theme="colour-blind",
        ascii=True,
        level="easy",
        sizes={"petrify": 10},
        keymap={"play.undo": "backspace"},
    )


def test_wrong_values_are_named_and_the_defaults_used(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "pink"\nlevel = 3\nsizes = { pilo = 99 }\ncolour = 1\n')
    settings = load_settings(path)
    assert (settings.theme, settings.level, settings.sizes) == ("textual-dark", "hard", {})
    assert len(settings.problems) == 4
    assert "theme must be one of" in settings.problems[0]
    assert "sizes.pilo must be 6 to 10" in settings.problems[2]
    assert "colour is not a setting" in settings.problems[3]
    path.write_text("theme = ")
    assert load_settings(path).problems[0].startswith(f"The settings file {path} is not TOML")
    assert load_settings(tmp_path / "none.toml") == Settings()


def test_the_app_takes_the_theme_keys_ascii_and_sizes_from_the_settings(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(SETTINGS)
    settings = load_settings(path)

    async def main() -> None:
        app = build_app(data=tmp_path / "data", settings=settings)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.theme == "colour-blind" and app.has_class("-ascii")
            home = app.screen
            assert isinstance(home, SelectScreen)
            assert home.query_one("#size", Stepper).labels[
                home.query_one("#size", Stepper).index
            ] == ("10 x 10")
            app.start_game(Setup("petrify", 8, first="Ann", second="Bob"))
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            # The board's colours are the theme's: the last move in Okabe-Ito blue.
            last = screen.board.get_component_rich_style("board--last", partial=True)
            assert last.bgcolor == Color.parse("#0072B2")
            screen.session.play("c3")
            await pilot.pause()
            await pilot.press("p")  # play on at the pie rule
            await pilot.press("backspace")  # the keymap's undo
            await pilot.pause()
            assert screen.session.game.moves == []

    asyncio.run(main())
