"""The forkserver's own setting up: whether this process is it, and the main module that
its sessions' processes keep rather than run again (`keep_main_module`)."""

from __future__ import annotations

import sys


def in_forkserver() -> bool:
    """Whether this process is the forkserver, importing what it preloads (called within
    `multiprocessing.forkserver.main`), not any other process."""
    forkserver = sys.modules.get("multiprocessing.forkserver")
    code = getattr(getattr(forkserver, "main", None), "__code__", None)
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


MAIN_FIXUPS = ("_fixup_main_from_path", "_fixup_main_from_name")
"""What `multiprocessing.spawn` calls in each process it starts to run the starting
process's main module again, in the Pythons this was written for."""


def keep_main_module() -> bool:
    """Start each session's process without running the server's main module again in
    it; whether that is so now.

    multiprocessing runs the main module of the process that starts a process again in
    the new one, as `__mp_main__`, so that a function defined there can be its target.
    Started as `abstracts-tui serve`, the server's main module is that console script:
    read, compiled and run again in every session's process, which then keeps 4.4 MiB
    more of its own (a lobby 18.8 MiB rather than 14.2, `scripts/session_memory.py
    --console-script`). A session's process runs `session_child.main` with a `Spec`, both
    the package's: nothing of the main module is needed. Done in the forkserver, which
    forks sessions' processes only. Fallback: where `multiprocessing.spawn` has none of
    those functions, each process runs the main module again, as multiprocessing does."""
    from multiprocessing import spawn

    kept = False
    for name in MAIN_FIXUPS:
        if callable(getattr(spawn, name, None)):
            setattr(spawn, name, main_kept)
            kept = True
    return kept


def main_kept(main: str) -> None:
    """What a session's process does of the server's main module: nothing."""
