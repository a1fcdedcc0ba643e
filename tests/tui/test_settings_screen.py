"""The settings screen (F2 on the home and play screens, Settings in ctrl+p): the theme
shown as it is chosen, each key given the next key pressed (a key another binding has
named, and swapped only when asked), the level, ASCII and line mode; each change kept
in the settings file at once and used at once, or said in one sentence where the file
cannot be written."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.confirm import ConfirmDialog
from abstracts_tui.tui.dialogs.new_key import NewKeyDialog
from abstracts_tui.tui.dialogs.settings import SettingsDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.help import HelpScreen
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen
from abstracts_tui.tui.settings import CONFIG_VARIABLE, load_settings
from tests.disks import read_only
from tests.tui.test_layout import drawn, footer
from tests.tui.test_palette import choose
from tests.tui.waiting import until

Steps = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings file (not there yet)."""
    named = tmp_path / "config" / "settings.toml"
    monkeypatch.setenv(CONFIG_VARIABLE, str(named))
    return named


def run(path: Path, steps: Steps, data: Path, size: tuple[int, int] = (80, 24)) -> None:
    """The app as `abstracts-tui` builds it with the settings file at `path`, on its
    home screen, running `steps`."""
    app = build_app(data=data, settings=load_settings(path))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            await steps(app, pilot)

    asyncio.run(main())


async def open_settings(app: AbstractsApp, pilot: Pilot[None]) -> SettingsDialog:
    await pilot.press("f2")
    await until(pilot, lambda: isinstance(app.screen, SettingsDialog))
    assert isinstance(app.screen, SettingsDialog)
    return app.screen


async def new_key(app: AbstractsApp, pilot: Pilot[None], binding_id: str, key: str) -> None:
    """In the settings, go to `binding_id` in the list of keys as a player does, press
    Enter, then `key`."""
    dialog = app.screen
    keys = dialog.query_one("#settings-keys", OptionList)
    while app.focused is not keys:
        await pilot.press("tab")
    target = keys.get_option_index(binding_id)
    while keys.highlighted != target:
        await pilot.press("down")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, NewKeyDialog))
    await pilot.press(key)
    await until(pilot, lambda: not isinstance(app.screen, NewKeyDialog))


def note(app: AbstractsApp) -> str:
    """The sentence under the settings' rows (as shown, before it is wrapped)."""
    return str(app.screen.query_one("#settings-note", Static).render())


def test_f2_is_shown_and_the_theme_is_shown_as_chosen_and_kept(tmp_path: Path, path: Path) -> None:

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert "F2 Settings" in footer(app.screen)
        dialog = await open_settings(app, pilot)
        assert app.focused is dialog.query_one("#theme")
        before = app.theme
        await pilot.press("right")
        assert app.theme != before  # shown at once, the dialog still open
        assert isinstance(app.screen, SettingsDialog)
        assert load_settings(path).theme == app.theme
        assert f"kept in {path}" in note(app)
        await pilot.press("down", "left")  # the level
        assert load_settings(path).level == app.settings.level
        await pilot.press("down", "right")  # ASCII
        assert app.ascii and app.has_class("-ascii") and load_settings(path).ascii
        await pilot.press("down", "right")  # line mode, from the next start
        assert load_settings(path).lines and "next start" in note(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SelectScreen))

    run(path, steps, tmp_path / "data", size=(100, 30))  # 80 columns leave F2 to the help


def test_a_key_given_in_the_settings_works_at_once_and_is_kept(tmp_path: Path, path: Path) -> None:
    path.parent.mkdir()
    path.write_text('# mine\ntheme = "textual-dark"\n', encoding="utf-8")

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_settings(app, pilot)
        await new_key(app, pilot, "play.help", "o")
        assert "play.help is now o" in note(app)
        await pilot.press("escape")
        app.start_game(Setup("pilo", 6))
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert "o Help" in footer(screen)
        await pilot.press("question_mark")  # no longer the help's key
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        # F2 in the game too; Esc there gives no key; Delete gives back the default.
        await open_settings(app, pilot)
        await new_key(app, pilot, "play.help", "escape")
        assert "keeps its keys" in note(app)
        assert app.settings.keymap == {"play.help": "o,f1"}
        await pilot.press("delete")
        assert "default keys again" in note(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))

    run(path, steps, tmp_path / "data", size=(120, 40))
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# mine\ntheme = "textual-dark"\n'), text
    assert load_settings(path).keymap == {}


def test_a_key_another_binding_has_is_named_and_swapped_only_when_asked(
    tmp_path: Path, path: Path
) -> None:

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_settings(app, pilot)
        await new_key(app, pilot, "play.undo", "t")
        assert isinstance(app.screen, ConfirmDialog)
        question = " ".join(drawn(app.screen.query_one(".dialog-text")).split())
        assert question.startswith("t is the key of Score (play.score) on the same screen."), (
            question
        )
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SettingsDialog))
        assert note(app) == "Not changed: t stays the key of Score (play.score)."
        assert not path.exists() and app.settings.keymap == {}
        await new_key(app, pilot, "play.undo", "t")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, SettingsDialog))
        assert app.settings.keymap == {
            "play.undo": "t,ctrl+z",
            "room.takeback": "t,ctrl+z",
            "play.score": "u",
        }
        await pilot.press("escape")
        app.start_game(Setup("pilo", 6))
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("enter")  # a move at the cursor
        await until(pilot, lambda: screen.session.move_number() == 1)
        await pilot.press("t")  # now Undo
        await until(pilot, lambda: screen.session.move_number() == 0)

    run(path, steps, tmp_path / "data")
    assert load_settings(path).keymap == {
        "play.undo": "t,ctrl+z",
        "room.takeback": "t,ctrl+z",
        "play.score": "u",
    }


def test_a_key_terminals_cannot_send_is_refused_in_one_sentence(tmp_path: Path, path: Path) -> None:

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_settings(app, pilot)
        await new_key(app, pilot, "play.hint", "ctrl+h")  # sent as Backspace
        said = note(app)
        assert said.startswith("Not changed:") and "Backspace" in said, said
        assert app.settings.keymap == {} and not path.exists()

    run(path, steps, tmp_path / "data")


def test_a_settings_file_that_cannot_be_written_keeps_the_change_for_the_session(
    tmp_path: Path, path: Path
) -> None:
    with read_only(path.parent, {"settings.toml": 'level = "easy"\n'}):

        async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
            await open_settings(app, pilot)
            before = app.theme
            await pilot.press("right")
            assert app.theme != before
            said = note(app)
            assert said.startswith(f"Theme {app.theme} for this session; not kept in {path}: ")
            await new_key(app, pilot, "play.panel", "o")
            assert app.settings.keymap == {"play.panel": "o"}
            assert "for this session; not kept" in note(app)

        run(path, steps, tmp_path / "data")
        assert path.read_text(encoding="utf-8") == 'level = "easy"\n'


def test_the_palette_offers_the_settings(tmp_path: Path, path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await choose(pilot, "settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsDialog))

    run(path, steps, tmp_path / "data")


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_settings_snapshot(
    snap_compare: Callable[..., bool], tmp_path: Path, path: Path, size: tuple[int, int]
) -> None:
    """The rows (the theme focused) and the list of keys, one given by the player."""
    path.parent.mkdir()
    path.write_text('[keymap]\n"play.hint" = "o"\n', encoding="utf-8")

    async def steps(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, AbstractsApp)
        await until(pilot, lambda: isinstance(app.screen, SelectScreen))
        await open_settings(app, pilot)

    app = build_app(data=tmp_path / "data", settings=load_settings(path))
    assert snap_compare(app, run_before=steps, terminal_size=size)


def test_the_palettes_texts_read_whole(tmp_path: Path, path: Path) -> None:
    """The palette draws its commands' help as markup: a `[keymap]` in it was taken
    for a style and left a gap ("the settings file's  names them")."""

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for command in app.get_system_commands(app.screen):
            shown = Content.from_markup(command.help).plain
            assert "  " not in shown and shown == command.help, command.help
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Settings (F2)" in titles

    run(path, steps, tmp_path / "data")
