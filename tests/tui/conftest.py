"""The pilot's wait for an idle app, bounded for apps whose searches keep the process busy."""

from __future__ import annotations

import pytest
import textual.app
import textual.pilot
from textual._wait import wait_for_idle

BUSY_WAIT = 0.1
"""The longest the pilot waits for the process to go idle after a key or a pause."""


async def _bounded_wait_for_idle(min_sleep: float = 1 / 50, max_sleep: float = 1) -> None:
    await wait_for_idle(min_sleep, min(max_sleep, BUSY_WAIT))


@pytest.fixture(autouse=True)
def bounded_idle_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot waits after each key and each pause until the process uses less CPU
    than the clock runs, for at most a second. The computer's search threads use CPU all
    along, so every key pressed while the computer thinks cost a second or two of waiting
    for nothing (the tests wait for what they check with `waiting.until`)."""
    monkeypatch.setattr(textual.app, "wait_for_idle", _bounded_wait_for_idle)
    monkeypatch.setattr(textual.pilot, "wait_for_idle", _bounded_wait_for_idle)
