"""The servers' open files (descriptors): as many as the system lets the process have,
and, when they run out all the same, a line in the log now and then, never a traceback
for each connection.

Every connection, listening socket, pipe to a session's process and file open is a
descriptor, and the process may have as many as its soft limit (`ulimit -n`: often 1,024,
where the hard limit allows far more). `serve` and `web` raise the soft limit to the hard
one at their start (`raise_open_files`). The web listeners take at most a share of them
for connections that are not pages yet (`server.web.guard.most_waiting`), so that a flood of
those leaves the rest for SSH's logins, the sessions and the store.

Where they run out all the same, asyncio cannot accept a connection: it stops accepting
on that socket for a second, and logs "socket.accept() out of system resource" with a
traceback each time, on every listening socket; a flood filled a log with hundreds of
thousands of lines in a minute. `quiet_accept_errors` gives the loop an exception handler
that logs such a failure once every `QUIET_SECONDS` with how many there were, and passes
everything else on as before. It knows them by the error (EMFILE, ENFILE, ENOBUFS,
ENOMEM), not by asyncio's wording, so that another event loop's or release's are caught
too.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
from typing import Any

from .quiet_log import QUIET_SECONDS, Hush

log = logging.getLogger("abstracts_tui.descriptors")

MOST_OPEN_FILES = 1 << 20
"""The soft limit asked for when the hard one is unlimited (Linux's own most, nr_open,
is 1,048,576 by default)."""
FEW_OPEN_FILES = 1024
"""Below this many (after raising the soft limit), the log warns at the start: the web
listeners then take few connections at once."""
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
"""The errors of an accept that found no descriptor (or memory) for a connection."""


def open_files() -> int | None:
    """The process's limit of open files now (its soft limit); None where the system has
    none to read."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def raise_open_files() -> tuple[int, int] | None:
    """Raise the soft limit of open files to the hard one; (before, after), or None where
    the system has no such limit or refused."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_OPEN_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return None
        return soft, wanted
    return soft, soft


def out_of_resources(context: dict[str, Any]) -> OSError | None:
    """The error of a loop's exception `context`, if it is a connection that could not
    be accepted (or made) for want of descriptors or memory."""
    error = context.get("exception")
    if isinstance(error, OSError) and error.errno in OUT_OF_RESOURCES:
        return error
    return None


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Log the loop's failures for want of descriptors once every `QUIET_SECONDS`, in
    one line; pass every other exception on to the handler the loop had."""
    previous = loop.get_exception_handler()
    hush = Hush(log, QUIET_SECONDS)

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = out_of_resources(context)
        if error is None:
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        reason = os.strerror(error.errno) if error.errno is not None else str(error)
        hush.say(
            logging.WARNING,
            "a connection could not be accepted: %s (at most %s open files); new ones wait "
            "until some close",
            reason,
            open_files() or "?",
        )

    loop.set_exception_handler(handle)


def prepare_descriptors() -> None:
    """At a server's start, on its running loop: raise the limit of open files, say so,
    and quiet the loop's failures for want of them."""
    raised = raise_open_files()
    if raised is not None:
        before, after = raised
        if after < FEW_OPEN_FILES:
            log.warning(
                "at most %d open files (the system's hard limit): fewer connections are "
                "taken at once; raise it (ulimit -Hn, or systemd's LimitNOFILE=)",
                after,
            )
        elif after > before:
            log.info("open files: at most %d (raised from %d)", after, before)
    quiet_accept_errors(asyncio.get_running_loop())
