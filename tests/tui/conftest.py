"""The pilot's wait for an idle app, bounded for apps whose searches keep the process busy."""

from __future__ import annotations

import pytest

from abstracts_tui.tui.textual_internals import bound_idle_waits

BUSY_WAIT = 0.1
"""The longest the pilot waits for the process to go idle after a key or a pause."""


@pytest.fixture(autouse=True)
def bounded_idle_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot waits after each key and each pause until the process uses less CPU
    than the clock runs, for at most a second. The computer's search threads use CPU all
    along, so every key pressed while the computer thinks cost a second or two of waiting
    for nothing (the tests wait for what they check with `waiting.until`)."""
    bound_idle_waits(BUSY_WAIT, monkeypatch.setattr)
