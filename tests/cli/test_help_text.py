"""`abstracts-tui --help` and `play --help` read whole at 80 columns; `--level` alone."""

from __future__ import annotations

import os
import subprocess
import sys

from abstracts_tui.cli import main
from abstracts_tui.rules.catalogue import CATALOGUE


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "80"},
    )


def test_each_command_is_listed_with_its_whole_first_sentence() -> None:
    done = run("--help")
    assert done.returncode == 0
    listed = done.stdout.partition("Commands:")[2]
    assert "..." not in listed
    joined = " ".join(listed.split())
    for name, command in main.commands.items():
        first = " ".join((command.help or "").split("\n\n")[0].split())
        sentence = first[: first.index(". ") + 1] if ". " in first else first
        assert f"{name} {sentence}" in joined.replace("- ", "-"), (name, sentence)
    assert all(len(line) <= 80 for line in done.stdout.splitlines())


def test_play_help_gives_each_games_sizes_and_defaults() -> None:
    done = run("play", "--help")
    assert done.returncode == 0
    games = " ".join(done.stdout.partition("Games:")[2].split())
    for info in CATALOGUE.values():
        sizes = f"--size {min(info.sizes)} to {max(info.sizes)}"
        size = f"{info.name} {sizes} [default: {info.default_size}]"
        assert size in games, size
    assert "--variant standard or squared [default: standard]" in games
    assert "--komi in steps of 0.5 [default: asked at the start]" in games


def test_a_level_without_a_computer_is_refused_in_one_sentence() -> None:
    done = run("play", "pilo", "--level", "strongest")
    assert done.returncode == 2
    error = done.stderr.strip().splitlines()[-1]
    assert (
        error == "Error: --level is the computer's strength: add --computer first, second or both."
    )
