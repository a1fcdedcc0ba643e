"""`abstracts-tui puzzles`: the real command in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

from abstracts_tui.puzzles.shipped import load


def run(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "puzzles", *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_export_prints_one_json_object_a_line() -> None:
    done = run("export", "--game", "egotzi", "--size", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(load("egotzi", 5)) > 0
    for line in lines:
        puzzle = json.loads(line)
        assert puzzle["game"] == "egotzi" and puzzle["size"] == 5
        assert puzzle["options"] == {"variant": "standard", "komi": 0.0}
        assert puzzle["value"] == "win"
        assert puzzle["moves"] and puzzle["solution"]
        assert puzzle["depth"] == len(puzzle["solution"])


def test_puzzles_alone_counts_them_by_game_size_and_grade() -> None:
    done = run()
    assert done.returncode == 0, done.stderr
    count = len(load("linage", 5))
    assert any(line.startswith(f"Linage 5: {count} puzzles (") for line in done.stdout.splitlines())
    assert done.stdout.splitlines()[-1].endswith("puzzles in all.")
    assert run("list").stdout == done.stdout


def test_a_bad_game_or_size_is_one_sentence_and_status_2() -> None:
    for args, words in (
        (("--game", "chess"), "There is no game 'chess'"),
        (("--game", "pilo", "--size", "99"), "Pilo is played on sizes 6 to 10, not 99."),
        (("--game", "pilo", "--size", "10"), "Pilo has puzzles of size"),
    ):
        done = run("export", *args)
        assert done.returncode == 2
        assert done.stdout == ""
        assert words in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_play_in_line_mode_takes_the_solution() -> None:
    puzzle = load("egotzi", 5)[0]
    typed = "\n".join([*puzzle.solution[::2], "quit"]) + "\n"
    done = run("play", "--game", "egotzi", "--size", "5", "--lines", typed=typed)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Puzzle 1 of ")
    assert any(line.endswith("Solved.") for line in lines)


def test_play_without_a_terminal_goes_to_line_mode_and_says_so() -> None:
    done = run("play", "--game", "linage", typed="quit\n")
    assert done.returncode == 0, done.stderr
    assert "line mode" in done.stderr
    assert done.stdout.startswith("Puzzle 1 of ")
    assert done.stdout.splitlines()[-1].startswith("Left: 0 of ")
