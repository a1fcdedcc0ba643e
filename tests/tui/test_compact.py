"""The compact view: on a terminal too small for the board and the side panel, the play
screen shows the board alone with a summary line, plays by keys there, and goes back to
the full layout when the terminal grows; the least size of each game is what the README
says."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules import GAMES
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.widgets.key_bar import KeyBar
from abstracts_tui.tui.widgets.summary_line import SummaryLine
from tests.tui.waiting import pie_asked, until

Script = Callable[[AbstractsApp, PlayScreen, Pilot[None]], Awaitable[None]]

LEAST = {
    "petrify": (10, 38, 11),
    "pilo": (10, 48, 11),
    "egotzi": (9, 33, 10),
    "linage": (19, 47, 20),
    "partitions": (10, 47, 20),
}
"""Each game's largest board and the least terminal it plays in (the README's table)."""
FULL = {
    "petrify": ((66, 14), (38, 15)),
    "pilo": ((76, 14), (48, 15)),
    "egotzi": ((61, 14), (33, 14)),
    "linage": ((75, 23), (47, 24)),
    "partitions": ((75, 23), (47, 24)),
}
"""The least terminals for the full layout and for the compact view with everything (the
coordinates above and below, the status line and the footer), as the README's table says."""


def setup(game: str, size: int, clock: str | None = None) -> Setup:
    komi = 0.5 if game == "linage" else None
    return Setup(game, size, komi=komi, first="Ann", second="Bob", clock=clock)


def run(setup: Setup, tmp_path: Path, size: tuple[int, int], script: Script) -> None:
    """Start the app `abstracts-tui play` builds at `size`, past Linage's side dialog."""

    async def main() -> None:
        app = build_app(setup, data=tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if setup.game == "linage":
                await pilot.press("1")  # the side dialog (komi was agreed)
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            await pilot.pause()
            await script(app, screen, pilot)

    asyncio.run(main())


def drawn(widget: Widget) -> list[str]:
    """The lines a widget shows now, without trailing spaces."""
    strips = widget.render_lines(widget.region.reset_offset)
    return [strip.text.rstrip() for strip in strips]


def shown(widget: Widget) -> bool:
    """Whether the widget takes room on the screen (it and its parents displayed)."""
    return widget.display and widget.region.area > 0


async def play_by_keys(app: AbstractsApp, pilot: Pilot[None], keys: list[str]) -> None:
    """Press the cursor keys, then Enter; play on past the pie rule's question."""
    await pilot.press(*keys, "enter")
    await pilot.pause()
    if pie_asked(app):
        await pilot.press("p")
        await until(pilot, lambda: not pie_asked(app))


@pytest.mark.parametrize("game", list(LEAST))
def test_the_largest_board_plays_by_keys_in_its_least_terminal(game: str, tmp_path: Path) -> None:
    size, width, height = LEAST[game]
    assert GAMES[game].info.sizes.stop - 1 == size  # the largest board the game has

    async def script(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert screen.has_class("-compact") and not screen.has_class("-too-small")
        board = screen.board
        assert not shown(screen.query_one("#panel"))
        # The whole board is on the screen: every row, with its row labels on both sides.
        assert board.region.right <= width and board.region.bottom <= height - 1
        assert (board.region.width, board.region.height) == board.size_needed(board.zoom)
        rows = drawn(board)
        n = 2 * size - 1 if game == "partitions" else size  # rows of a hex-hex board
        assert len([row for row in rows if row.strip()]) == n
        summary = screen.query_one(SummaryLine)
        assert summary.region.y == board.region.bottom
        colours = tuple(f"{c.capitalize()} to move" for c in GAMES[game].info.colours)
        assert drawn(summary)[0].strip().startswith(colours)
        # Playable by keys: one corner, then the opposite one.
        await play_by_keys(app, pilot, ["left", "down"] * n)
        await play_by_keys(app, pilot, ["right", "up"] * n)
        game_now = screen.game
        names = [game_now.move_name(m) for m in game_now.moves]
        assert len(names) == 2 and names[0] != names[1], names
        # No column letters here: the summary names the cursor's cell next to the turn.
        assert f"cursor {names[1]}" in drawn(summary)[0]
        # One line or column less is too small, and the note names the least size.
        for smaller in ((width - 1, height), (width, height - 1)):
            await pilot.resize_terminal(*smaller)
            await pilot.pause()
            assert screen.has_class("-too-small")
            note = drawn(screen.query_one("#too-small"))
            assert f"It needs {width} x {height} characters" in " ".join(note)
        # 80 x 24 has room for the full layout again.
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.has_class("-compact") and not screen.has_class("-too-small")
        assert shown(screen.query_one("#panel")) and shown(screen.query_one(KeyBar))
        assert not shown(summary)
        assert board.region.right <= screen.query_one("#panel").region.x

    run(setup(game, size), tmp_path, (width, height), script)


@pytest.mark.parametrize("game", list(FULL))
def test_the_sizes_in_the_readme_are_where_the_layout_changes(game: str, tmp_path: Path) -> None:
    (full_width, full_height), (width, height) = FULL[game]

    async def script(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        async def at(size: tuple[int, int]) -> tuple[bool, frozenset[str], bool]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert not screen.has_class("-too-small")
            keys = shown(screen.query_one(KeyBar)) and shown(screen.query_one("#status"))
            return screen.has_class("-compact"), screen.board.edges, keys

        everything = frozenset({"top", "bottom"})
        assert await at((full_width, full_height)) == (False, everything, True)
        assert (await at((full_width - 1, full_height)))[0]
        assert (await at((full_width, full_height - 1)))[0]
        assert await at((width, height)) == (True, everything, True)
        assert await at((width, height - 1)) == (True, frozenset({"bottom"}), True)

    run(setup(game, LEAST[game][0]), tmp_path, FULL[game][0], script)


def test_linage_19_at_60x20_switches_to_the_compact_view_and_back(tmp_path: Path) -> None:
    async def script(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        board = screen.board
        assert not screen.has_class("-compact")
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert screen.has_class("-compact") and not screen.has_class("-too-small")
        # 19 rows and the summary line: no room for the footer, the status line or the
        # coordinates above and below; the row numbers stay, the summary names the cursor.
        rows = drawn(board)
        assert len(rows) == 19 and rows[0].split()[0] == "19" and rows[-1].split()[-1] == "1"
        assert not shown(screen.query_one(KeyBar)) and not shown(screen.query_one("#status"))
        summary = screen.query_one(SummaryLine)
        await pilot.press("right", "down")
        await pilot.pause()
        assert "cursor k9" in drawn(summary)[0]
        await pilot.press("enter")
        await pilot.pause()
        line = drawn(summary)[0].strip()
        assert line.startswith("Horizontal to move (Ann) · cursor k9 · last k9")
        # A move typed takes the summary's line while it is typed; the rows stay.
        await pilot.press("colon", *"c3")
        await pilot.pause()
        assert shown(screen.query_one("#move-line")) and not shown(summary)
        assert board.region.height == 19 and screen.query_one("#move-line").region.bottom <= 20
        await pilot.press("enter")
        await pilot.pause()
        assert [screen.game.move_name(m) for m in screen.game.moves] == ["k9", "c3"]
        assert shown(summary)
        # A taller terminal gives back the coordinates, the status line and the footer.
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        rows = drawn(board)
        assert rows[0].split() == rows[-1].split() == list("abcdefghijklmnopqrs")
        assert shown(screen.query_one(KeyBar)) and shown(screen.query_one("#status"))
        assert "i Panel" in drawn(screen.query_one(KeyBar))[0]
        # 80 x 24: the full layout, by itself.
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.has_class("-compact")
        assert shown(screen.query_one("#panel")) and not shown(summary)
        assert "Panel" not in drawn(screen.query_one(KeyBar))[0]

    run(setup("linage", 19), tmp_path, (80, 24), script)


def test_i_shows_the_side_panel_in_the_compact_view_where_it_fits(tmp_path: Path) -> None:
    async def script(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        panel = screen.query_one("#panel")
        assert screen.has_class("-compact") and not shown(panel)  # 20 lines: too short
        await pilot.press("i")
        await pilot.pause()
        assert shown(panel) and screen.board.region.right <= panel.region.x
        assert drawn(screen.query_one("#cursor")) == ["Cursor j10: empty"]
        await pilot.press("i")
        await pilot.pause()
        assert not shown(panel)
        # Narrower, there is no room for it: said, and nothing changes.
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert not shown(panel) and screen.board.region.height == 21
        summary = drawn(screen.query_one(SummaryLine))[0]
        assert screen.has_class("-compact") and "to move" in summary
        # The whole sentence on the status line's one line.
        status = drawn(screen.query_one("#status"))
        assert status == [" No room for the panel: it needs 75 columns."], status

    run(setup("linage", 19), tmp_path, (100, 20), script)


def test_the_summary_line_runs_the_clock(tmp_path: Path) -> None:
    def orange(summary: SummaryLine) -> int:
        """Orange's time in seconds as the line shows it (its short form at 50 columns)."""
        found = re.search(r" O (\d+):(\d\d)", drawn(summary)[0])
        assert found is not None, drawn(summary)
        return 60 * int(found[1]) + int(found[2])

    async def script(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        summary = screen.query_one(SummaryLine)
        assert "Blue to move" in drawn(summary)[0] and orange(summary) == 300
        await pilot.press("enter")  # Blue's move starts Orange's clock
        await pilot.pause()
        if pie_asked(app):
            await pilot.press("p")
        await until(pilot, lambda: "Orange to move" in drawn(summary)[0])
        first = orange(summary)
        # Nothing happens in the game: the line is drawn again as the clock runs.
        await until(pilot, lambda: orange(summary) <= first - 2, seconds=20)

    run(setup("pilo", 10, clock="5m+3s"), tmp_path, (50, 14), script)


@pytest.mark.parametrize("answer", ["s", "p"])
def test_the_pie_rule_is_asked_and_answered_in_the_compact_view(
    answer: str, tmp_path: Path
) -> None:
    """Its box is in the side panel, hidden here: the status line asks, and s or p
    answer it (p plays on: it does not pass, and the board keeps its own keys after)."""

    async def script(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert screen.fitting.compact and not screen.fitting.panel_shown
        await pilot.press("enter")  # Ann's first move
        await until(pilot, lambda: pie_asked(app))
        status = str(screen.query_one("#status", Static).content)
        assert status == "Bob: s swaps, p plays on (the pie rule)."
        await pilot.press(answer)
        await until(pilot, lambda: not pie_asked(app))
        session = screen.session
        assert session.swapped == (answer == "s")
        assert len(session.game.moves) == 1 + (answer == "s")  # no pass played
        cursor = screen.board.cursor
        await pilot.press("s")  # the board's key again: the cursor goes down
        await until(pilot, lambda: screen.board.cursor != cursor)

    run(setup("pilo", 10), tmp_path, (50, 14), script)
