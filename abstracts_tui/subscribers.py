"""Who is told of a change, and the tie that ends it.

An object that tells others of its changes (a session of each change, a room of each
command and event, a chat of each line, the rooms of the lobby's lists) holds a
`Subscribers`; whoever wants to be told subscribes and keeps the `Subscription` it gets,
whose `close()` ends that tie, once, wherever it was made. A screen showing a room holds
its ties together (`Ties`) and ends them all with one `close()`: nobody removes a
function from a list by hand, so none is left behind when one removal is forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec

P = ParamSpec("P")


class Subscription:
    """One tie: `close()` ends it (a second `close()` does nothing)."""

    def __init__(self, end: Callable[[], None]) -> None:
        self._end: Callable[[], None] | None = end

    @property
    def closed(self) -> bool:
        return self._end is None

    def close(self) -> None:
        end, self._end = self._end, None
        if end is not None:
            end()


class Ties:
    """Several ties ended together: each `add`ed one is closed by `close()`, and one
    added once they are closed is closed at once."""

    def __init__(self, *ties: Subscription) -> None:
        self.ties: list[Subscription] | None = list(ties)

    @property
    def closed(self) -> bool:
        return self.ties is None

    def add(self, tie: Subscription) -> Subscription:
        if self.ties is None:
            tie.close()
        else:
            self.ties.append(tie)
        return tie

    def close(self) -> None:
        ties, self.ties = self.ties, None
        for tie in reversed(ties or ()):
            tie.close()


class Subscribers(Generic[P]):
    """The functions told of one kind of change, in the order they subscribed; calling
    this tells each of them (one that subscribes while it tells is told from the next)."""

    def __init__(self) -> None:
        self._told: list[tuple[Callable[P, None]]] = []
        """Each subscribed function in a cell of its own: one function may subscribe
        twice, and each subscription ends its own."""

    def subscribe(self, told: Callable[P, None]) -> Subscription:
        """Tell `told` of every change until the subscription returned is closed."""
        cell = (told,)
        self._told.append(cell)

        def end() -> None:
            for index, held in enumerate(self._told):
                if held is cell:
                    del self._told[index]
                    return

        return Subscription(end)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> None:
        for (told,) in list(self._told):
            told(*args, **kwargs)

    def __len__(self) -> int:
        """How many are subscribed now."""
        return len(self._told)

    def __bool__(self) -> bool:
        return bool(self._told)
