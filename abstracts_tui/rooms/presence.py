"""Who is connected to each room's game, and the screens to tell when that changes.

The presences belong to the server's event loop (the SSH apps, each on a thread of its
own, follow them through their room clients), so the server's rooms keep them: a
screen showing a room's game counts its person as connected while it shows it, and is
told when someone of the room connects or drops (a player sees at once that the other's
connection was lost, without asking again and again). On a server of several processes
(PostgreSQL, `shared`) each process announces who it shows each room to (`announce`) and
is told who the others show it to (`elsewhere`): a person is connected if any process
shows them the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..subscribers import Subscribers, Subscription


class Presences:
    """The people connected to each room's game, here and through other processes (a
    server's rooms own theirs: `rooms.Rooms.presences`)."""

    def __init__(self) -> None:
        self.connected: dict[str, Counter[str]] = {}
        """Room code -> the people shown that room's game here, with how many screens each."""
        self.followers: dict[str, Subscribers[[]]] = {}
        """Room code -> who is told when who is connected to the room changes."""
        self.elsewhere: dict[str, frozenset[str]] = {}
        """Room code -> the people other processes show it to, as last told."""
        self.announce: Callable[[str, frozenset[str]], None] | None = None
        """Told of the people shown a room here whenever they change (a shared server)."""
        self.moved: Callable[[str], None] | None = None
        """Told of each room whose people connected changed (the rooms write it to the
        room's events: `attending`)."""

    def here(self, code: str) -> frozenset[str]:
        """The people this process shows room `code`'s game to."""
        return frozenset(self.connected.get(code, ()))

    def people(self, code: str) -> frozenset[str]:
        """The people connected to room `code` now, through any process."""
        return self.here(code) | self.elsewhere.get(code, frozenset())

    def shown(self) -> dict[str, frozenset[str]]:
        """Every room shown here, with the people it is shown to."""
        return {code: self.here(code) for code in self.connected}

    def followed(self) -> list[str]:
        """The rooms whose presence a screen here shows."""
        return list(self.followers)

    def follow(self, code: str, user: str, changed: Callable[[], None]) -> Subscription:
        """A screen starts showing room `code`'s game to `user`: `changed` is called
        whenever who is connected changes, until the subscription returned is closed
        (the screen stops showing it)."""
        before, shown = self.people(code), self.here(code)
        self.connected.setdefault(code, Counter())[user] += 1
        tie = self.followers.setdefault(code, Subscribers()).subscribe(changed)
        self._changed(code, before, shown)

        def end() -> None:
            before, shown = self.people(code), self.here(code)
            counts = self.connected.get(code, Counter())
            counts[user] -= 1
            if counts[user] <= 0:
                del counts[user]
            if not counts:
                self.connected.pop(code, None)
            tie.close()
            if not self.followers.get(code):
                self.followers.pop(code, None)
                self.elsewhere.pop(code, None)  # read again when a screen shows it again
            self._changed(code, before, shown)

        return Subscription(end)

    def set_elsewhere(self, code: str, names: frozenset[str]) -> None:
        """The people other processes show room `code` to are `names` (of a room shown
        here: the others are not kept)."""
        if code not in self.followers:
            return
        before = self.people(code)
        self.elsewhere[code] = names
        self._tell(code, before)

    def _changed(self, code: str, before: frozenset[str], shown: frozenset[str]) -> None:
        if self.announce is not None and self.here(code) != shown:
            self.announce(code, self.here(code))
        self._tell(code, before)

    def _tell(self, code: str, before: frozenset[str]) -> None:
        if self.people(code) == before:
            return
        followers = self.followers.get(code)
        if followers is not None:
            followers()
        if self.moved is not None:
            self.moved(code)


class RoomPresence:
    """The presence of room `code` as the screen of `user`'s connection sees it (the
    play screen's `Presence`)."""

    def __init__(self, code: str, user: str, presences: Presences) -> None:
        self.code = code
        self.user = user
        self.presences = presences
        self.tie: Subscription | None = None

    def people(self) -> frozenset[str]:
        return self.presences.people(self.code)

    def follow(self, here: bool, changed: Callable[[], None]) -> None:
        """This connection starts (`here`) or stops showing the room's game; `changed`
        is called whenever who is connected changes while it shows it."""
        if self.tie is not None:
            self.tie.close()
            self.tie = None
        if here:
            self.tie = self.presences.follow(self.code, self.user, changed)
