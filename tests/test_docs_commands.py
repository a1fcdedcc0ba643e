"""Every `abstracts-tui` command line that the README and the docs show in a shell block
is one the command takes: its command, its options and their values, as click reads them
(without running it). The quick start and the Commands table are run whole against a
plain install by tests/installed/test_readme.py; these are the examples around them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from abstracts_tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHOWN = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ +)*(?:\.venv/bin/)?abstracts-tui(?: |$)")
"""A line that runs the program, after any environment assignments (`NO_COLOR=1`)."""


def shown_lines() -> list[tuple[str, str]]:
    """(where, line) for every line of a shell block that runs `abstracts-tui`, its
    comment and the lines it continues on joined."""
    found = []
    for path in SHOWN:
        for block in SHELL_BLOCK.findall(path.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                for part in re.split(r" && | \| ", line):
                    part = part.strip()
                    if COMMAND.match(part):
                        found.append((path.relative_to(ROOT).as_posix(), part))
    return found


def refusal(line: str) -> str | None:
    """Why the command refuses the line's arguments (click's message), or None. A path that
    an option wants to exist (`--password-file ~/players.pw`) is taken as given."""
    words = shlex.split(line.split(" #", 1)[0])
    args = words[next(i for i, word in enumerate(words) if word.endswith("abstracts-tui")) + 1 :]
    try:
        with main.make_context("abstracts-tui", list(args)) as context:
            # Where click keeps the command's name and its arguments: `_protected_args`
            # from 8.2 on, `protected_args` before it.
            protected = getattr(context, "_protected_args", None)
            if protected is None:
                protected = context.protected_args
            rest = [*protected, *context.args]
            if rest:
                name, command, arguments = main.resolve_command(context, rest)
                assert command is not None and name is not None
                command.make_context(name, arguments, parent=context).close()
    except click.BadParameter as error:
        if "does not exist" in error.format_message():
            return None
        return error.format_message()
    except click.UsageError as error:
        return error.format_message()
    except click.exceptions.Exit:  # --help and --version: shown, and nothing else read
        return None
    return None


def test_the_readme_and_the_docs_show_commands() -> None:
    places = {where for where, _ in shown_lines()}
    assert {"README.md", "docs/pypi.md", "docs/playing.md", "docs/server.md"} <= places
    assert {"docs/browser.md", "docs/postgresql.md"} <= places


@pytest.mark.parametrize(("where", "line"), shown_lines())
def test_each_command_shown_is_one_the_program_takes(where: str, line: str) -> None:
    assert refusal(line) is None, f"{where}: {line}: {refusal(line)}"


def test_a_command_the_program_does_not_take_is_found() -> None:
    assert refusal("abstracts-tui play pilo --colour blue") is not None
    assert refusal("abstracts-tui play chess") is not None
    assert refusal("abstracts-tui serv --port 2222") is not None
    assert refusal("abstracts-tui play pilo --size 6 --lines   # a comment") is None
