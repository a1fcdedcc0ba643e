"""What the play screen hears from outside its loop (the session's listeners, the autosave's
writer thread, a room), posted as messages so that it handles them in its own loop."""

from __future__ import annotations

from textual.message import Message

from ..rooms.events import Stamped
from ..session import Changed


class SessionChanged(Message):
    """The session changed (here, on another screen showing it, or by the computer)."""

    def __init__(self, changed: Changed) -> None:
        super().__init__()
        self.changed = changed


class SavingChanged(Message):
    """The autosave started or stopped failing (posted from its writer thread)."""


class RoomHeard(Message):
    """The room's new events, in order (after the messages of their change)."""

    def __init__(self, events: list[Stamped]) -> None:
        super().__init__()
        self.events = events
