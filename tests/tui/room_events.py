"""A room's game changed here, as a room's gateway changes it: each command applied to the
game, then its events (`rooms.derive.events_of`) told to the screens that listen, as a
room's replica tells them (`rooms.client.Shown.listen`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from abstracts_tui.commands import Command
from abstracts_tui.rooms.apply import apply, twin
from abstracts_tui.rooms.derive import events_of
from abstracts_tui.rooms.events import Stamped
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.session import Session
from abstracts_tui.tui.online import Heard


class LocalRoom:
    """`session`'s room: `send` applies a command to it and the room's `terms` and tells its
    events."""

    def __init__(self, session: Session, terms: RoomTerms | None = None) -> None:
        self.session = session
        self.terms = terms if terms is not None else RoomTerms()
        self.hearers: list[Heard] = []
        self.version = 0

    def listen(self, heard: Heard) -> Callable[[], None]:
        self.hearers.append(heard)
        return lambda: self.hearers.remove(heard)

    def send(self, command: Command, by: str) -> None:
        at = time.time()
        before = twin(self.session)
        apply(self.session, self.terms, command, by, at)
        found = events_of(command, by, before, twin(self.session))
        stamped = [Stamped(self.version + 1 + i, at, event) for i, event in enumerate(found)]
        self.version += len(stamped)
        for heard in list(self.hearers):
            heard(stamped)
