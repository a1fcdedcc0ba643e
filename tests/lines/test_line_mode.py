"""Line mode (`--lines`) for screen readers and Braille displays, in a real pseudo-terminal:
each event a line said once, the commands' answers, whole games of all five games, and
not one escape sequence in everything written."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from abstracts_tui.records import Record
from abstracts_tui.rules import PASS, SWAP, Game, format_number, new_game
from abstracts_tui.saved_games import SavedGames
from tests.lines.terminal import LineTerminal

GAMES = [
    ("petrify", 6, ()),
    ("pilo", 6, ()),
    ("egotzi", 5, ()),
    ("linage", 5, ("--komi", "0.5")),
    ("partitions", 5, ()),
]


def random_game(name: str, size: int, komi: float | None, seed: int) -> Game:
    game = new_game(name, size=size, komi=komi) if komi is not None else new_game(name, size=size)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize(("name", "size", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_is_played_by_lines_and_every_move_said(
    tmp_path: Path, name: str, size: int, options: tuple[str, ...]
) -> None:
    komi = float(options[1]) if options else None
    played = random_game(name, size, komi, seed=len(name))
    term = LineTerminal("play", name, "--size", str(size), *options, "--lines", home=tmp_path)
    people = ["Player 1", "Player 2"]
    if komi is not None:  # the second person chooses a colour: the first
        term.wait_for("Player 2, which colour do you take?")
        term.send("first")
        term.wait_for("Player 2 takes Vertical.")
        people.reverse()
    replay = new_game(name, size=size, komi=komi) if komi is not None else new_game(name, size=size)
    for move in played.moves:
        mover = replay.turn
        person = people[mover ^ (SWAP in replay.moves)]
        who = f"{replay.colour_name(mover).capitalize()} ({person})"
        term.wait_for(f"{replay.colour_name(mover).capitalize()} to move ({person}).")
        move_name = replay.move_name(move)
        term.send(move_name)
        said = term.wait_for(who + " ")
        if move == PASS:
            assert said == f"{who} passes."
        elif move == SWAP:
            assert said.startswith(f"{who} swaps: {person} now plays")
        else:
            cells = move_name.split("-")
            assert cells[-1] in said and said.endswith(".")
        replay.play(move)
    term.wait_for("The game is over.")
    points = played.score().points
    colours = [c.capitalize() for c in played.info.colours]
    said = f"{colours[0]} {format_number(points[0])}, {colours[1]} {format_number(points[1])}"
    assert term.wait_for("Final score: ").startswith(f"Final score: {said}")
    outcome = played.outcome()
    assert outcome is not None
    if not outcome.reason.startswith(said):  # a reason that says more than the score
        term.wait_for(outcome.reason[:1].upper() + outcome.reason[1:] + ".")
    # Each part of the score (patch, region or group) follows, one a line.
    for line in played.score().lines:
        if not line.strip().endswith(said):
            term.wait_for(line.strip()[:1].upper() + line.strip()[1:])
    term.wait_for("Now: undo (u) takes back the last move, new (n) starts another game")
    end = term.text().split("The game is over.")[1].split("Now: undo (u)")[0]
    assert end.count(said) == 1, end  # the final score said once
    term.send("quit")
    term.wait_for("Goodbye.")
    assert term.close() == 0
    assert "\x1b" not in term.raw.decode("utf-8", "replace")
    # The finished game is in the record as played; nothing is offered to resume.
    [path] = SavedGames(tmp_path / "data" / "abstracts-tui").files()
    record = Record.load(path)
    assert [node.move for node in record.root.mainline()] == list(
        map(played.move_name, played.moves)
    )
    assert SavedGames(tmp_path / "data" / "abstracts-tui").read()[0] == []


def test_the_board_a_row_a_column_a_cell_and_the_legal_moves_in_words(tmp_path: Path) -> None:
    term = LineTerminal("play", "pilo", "--size", "6", "--lines", home=tmp_path)
    term.wait_for("Blue to move (Player 1).")
    term.send("c3")
    assert term.wait_for("Blue (Player 1) plays") == "Blue (Player 1) plays c3."
    assert term.wait_for("Orange to move") == "Orange to move (Player 2)."
    assert term.wait_for("Player 2, you may swap").endswith("type swap, or play a move.")
    term.send("d3")
    term.wait_for("Orange (Player 2) plays d3.")
    term.send("board")
    assert term.wait_for("row 6") == "row 6: all empty"
    assert term.wait_for("row 3") == "row 3: 2 empty, Blue c3, Orange d3, 2 empty"
    term.send("row 3")
    assert term.wait_for("Row 3") == "Row 3: 2 empty, Blue c3, Orange d3, 2 empty."
    term.send("column d")
    assert term.wait_for("Column d") == "Column d, from the top: 3 empty, Orange d3, 2 empty."
    term.send("cell c3")
    assert term.wait_for("c3:") == "c3: Blue. Around it: empty c2, empty b3, Orange d3, empty c4."
    term.send("d3?")
    assert term.wait_for("d3:").startswith("d3: Orange. Around it:")
    term.send("row 9")
    assert term.wait_for("No row") == "No row 9: the rows are 1 to 6."
    term.send("cell")
    assert term.wait_for("No cell") == "No cell given: type cell and its name, such as cell a1."
    term.send("legal")
    legal = term.wait_for("35 legal moves: ").removesuffix(".").split(": ")[1].split(", ")
    assert "c3" not in legal and "d3" not in legal and "c3-d3" in legal  # Blue may capture
    term.send("moves")
    assert term.wait_for("Moves") == "Moves 1 to 2: 1 Blue c3, 2 Orange d3."
    term.send("e9")
    assert term.wait_for("Not understood").startswith("Not understood: e9 is off the board")
    term.send("c3")
    assert term.wait_for("Not played:").startswith("Not played:")
    # A question about the position says no turn again; a move does.
    term.send("score")
    assert term.wait_for("Score now") == "Score now: Blue 0, Orange 0."
    term.send("undo")
    # Whose turn it is now, in the same line (said once).
    assert term.wait_for("Took back") == "Took back 1 move. Orange to move (Player 2)."
    term.send("quit")
    assert term.wait_for("The game is kept")
    assert term.close() == 0
    text = term.text()
    assert "\x1b" not in text
    turns = [line for line in text.split("\n") if " to move (" in line]
    # After each move and after the undo; never again for a question about the position.
    assert turns == [
        "Blue to move (Player 1).",
        "Orange to move (Player 2).",
        "Blue to move (Player 1).",
        "Took back 1 move. Orange to move (Player 2).",
    ]
    # The game in progress is offered the next time, as it was left.
    again = LineTerminal("--lines", home=tmp_path)
    again.wait_for("Games in progress:")
    assert again.wait_for("1. ").startswith("1. Pilo 6x6, Player 1 - Player 2, 1 move")
    again.send("1")
    again.wait_for("Orange to move (Player 2).")
    again.send("q")
    again.wait_for("The game is kept")
    assert again.close() == 0


def test_the_computer_moves_and_a_hint_and_an_analysis_are_sentences(tmp_path: Path) -> None:
    term = LineTerminal(
        "play",
        "egotzi",
        "--size",
        "5",
        "--computer",
        "first",
        "--lines",
        home=tmp_path,
        env={"ABSTRACTS_TUI_PLAYOUTS": "300", "ABSTRACTS_TUI_SEED": "4"},
    )
    choosing = term.wait_for("Computer (")  # its level, then what it chooses
    assert choosing.endswith(") is choosing its move."), choosing
    said = term.wait_for("Black (Computer) plays")
    assert said.endswith(".")
    term.wait_for("White to move (Player 2).")
    term.send("hint")
    hint = term.wait_for("Hint: ")
    # The app's words: the side to move's chance, named, and what the hint was best of.
    assert re.fullmatch(
        r"Hint: \w+ - White's chance \d+%, (ahead|behind) by \d+(\.\d)? "
        r"\(best of \d+ moves tried\); "
        r"the line [\w -]+\.",
        hint,
    ), hint
    assert "playouts" not in hint and "Black" not in hint
    term.send("analyze")
    term.wait_for("Analyzing")
    first = term.wait_for("1. ")
    assert "White's chance " in first and first.endswith(".")
    term.send("resign")
    assert term.wait_for("White (Player 2) resigns") == (
        "White (Player 2) resigns: Black (Computer) wins."
    )
    term.send("quit")
    term.wait_for("Goodbye.")
    assert term.close() == 0
    assert "\x1b" not in term.text()


def test_a_clock_is_read_out_and_warns_before_time_runs_out(tmp_path: Path) -> None:
    term = LineTerminal(
        "play", "petrify", "--size", "6", "--clock", "12s", "--lines", home=tmp_path
    )
    term.wait_for("Blue to move (Player 1).")
    term.send("clock")
    clock = term.wait_for("Time left: ")
    assert clock.startswith("Time left: Blue (Player 1) 0 minutes 1")
    assert term.wait_for("Blue (Player 1): 10 seconds left.", timeout=20)
    assert term.wait_for("Time is up.", timeout=30) == (
        "Time is up. Blue (Player 1) lost on time: Orange (Player 2) wins."
    )
    term.send("quit")
    term.wait_for("Goodbye.")
    assert term.close() == 0


def test_without_a_terminal_it_reads_lines_from_a_pipe(tmp_path: Path) -> None:
    """A script (or a screen reader's own line editor) can pipe commands in."""
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "play", "partitions", "--size", "5", "--lines"],
        input="a1\nhelp\n",
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "ABSTRACTS_TUI_CONFIG": str(tmp_path / "settings.toml"),
        },
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "White (Player 1) plays a1." in lines
    assert (
        "help (?): this list. quit (q): leave; a game with a move is kept and offered next time."
        in lines
    )
    assert lines[-1] == "End of input: the game is kept."


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_lines_are_spoken_by_espeak_ng(tmp_path: Path) -> None:
    """Evidence that the lines suit a speech engine: espeak-ng speaks a few to a WAV file."""
    term = LineTerminal("play", "pilo", "--size", "6", "--lines", home=tmp_path)
    term.wait_for("Blue to move (Player 1).")
    term.send("c3")
    said = term.wait_for("Blue (Player 1) plays")
    term.send("row 3")
    row = term.wait_for("Row 3")
    term.send("quit")
    term.close()
    wav = tmp_path / "spoken.wav"
    spoken = subprocess.run(
        ["espeak-ng", "-w", str(wav), f"{said} {row}"], capture_output=True, timeout=60
    )
    assert spoken.returncode == 0, spoken.stderr
    assert wav.stat().st_size > 20_000  # seconds of speech, not an empty file


def test_the_setting_lines_starts_line_mode_and_no_lines_the_screen(tmp_path: Path) -> None:
    (tmp_path / "settings.toml").write_text("lines = true\n")
    term = LineTerminal(home=tmp_path)  # `abstracts-tui`, nothing more
    term.wait_for("abstracts-tui in line mode.")
    term.wait_for("Which game?")
    term.send("quit")
    term.wait_for("Goodbye.")
    assert term.close() == 0
    assert "\x1b" not in term.text()
    # --no-lines: the full-screen app, whatever the settings say.
    screen = LineTerminal("--no-lines", home=tmp_path)
    deadline = time.monotonic() + 60
    while "\x1b[?1049h" not in screen.text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "\x1b[?1049h" in screen.text()  # the alternate screen of the app
    os.write(screen.master, b"\x11")  # ctrl+q
    assert screen.close() == 0


def piped(home: Path, *args: str, typed: str) -> list[str]:
    """`abstracts-tui ARGS` with `typed` piped in (a script, or a screen reader's own
    line editor), the lines it wrote."""
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", *args],
        input=typed,
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "XDG_DATA_HOME": str(home / "data"),
            "ABSTRACTS_TUI_CONFIG": str(home / "settings.toml"),
        },
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_rules_is_a_command_also_at_the_komi_and_side_questions(tmp_path: Path) -> None:
    lines = piped(
        tmp_path, "play", "linage", "--size", "5", "--lines", typed="rules\n0.5\nrules\nfirst\nr\n"
    )
    aim = "Aim: own more points than your opponent when the game ends."
    assert lines.count(aim) == 2, lines  # at the komi question and at the side question
    assert not [line for line in lines if line.startswith("Not set")], lines
    assert "Player 1 sets komi to 0.5." in lines
    assert "Player 2 takes Vertical." in lines
    # Each paragraph of the rules is one line, as the rules screen has them.
    turn = next(line for line in lines if line.startswith("Turn: "))
    assert turn.startswith("Turn: Vertical moves first. On your turn either place a stone")
    assert turn.endswith(".")
    assert "rules: the rules of this game, in short." in piped(
        tmp_path, "play", "pilo", "--lines", typed="help\n"
    )


def test_the_end_says_the_score_once_what_can_be_done_and_undo_whose_turn(
    tmp_path: Path,
) -> None:
    played = random_game("partitions", 5, None, seed=3)
    moves = [played.move_name(move) for move in played.moves]
    lines = piped(
        tmp_path,
        *("play", "partitions", "--size", "5", "--first", "Ann", "--second", "Bob", "--lines"),
        typed="\n".join([*moves, "undo", "quit", ""]),
    )
    end = lines.index("The game is over. White (Ann) wins.")
    assert lines[end + 1] == "Final score: White 12, Black 0."
    after = lines.index(
        "Now: undo (u) takes back the last move, new (n) starts another game, "
        "save FILE keeps the record, quit (q) leaves."
    )
    assert [line for line in lines[end:after] if "White 12, Black 0" in line] == [
        "Final score: White 12, Black 0."
    ]
    last = played.colour_name(1 - played.turn).capitalize()  # who played the last move
    person = "Ann" if last == "White" else "Bob"
    assert lines[after + 1] == f"Took back 1 move. {last} to move ({person})."
    assert lines[after + 2] == "The game is kept: it is offered again next time."


def test_the_menu_understands_help_and_new(tmp_path: Path) -> None:
    piped(tmp_path, "play", "pilo", "--size", "6", "--lines", typed="c3\n")
    lines = piped(tmp_path, "--lines", typed="?\nnew\nquit\n")
    assert lines[1] == "Games in progress:"
    assert lines[4] == (
        "Type the number of your choice (1 to 2) or the start of its words, then Enter; "
        "quit leaves."
    )
    assert lines[5:8] == lines[1:4]  # the list again
    assert lines[8] == "Which game?"
    assert not [line for line in lines if line.startswith("Type a number")], lines


def test_new_starts_another_game_and_one_without_a_move_is_not_kept(tmp_path: Path) -> None:
    lines = piped(
        tmp_path, "play", "petrify", "--size", "6", "--lines", typed="new\npilo\n1\nc3\nquit\n"
    )
    new = lines.index("The game had no move, so it is not kept.")
    assert lines[new + 1] == "Which game?"
    assert "Pilo, 8 by 8: Player 1 against Player 2." in lines[new:]
    assert "Blue (Player 1) plays c3." in lines[new:]
    assert lines[-1] == "The game is kept: it is offered again next time."
    games, _ = SavedGames(tmp_path / "data" / "abstracts-tui").read()
    assert [game.describe() for game in games] == [
        "Pilo 8x8, Player 1 - Player 2, 1 move, Orange to move (Player 2)"
    ]
