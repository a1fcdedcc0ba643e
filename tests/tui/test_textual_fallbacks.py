"""The app without Textual's private parts: each use in `textual_internals` falls back to
Textual's public behaviour when the part is missing, and the app still plays."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events
from textual.widget import Widget

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui import textual_internals
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.textual_internals import PlainKeys, component_styling, terminal_parser

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
