"""Crossing between the server's loop and a session's thread: the one helper both line
mode (`lines.channel`) and the session threads of the apps (`server.session_thread`,
`rooms.client`) use.

A thread never touches another loop's objects: it asks that loop to call a function
(`call_in`) or to run a coroutine and hand back its outcome (`run_in`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def call_in(loop: asyncio.AbstractEventLoop, function: Callable[..., object], *args: Any) -> None:
    """`function(*args)` on `loop` soon, from any thread; nothing once the loop is closed
    (the session it served has ended)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(function, *args)


async def run_in(loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, T]) -> T:
    """Run `work` on `loop` (another thread's) and wait for its outcome here: its result,
    or the exception it raised."""
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, loop))


def on_thread(name: str, run: Callable[[], T]) -> asyncio.Future[T]:
    """Run `run()` on a thread of its own; the future (of the calling loop) is done with
    its result, or its exception, once it has ended."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def finish(outcome: tuple[T | None, BaseException | None]) -> None:
        if done.done():
            return
        result, error = outcome
        if error is None:
            done.set_result(result)  # type: ignore[arg-type]
        else:
            done.set_exception(error)

    def main() -> None:
        outcome: tuple[T | None, BaseException | None]
        try:
            outcome = (run(), None)
        except BaseException as failure:  # told to the loop, which logs it
            outcome = (None, failure)
        call_in(loop, finish, outcome)

    threading.Thread(target=main, name=name, daemon=True).start()
    return done
