"""The computer player's strength levels: how much search each move gets.

Kept free of heavy imports: the command line and the selection screen name the levels
before any search code is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .search import Budget

LEVELS: dict[str, tuple[float | None, int | None]] = {
    "easy": (None, 100),
    "medium": (None, 1000),
    "hard": (2.0, None),
    "strongest": (6.0, None),
}
"""Level name -> (seconds, playouts) of one move's search. The playout budgets play the
same strength on any machine; the timed ones use whatever the machine gives in that time."""

DEFAULT_LEVEL = "hard"


def budget_for(level: str) -> Budget:
    """The budget of `level`, or of the default level for a name this program does not know."""
    from .search import Budget

    seconds, playouts = LEVELS.get(level, LEVELS[DEFAULT_LEVEL])
    return Budget(seconds=seconds, playouts=playouts)
