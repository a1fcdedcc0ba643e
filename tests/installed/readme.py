"""The command lines a user is told to run, read from where they are written: the
README's quick start and the docs' Commands table (docs/commands.md)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).parents[2] / "README.md"
COMMANDS = Path(__file__).parents[2] / "docs" / "commands.md"


def section(title: str) -> str:
    """The text of the README's `## title` section."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def quick_start() -> list[str]:
    """The quick start's command lines: its `sh` blocks' lines and the commands written in
    its sentences (code that runs the installed program)."""
    text = section("Quick start")
    lines = [
        line
        for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
        for line in block.splitlines()
        if line.strip()
    ]
    prose = re.sub(r"```sh\n.*?```", "", text, flags=re.DOTALL)
    lines += [code for code in re.findall(r"`([^`]+)`", prose) if code.startswith(".venv/bin/")]
    return lines


def the_test_command() -> str:
    """The line CI runs as the README's test command (after `<!-- test-command -->`)."""
    text = README.read_text(encoding="utf-8")
    after = text.split("<!-- test-command -->\n", 1)[1]
    return after.split("\n")[1]


def commands_table() -> list[str]:
    """The first column of the Commands table: each command as docs/commands.md writes it."""
    rows = re.findall(r"^\| `(.+?)` \|", COMMANDS.read_text(encoding="utf-8"), re.MULTILINE)
    return [row.replace("\\|", "|") for row in rows]
