"""The strength levels: budgets the same on every machine where they are playouts, and
the machine's cores turned into strength where they are a time."""

from __future__ import annotations

import pytest

from abstracts_tui.engine.levels import COMPILED_LEVELS, PYTHON_LEVELS, budget_for


@pytest.mark.parametrize("threads", ["1", "4", "16"])
def test_playout_levels_are_the_same_on_every_machine(
    threads: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_THREADS", threads)
    for level in ("easy", "medium"):
        budget = budget_for(level, "compiled")
        assert (budget.seconds, budget.playouts) == COMPILED_LEVELS[level]


@pytest.mark.parametrize("threads", [1, 4, 16])
def test_hard_caps_its_playouts_per_thread(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_THREADS", str(threads))
    seconds, playouts = COMPILED_LEVELS["hard"]
    assert playouts is not None
    budget = budget_for("hard", "compiled")
    assert (budget.seconds, budget.playouts) == (seconds, playouts * threads)


def test_every_core_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from abstracts_tui.engine.compiled_search import default_threads

    monkeypatch.delenv("ABSTRACTS_TUI_THREADS", raising=False)
    monkeypatch.delenv("ABSTRACTS_TUI_SEED", raising=False)
    assert default_threads() == min(64, os.cpu_count() or 1)
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "3")  # reproducible runs: one thread
    assert default_threads() == 1


def test_the_python_levels_are_unchanged_by_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_THREADS", "8")
    for level, (seconds, playouts) in PYTHON_LEVELS.items():
        budget = budget_for(level, "python")
        assert (budget.seconds, budget.playouts) == (seconds, playouts)
