"""Which search core this installation has and uses, without loading the rules (the
command line asks before anything else is imported).

The compiled core (`_core`) is built at install when a C compiler is present; without
one the install still succeeds and the pure-Python engine plays.
`ABSTRACTS_TUI_CORE=python` makes the program use the pure-Python engine even when the
compiled one is built (for comparisons and tests).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

CORE_VARIABLE = "ABSTRACTS_TUI_CORE"


def built() -> bool:
    """Whether the compiled core was built and can be imported (a C module: cheap)."""
    try:
        from . import _core  # noqa: F401
    except ImportError:  # built without a C compiler: the pure-Python engine plays
        return False
    return True


def in_use(environ: Mapping[str, str] | None = None) -> bool:
    """Whether searches use the compiled core: built, and not turned off by
    `ABSTRACTS_TUI_CORE=python`."""
    settings = os.environ if environ is None else environ
    return built() and settings.get(CORE_VARIABLE, "").strip().lower() != "python"


def core_name(environ: Mapping[str, str] | None = None) -> str:
    """`compiled` or `python`: the core searches use."""
    return "compiled" if in_use(environ) else "python"


def describe(environ: Mapping[str, str] | None = None) -> str:
    """The core in words, for `--version` and the protocol's `version`."""
    if in_use(environ):
        return "compiled search core"
    if built():
        return f"pure-Python search core ({CORE_VARIABLE}=python)"
    return "pure-Python search core (the compiled core is not built)"


MISSING_NOTICE = (
    "abstracts-tui: the fast engine (compiled core) is not built, so the computer plays "
    "with the slower pure-Python one. To build it, install a C compiler and Python's "
    "headers (e.g. `apt install gcc python3-dev`, or Xcode's command line tools), then "
    "reinstall past pip's cache, which keeps the build made without them: "
    "`pip install --no-cache-dir --force-reinstall --no-deps abstracts-tui` (or the folder "
    "you installed from)."
)


def missing_notice() -> str | None:
    """One line for standard error when the compiled core is missing, else None."""
    return None if built() else MISSING_NOTICE
