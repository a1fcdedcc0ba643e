"""What the tests of the compiled core share: whether it is built, and a skip mark that
says why when it is not (CI builds it: `.ci/run` fails if it cannot be imported)."""

from __future__ import annotations

import pytest

from abstracts_tui.engine import core_status

needs_core = pytest.mark.skipif(
    not core_status.built(), reason="the compiled core is not built (no C compiler at install)"
)

CORES = [
    pytest.param("python", id="python"),
    pytest.param("compiled", id="compiled", marks=needs_core),
]
"""Parametrize a test over both search cores."""
