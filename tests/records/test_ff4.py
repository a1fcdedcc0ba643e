"""Records as FF[4] says: a Go program (sgfmill) reads whose each move is, the people and
the winner; FF[4]'s own forms read back; records of earlier versions read without loss."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf as sgfmill

from abstracts_tui.clock import TimeControl
from abstracts_tui.records import Record, RecordError
from abstracts_tui.records.timing import TimeLeft
from abstracts_tui.rules import GAMES, Game, new_game
from abstracts_tui.session import Session

SIZES = {"petrify": 6, "pilo": 6, "egotzi": 5, "linage": 5, "partitions": 5}


@dataclass
class Played:
    """A finished game: its record, and what a Go program must read in it."""

    record: Record
    moves: list[tuple[str, str]]
    """Each move as (`b` or `w`: the person who made it, its text)."""
    winner: str | None
    """`b`, `w` (the person who won), or None (a draw, a game called off)."""


def play(
    name: str, moves: list[str], rng: random.Random | None = None
) -> tuple[Game, list[tuple[str, str]], list[int]]:
    """`moves` played (then random ones to the end, with `rng`), and who made each: the
    person (0 began with the first colour), followed through a swap."""
    game = new_game(name, SIZES[name])
    holder = [0, 1]  # the person holding each colour
    made = []
    for move in moves:
        made.append(("bw"[holder[game.turn]], move))
        game.play(move)
        if move == "swap":
            holder.reverse()
    while rng is not None and not game.is_over():
        move = rng.choice(game.legal_moves())
        made.append(("bw"[holder[game.turn]], game.move_name(move)))
        game.play(move)
    return game, [(who, "" if text == "pass" else text) for who, text in made], holder


def finished(name: str) -> Played:
    """A game of `name` played to an end of its own: on the board, resigned, on time or
    called off, through a session as the app plays it."""
    rng = random.Random(5)
    if name == "petrify":  # bob begins as Blue; ann swaps, so she holds Blue; bob resigns
        game, made, holder = play(name, ["c3", "swap", "d4", "e5"])
        session = Session(Record.from_game(game, players=("bob", "ann")))
        session.resign(colour=1)  # bob holds Orange now
        return Played(session.record, made, "w")
    if name == "pilo":  # on time: Orange's person runs out
        game, made, holder = play(name, ["c3", "d4", "e5"])
        record = Record.from_game(game, players=("ann", "bob"))
        record.clock = TimeControl.with_overtime(60, "2x10s")
        for step, node in enumerate(record.root.mainline()):
            node.time_left = TimeLeft(step % 2, 50.0 - step, 2 - step % 2)
        session = Session(record)
        session.use_time(lambda: 0.0)
        session.resume_clock()  # Orange's, bob's, runs out
        assert session.check_flag(now=10_000.0)
        return Played(session.record, made, "b")
    if name == "partitions":  # called off before it began
        game, made, holder = play(name, [])
        session = Session(Record.from_game(game, players=("ann", "bob")))
        session.abort()
        return Played(session.record, made, None)
    opening = ["c3", "swap"] if name == "egotzi" else []
    game, made, holder = play(name, opening, rng)  # on the board
    record = Record.from_game(game, players=("ann", "bob"))
    outcome = game.outcome()
    assert outcome is not None
    winner = None if outcome.winner is None else "bw"[holder[outcome.winner]]
    return Played(record, made, winner)


@pytest.mark.parametrize("name", GAMES)
def test_a_go_program_reads_whose_each_move_is_the_people_and_the_winner(name: str) -> None:
    played = finished(name)
    text = played.record.to_sgf()
    read = sgfmill.Sgf_game.from_bytes(text.encode("utf-8"))
    nodes = read.get_main_sequence()[1:]
    moves = [node.get_raw_move() for node in nodes]
    assert [(who, raw.decode()) for who, raw in moves] == played.moves
    assert read.get_player_name("b") == played.record.players[0]
    assert read.get_player_name("w") == played.record.players[1]
    assert read.get_winner() == played.winner
    assert read.get_root().get("GM") == 1000
    colours = read.get_root().get_raw("COLOURS").decode()
    assert colours == ":".join(played.record.new_game().info.colours)
    # No property of FF[4]'s with another meaning: periods left are private.
    assert not any(node.has_property("OB") or node.has_property("OW") for node in nodes)
    again = Record.from_sgf(text)
    assert (again.result, again.players) == (played.record.result, played.record.players)
    assert again.to_sgf() == text


def test_the_export_of_a_game_after_a_swap_names_its_winner() -> None:
    played = finished("petrify")
    text = played.record.to_sgf()
    assert "PB[bob]PW[ann]" in text and "RE[W+R]" in text
    assert ";B[c3]\n ;W[swap]\n ;B[d4]\n ;W[e5]" in text


LATIN = "(;FF[4]CA[ISO-8859-1]GM[1000]GA[egotzi]SZ[5]PB[Jos\xe9]PW[Ren\xe9e];B[c3])"


@pytest.mark.parametrize(
    "data",
    [
        LATIN.encode("latin-1"),
        LATIN.replace("CA[ISO-8859-1]", "").encode("latin-1"),  # FF[4]'s default charset
        LATIN.replace("ISO-8859-1", "UTF-8").encode("utf-8"),
        b"\xef\xbb\xbf" + LATIN.replace("ISO-8859-1", "UTF-8").encode("utf-8"),  # a BOM
        LATIN.replace("CA[ISO-8859-1]", "").encode("utf-8"),
    ],
)
def test_a_records_charset_is_read_as_its_ca_says(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(data)
    assert Record.load(path).players == ("Jos\xe9", "Ren\xe9e")


def test_a_charset_not_known_is_refused_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(LATIN.replace("ISO-8859-1", "klingon").encode())
    with pytest.raises(RecordError, match=r"^line 1: the charset CA\[klingon\] is not one"):
        Record.load(path)


def test_a_bom_and_empty_moves_are_ffs_and_read() -> None:
    text = "\ufeff(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]PB[ann]PW[bob];B[c3];W[];B[])"
    record = Record.from_sgf(text)
    game = record.main_game()
    assert [game.move_name(move) for move in game.moves] == ["c3", "pass", "pass"]
    assert record.players == ("ann", "bob")


PETRIFY = "(;FF[4]GM[1000]GA[petrify]SZ[6]TM[60]RE[{}];B[c3];W[d4])"
SWAPPED = "(;FF[4]GM[1000]GA[petrify]SZ[6]RE[{}];B[c3];W[swap];B[d4])"


@pytest.mark.parametrize(
    ("text", "result"),
    [
        (PETRIFY.format("B+R"), "blue+R"),
        (PETRIFY.format("W+Resign"), "orange+R"),
        (PETRIFY.format("W+T"), "orange+time"),
        (PETRIFY.format("B+Time"), "blue+time"),
        (PETRIFY.format("B+3"), "blue+3"),
        (PETRIFY.format("W+3.5"), "orange+3.5"),
        (PETRIFY.format("0"), "draw"),
        (PETRIFY.format("Draw"), "draw"),
        (PETRIFY.format("Void"), "Void"),
        (PETRIFY.format("?"), "?"),
        (SWAPPED.format("W+R"), "blue+R"),  # W, who began as Orange, holds Blue
        (SWAPPED.format("B+T"), None),  # a loss on time needs a clock
        (PETRIFY.format("orange+R"), "orange+R"),  # an earlier version's words
        (PETRIFY.format("blue+time"), "blue+time"),
    ],
)
def test_every_ff4_result_reads(text: str, result: str | None) -> None:
    if result is None:
        with pytest.raises(RecordError, match="needs its time control"):
            Record.from_sgf(text)
        return
    record = Record.from_sgf(text)
    assert record.result == result
    assert Record.from_sgf(record.to_sgf()).result == result


@pytest.mark.parametrize(
    ("result", "written"),
    [
        ("blue+R", "B+R"),
        ("orange+time", "W+T"),
        ("orange+3.5", "W+3.5"),
        ("draw", "Draw"),
        ("Void", "Void"),
        ("?", "?"),
    ],
)
def test_results_are_written_in_ff4s_form(result: str, written: str) -> None:
    record = Record.from_sgf(PETRIFY.format(result))
    assert f"RE[{written}]" in record.to_sgf()


EARLIER = (
    "(;FF[4]GM[1000]CA[UTF-8]AP[abstracts-tui:0.1.0]GA[petrify]SZ[6]PB[bob]PO[ann]"
    "DT[2026-11-21]RE[blue+R]TM[60]OT[3x10s byo-yomi]\n"
    " ;B[c3]BL[50]OB[3]\n"
    " ;O[swap]OL[49]OO[2]C[ann takes it]\n"
    "  (;O[d4]OL[48]OO[3]\n"
    "   ;B[e5]BL[47]OB[2])\n"
    "  (;O[e4]C[or this])\n"
    ")\n"
)
"""A record as the version before FF[4]'s form wrote it: moves, names and periods left
under the colours' initials, the result in colour words."""


def test_an_earlier_versions_record_reads_without_loss() -> None:
    record = Record.from_sgf(EARLIER)
    assert record.players == ("bob", "ann") and record.result == "blue+R"
    assert record.date == "2026-11-21" and record.extra == {}
    assert record.clock == TimeControl.with_overtime(60, "3x10s")
    main = list(record.root.mainline())
    assert [node.move for node in main] == ["c3", "swap", "d4", "e5"]
    assert [node.time_left for node in main] == [
        TimeLeft(0, 50, 3),
        TimeLeft(1, 49, 2),
        TimeLeft(1, 48, 3),
        TimeLeft(0, 47, 2),
    ]
    assert main[1].comment == "ann takes it"
    assert [(n.move, n.comment) for n in main[1].children] == [("d4", ""), ("e4", "or this")]
    text = record.to_sgf()
    assert "PB[bob]PW[ann]" in text and "RE[W+R]" in text  # ann, holding Blue, won
    assert ";B[c3]BL[50]PERIODS[3]\n ;W[swap]WL[49]PERIODS[2]C[ann takes it]" in text
    again = Record.from_sgf(text)
    assert again.to_sgf() == text and [n.time_left for n in again.root.mainline()] == [
        n.time_left for n in main
    ]
    read = sgfmill.Sgf_game.from_bytes(Record.rewritten(EARLIER).encode())
    assert read.get_player_name(read.get_winner()) == "ann"


@pytest.mark.parametrize(
    ("text", "players", "moves"),
    [
        (
            "(;FF[4]GM[1000]AP[abstracts-tui:0.1.0]GA[partitions]SZ[5]PW[Ann]PB[Bob]"
            "RE[black+time]TM[60];W[c3];B[b2])",
            ("Ann", "Bob"),
            ["c3", "b2"],
        ),
        (
            "(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]PV[Ann]PH[Bob];V[c3];H[b2];V[pass];H[pass])",
            ("Ann", "Bob"),
            ["c3", "b2", "pass", "pass"],
        ),
        (
            "(;FF[4]GM[1000]AP[abstracts-tui:0.1.0]GA[egotzi]SZ[5]PB[Ann]PW[Bob]"
            ";B[c3];W[swap];W[d4];B[e5])",
            ("Ann", "Bob"),
            ["c3", "swap", "d4", "e5"],
        ),
    ],
)
def test_earlier_records_of_the_other_games_read(
    text: str, players: tuple[str, str], moves: list[str]
) -> None:
    record = Record.from_sgf(text)
    assert record.players == players
    assert [node.move for node in record.root.mainline()] == moves
    assert Record.from_sgf(record.to_sgf()).to_sgf() == record.to_sgf()


@given(st.sampled_from(list(GAMES)), st.integers(0, 2**32), st.integers(0, 40))
@settings(max_examples=60, derandomize=True, deadline=timedelta(seconds=10))
def test_every_game_round_trips_and_a_go_program_reads_its_movers(
    name: str, seed: int, length: int
) -> None:
    rng = random.Random(seed)
    game = new_game(name, SIZES[name])
    holder = [0, 1]
    made = []
    for _ in range(length):
        if game.is_over():
            break
        move = rng.choice(game.legal_moves())
        text = game.move_name(move)
        made.append(("bw"[holder[game.turn]], "" if text == "pass" else text))
        game.play(move)
        if text == "swap":
            holder.reverse()
    record = Record.from_game(game, players=("ann", "bob"))
    text = record.to_sgf()
    again = Record.from_sgf(text)
    assert again.to_sgf() == text
    assert again.main_game().position() == game.position()
    read = sgfmill.Sgf_game.from_bytes(text.encode())
    moves = [node.get_raw_move() for node in read.get_main_sequence()[1:]]
    assert [(who, raw.decode()) for who, raw in moves] == made
