"""Memory freed handed back to the system (glibc's `malloc_trim`)."""

from __future__ import annotations

import ctypes


def give_back_free_pages() -> bool:
    """Hand the C library's free pages back to the system: what a process freed stays
    free, so it need not stay resident; whether it was done (not where the C library has
    no `malloc_trim`)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True
