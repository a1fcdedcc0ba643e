"""The servers' log: each message one printable line, whatever a log call was given."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import logging
from abstracts_tui.cli import log_to_stderr

log_to_stderr("info")
log = logging.getLogger("abstracts_tui.ssh")
log.info("%s: session started", "ann\\n2026-12-02 00:00:00 bob: session started\\x1b]0;t\\x07")
log.info("%s", "x" * 5000)
try:
    raise ValueError("the server's own fault")
except ValueError:
    log.exception("a traceback")
"""


def test_a_log_message_cannot_forge_a_line_or_reach_the_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    first = lines[0].split(" ", 2)[2]
    assert first == "ann\\n2026-12-02 00:00:00 bob: session started\\x1b]0;t\\x07: session started"
    assert len(lines[1]) < 2100 and lines[1].endswith("…")
    # The server's own traceback is kept as Python writes it, after its line.
    assert lines[2].endswith("a traceback") and lines[3].startswith("Traceback")
