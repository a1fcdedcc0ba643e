"""The computer's decisions: komi on the komi step, the side its search favours, stopping."""

from __future__ import annotations

import threading
import time

import pytest

from abstracts_tui.engine.core_status import CORE_VARIABLE
from abstracts_tui.engine.decide import Thinker
from abstracts_tui.engine.search import Budget
from abstracts_tui.rules import new_game
from tests.engine.compiled_support import CORES


@pytest.fixture(autouse=True, params=CORES)
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs on both search cores."""
    monkeypatch.setenv(CORE_VARIABLE, request.param)
    return str(request.param)


def test_komi_is_a_legal_komi_near_the_median_margin() -> None:
    game = new_game("linage", size=5)
    komi = Thinker(seed=1).komi(game, Budget(playouts=300))
    assert komi % 0.5 == 0 and abs(komi) <= 25
    squared = new_game("egotzi", size=5, variant="squared")
    komi = Thinker(seed=1).komi(squared, Budget(playouts=300))
    assert komi % 2 == 0


def test_the_side_taken_is_the_one_a_huge_komi_favours() -> None:
    rich = new_game("linage", size=5, komi=40)  # Horizontal, the second colour, gets 40
    assert Thinker(seed=2).side(rich, Budget(playouts=300)) == 1
    poor = new_game("linage", size=5, komi=-40)
    assert Thinker(seed=2).side(poor, Budget(playouts=300)) == 0


def test_a_stopped_move_search_answers_at_once_with_a_legal_move() -> None:
    game = new_game("petrify", size=8)
    thinker = Thinker(seed=3)
    threading.Timer(0.3, thinker.stop).start()
    start = time.monotonic()
    move = thinker.move(game, Budget(seconds=60))
    assert time.monotonic() - start < 10
    assert game.illegal_reason(move) is None
