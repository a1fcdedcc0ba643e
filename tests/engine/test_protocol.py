"""The engine protocol, spoken to a real `abstracts-tui engine` process."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from abstracts_tui.engine.core_status import describe
from abstracts_tui.rules import new_game


def command() -> list[str]:
    """The installed console script next to this Python, else the module."""
    script = Path(sys.executable).parent / "abstracts-tui"
    if script.exists():
        return [str(script), "engine"]
    found = shutil.which("abstracts-tui")
    return [found, "engine"] if found else [sys.executable, "-m", "abstracts_tui", "engine"]


@dataclass
class Answer:
    ok: bool
    ident: str
    text: str


def parse_answers(output: str) -> list[Answer]:
    assert output.endswith("\n\n") or output == "", repr(output[-40:])
    answers = []
    for block in output.split("\n\n")[:-1]:
        head, _, rest = block.partition("\n")
        assert head[0] in "=?", block
        ident, _, first = head[1:].partition(" ")
        text = first + ("\n" + rest if rest else "")
        answers.append(Answer(head[0] == "=", ident, text))
    return answers


def talk(lines: list[str] | bytes, timeout: float = 60) -> tuple[list[Answer], int]:
    data = lines if isinstance(lines, bytes) else ("\n".join(lines) + "\n").encode()
    done = subprocess.run(command(), input=data, capture_output=True, timeout=timeout)
    assert done.stderr == b"", done.stderr.decode(errors="replace")
    return parse_answers(done.stdout.decode()), done.returncode


def test_basic_commands() -> None:
    answers, code = talk(
        ["protocol_version", "1 name", "2 version", "known_command play", "known_command fly"]
    )
    assert code == 0
    assert [(a.ok, a.ident, a.text) for a in answers] == [
        (True, "", "2"),
        (True, "1", "abstracts-tui"),
        (True, "2", f"0.1.0, {describe()}"),
        (True, "", "true"),
        (True, "", "false"),
    ]


def test_every_command_of_the_table_is_listed() -> None:
    (answer,), _ = talk(["list_commands"])
    listed = answer.text.split("\n")
    required = [
        *("protocol_version", "name", "version", "list_commands", "known_command", "quit"),
        *("list_games", "newgame", "legal_moves", "play", "undo", "side_to_move"),
        *("game_over", "scores", "winner", "showboard", "position", "setposition", "moves"),
        *("gogui-rules_game_id", "gogui-rules_legal_moves", "gogui-rules_side_to_move"),
        *("gogui-rules_final_result", "gogui-rules_board_size"),
        *("time_per_move", "genmove", "analyze", "search_info"),
    ]
    assert sorted(listed) == sorted(required)


def test_list_games() -> None:
    (answer,), _ = talk(["list_games"])
    assert answer.text.split("\n") == [
        "petrify 6-10 8 -",
        "pilo 6-10 8 -",
        "egotzi 5-9 7 variant=standard|squared komi",
        "linage 5-19 11 komi",
        "partitions 5-10 6 -",
    ]


def test_a_short_petrify_game_with_swap() -> None:
    answers, _ = talk(
        [
            "newgame petrify size=6",
            "side_to_move",
            "play C3",
            "side_to_move",
            "legal_moves",
            "play swap",
            "side_to_move",
            "play swap",
            "moves",
            "undo",
            "moves",
            "position",
            "game_over",
            "winner",
            "gogui-rules_board_size",
            "gogui-rules_game_id",
        ]
    )
    text = [a.text for a in answers]
    assert text[1] == "blue"
    assert text[3] == "orange"
    assert "swap" in text[4].split() and "pass" not in text[4].split()
    assert text[6] == "orange"  # the colour to move stays orange after a swap
    assert not answers[7].ok and "swap" in text[7]
    assert text[8] == "c3 swap"
    assert text[10] == "c3"
    assert text[11].startswith("petrify size=6 ")
    assert text[11].split()[3] == "orange"
    assert text[12] == "false"
    assert text[13] == "none"
    assert text[14] == "6"
    assert text[15] == "Petrify"


def test_refused_commands_change_nothing() -> None:
    answers, code = talk(
        [
            "legal_moves",
            "newgame chess",
            "newgame linage size=25",
            "newgame linage colour=red",
            "newgame linage komi=x",
            "newgame linage size=5 komi=2.5",
            "position",
            "play c3",
            "play c3",
            "play zz",
            "play",
            "undo",
            "undo",
            "setposition linage size=5 garbage",
            "moves",
            "scores",
        ]
    )
    assert code == 0
    ok = [a.ok for a in answers]
    assert ok == [
        False,
        False,
        False,
        False,
        False,
        True,
        True,
        True,
        False,
        False,
        False,
        True,
        False,
        False,
        True,
        True,
    ]
    assert "newgame" in answers[0].text
    assert "unknown game 'chess'" in answers[1].text
    assert "sizes 5 to 19, not 25" in answers[2].text
    assert "not 'colour'" in answers[3].text
    assert "c3" in answers[8].text
    assert "no move to take back" in answers[12].text
    assert "5 fields" in answers[13].text
    assert answers[14].text == ""
    assert answers[15].text == "vertical 0 horizontal 2.5"


def test_garbage_never_stops_the_engine() -> None:
    garbage = (
        b"\xff\xfe\x00\x01 binary\n"
        + b"x" * 100_000
        + b"\n"
        + b"\t\t  \n"
        + b"# a comment\n"
        + b"12\n"
        + b"newgame\x07 partitions\n"
        + b"play \x1b[31m\n"
        + b"99999999999999999999 name\n"
        + "play \u00e9\u00e9\n".encode()
        + b"known_command\n"
        + b"newgame partitions size=5\r\n"
        + b"side_to_move\n"
    )
    answers, code = talk(garbage)
    assert code == 0
    assert [a.ok for a in answers] == [
        False,  # binary bytes: an unknown command
        False,  # a 100,000-character line
        False,  # an id with no command
        True,  # newgame with a bell character in it
        False,  # an escape sequence is no move
        False,  # an id of more than 9 digits
        False,  # a move in other letters
        False,  # known_command without its argument
        True,  # a line ending in CR LF
        True,
    ]
    assert "unknown command" in answers[0].text
    assert answers[2].ident == "12"
    assert answers[5].ident == ""
    assert answers[5].text == "the command id must be at most 9 digits, not 20"
    assert "usage: known_command" in answers[7].text
    assert answers[9].text == "white"


def test_quit_answers_then_exits() -> None:
    answers, code = talk(["7 quit", "name"])
    assert code == 0
    assert [(a.ok, a.ident, a.text) for a in answers] == [(True, "7", "")]


def test_showboard_starts_on_its_own_line() -> None:
    done = subprocess.run(
        command(),
        input=b"newgame pilo size=6\nplay a1\nshowboard\n",
        capture_output=True,
        timeout=60,
    )
    board = done.stdout.decode().split("\n\n")[2]
    lines = board.split("\n")
    assert lines[0] == "="
    assert lines[1].startswith("6")
    assert lines[6].startswith("1") and "b1" in lines[6]
    assert lines[7].split() == list("abcdef")


@pytest.mark.parametrize("name", ["petrify", "pilo", "egotzi", "linage", "partitions"])
def test_a_whole_random_game_agrees_with_the_library(name: str) -> None:
    rng = random.Random(name)
    game = new_game(name, size=new_game(name).info.sizes.start)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    moves = [game.move_name(m) for m in game.moves]
    answers, _ = talk(
        [f"newgame {name} size={game.size}"]
        + [f"play {m}" for m in moves]
        + ["game_over", "scores", "winner", "moves", "legal_moves", "gogui-rules_final_result"]
    )
    assert all(a.ok for a in answers)
    tail = [a.text for a in answers[-6:]]
    points = game.score().points
    colours = game.info.colours
    assert tail[0] == "true"
    assert tail[1] == f"{colours[0]} {points[0]:g} {colours[1]} {points[1]:g}"
    assert tail[2] == game.winner_name()
    assert tail[3] == " ".join(moves)
    assert tail[4] == ""
    assert tail[5].startswith(game.winner_name() + ": ")
