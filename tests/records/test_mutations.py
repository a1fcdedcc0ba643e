"""Real records and position strings, mutated: each one is refused with one clear line
naming where, or read, and then writes and reads back the same; nothing else happens."""

from __future__ import annotations

import random
from datetime import timedelta
from functools import cache

from hypothesis import event, given, settings
from hypothesis import strategies as st

from abstracts_tui.records import Record, RecordError
from abstracts_tui.rules import GAMES, RulesError, load_position, new_game

SIZES = {"petrify": 6, "pilo": 6, "egotzi": 5, "linage": 5, "partitions": 5}

PIECES = [
    "(", ")", "[", "]", "\\", ";", "(;", ")(", "\n", "\r\n", " ", "/", ",", "=", "-",
    "\u00b2", "\u0661", "\u0969", "\uff12", "\U0001d7da", "\u2460", "é", "\u2028", "\0",
    "9" * 40, "-1", "1e999", "nan", "1_0", "B[", "W[", "SP[", "C[", "GA[", "SZ[", "KM[",
    "pass", "swap", "b2", "x", ".",
]  # fmt: skip
"""What mutations insert: SGF's own punctuation, digits that are not ASCII, numbers
too long or not finite, pieces of properties, moves and position strings."""

DIGITS = ["0", "2", "9", "\u00b2", "\u00b3", "\u2460", "\u0661", "\u0969", "\uff12", "\U0001d7da"]
"""ASCII digits and characters `str.isdigit()` takes for digits too."""

CHECKS = settings(max_examples=500, derandomize=True, deadline=timedelta(seconds=10))
"""A fixed set of examples; the deadline only catches a hang (the reader is linear)."""


@cache
def real_records() -> list[str]:
    """Records of random games of every game: variations, comments with characters SGF
    escapes, setup nodes, passes and swaps, as the program writes them."""
    rng = random.Random(7)
    texts = []
    for name, size in SIZES.items():
        game = new_game(name, size)
        record = Record.from_game(game, players=("Ann", "Bob"), date="2026-01-01")
        node = record.root
        for ply in range(14):
            moves = game.legal_moves()
            if not moves:
                break
            for other in rng.sample(moves, min(2, len(moves))):  # variations of one move
                node.add(game.move_name(other)).comment = rng.choice(["", "why [not] \\ ?"])
            move = rng.choice(moves)
            game.play(move)
            node = node.add(game.move_name(move))
            if ply == 6:
                node = node.add(setup=game.position())
        texts.append(record.to_sgf())
    return texts


@cache
def real_positions() -> list[str]:
    rng = random.Random(11)
    found = []
    for name in GAMES:
        game = new_game(name, SIZES[name])
        for _ in range(12):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves()))
            found.append(game.position())
    return found


@st.composite
def mutated(draw: st.DrawFn, texts: list[str]) -> str:
    """One of `texts` with one to four changes: a bit of a character flipped, a digit
    (of any script) after a letter or in place of a digit, an insertion, a deletion, a
    duplication or a truncation."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kinds = ["flip", "digit", "digit", "insert", "delete", "duplicate", "truncate"]
        kind = draw(st.sampled_from(kinds))
        if kind == "digit":  # stack heights, sizes, komi, move names
            places = [i for i, char in enumerate(text) if char.isalnum()]
            if places:
                at = draw(st.sampled_from(places))
                digit = draw(st.sampled_from(DIGITS))
                if text[at].isalpha():  # a digit after the letter
                    text = text[: at + 1] + digit + text[at + 1 :]
                else:  # in place of the digit
                    text = text[:at] + digit + text[at + 1 :]
        elif kind == "flip" and at < len(text):
            text = text[:at] + chr(ord(text[at]) ^ (1 << draw(st.integers(0, 7)))) + text[at + 1 :]
        elif kind == "insert":
            piece = draw(st.sampled_from(PIECES) | st.text(max_size=3))
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif kind == "duplicate":
            end = at + draw(st.integers(1, 200))
            text = text[:end] + text[at:end] * draw(st.integers(1, 50)) + text[end:]
        else:
            text = text[:at]
    return text


def one_line(message: str) -> None:
    assert message and "\n" not in message and len(message) < 400, message


@CHECKS
@given(mutated(real_records()))
def test_a_mutated_record_is_refused_clearly_or_read_faithfully(text: str) -> None:
    try:
        record = Record.from_sgf(text)
    except RecordError as error:
        event("refused")
        assert error.line is not None and str(error).startswith(f"line {error.line}")
        one_line(str(error))
        return
    event("read")
    written = record.to_sgf()
    assert Record.from_sgf(written).to_sgf() == written
    record.main_game()


@CHECKS
@given(mutated(real_positions()))
def test_a_mutated_position_string_is_refused_clearly_or_read_faithfully(text: str) -> None:
    try:
        game = load_position(text)
    except RulesError as error:
        event("refused")
        one_line(str(error))
        return
    event("read")
    assert load_position(game.position()).position() == game.position()
    assert type(game).read_position(text)[1] == game.position()


def test_a_position_string_reads_as_it_is_written() -> None:
    for text in real_positions():
        game, written = load_position(text).read_position(text)
        assert written == text == game.position()
        upper = text.replace(text.split()[2], text.split()[2].upper())
        assert type(game).read_position(upper)[1] == text


def test_the_real_records_read_back() -> None:
    for text in real_records():
        assert Record.from_sgf(text).to_sgf() == text
