"""The server's settings: where it listens, where it keeps its files, and its limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .notify_send import Smtp

MAX_COLUMNS = 500
MAX_ROWS = 200
"""The largest terminal the server draws for (wider than a 4K screen in a small font): a
bigger size from the client (`stty rows 65535 cols 65535`) is used as this one. Every
frame costs the processor time in proportion to its cells, and memory for every
line of every screen: an unbounded size let one client take gigabytes and stall the
others for seconds."""
MIN_COLUMNS = 20
MIN_ROWS = 6
"""The smallest terminal the server draws for: the first lines of the app's own "too
small" message fit in it (a smaller size is used as this one)."""


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
    sessions: int | None = None
    """Terminal sessions (and browsers' pages) open at once on the whole server; None: as
    many as half the memory available at the start holds, at most 200 (`capacity`)."""
    connections_per_address: int = 10
    """Connections at once from one address (IPv6: one /64 network) that are logged in or
    logging in; one that has not asked to log in yet (a half-open or silent connection) is
    closed to make room for a newer one rather than locking the address out."""
    login_seconds: float = 20.0
    """A connection must have logged in this long after it opened, or it is closed."""
    silent_seconds: float = 10.0
    """A connection that has not asked to log in this long after it opened is closed."""
    no_session_seconds: float = 30.0
    """A connection that has logged in and has no session open this long (since it
    logged in, or since its last session ended) is closed: it holds one of its address's
    places (`connections_per_address`) and is used for nothing. OpenSSH bounds the time
    to log in (`LoginGraceTime`) but not this; a game server's connection is there for
    its sessions (`ssh -T host games` opens one at once)."""
    names_per_key: int = 3
    """User names one key may keep (`auth.KeyBook`): a person's few, not a stock of names
    (lichess allows one account a person)."""
    password_tries: int = 3
    """Wrong passwords on one connection before it is closed (as OpenSSH's MaxAuthTries)."""
    input_rate: float = 100.0
    """Characters of input per second, on average (keys are a few each; pastes are cut)."""
    input_burst: float = 1000.0
    """Characters that may arrive at once before the rate applies."""
    idle_seconds: float = 1800.0
    """A session without input for this long is closed (the game is kept)."""
    output_buffer: int = 4 * 1024 * 1024
    """Bytes waiting to be sent to a client that does not read them: beyond it, disconnect."""


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """The terminal size the server draws for, given the client's."""
    return (
        min(max(width, MIN_COLUMNS), MAX_COLUMNS),
        min(max(height, MIN_ROWS), MAX_ROWS),
    )


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
    admins: frozenset[str] = frozenset()
    """The names that see the reports and suspend names (`--admin NAME`)."""
    smtp: Smtp | None = None
    """Where the players' notices by e-mail are sent through (`--smtp`); None: none."""
    notify_private: bool = False
    """Whether notices may be posted to URLs inside the server's network."""
    database: str | None = None
    """A PostgreSQL URL: the store every process of the server shares; None: the SQLite
    store in `data`."""
    web: tuple[str, int] | None = None
    """Where the server also listens for browsers (`--web [HOST:]PORT`): the rooms in a
    web page; None: SSH only."""
    limits: Limits = field(default_factory=Limits)
    isolate: bool = True
    """Whether each terminal session's app runs in a process of its own
    (`session_process`); else on a thread of the server's process (`--threads`)."""


def listen_address(text: str, default_host: str) -> tuple[str, int]:
    """`PORT`, `HOST:PORT` or `[IPv6]:PORT` as a (host, port); `default_host` when the
    text names none. Raises ValueError with a sentence when it is none of these."""
    host, colon, port = text.rpartition(":")
    if not colon:
        host = default_host
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not port.isdigit() or int(port) > 65535 or (colon and not host):
        raise ValueError(f"{text!r} is not [HOST:]PORT (a port from 0 to 65535)")
    return host, int(port)
