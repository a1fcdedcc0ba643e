"""The play screen uses the terminal: the board grows with it, the panel takes the rest,
and 80x24 still shows everything: the footer's keys, the status line, the legend."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen
from textual.widget import Widget

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules import GAMES, new_game
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.widgets.key_bar import KeyBar


def drawn(widget: Widget) -> str:
    """The text a widget shows now, line by line."""
    lines = widget.render_lines(widget.region.reset_offset)
    return "\n".join(strip.text for strip in lines)


def footer(screen: Screen[Any]) -> str:
    """The keys the footer shows within the screen's width (a word cut at the edge is
    not the word)."""
    return drawn(screen.query_one(KeyBar))


def board_width(setup: Setup, data: Path, size: tuple[int, int]) -> int:
    async def main() -> int:
        app = build_app(setup, data=data)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            board, panel = screen.board, screen.query_one("#panel")
            assert board.region.right <= panel.region.x  # side by side, no overlap
            assert panel.region.right == size[0]  # the panel takes the rest
            assert board.region.bottom <= size[1] - 2  # above the status line and footer
            return board.region.width

    return asyncio.run(main())


@pytest.mark.parametrize("name", list(GAMES))
def test_the_board_is_half_as_wide_again_at_160x50_as_at_80x24(name: str, tmp_path: Path) -> None:
    info = GAMES[name].info
    setup = Setup(name, info.default_size, komi=0.5 if name == "linage" else None)
    small = board_width(setup, tmp_path, (80, 24))
    large = board_width(setup, tmp_path, (160, 50))
    assert large >= 1.5 * small, (small, large)


def test_at_80x24_the_footer_shows_help_and_quit_and_the_status_line_is_whole(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        app = build_app(Setup("linage", 19, komi=0.5), data=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("1")  # the second person takes Vertical
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            shown = footer(screen)
            for key in ("Type", "Pass", "Undo", "Analysis", "Save", "Help", "Quit"):
                assert key in shown, shown
            await pilot.press("x")  # analysis mode's footer and its long status line
            await pilot.pause()
            shown = footer(screen)
            for key in ("Comment", "Analysis", "Save", "Help", "Quit"):
                assert key in shown, shown
            status = " ".join(drawn(screen.query_one("#status")).split())
            assert status.endswith("x leaves."), status

    asyncio.run(main())


def test_pass_is_offered_only_where_it_is_legal(tmp_path: Path) -> None:
    async def keys(setup: Setup) -> str:
        app = build_app(setup, data=tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            return footer(app.screen)

    assert "Undo" in asyncio.run(keys(Setup("partitions", 5)))
    assert "Pass" not in asyncio.run(keys(Setup("partitions", 5)))
    assert "Pass" not in asyncio.run(keys(Setup("egotzi", 5)))
    assert "Pass" not in asyncio.run(keys(Setup("petrify", 6)))  # board plays remain


def test_the_end_of_a_game_has_a_legend_of_the_marks(tmp_path: Path) -> None:
    game = new_game("partitions", size=5)
    while not game.is_over():
        game.play(game.legal_moves()[0])

    async def main() -> None:
        app = build_app(Setup("partitions", 5), data=tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            for move in game.moves:
                screen.session.play(move)
            await pilot.pause()
            legend = drawn(screen.query_one("#legend"))
            # White's are hollow; Black has no fragment here, and none is named.
            assert "◎  White's fragments" in legend and "◉" not in legend, legend

    asyncio.run(main())


def test_partitions_numbers_the_positions_of_the_cells(tmp_path: Path) -> None:
    async def main() -> None:
        app = build_app(Setup("partitions", 6), data=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lines = drawn(app.screen.query_one("#board")).splitlines()
            assert lines[0].split() == ["1", "2", "3", "4", "5", "6"]
            assert lines[-1].split() == ["1", "2", "3", "4", "5", "6"]
            assert lines[1].split()[0] == "k" and lines[-2].split()[0] == "a"

    asyncio.run(main())
