"""The end of a game is explained whole at 80x24: `f` opens the count (every patch,
region or group) in a box that scrolls by keys, in every game."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual.containers import VerticalScroll

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.dialogs.reading import ReadingDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.test_layout import drawn
from tests.tui.waiting import until

SETUPS = {
    "petrify": Setup("petrify", 10, first="Ann", second="Bob"),
    "pilo": Setup("pilo", 10, first="Ann", second="Bob"),
    "egotzi": Setup("egotzi", 9, first="Ann", second="Bob"),
    "linage": Setup("linage", 13, komi=0.5, first="Ann", second="Bob"),
    "partitions": Setup("partitions", 7, first="Ann", second="Bob"),
}


def words(text: str) -> str:
    return " ".join(text.split())


def shown(box: VerticalScroll) -> str:
    """The lines of the text that the box shows now (scrolled to `scroll_y`)."""
    lines = drawn(box.query_one("#reading-text")).splitlines()
    top = round(box.scroll_y)
    return "\n".join(lines[top : top + box.scrollable_content_region.height])


@pytest.mark.parametrize("name", list(SETUPS))
def test_the_whole_count_is_read_by_keys_at_80x24(name: str, tmp_path: Path) -> None:
    app = build_app(SETUPS[name], data=tmp_path, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if type(app.screen).__name__ == "SideDialog":
                await pilot.press("2")
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            session = screen.session
            rng = random.Random(11)
            while not session.game.is_over():
                session.play(rng.choice(session.game.legal_moves()))
            await until(pilot, lambda: "(f: in full)" in drawn(screen.query_one("#score")))
            await pilot.press("f")
            await until(pilot, lambda: isinstance(app.screen, ReadingDialog))
            box = app.screen.query_one("#reading-scroll", VerticalScroll)
            assert box.region.bottom <= 23  # above the footer: nothing of the box is cut
            seen = [shown(box)]
            while box.scroll_y < box.max_scroll_y:
                await pilot.press("pagedown")
                await pilot.pause()
                seen.append(shown(box))
            read = words(" ".join(seen))
            score = session.game.score()
            for line in score.lines:  # every patch, region or group
                assert words(line) in read, (line, read)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen)

    asyncio.run(main())


@pytest.mark.parametrize("name", list(SETUPS))
def test_the_legend_names_only_marks_on_the_board(name: str, tmp_path: Path) -> None:
    """Each glyph the legend explains is drawn on the board (a finished Petrify board has
    no empty cell, so no `▪ ▫`: its areas show as the cells' ground)."""
    app = build_app(SETUPS[name], data=tmp_path, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            if type(app.screen).__name__ == "SideDialog":
                await pilot.press("2")
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            session = screen.session
            rng = random.Random(11)
            while not session.game.is_over():
                session.play(rng.choice(session.game.legal_moves()))
            await until(pilot, lambda: "Marks:" in drawn(screen.query_one("#legend")))
            board = drawn(screen.board)
            legend = drawn(screen.query_one("#legend"))
            checked = 0
            for line in legend.splitlines()[1:]:
                marks = line.strip().split("  ")[0].split()
                if marks and all(len(mark) <= 3 for mark in marks):  # glyphs, not words
                    checked += 1
                    for char in "".join(marks):  # `─●─` stands for `─●3─` too
                        assert char in board, (char, legend, board)
            assert checked or "ground" in legend or "shaded" in legend, legend

    asyncio.run(main())
