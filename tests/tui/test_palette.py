"""ctrl+p, the command palette: themes, the colour-blind palette, ASCII drawing and the
keymap in force; a choice applies at once and is kept in the settings file, the rest of
the file as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.command import CommandPalette
from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.reading import ReadingDialog
from abstracts_tui.tui.factory import build_app, build_web_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import load_settings
from tests.tui.test_layout import drawn
from tests.tui.waiting import until

FILE = '# mine\nlevel = "easy"\n[sizes]\npilo = 8\n[keymap]\n"play.undo" = "backspace"\n'


async def choose(pilot: Pilot[None], typed: str) -> None:
    """Open the palette, type `typed`, and run the first command it offers."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*typed)
    await pilot.pause(0.5)  # the palette searches its commands as it is typed
    await pilot.press("down", "enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))


def test_theme_and_ascii_apply_at_once_and_are_kept_in_the_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(FILE)
    app = build_app(Setup("pilo", 6), data=tmp_path / "data", settings=load_settings(path))

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            assert "·" in drawn(screen.board)
            await choose(pilot, "colour-blind")
            assert app.theme == "colour-blind"
            await choose(pilot, "ascii drawing")
            assert app.ascii and "·" not in drawn(screen.board) and "." in drawn(screen.board)
            assert any("kept in" in notice for notice in app.notices), app.notices
            await choose(pilot, "keys in force")
            await until(pilot, lambda: isinstance(app.screen, ReadingDialog))
            keys = drawn(app.screen.query_one("#reading-text"))
            undo = next(line for line in keys.splitlines() if "play.undo" in line)
            assert "backspace" in undo and "(settings file)" in undo, undo
            assert "play.count" in keys and "app.quit" in keys

    asyncio.run(main())
    saved = load_settings(path)
    assert (saved.theme, saved.ascii, saved.level) == ("colour-blind", True, "easy")
    assert saved.sizes == {"pilo": 8} and saved.keymap == {"play.undo": "backspace"}
    assert path.read_text().startswith("# mine\n")  # the rest of the file as it was


def test_a_browser_visitors_choice_is_for_the_session_only(tmp_path: Path) -> None:
    app: AbstractsApp = build_web_app(tmp_path / "visitor")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await choose(pilot, "nord")
            assert app.theme == "nord"
            assert any("for this session" in notice for notice in app.notices), app.notices

    asyncio.run(main())
    assert not list(tmp_path.rglob("*.toml"))
