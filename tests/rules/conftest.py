"""Every hand-built rule test also checks the compiled rules, where they apply.

While a test runs, each game's `legal_moves()`, `is_over()`, `outcome()` and `score()`
also ask a compiled position built from the game's state at that moment, and the test
fails where the two disagree (legal moves as a set, the end, the winner, the points).
Without the compiled core built, the tests check the Python rules alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from abstracts_tui.engine.core_status import built
from abstracts_tui.rules import GAMES, Game


def _twin(game: Game) -> Any:
    from abstracts_tui.engine.compiled import position_of

    return position_of(game)


def _checked(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def legal_moves(self: Game) -> Any:
        found = original(self)
        twin = sorted(_twin(self).legal_moves())
        assert twin == sorted(found), f"compiled legal moves differ at {self.position()}"
        return found

    def is_over(self: Game) -> Any:
        found = original(self)
        assert _twin(self).is_over() == found, f"compiled end differs at {self.position()}"
        return found

    def outcome(self: Game) -> Any:
        found = original(self)
        twin = _twin(self).winner()
        if found is None:
            assert twin == -1, f"the compiled game ended at {self.position()}"
        else:
            assert twin == found.winner, f"compiled winner differs at {self.position()}"
        return found

    def score(self: Game) -> Any:
        found = original(self)
        points = tuple(float(p) for p in found.points)
        twin = _twin(self).points()
        assert twin == points, f"compiled points {twin} != {points} at {self.position()}"
        return found

    return {"legal_moves": legal_moves, "is_over": is_over, "outcome": outcome, "score": score}[
        name
    ]


@pytest.fixture(autouse=True)
def compiled_rules_agree(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if built():
        for cls in GAMES.values():
            for name in ("legal_moves", "is_over", "outcome", "score"):
                monkeypatch.setattr(cls, name, _checked(name, getattr(cls, name)))
    yield
