"""Waiting in pilot tests for what a worker thread does (the computer, analysis)."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App
from textual.pilot import Pilot


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 60) -> None:
    """Let the app run until `condition()` holds, then until it is idle; fail after
    `seconds` (generous: a slow shared machine)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {seconds} s: {condition.__doc__ or ''}")
        await pilot.pause(0.05)
    await pilot.pause()  # and let the screen handle what the change posted (its redraw)


def pie_asked(app: App[None]) -> bool:
    """Whether the play screen on top asks the pie rule's question (in its panel)."""
    from abstracts_tui.tui.widgets.pie_question import PieQuestion

    found = app.screen.query(PieQuestion)
    return bool(found) and found.first().asked
