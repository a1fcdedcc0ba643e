"""The settings file: theme, keymap, ASCII, the computer's level and board sizes; wrong
values are named in one sentence and the app starts with the defaults for them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.color import Color
from textual.containers import VerticalScroll

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.dialogs.reading import ReadingDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen, Stepper
from abstracts_tui.tui.settings import Settings, load_settings

from .test_layout import drawn
from .waiting import until

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
        path=path,
    )


def test_wrong_values_are_named_and_the_defaults_used(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "pink"\nlevel = 3\nsizes = { pilo = 99 }\ncolour = 1\n')
    settings = load_settings(path)
    assert (settings.theme, settings.level, settings.sizes) == ("textual-dark", "hard", {})
    assert len(settings.problems) == 4 and settings.path == path
    assert settings.problems[0].startswith('theme = "pink": must be one of')
    assert settings.problems[2].startswith("sizes.pilo = 99: must be 6 to 10")
    assert settings.problems[3].startswith("colour: not a setting")
    path.write_text("theme = ")
    assert load_settings(path).problems[0].startswith("The file is not TOML")
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


def test_wrong_settings_are_reported_in_one_box_that_stays_until_closed(tmp_path: Path) -> None:
    """At 80x24: every wrong setting named with the file in one box read by keys (no
    stack of notices cut at the top), and the home screen free once it is closed."""
    path = tmp_path / "settings.toml"
    path.write_text(
        'theme = "pink"\nascii = "yes"\nlevel = 3\nsizes = { pilo = 99, chess = 8 }\n'
        'colour = 1\n[keymap]\n"play.hint" = ""\n'
    )
    settings = load_settings(path)
    assert len(settings.problems) == 7
    app = build_app(data=tmp_path / "data", settings=settings)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ReadingDialog))
            box = app.screen.query_one("#reading-scroll", VerticalScroll)
            assert box.region.y >= 1 and box.region.bottom <= 23  # nothing cut at the top
            seen = [drawn(app.screen.query_one("#reading-text"))]
            read = " ".join(" ".join(seen).split())
            assert str(path) in "".join(read.split())  # the file (wrapped at its width)
            for key in ("theme", "ascii", "level", "sizes.pilo", "sizes.chess", "colour"):
                assert f"- {key}" in read, (key, read)
            assert '- keymap.play.hint = "": must be keys' in read
            assert not app.screen.query("Toast") and not app.notices  # no notices at all
            await pilot.press("pagedown", "pagedown", "escape")
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))

    asyncio.run(main())
