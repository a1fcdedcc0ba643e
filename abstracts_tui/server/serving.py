"""What the commands that serve (`serve`, `web`) share: running until told to stop."""

from __future__ import annotations

import asyncio
import signal


async def until_stopped(ready: asyncio.Event | None = None) -> None:
    """Set `ready` (the server listens), then wait for SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    if ready is not None:
        ready.set()
    await stop.wait()
