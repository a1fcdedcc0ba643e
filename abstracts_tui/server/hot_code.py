"""The code a session runs, copied side by side in the forkserver before it forks.

CPython writes a function's bytecode as it runs it: it specializes instructions in place
and counts down in those it could not specialize. A session's process copies every page
it writes, so every page holding a function it runs is its own. The functions a session
runs are spread over the forkserver's memory among the ones it never runs (imported with
them, module by module): on CPython 3.12 a room's session wrote 1,029 pages of code,
4 MiB, although the code it ran is 0.8 MiB (1,917 code objects).

So the forkserver's warm-up runs once with a profiler that notes each function called
(`calls_seen`), then gives each such function a fresh copy of its code, all made one after
another (`copy_hot_code`), and runs again so that the copies are specialized before the
fork. What a session runs then lies on few pages: a lobby keeps about 1 MiB less of its
own, a room 1 to 1.3 MiB (`scripts/session_memory.py`).

Only where the forkserver's objects are made immortal (CPython 3.12 and 3.13,
`warm.can_immortalize`): on 3.11, whose sessions write every object they use (its
reference count), the copies cost more than they save (a lobby 26 MiB rather than 15).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType, FrameType, FunctionType


@contextmanager
def calls_seen() -> Iterator[set[CodeType]]:
    """The code of every Python function called in this thread while within (the
    warm-up's sessions run on its loop; a thread one starts, such as the writer of its
    saves, would keep the profiler after, so none is watched)."""
    seen: set[CodeType] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            seen.add(frame.f_code)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(None)


def copy_hot_code(hot: set[CodeType]) -> int:
    """Give every function whose code is in `hot` a fresh copy of that code; how many
    copies were made.

    A copy is the same code (`CodeType.replace`), made now, after the others: side by
    side in memory. A function made later from code held in another's constants (a
    closure, a lambda, a function defined in a function) is made from a copy too, where
    that code is hot. Frames running now and code held elsewhere (a module's or a class
    body's code, which ran once at import) keep the originals."""
    copies: dict[CodeType, CodeType] = {}

    def copy(code: CodeType) -> CodeType:
        made = copies.get(code)
        if made is None:
            constants = tuple(
                copy(constant) if isinstance(constant, CodeType) and constant in hot else constant
                for constant in code.co_consts
            )
            made = copies[code] = code.replace(co_consts=constants)
        return made

    functions = [
        thing for thing in gc.get_objects() if type(thing) is FunctionType and thing.__code__ in hot
    ]
    for function in functions:
        function.__code__ = copy(function.__code__)
    return len(copies)
