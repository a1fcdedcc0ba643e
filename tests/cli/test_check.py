"""`abstracts-tui check FILE`: the real command in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from abstracts_tui.rules import new_game


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_prints_the_main_line_and_the_board(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(
        "(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]PV[Ann]PH[Bob]\n;V[c3]\n(;H[pass];V[pass])\n(;H[a1]))"
    )
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Linage size=5,komi=0.5"
    assert "Vertical at the start: Ann" in lines
    assert "moves: c3 pass pass" in lines
    assert "variations: 1" in lines
    assert "3 . . x . ." in lines
    assert lines[-1].startswith("result: ")
    assert not any(line.startswith("opens at") for line in lines)  # at the end, as always


def test_check_says_where_a_record_marked_elsewhere_opens(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    head = "(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]\n"
    for body, where in (
        (";V[c3]\n(;H[pass];V[pass])\n(;H[a1]SHOWN[]))", "move 2 (a1) in a variation"),
        (";V[c3]SHOWN[]\n(;H[pass];V[pass])\n(;H[a1]))", "move 1 (c3) of the main line"),
        (";SHOWN[]V[c3]\n(;H[pass];V[pass])\n(;H[a1]))", "move 1 (c3) of the main line"),
    ):
        path.write_text(head + body)
        done = run("check", str(path))
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert "moves: c3 pass pass" in lines  # the main line, wherever the record opens
        assert f"opens at: {where}" in lines
    path.write_text(head.replace("KM[0.5]", "KM[0.5]SHOWN[]") + ";V[c3])")
    assert "opens at: the start" in run("check", str(path)).stdout.splitlines()


def test_check_names_the_line_of_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text("(;FF[4]GM[1000]GA[linage]SZ[5]\n;V[c3]\n;H[c3])")
    done = run("check", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert f"Error: {path}: line 3: the move H[c3]: c3 is occupied" in done.stderr


def test_check_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "none.sgf"
    for command in ("check", "review"):
        done = run(command, str(path))
        # One sentence, as line mode says it; nothing of Python's `[Errno 2] ...`.
        assert done.returncode == 2
        assert done.stderr == f"Error: {path} could not be opened: no such file or folder.\n"


def chain(path: Path, nodes: int, last: str = "") -> None:
    """A record of `nodes` nodes in a row (more than any recursion could follow): an
    Egotzi position with White to move set up, then White's move, over and over; then
    `last` (a line goes deeper than a game is long only through set-up positions)."""
    game = new_game("egotzi", 5)
    game.play("c3")
    body = f"\n;SP[{game.position()}];W[b2]" * (nodes // 2)
    path.write_text(f"(;FF[4]GM[1000]GA[egotzi]SZ[5]{body}{last})\n")


def test_check_reads_a_record_deeper_than_any_recursion(tmp_path: Path) -> None:
    path = tmp_path / "deep.sgf"
    chain(path, 4_000, "\n;B[a1]")
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    assert "moves: b2 a1" in done.stdout.splitlines()
    assert done.stdout.splitlines()[-1] == "White to move"


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (
            lambda path: chain(path, 4_000, "\n;W[a1]"),
            "line 2002: the move W[a1] is marked for White, but it is Black's turn",
        ),
        (
            lambda path: path.write_text(
                "(;GM[1000]GA[pilo]SZ[6]\n;SP[pilo size=6 b\u00b2...../....../....../....../"
                "....../...... orange passes=0,last=blue,swap=no])"
            ),
            "line 2: the setup position SP: row 1 from the top: '\u00b2' is not a cell",
        ),
        (
            lambda path: path.write_text("(;GM[1000]GA[pilo]SZ[\u0666])"),
            "line 1: the board size SZ must be a whole number, not '\u0666'",
        ),
        (
            lambda path: path.write_text("(;GM[1000]GA[pilo]" + "(" * 100_000),
            "line 1, column 20: a game tree must start with a node ';'",
        ),
        (
            lambda path: path.open("wb").truncate(32 * 1024 * 1024),
            "a record file is at most 16 MiB (16,777,216 bytes); this one is 33,554,432 bytes long",
        ),
    ],
    ids=["deep", "superscript", "arabic", "parentheses", "too-big"],
)
def test_check_reports_a_bad_record_in_one_line(
    tmp_path: Path, write: Callable[[Path], object], message: str
) -> None:
    path = tmp_path / "bad.sgf"
    write(path)
    done = run("check", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"Error: {path}: {message}\n"


def test_check_shows_a_records_names_without_what_a_terminal_would_act_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "names.sgf"
    path.write_text(
        "(;FF[4]GM[1000]GA[egotzi]SZ[7]PB[ann\x07\u202eevil]PW[bob\x1b[2J"
        + "x" * 1000
        + "]GN[game\x07\u202e]\n;B[c3])",
        encoding="utf-8",
    )
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    for acted_on in ("\x07", "\u202e", "\x1b"):
        assert acted_on not in done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "Black at the start: ann\\x07\\u202eevil" in lines  # shown for what it is
    white = next(line for line in lines if line.startswith("White at the start: "))
    assert white.startswith("White at the start: bob\\x1b[2Jxxx") and white.endswith("…")
    assert len(white) < 100


@pytest.mark.parametrize(
    ("result", "shown"),
    [
        ("B+R", "result: Blue wins (Orange resigned)"),
        ("W+Resign", "result: Orange wins (Blue resigned)"),
        ("W+T", "result: Orange wins (Blue lost on time)"),
        ("B+Time", "result: Blue wins (Orange lost on time)"),
        ("Void", "result: void (the game was called off)"),
        ("?", "result: unknown (the record says the game ended, not how)"),
        ("orange+R", "result: Orange wins (Blue resigned)"),  # an earlier version's form
    ],
)
def test_check_shows_how_a_game_decided_off_the_board_ended(
    tmp_path: Path, result: str, shown: str
) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(
        f"(;FF[4]GM[1000]GA[petrify]SZ[6]PB[ann]PW[bob]TM[60]RE[{result}]\n;B[c3]\n;W[d4])"
    )
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == shown
    assert "Blue at the start: ann" in done.stdout.splitlines()
