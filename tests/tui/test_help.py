"""The help screen, opened with `?` in the app, shows the game's rules and the keys of
the screen it was opened from; the rules texts."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules import GAMES
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.rules_text import NOTATION, RULES
from abstracts_tui.tui.screens.help import HelpScreen, blocks
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.waiting import until

Steps = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


def run(setup: Setup, steps: Steps, data: Path, first: tuple[str, ...] = ()) -> AbstractsApp:
    """Start the app as `abstracts-tui` builds it with `setup`'s game, press `first`
    (a dialog's answer), open the help with `?` as a player does, and run `steps` at
    80x24."""
    app = build_app(setup, data=data)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*first)
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await steps(app, pilot)
            await pilot.pause()

    asyncio.run(main())
    return app


def visible_text(host: AbstractsApp) -> str:
    """The characters on the terminal, row by row, as the user sees them."""
    svg = host.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for match in re.finditer(r'<text [^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        x, y, chunk = float(match[1]), float(match[2]), html.unescape(match[3])
        rows.setdefault(y, []).append((x, chunk.replace("\xa0", " ")))
    return "\n".join("".join(chunk for _, chunk in sorted(row)) for _, row in sorted(rows.items()))


def flat(text: str) -> str:
    """Text with the help box's borders and line breaks turned into single spaces."""
    return " ".join(re.sub(r"[█▀▄▌▐│]", " ", text).split())


async def scroll_to_end(host: AbstractsApp, pilot: Pilot[None], seen: list[str]) -> None:
    """Page down, keeping what each page shows, until nothing changes."""
    previous = None
    for _ in range(40):
        page = visible_text(host)
        if page == previous:
            return
        seen.append(page)
        previous = page
        await pilot.press("pagedown")
        await pilot.pause()


def test_help_shows_the_rules_of_the_game_and_the_keys(tmp_path: Path) -> None:
    pages: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await scroll_to_end(app, pilot, pages)

    run(Setup("linage", 11, komi=6.5, first="Ann", second="Bob"), steps, tmp_path, first=("1",))
    everything = flat("\n".join(pages))
    assert "Help: Linage" in pages[0]
    assert "Keys" in everything
    # the play screen's own keys, as its footer names them, ending the help
    assert "Undo" in everything and "Type" in everything
    assert "(analysis)" in pages[-1] and "Forward" in everything
    assert "A region with no line across belongs to Vertical" in everything
    assert "Two passes in a row end the game" in everything
    assert "Petrify" not in pages[0]  # only this game's rules


def test_help_on_the_home_screen_has_the_highlighted_games_rules_and_its_keys(
    tmp_path: Path,
) -> None:
    pages: list[str] = []
    app = build_app(data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "? Help" in visible_text(app)  # the key bar offers it
            await pilot.press("down", "question_mark")  # Pilo highlighted
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await scroll_to_end(app, pilot, pages)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen))

    asyncio.run(main())
    everything = flat("\n".join(pages))
    assert "Help: Pilo" in pages[0]
    others = [cls.info.title for name, cls in GAMES.items() if name != "pilo"]
    assert not any(f"\n{title}\n" in "\n".join(pages) for title in others)
    assert "a1 is the bottom-left corner" in everything
    assert "Start" in pages[-1] and "Resume" in pages[-1] and "F1" in pages[-1]


@pytest.mark.parametrize("key", ["escape", "q", "question_mark"])
def test_help_closes_with(key: str, tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen)

    run(Setup("petrify", 8, first="Ann", second="Bob"), steps, tmp_path)


def test_help_scrolls_with_j_and_k(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        top = visible_text(app)
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert visible_text(app) != top
        await pilot.press("k", "k", "k")
        await pilot.pause()
        assert visible_text(app) == top

    run(Setup("egotzi", 7, first="Ann", second="Bob"), steps, tmp_path)


# -- the rules texts ------------------------------------------------------------------------


def test_every_game_has_rules() -> None:
    assert list(RULES) == list(GAMES)


@pytest.mark.parametrize("name", list(GAMES))
def test_rules_agree_with_the_game_info(name: str) -> None:
    info = GAMES[name].info
    text = " ".join(RULES[name].split())
    for colour in info.colours:
        assert colour.capitalize() in text
    low, high = info.sizes[0], info.sizes[-1]
    if info.geometry == "hex":
        assert f"{low} to {high} cells per side" in text
        assert f"({info.default_size} unless chosen)" in text
    else:
        assert f"{low}x{low} to {high}x{high}" in text
        assert f"({info.default_size}x{info.default_size} unless chosen)" in text
    assert f"{info.colours[0].capitalize()} moves first" in text
    pie = any(info.has_pie_rule(v) for v in info.variants or ("",))
    komi = any(info.takes_komi(v) for v in info.variants or ("",))
    assert ("Pie rule" in text) == pie
    assert ("komi" in text) == komi
    for section in ("Aim:", "Turn:"):
        assert section in text


def test_tie_rules() -> None:
    assert "the colour that made the last board play" in " ".join(RULES["petrify"].split())
    assert "the colour that made the last board play" in " ".join(RULES["pilo"].split())
    egotzi = " ".join(RULES["egotzi"].split())
    assert "colour that placed the last stone loses" in egotzi
    assert "Equal scores are a draw" in egotzi
    assert "equal scores are a draw" in " ".join(RULES["linage"].split())
    partitions = " ".join(RULES["partitions"].split())
    assert "changes colour" in partitions and "draw" in partitions


def test_notation_explains_cells_captures_pass_and_swap() -> None:
    text = " ".join(NOTATION.split())
    for words in ("a1 is the bottom-left corner", "c3-f6", "pass", "swap", "row letter"):
        assert words in text


def test_blocks_join_wrapped_lines_and_keep_list_items() -> None:
    text = "Turn: one\ntwo:\n- first\n  item\n- second\nAfter.\n\nNext para."
    assert [(b.text, b.item) for b in blocks(text)] == [
        ("Turn: one two:", False),
        ("first item", True),
        ("second", True),
        ("After.", False),
        ("Next para.", False),
    ]
