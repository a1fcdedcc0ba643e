"""The settings file: theme, keymap, ASCII, the computer's level and board sizes; wrong
values are named in one sentence and the app starts with the defaults for them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.color import Color
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.reading import ReadingDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen, Stepper
from abstracts_tui.tui.settings import Settings, load_settings
from abstracts_tui.tui.widgets.key_bar import KeyBar
from tests.tui.test_layout import drawn
from tests.tui.waiting import until

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


def started(settings: Settings, data: Path, scenario: Callable[..., Awaitable[None]]) -> None:
    """A Partitions game of Ann and Bob in the app the settings make, at 100x30."""

    async def main() -> None:
        app = build_app(
            Setup("partitions", 5, first="Ann", second="Bob"), data=data, settings=settings
        )
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            await scenario(app, screen, pilot)

    asyncio.run(main())


def status(screen: PlayScreen) -> str:
    return str(screen.query_one("#status", Static).content)


def test_a_key_that_reaches_another_binding_is_named_at_start(tmp_path: Path) -> None:
    """ctrl+h is the byte Backspace sends: beside `u,backspace` for undo it would undo."""
    path = tmp_path / "settings.toml"
    path.write_text('[keymap]\n"play.hint" = "ctrl+h"\n"play.undo" = "u,backspace"\n')
    clash = (
        "keymap 'play.hint' = 'ctrl+h' clashes with play.undo: terminals send ctrl+h as "
        "Backspace, which play.undo has; play.hint keeps its default keys: choose another key."
    )
    assert problems(path, tmp_path) == (clash,)
    assert clash in reported_at_start(load_settings(path), tmp_path / "data")
    # The clashing entry is left out: ctrl+h (Backspace) undoes, b still hints.
    app = build_app(data=tmp_path / "data", settings=load_settings(path))
    assert app.settings.keymap == {"play.undo": "u,backspace"}
    # A key taken by the board (h moves the cursor left) is named too.
    path.write_text('[keymap]\n"play.hint" = "h"\n')
    assert problems(path, tmp_path) == (
        "keymap 'play.hint' = 'h' clashes with board.left: board.left has h too; "
        "play.hint keeps its default keys: choose another key.",
    )
    # Unless the board is given other keys: nothing is said.
    path.write_text('[keymap]\n"play.hint" = "h"\n"board.left" = "left,a"\n')
    assert problems(path, tmp_path) == ()


def test_a_misspelt_binding_id_is_named(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('[keymap]\n"play.hintz" = "i"\n')
    said = "keymap 'play.hintz' is not a binding id (did you mean play.hint?); it is ignored."
    assert said in reported_at_start(load_settings(path), tmp_path / "data")


def problems(path: Path, tmp_path: Path) -> tuple[str, ...]:
    """What the app built with the settings file at `path` finds wrong in it (the keymap's
    ids and keys are checked against the app's bindings)."""
    return build_app(data=tmp_path / "data", settings=load_settings(path)).settings.problems


def reported_at_start(settings: Settings, data: Path) -> str:
    """The text of the box that reports the settings' problems as the app starts."""
    app = build_app(data=data, settings=settings)
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ReadingDialog))
            shown.append(" ".join(drawn(app.screen.query_one("#reading-text")).split()))

    asyncio.run(main())
    return shown[0]


def readme_settings() -> str:
    """The sample settings file of the docs (docs/playing.md, Settings)."""
    text = (Path(__file__).parents[2] / "docs" / "playing.md").read_text(encoding="utf-8")
    return text.split("\n## Settings\n", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]


def test_the_readmes_sample_keymap_works_and_the_tips_name_its_keys(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(readme_settings())
    settings = load_settings(path)
    assert problems(path, tmp_path) == ()
    hint = settings.keymap["play.hint"]

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert f"; {hint} hints;" in status(screen)  # the key bound now, not b
        await pilot.press("b")  # b no longer hints
        await pilot.pause(0.3)
        assert screen.hint is None and not screen.searches.busy("hint")
        await pilot.press(hint)
        await until(pilot, lambda: screen.hint is not None)
        await pilot.press("x")
        assert status(screen).startswith("Analysis: [ ] step")
        await pilot.press("x")
        screen.session.play("a1")
        await pilot.pause()
        await pilot.press("backspace")  # the sample's second key for undo
        await pilot.pause()
        assert screen.session.game.moves == []

    started(settings, tmp_path / "data", scenario)


def test_the_tips_and_the_key_bar_follow_the_keymap(tmp_path: Path) -> None:
    keymap = {"study.back": "minus", "study.forward": "plus", "play.analysis": "o"}
    keymap |= {"board.left": "a,left", "play.help": "f1"}
    settings = Settings(keymap=keymap)

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert status(screen) == (
            "a → ↑ ↓ move the cursor, Enter plays there; b hints; f1 lists every key."
        )
        assert " o Analysis " in str(screen.query_one(KeyBar).render())
        await pilot.press("o")
        assert status(screen).startswith("Analysis: - + step, g go to,")
        assert status(screen).endswith("moves start variations; o leaves.")

    started(settings, tmp_path / "data", scenario)


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


def test_the_settings_report_comes_over_the_offer_but_never_over_a_game(tmp_path: Path) -> None:
    from abstracts_tui.saved_games import SavedGames
    from abstracts_tui.session import Session

    path = tmp_path / "settings.toml"
    path.write_text('theme = "pink"\n')
    data = tmp_path / "data"
    saved = SavedGames(data)
    in_progress = Session.start(Setup("pilo", 8), saved.new_path("pilo"))
    in_progress.play("d4")  # a game with a move is a game in progress
    assert in_progress.flush()
    app = build_app(data=data, settings=load_settings(path))

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            # At the start: the offer of the game in progress, the report over it.
            await until(pilot, lambda: isinstance(app.screen, ReadingDialog))
            assert [type(s).__name__ for s in app.screen_stack] == [
                "SelectScreen",
                "ResumeDialog",
                "ReadingDialog",
            ]
            await pilot.press("escape", "n")  # the report closed, a new game instead
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            game = app.screen
            # The report's callback come late (keys typed before the first frame): a
            # notice, and the game keeps its keys.
            app.report_settings()
            await pilot.pause()
            assert app.screen is game
            assert any('theme = "pink"' in notice for notice in app.notices)

    asyncio.run(main())
