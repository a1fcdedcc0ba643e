"""A session's process collects a screen's garbage as soon as the screen is gone.

A screen taken away (a dialog dismissed, the room's waiting screen replaced by its game)
leaves its widgets as garbage in cycles, which CPython frees only at its next full
collection: usually after the next screen is built, which then takes new memory rather
than the dialog's. In a process of its own, memory a session once used stays its own,
so the room's creator, who went through the room's dialog and its waiting screen, kept
about 1 MiB more than its joiner. Collected when each screen is removed, the next
screen reuses the memory of the last.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App

from .free_pages import give_back_free_pages

REPLACE = "_replace_screen"
"""Textual's coroutine that removes a screen taken off the stack (its private API)."""


def collect() -> None:
    """Collect the garbage, then hand the pages it leaves free back to the system."""
    gc.collect()
    give_back_free_pages()


def collect_after_screens(app: App[Any]) -> bool:
    """Make `app` collect garbage after each screen it removes; whether that is so.
    Fallback: where Textual's app has no such coroutine, nothing changes (the garbage is
    collected when CPython's collector next runs in full)."""
    replace: Callable[[Any], Awaitable[Any]] | None = getattr(app, REPLACE, None)
    if replace is None or not inspect.iscoroutinefunction(replace):
        return False

    async def replaced(screen: Any) -> Any:
        try:
            return await replace(screen)
        finally:
            # Once the removal's callers have let the screen go.
            asyncio.get_running_loop().call_soon(collect)

    setattr(app, REPLACE, replaced)
    return True
