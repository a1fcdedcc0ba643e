"""The optional parts of the package (pip's extras), and what is said when one is missing.

`pip install abstracts-tui` plays every game, in a terminal and over SSH; an extra adds
what only some servers need, and its modules are imported only when asked for:

- `postgres` (psycopg): `serve --database postgresql://...`;
- `web` (textual-serve, aiohttp): `abstracts-tui web`.
"""

from __future__ import annotations

EXTRAS = {
    "postgres": ("psycopg", ("psycopg", "psycopg_pool", "psycopg_binary")),
    "web": ("textual-serve", ("textual_serve", "aiohttp")),
}
"""Each extra: the package named to the user, and the modules it brings."""


def missing_extra(extra: str, what: str, error: ImportError) -> str:
    """The sentence for `what` (a command or an option) that could not import `error`'s
    module: the extra to install, or, when one of its packages is there but fails, why."""
    package, modules = EXTRAS[extra]
    install = f"pip install 'abstracts-tui[{extra}]'"
    if (error.name or "").partition(".")[0] in modules:
        return f"{what} needs {package}, which is not installed: {install} adds it"
    return f"{what} needs the {extra} extra, which cannot be imported ({error}): {install}"
