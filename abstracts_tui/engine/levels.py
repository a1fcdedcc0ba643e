"""The computer player's strength levels: how much search each move gets.

Kept free of heavy imports: the command line and the selection screen name the levels
before any search code is loaded.

The compiled core plays some fifty times more playouts a second than the pure-Python
one, so each core has its own table: with the compiled core the lower levels are
playout budgets (the same strength on any machine; every core searches them, so they
answer sooner), `hard` is a time with a cap of playouts per thread, and `strongest` a
time: every core of the machine searches one shared tree, so the more cores, the deeper
and stronger these two play. The pure-Python table is the one the program had before the
compiled core, so that an installation without a C compiler keeps levels that answer in
a few seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .search import Budget

Level = tuple[float | None, int | None]
"""(seconds, playouts) of one move's search: whichever ends first."""

COMPILED_LEVELS: dict[str, Level] = {
    "easy": (None, 100),
    "medium": (None, 2_000),
    "hard": (1.0, 20_000),  # playouts per thread of the search
    "strongest": (3.0, None),
}
PYTHON_LEVELS: dict[str, Level] = {
    "easy": (None, 100),
    "medium": (None, 1000),
    "hard": (2.0, None),
    "strongest": (6.0, None),
}
LEVELS = COMPILED_LEVELS
"""The level names (the same in both tables), in order of strength."""

DEFAULT_LEVEL = "hard"


def level_table(core: str | None = None) -> dict[str, Level]:
    """The levels of `core` (`compiled` or `python`; by default the core in use)."""
    if core is None:
        from .core_status import core_name

        core = core_name()
    return COMPILED_LEVELS if core == "compiled" else PYTHON_LEVELS


def budget_for(level: str, core: str | None = None) -> Budget:
    """The budget of `level` on `core` (default: the core in use), or of the default
    level for a name this program does not know. On the compiled core a level with both
    a time and playouts caps the playouts per thread, so that more cores play stronger."""
    from .search import Budget

    if core is None:
        from .core_status import core_name

        core = core_name()
    table = level_table(core)
    seconds, playouts = table.get(level, table[DEFAULT_LEVEL])
    if core == "compiled" and seconds is not None and playouts is not None:
        from .compiled_search import default_threads

        playouts *= default_threads()
    return Budget(seconds=seconds, playouts=playouts)
