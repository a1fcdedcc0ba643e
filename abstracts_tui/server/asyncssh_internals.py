"""What the server takes from asyncssh beyond its documented API, kept in one place.

- A connection's transport (`_transport`), so that it reads its client a bite at a time
  (`bites.bite_connection`).
- A connection's check of a client's public-key signature (`validate_public_key`), which
  gets the signature itself where the documented hook (`SSHServer.validate_public_key`)
  gets only the key, so that signatures with SHA-1 are refused
  (`server.ssh.keys.check_signatures`).

Each returns None or False where this asyncssh has no such part; the callers then go on
without it and the log says so once. `tests/ssh/test_bites.py` and
`tests/ssh/test_names.py` check both against the installed release.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

Validate = Callable[[str, bytes, bytes, bytes], Awaitable[bool]]
"""asyncssh's check of a signature: the user name, the key's data, the signed message
(empty for a query whether the key would do) and the signature."""


def transport(conn: Any) -> Any:
    """The asyncio transport of asyncssh's connection `conn`; None where it keeps none."""
    return getattr(conn, "_transport", None)


def check_before_validating(conn: Any, allowed: Callable[[str, bytes], bool]) -> bool:
    """Make asyncssh's connection `conn` refuse a signed request whose signature
    `allowed(username, signature)` refuses, before asyncssh checks it; whether it could
    (False where the connection has no such check to wrap)."""
    validate: Validate | None = getattr(conn, "validate_public_key", None)
    if validate is None or not inspect.iscoroutinefunction(validate):
        return False

    async def checked(username: str, key_data: bytes, msg: bytes, signature: bytes) -> bool:
        if msg and not allowed(username, signature):  # an unsigned query comes first
            return False
        return await validate(username, key_data, msg, signature)

    conn.validate_public_key = checked
    return True
