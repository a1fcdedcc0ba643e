"""What one turn of the server's loop takes from its clients: a bite of each
connection's input, and a few new connections.

asyncio reads up to 256 KiB of a connection each time it is readable, and what reads
it (asyncssh's decryption and its handling of each packet, aiohttp's parsing of a page's
messages) goes through all of it before the loop goes on: a client that sends a flood of
small packets (a thousand window changes at about 0.2 ms each) would hold every other
session for as long as one read takes. So each client's transport reads at most
`READ_BITE` bytes a turn; what is left waits in the kernel for the next turn, after the
other clients' work, and TCP's flow control slows the flooding client alone.

An earlier version shrank the kernel's receive buffer (`SO_RCVBUF`) to the same end. On
loopback, where a segment may be 64 KiB, a buffer smaller than one segment kept the TCP
window shut: a storming client's own later packets (its acknowledgements of the screen
among them) got through only on TCP's window probes, spaced ever further apart, and its
screen stopped for tens of seconds, its last window size still not laid out a minute
after it was sent.

Likewise asyncio accepts as many waiting connections in one turn as its listening
backlog (100), and starts each (asyncssh's greeting, the server's count of the address's
connections) in the next: a storm of 400 connections held the loop 58 ms in one turn.
The server listens with a backlog of `ACCEPT_BITE`, the connections asyncio accepts a
turn, and then gives the kernel's queue of waiting connections `ACCEPT_QUEUE` again
(`queue_accepts`), so that a storm is accepted a few a turn and nobody's connection is
dropped for it.

This relies on internals of the libraries: asyncio's selector transports read
`max_size` bytes at a time and accept `backlog` connections a turn, and asyncssh's
connection keeps its transport (`asyncssh_internals.transport`). Where one is missing
(another event loop, another version), nothing is changed: the connection is read as
asyncio reads it, and `bite_reads` says so.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from .asyncssh_internals import transport

log = logging.getLogger(__name__)

READ_BITE = 2 * 1024
"""The most bytes of one client's connection read in one turn of the loop: 32 window
changes of 64 bytes, about 6 ms of the loop's work, where 8 KiB held it for about 25 ms,
twice on the way of every other player's key (its way in and its frame's way out)."""


ACCEPT_BITE = 16
"""The listening backlog asyncio is given: the most new connections it accepts a turn."""
ACCEPT_QUEUE = 128
"""The kernel's queue of connections waiting to be accepted, set again once listening."""

said = False
"""Whether the log has said once that a transport could not be made to read in bites."""


def bite_reads(transport: Any, bite: int = READ_BITE) -> bool:
    """Make `transport` read at most `bite` bytes at a time; whether it could be (if
    not, the log says so once)."""
    global said
    if transport is None or not isinstance(getattr(transport, "max_size", None), int):
        if not said:
            said = True
            log.warning(
                "clients' connections are read as the event loop reads them, not %d bytes "
                "at a time: its transports have no read size to set (%s)",
                bite,
                type(transport).__name__,
            )
        return False
    transport.max_size = bite
    return True


def bite_connection(conn: Any, bite: int = READ_BITE) -> bool:
    """`bite_reads` for an asyncssh connection (once it is made)."""
    return bite_reads(transport(conn), bite)


def queue_accepts(sockets: Any, queue: int = ACCEPT_QUEUE) -> None:
    """Give the kernel's queue of each listening socket in `sockets` (an asyncio
    server's, or asyncssh's acceptor's) `queue` places: asyncio listens with the number
    it accepts a turn (`ACCEPT_BITE`)."""
    for listening in sockets or ():
        with contextlib.suppress(OSError, AttributeError), listening.dup() as same:
            same.listen(queue)
