"""SQLite's errors in the store's words: what a player is told when a save fails (`the
disk is full`), for the store (`sqlite`) and the checks of its file (`sqlite_file`)."""

from __future__ import annotations

import sqlite3

DAMAGED = "the store's file is damaged"
REASONS = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "the disk is read-only",
    "SQLITE_BUSY": "the store is locked by another program",
    "SQLITE_LOCKED": "the store is locked by another program",
    "SQLITE_IOERR": "the disk failed (input/output error)",
    "SQLITE_CANTOPEN": "the store's file cannot be opened",
    "SQLITE_CORRUPT": DAMAGED,
    "SQLITE_NOTADB": "the store's file is not a database",
    "SQLITE_PERM": "permission denied",
}


def reason(error: sqlite3.Error) -> str:
    """What went wrong, in words a player can act on: `the disk is full`."""
    name = getattr(error, "sqlite_errorname", "") or ""
    for prefix, text in REASONS.items():
        if name == prefix or name.startswith(prefix + "_"):
            return text
    if not_text(error):
        return DAMAGED
    lines = str(error).splitlines()
    return lines[0][:200] if lines else type(error).__name__


def not_text(error: sqlite3.Error) -> bool:
    """Whether `error` is a text read back that is not UTF-8, as the store wrote none."""
    return str(error).startswith("Could not decode to UTF-8")
