"""Who is connected to each room's game, and the screens to tell when that changes.

Every app of the server runs in one process and one event loop, so this is kept in the
process: a screen showing a room's game counts its person as connected while it shows
it, and is told when someone of the room connects or drops (a player sees at once that
the other's connection was lost, without asking again and again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

CONNECTED: dict[str, Counter[str]] = {}
"""Room code -> the people showing that room's game, with how many connections each."""
FOLLOWERS: dict[str, list[Callable[[], None]]] = {}
"""Room code -> what to call when who is connected to the room changes."""


def people(code: str) -> frozenset[str]:
    """The people connected to room `code` now."""
    return frozenset(CONNECTED.get(code, ()))


@dataclass(frozen=True)
class RoomPresence:
    """The presence of room `code` as the screen of `user`'s connection sees it (the
    play screen's `Presence`)."""

    code: str
    user: str

    def people(self) -> frozenset[str]:
        return people(self.code)

    def follow(self, here: bool, changed: Callable[[], None]) -> None:
        """This connection starts (`here`) or stops showing the room's game; `changed`
        is called whenever who is connected changes while it shows it."""
        code = self.code
        before = people(code)
        counts = CONNECTED.setdefault(code, Counter())
        followers = FOLLOWERS.setdefault(code, [])
        counts[self.user] += 1 if here else -1
        if counts[self.user] <= 0:
            del counts[self.user]
        if here:
            followers.append(changed)
        elif changed in followers:
            followers.remove(changed)
        if not counts:
            del CONNECTED[code]
        if not followers:
            del FOLLOWERS[code]
        if people(code) != before:
            for follower in list(FOLLOWERS.get(code, ())):
                follower()
