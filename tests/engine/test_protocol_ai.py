"""The protocol's AI commands (`time_per_move`, `genmove`, `analyze`), spoken to a real
`python -m abstracts_tui engine` process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from abstracts_tui.engine.core_status import CORE_VARIABLE
from abstracts_tui.rules import load_position
from tests.engine.compiled_support import CORES


@pytest.fixture(autouse=True, params=CORES)
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs on both search cores."""
    monkeypatch.setenv(CORE_VARIABLE, request.param)
    return str(request.param)


ANALYZE_LINE = re.compile(
    r"move (\S+) visits (\d+) winrate (0\.\d{3}|1\.000|-) score (?:[+-]\d+\.\d|-) "
    r"pv (\S+(?: \S+)*?)"
    r"(?: proven (win|loss|draw))?"
)
EGOTZI_WIN = "egotzi size=5,variant=standard bbbbw/ww.w./www.w/.b.bw/bbbbw black swap=no"
"""Black to move; d3 is the only winning move (checked in test_search.py)."""
LINAGE_FULL = "linage size=5,komi=0 xxxxx/xxxxx/xxxxx/xxxxx/xxxxx vertical passes=1"
"""Only pass is legal, and it ends the game in a draw."""


@dataclass
class Answer:
    ok: bool
    text: str


def talk(
    lines: list[str], seed: str | None = "1", playouts: str | None = "60", timeout: float = 60
) -> tuple[list[Answer], str]:
    """Run the engine on `lines`; (its answers, its standard error)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ABSTRACTS_TUI_") or k == CORE_VARIABLE
    }
    if seed is not None:
        env["ABSTRACTS_TUI_SEED"] = seed
    if playouts is not None:
        env["ABSTRACTS_TUI_PLAYOUTS"] = playouts
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "engine"],
        input=("\n".join(lines) + "\n").encode(),
        capture_output=True,
        timeout=timeout,
        env=env,
    )
    assert done.returncode == 0
    output = done.stdout.decode()
    assert output.endswith("\n\n")
    answers = []
    for block in output.split("\n\n")[:-1]:
        assert block[0] in "=?", block
        answers.append(Answer(block[0] == "=", block[1:].lstrip(" ")))
    return answers, done.stderr.decode()


def test_the_ai_commands_are_known() -> None:
    answers, _ = talk(["list_commands", "known_command genmove", "known_command analyze"])
    listed = answers[0].text.split("\n")
    assert {"time_per_move", "genmove", "analyze"} <= set(listed)
    assert [a.text for a in answers[1:]] == ["true", "true"]


@pytest.mark.parametrize(
    "argument", ["", "0", "-1", "abc", "nan", "inf", "-inf", "1e9", "1 2", "0x10"]
)
def test_time_per_move_refuses_what_is_not_a_positive_time(argument: str) -> None:
    (answer,), stderr = talk([f"time_per_move {argument}".strip()])
    assert not answer.ok
    assert answer.text
    assert stderr == ""


def test_time_per_move_takes_a_positive_number() -> None:
    answers, _ = talk(["time_per_move 0.05", "time_per_move 3", "time_per_move 0.01"])
    assert [a.ok for a in answers] == [True, True, True]
    assert [a.text for a in answers] == ["", "", ""]


def test_genmove_plays_a_legal_move_for_the_side_to_move() -> None:
    answers, _ = talk(
        [
            "newgame petrify",
            "legal_moves",
            "genmove",
            "moves",
            "side_to_move",
            "genmove",
            "moves",
        ]
    )
    assert all(a.ok for a in answers)
    legal = answers[1].text.split()
    first = answers[2].text
    assert first in legal
    assert answers[3].text == first
    assert answers[4].text == "orange"
    assert answers[6].text == f"{first} {answers[5].text}"


def test_genmove_is_refused_without_a_game_at_the_end_and_with_arguments() -> None:
    answers, stderr = talk(
        [
            *("genmove", "newgame egotzi", "genmove now", f"setposition {LINAGE_FULL}"),
            *("genmove", "game_over", "genmove", "moves"),
        ]
    )
    assert [a.ok for a in answers] == [False, True, False, True, True, True, False, True]
    assert "no game" in answers[0].text
    assert answers[4].text == "pass"  # the only legal move, which ends the game
    assert answers[5].text == "true"
    assert "over" in answers[6].text
    assert answers[7].text == "pass"
    assert stderr == ""


def test_genmove_finds_the_winning_move() -> None:
    answers, _ = talk([f"setposition {EGOTZI_WIN}", "genmove"], playouts="1500")
    assert answers[1].text == "d3"


def test_genmove_is_reproducible_with_a_seed_and_playouts() -> None:
    lines = ["newgame partitions", "genmove", "genmove", "genmove", "moves"]
    first, _ = talk(lines, seed="7")
    again, _ = talk(lines, seed="7")
    assert first[-1].text == again[-1].text
    assert len(first[-1].text.split()) == 3


def test_a_whole_game_by_genmove() -> None:
    lines = ["newgame egotzi size=5", "time_per_move 0.01"] + ["genmove"] * 30 + ["game_over"]
    answers, stderr = talk(lines, playouts="5")
    assert [a.ok for a in answers[:27]] == [True] * 27  # 25 cells, and perhaps a swap
    assert answers[-1].text == "true"
    assert not answers[-2].ok  # the board is full
    assert stderr == ""


def test_analyze_lists_candidates_and_leaves_the_position() -> None:
    answers, _ = talk(
        [f"setposition {EGOTZI_WIN}", "position", "analyze", "position", "moves"],
        playouts="600",
    )
    assert all(a.ok for a in answers)
    lines = answers[2].text.split("\n")
    game = load_position(EGOTZI_WIN)
    legal = {game.move_name(m) for m in game.legal_moves()}
    visits = []
    for line in lines:
        found = ANALYZE_LINE.fullmatch(line)
        assert found, line
        move, count, winrate, pv, _ = found.groups()
        assert move in legal
        assert winrate == "-" or 0.0 <= float(winrate) <= 1.0
        assert pv.split()[0] == move
        line_game = game.copy()
        for step in pv.split():
            line_game.play(step)
        visits.append(int(count))
    assert sum(visits) == 600  # every legal move is listed here (there are 5)
    assert lines[0].startswith("move d3 ")
    assert answers[3].text == answers[1].text
    assert answers[4].text == ""


def answered_while_open(lines: list[str]) -> list[Answer]:
    """The answers to `lines`, each read before the next line is sent, the input left open
    until the last one came (its end would stop a timed search at once)."""
    env = {k: v for k, v in os.environ.items() if k != "ABSTRACTS_TUI_PLAYOUTS"}
    with subprocess.Popen(
        [sys.executable, "-m", "abstracts_tui", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    ) as engine:
        assert engine.stdin is not None and engine.stdout is not None
        answers = []
        for line in lines:
            engine.stdin.write(line + "\n")
            engine.stdin.flush()
            block = ""
            while (text := engine.stdout.readline()) not in ("\n", ""):
                block += text
            answers.append(Answer(block[0] == "=", block[1:].strip(" \n")))
        engine.stdin.close()
        assert engine.wait(timeout=60) == 0
    return answers


def test_analyze_with_a_time() -> None:
    answers = answered_while_open(["newgame egotzi size=5", "analyze 0.2"])
    assert answers[1].ok
    lines = answers[1].text.split("\n")
    assert 1 <= len(lines) <= 10
    assert all(ANALYZE_LINE.fullmatch(line) for line in lines)


@pytest.mark.parametrize("arguments", ["0", "-2", "soon", "nan", "1 2"])
def test_analyze_refuses_bad_arguments(arguments: str) -> None:
    answers, _ = talk(["newgame pilo", f"analyze {arguments}", "moves"])
    assert not answers[1].ok
    assert answers[2].text == ""


def test_analyze_is_refused_without_a_game_and_at_the_end() -> None:
    answers, _ = talk(["analyze", f"setposition {LINAGE_FULL}", "play pass", "analyze"])
    assert [a.ok for a in answers] == [False, True, True, False]


def test_a_bad_environment_is_reported_and_ignored() -> None:
    answers, stderr = talk(["newgame egotzi size=5", "genmove"], seed="soon", playouts="-3")
    assert [a.ok for a in answers] == [True, True]
    assert "ABSTRACTS_TUI_SEED" in stderr
    assert "ABSTRACTS_TUI_PLAYOUTS" in stderr


def test_the_match_script_runs_a_short_match() -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "match.py"
    done = subprocess.run(
        [
            *(sys.executable, str(script), "--game", "egotzi", "--size", "5", "--games", "2"),
            *("--first", "engine:0.01", "--second", "greedy"),
        ],
        capture_output=True,
        timeout=120,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "egotzi 2/2:" in done.stdout
    # The table's row: game, size, games, wins, draws, losses, ...
    row = re.search(r"^egotzi +5 +2 +(\d+) +(\d+) +(\d+) ", done.stdout, re.MULTILINE)
    assert row, done.stdout
    assert sum(map(int, row.groups())) == 2
    # Each player says which package and which search core it measures.
    from abstracts_tui import __version__
    from abstracts_tui.engine.core_status import describe

    said = f"A=engine:0.01: abstracts-tui {__version__}, {describe()}"
    assert said in done.stdout.splitlines(), done.stdout


def test_search_info_tells_what_the_last_search_did(core: str) -> None:
    answers, _ = talk(
        ["search_info", "newgame egotzi size=5", "genmove", "search_info"], playouts="200"
    )
    assert [a.ok for a in answers] == [False, True, True, True]
    assert "no search has run yet" in answers[0].text
    words = answers[3].text.split()
    info = dict(zip(words[::2], words[1::2], strict=True))
    assert info["core"] == core
    assert info["playouts"] == "200"
    assert info["proven"] in ("none", "win", "loss", "draw")
    assert float(info["rate"]) > 0
