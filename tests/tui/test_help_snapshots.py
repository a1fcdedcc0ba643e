"""The help screen of the real app over a game of Petrify, at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app

SnapCompare = Callable[..., bool]


def test_help_screen_petrify(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = build_app(Setup("petrify", 8), data=tmp_path)
    assert snap_compare(app, press=["question_mark"], terminal_size=(80, 24))
