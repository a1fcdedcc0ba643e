"""OpenSSH's own client, as the players run it: the options that keep a test's run to
itself (no config file, no known-hosts file, no questions, no agent's keys)."""

from __future__ import annotations

import shutil

import pytest

needs_ssh = pytest.mark.skipif(
    shutil.which("ssh") is None, reason="needs OpenSSH's client (apt-get install openssh-client)"
)

SSH = [
    *("ssh", "-F", "/dev/null"),
    *("-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"),
    *("-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-o", "IdentityAgent=none"),
]
"""The client with a test's options; add `-t`/`-T`, `-p PORT` and `NAME@HOST [COMMAND]`."""
