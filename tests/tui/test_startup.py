"""What the app's first screen loads: the selection screen lists the games from the
catalogue, so the five games' rules, records and the play screen wait for a game to start
(their import is a large part of start-up: see `python -m abstracts_tui.tui.bench`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FIRST_SCREEN = """
import sys
from pathlib import Path
from abstracts_tui.tui.factory import build_app

app = build_app(data=Path(sys.argv[1]))
app.call_after_refresh(app.exit)
app.run(headless=True)
print(" ".join(sorted(sys.modules)))
"""

NOT_YET = [
    "abstracts_tui.rules.base",
    "abstracts_tui.rules.petrify",
    "abstracts_tui.rules.pilo",
    "abstracts_tui.rules.egotzi",
    "abstracts_tui.rules.linage",
    "abstracts_tui.rules.partitions",
    "abstracts_tui.records",
    "abstracts_tui.session",
    "abstracts_tui.tui.screens.play",
    "abstracts_tui.engine.search",
]


def first_screen_modules(data: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN, str(data)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(done.stdout.split())


def test_first_screen_leaves_the_rules_and_the_play_screen_unloaded(tmp_path: Path) -> None:
    modules = first_screen_modules(tmp_path)
    assert "abstracts_tui.tui.screens.select" in modules
    assert sorted(set(NOT_YET) & modules) == []


def test_the_resume_offer_loads_them_when_a_game_is_saved(tmp_path: Path) -> None:
    # With a saved game the resume offer reads it: records and rules are loaded then.
    from abstracts_tui.game_setup import Setup
    from abstracts_tui.saved_games import SavedGames
    from abstracts_tui.session import Session

    saved = SavedGames(tmp_path)
    session = Session.start(Setup("pilo", 8), saved.new_path("pilo"))
    session.play("a1")  # a game with no move is not kept
    assert session.flush()
    modules = first_screen_modules(tmp_path)
    assert {"abstracts_tui.records", "abstracts_tui.rules.pilo"} <= modules
