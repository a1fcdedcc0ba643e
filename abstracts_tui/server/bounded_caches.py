"""The bounded caches the forkserver's warm-up filled, emptied before it forks.

A function cached with `functools.lru_cache(maxsize=N)` keeps its entries in a linked
list and moves an entry to its front each time it is found, and reuses the oldest entry
for each new one once it holds N: it writes its entries whenever it is used. Filled by
the warm-up and shared by the forkserver, those entries lie among the forkserver's other
objects, so a session's process that uses the cache copies a page for nearly every entry
it touches: on CPython 3.12 a room's session wrote 306 pages of them, 1.2 MiB, most of
them Textual's `Region.overlaps` (4,096 entries). Emptied, each session fills the cache in
memory of its own, entries side by side: a lobby keeps about 0.45 MiB less, a room 0.75
(`scripts/session_memory.py`). A cache without a bound (`maxsize=None`) is only read
once filled: it stays as the warm-up left it, shared.
"""

from __future__ import annotations

import functools
import gc

CACHED = type(functools.lru_cache(maxsize=1)(len))
"""The type of a function cached by `functools.lru_cache` (`_lru_cache_wrapper`)."""


def empty_bounded_caches() -> int:
    """Empty every cache of `functools.lru_cache` with a bound that this process holds;
    how many were emptied."""
    emptied = 0
    for thing in gc.get_objects():
        if isinstance(thing, CACHED) and thing.cache_parameters()["maxsize"] is not None:
            thing.cache_clear()
            emptied += 1
    return emptied
