"""The server's settings: where it listens, where it keeps its files, and its limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(Exception):
    """The server cannot start as asked (the message says why)."""


class DatabaseError(ConfigError):
    """The server cannot start: its database cannot be reached or used (the message says
    why); not a fault of the command line."""


@dataclass(frozen=True)
class Limits:
    """What one person or one connection may use, so that nobody can starve the others."""

    sessions_per_user: int = 3
    """Terminal sessions open at once under one user name."""
    sessions: int = 200
    """Terminal sessions open at once on the whole server."""
    connections_per_address: int = 10
    """Connections open at once from one address (IPv6: one /64 network), logged in or not:
    one machine cannot take every connection, or every password check, for itself."""
    input_rate: float = 100.0
    """Characters of input per second, on average (keys are a few each; pastes are cut)."""
    input_burst: float = 1000.0
    """Characters that may arrive at once before the rate applies."""
    idle_seconds: float = 1800.0
    """A session without input for this long is closed (the game is kept)."""
    output_buffer: int = 4 * 1024 * 1024
    """Bytes waiting to be sent to a client that does not read them: beyond it, disconnect."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything `abstracts-tui serve` was told."""

    data: Path
    host: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: Path | None = None
    password_file: Path | None = None
    open: bool = False
    rated: bool = False
    """Whether the rooms made on the server are rated."""
    database: str | None = None
    """A PostgreSQL URL: the store every process of the server shares; None: the SQLite
    store in `data`."""
    limits: Limits = field(default_factory=Limits)
