"""The optional parts of the package (pip's extras), and what is said when one is missing.

`pip install abstracts-tui` plays every game, in a terminal and over SSH; an extra adds
what only some servers need, and its modules are imported only when asked for:

- `postgres` (psycopg): `serve --database postgresql://...`;
- `web` (textual-serve, aiohttp): `abstracts-tui web`.
"""

from __future__ import annotations


def missing_extra(extra: str, what: str, error: ImportError) -> str:
    """The sentence for `what` (a command or an option) asked for without `extra`."""
    module = (error.name or "").partition(".")[0] or "a module it needs"
    return (
        f"{what} needs {module}, which is not installed: "
        f"pip install 'abstracts-tui[{extra}]' adds it"
    )
