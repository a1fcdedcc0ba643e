"""The events of the rooms a store kept before rooms had events, derived once at the
store's start (`rooms.replay`), each room in a transaction of its own: its version
becomes its event count. A room whose record does not replay is logged in one line and
left without events (it still plays; its events begin with its next change).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Protocol

from ..printable import printable
from ..ratings import Rating
from ..rooms.events import EventError, Stamped
from ..rooms.kept import StoredRoom

log = logging.getLogger(__name__)


class Deriving(Protocol):
    """What a store gives for its rooms' events to be derived."""

    location: str

    def room(self, code: str) -> StoredRoom | None: ...

    def without_events(self) -> list[str]: ...

    def rating_changes(self, code: str) -> list[tuple[str, Rating, Rating]]: ...

    def keep_derived(self, code: str, events: list[Stamped]) -> bool: ...


def derive_missing(store: Deriving, codes: Iterable[str] | None = None) -> int:
    """Derive and keep the events of every room of `store` that has none (of `codes`
    only, if given): how many rooms got theirs. Raises StoreError if the store fails."""
    found = store.without_events() if codes is None else list(codes)
    if not found:
        return 0
    # Imported here: the replay needs the rules, which a store that has every room's
    # events (every start but the first after an upgrade) never loads for this.
    from ..rooms.replay import replayed
    from ..rooms.rows import BAD_ROW, why
    from ..rules import RulesError

    done = 0
    for code in found:
        stored = store.room(code)
        if stored is None:
            continue
        try:
            events = replayed(stored, store.rating_changes(code))
        except (*BAD_ROW, RulesError, EventError) as error:
            reason = why(error)
        except Exception as error:  # a fault of the program's: the room plays on without
            reason = f"replaying it failed ({type(error).__name__}: {error})"
        else:
            done += store.keep_derived(code, events)
            continue
        log.warning(
            "room %s in %s has no events before its next change: %s",
            code,
            store.location,
            printable(reason),
        )
    return done
