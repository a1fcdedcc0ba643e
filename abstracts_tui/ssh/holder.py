"""Which connection an app runs for: what a seat in a shared room is held by.

Its own module, apart from `shared` (the rooms shared through PostgreSQL), so that every
server, with or without the `postgres` extra, can name its connections without importing
psycopg.
"""

from __future__ import annotations

import secrets
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Holder:
    """The connection an app runs for: its own token, and the user's name."""

    token: str
    user: str


HOLDER: ContextVar[Holder | None] = ContextVar("abstracts_tui_holder", default=None)
"""The connection whose app is running (set by the server before the app starts, so
every task of that app sees it): what a seat is held by."""


def new_holder(user: str) -> Holder:
    return Holder(secrets.token_hex(8), user)
