"""Two faults put in the lobby by `apply` (`faulty_server.py` does, and `faulty_lobby`
as it is imported, in the server's processes of sessions): the
lobby of `dan` takes the processor for `HANG_SECONDS` at every layout (a layout that
hangs); the lobby of `eve` fails as it is composed (an app that raises)."""

from __future__ import annotations

import time
from collections.abc import Iterable

from textual import events
from textual.widget import Widget

from abstracts_tui.tui.rooms.lobby import LobbyScreen

HANG_SECONDS = 2.0
HANGS = "dan"
FAILS = "eve"
FAULT = "a fault put in by the test"

compose = LobbyScreen.compose


def faulty_compose(self: LobbyScreen) -> Iterable[Widget]:
    if self.user == FAILS:
        raise RuntimeError(FAULT)
    return compose(self)


def hanging_resize(self: LobbyScreen, event: events.Resize) -> None:
    if self.user == HANGS:
        end = time.monotonic() + HANG_SECONDS
        while time.monotonic() < end:  # busy: the processor, not a sleep
            pass


def apply() -> None:
    LobbyScreen.compose = faulty_compose  # type: ignore[method-assign,assignment]
    LobbyScreen.on_resize = hanging_resize  # type: ignore[attr-defined]
