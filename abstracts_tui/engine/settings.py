"""The environment variables that make searches reproducible, read the same way by the
engine protocol and the app: `ABSTRACTS_TUI_SEED=N` seeds the searches and
`ABSTRACTS_TUI_PLAYOUTS=N` gives each search N playouts instead of a time."""

from __future__ import annotations

import sys
from collections.abc import Mapping

from ..rules.catalogue import read_int

SEED_VARIABLE = "ABSTRACTS_TUI_SEED"
PLAYOUTS_VARIABLE = "ABSTRACTS_TUI_PLAYOUTS"


def whole_number(
    environ: Mapping[str, str], name: str, minimum: int, warn: str | None = None
) -> int | None:
    """The variable `name` as a whole number >= minimum, else None; with `warn` (the
    program's name) a value that is not one is reported on standard error."""
    text = environ.get(name)
    if text is None or not text.strip():
        return None
    value = read_int(text.strip())
    if value is None:
        value = minimum - 1
    if value < minimum:
        if warn is not None:
            print(
                f"{warn}: ignoring {name}={text!r}: not a whole number >= {minimum}",
                file=sys.stderr,
            )
        return None
    return value
