"""What the installed package gives its users: the license, the typed rules API, the web
page, and shell completion of the `abstracts-tui` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata, resources
from pathlib import Path

import pytest

COMMAND = Path(sys.executable).parent / "abstracts-tui"


def editable() -> bool:
    text = metadata.distribution("abstracts-tui").read_text("direct_url.json") or "{}"
    return bool(json.loads(text).get("dir_info", {}).get("editable"))


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    meta = metadata.metadata("abstracts-tui")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])


def test_the_rules_api_is_marked_as_typed() -> None:
    assert (resources.files("abstracts_tui") / "py.typed").is_file()
    if not editable():  # a regular install lists the files it put in place
        files = [str(f) for f in metadata.files("abstracts-tui") or []]
        assert "abstracts_tui/py.typed" in files


def test_the_web_page_is_installed() -> None:
    # abstracts-tui web reads it from the package (the browser tests use this copy).
    assert "data-session-websocket-url" in (
        resources.files("abstracts_tui.server.web") / "page.html"
    ).read_text("utf-8")
    if not editable():
        files = [str(f) for f in metadata.files("abstracts-tui") or []]
        assert "abstracts_tui/server/web/page.html" in files


def complete(words: str) -> list[str]:
    """What bash completion offers for the last of `words` (click's completion protocol)."""
    environment = {
        **os.environ,
        "_ABSTRACTS_TUI_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    done = subprocess.run(
        [str(COMMAND)], env=environment, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return [line.partition(",")[2] for line in done.stdout.splitlines()]


@pytest.mark.skipif(not COMMAND.exists(), reason="the abstracts-tui script is not installed here")
def test_the_shell_completes_commands_games_and_options() -> None:
    assert complete("abstracts-tui pl") == ["play"]
    assert complete("abstracts-tui play pa") == ["partitions"]
    assert "--computer" in complete("abstracts-tui play petrify --")
    assert complete("abstracts-tui play petrify --computer ") == ["first", "second", "both"]


@pytest.mark.skipif(not COMMAND.exists(), reason="the abstracts-tui script is not installed here")
def test_the_completion_script_for_bash_is_printed() -> None:
    environment = {**os.environ, "_ABSTRACTS_TUI_COMPLETE": "bash_source"}
    done = subprocess.run(
        [str(COMMAND)], env=environment, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0
    assert "complete -o nosort -F _abstracts_tui_completion abstracts-tui" in done.stdout
