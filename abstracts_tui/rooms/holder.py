"""Which connection a command comes from: what a seat in a room is held by.

Every command is sent with its holder, passed along explicitly (never read from the
context), so that a room's gateway can tell one connection of a person from another.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass


@dataclass(frozen=True)
class Holder:
    """The connection an app runs for: its own token, and the user's name."""

    token: str
    user: str


def new_holder(user: str) -> Holder:
    return Holder(secrets.token_hex(8), user)
