"""The app without Textual's private parts: each use in `textual_internals` falls back to
Textual's public behaviour when the part is missing, and the app still plays."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events
from textual.geometry import Region
from textual.widget import Widget

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui import textual_internals
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.textual_internals import PlainKeys, component_styling, terminal_parser
from abstracts_tui.tui.widgets.pie_question import PieQuestion

TYPED = "ab\r\x1b[A\x1b[B\x1bOC\x1b[D\t\x7f\x03 \x1b[5~\x1b[Z"
KEYS = [
    *("a", "b", "enter", "up", "down", "right", "left"),
    *("tab", "backspace", "ctrl+c", "space", "pageup", "shift+tab"),
]


def keys(messages: object) -> list[str]:
    return [message.key for message in messages if isinstance(message, events.Key)]  # type: ignore[attr-defined]


def test_the_plain_parser_reads_the_keys_textuals_parser_reads() -> None:
    assert keys(PlainKeys().feed(TYPED)) == KEYS
    assert keys(terminal_parser().feed(TYPED)) == KEYS  # Textual's own, where it is


def test_a_lone_escape_waits_for_the_tick_and_a_split_sequence_for_its_end() -> None:
    parser = PlainKeys()
    assert keys(parser.feed("\x1b")) == []
    assert keys(parser.tick()) == ["escape"]
    assert keys(parser.feed("\x1b[")) == []
    assert keys(parser.feed("Bx")) == ["down", "x"]
    assert keys(parser.feed("\x1bq")) == ["escape", "q"]  # not a sequence: Escape, then q


def test_without_textuals_parser_the_plain_one_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr("textual._xterm_parser.XTermParser")
    assert isinstance(terminal_parser(), PlainKeys)


def test_without_component_styles_cached_lines_are_always_drawn_again() -> None:
    widget = Widget()
    assert component_styling(widget) == component_styling(widget)
    del widget._component_styles
    assert component_styling(widget) != component_styling(widget)


def play_two_moves(tmp_path: Path) -> tuple[str, bool]:
    """The screen of Partitions after two typed moves, and whether `RowCompositor` drew
    its partial frames."""
    app = build_app(Setup("partitions", 5, None, None, "Ann", "Bob"), data=tmp_path)

    async def play() -> tuple[str, bool]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for move in ("c3", "d4"):
                await pilot.press("colon", *move, "enter")
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            return app.export_screenshot(), screen.rows_by_widget

    return asyncio.run(play())


def test_the_app_plays_with_textuals_compositor_where_the_row_one_cannot_be_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    screen, rows = play_two_moves(tmp_path / "rows")
    assert rows  # with the Textual that pyproject.toml allows
    monkeypatch.setattr(textual_internals, "ROWS_BY_WIDGET", False)
    fallback, rows = play_two_moves(tmp_path / "plain")
    assert not rows
    assert fallback == screen  # the same picture (the moves drawn, White to move)
    assert "White&#160;to&#160;move&#160;(Ann)" in screen


def test_a_box_hidden_while_the_compositors_map_is_rebuilt_is_drawn_over(
    tmp_path: Path,
) -> None:
    """Textual builds its map of every widget again when a widget's place is asked for
    after a change, which can come before the change is laid out (a widget refreshed
    just after a scroll asks). The layout must still find that the pie rule's box moved
    away, and draw its place again: the row compositor compares with the last layout."""
    app = build_app(Setup("petrify", 8, None, None, "Ann", "Bob"), data=tmp_path)

    async def play() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("colon", "d", "5", "enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen) and screen.rows_by_widget
            question = screen.query_one(PieQuestion)
            assert question.asked
            box = question.region
            compositor = screen._compositor
            question.withdraw()  # as `p` does; its style (display: none) applied now
            app.stylesheet.update_nodes([question])
            compositor._full_map_invalidated = True  # a scroll drew part of the screen
            assert question not in compositor.full_map  # built again for the change
            compositor._dirty_regions.clear()
            compositor.reflow(screen, screen.size)
            dirty = list(compositor._dirty_regions)
            assert dirty and Region.from_union(dirty).contains_region(box), (box, dirty)
            await pilot.pause()

    asyncio.run(play())


def test_a_lines_caches_are_made_when_first_used_and_keep_what_they_cache() -> None:
    from rich.segment import Segment
    from textual.strip import Strip

    assert textual_internals.lazy_strip_caches()  # with the Textual pyproject.toml allows
    line = Strip([Segment("abcdef")])
    with pytest.raises(AttributeError):  # no cache made with the line
        textual_internals.STRIP_SLOTS["_crop_cache"].__get__(line, Strip)
    cropped = line.crop(1, 4)
    assert cropped.text == "bcd" and line.crop(1, 4) is cropped  # cached, as Textual's
    assert len(line._crop_cache) == 1 and len(line._style_cache) == 0


FALLBACK = """
from abstracts_tui.tui import textual_internals
from textual.strip import Strip
from rich.segment import Segment
textual_internals.STRIP_FIELDS = frozenset({"_segments"})  # an __init__ of another shape
assert not textual_internals.lazy_strip_caches()
line = Strip([Segment("abcdef")])
assert textual_internals.STRIP_SLOTS["_crop_cache"].__get__(line, Strip) is not None
assert line.crop(1, 4).text == "bcd"
"""


def test_where_a_lines_fields_are_not_the_known_ones_textuals_strips_are_kept() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FALLBACK], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
