"""Whatever a protocol line holds, the engine answers it with `=` or a clear `?`, never
an internal error: numbers in other scripts, mutated real sessions, bytes that are not
UTF-8, in the engine's own `handle` and in the real process."""

from __future__ import annotations

import io
import random
from datetime import timedelta

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from abstracts_tui.engine.protocol import Engine
from abstracts_tui.engine.protocol_input import MAX_LINE
from abstracts_tui.rules import new_game
from tests.engine.test_protocol import Answer, talk

QUICK = {"ABSTRACTS_TUI_PLAYOUTS": "8", "ABSTRACTS_TUI_SEED": "1"}
"""Searches of a few playouts: genmove and analyze answer at once."""

SUPERSCRIPT_TWO, ARABIC_SIX, FULLWIDTH_ONE = "\u00b2", "\u0666", "\uff11"


def answers(engine: Engine, lines: list[str]) -> list[str]:
    return [engine.handle(line) or "" for line in lines]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            f"newgame pilo size={ARABIC_SIX}",
            f"size must be a whole number of at most 2 ASCII digits, not '{ARABIC_SIX}'",
        ),
        (f"newgame pilo size=6{SUPERSCRIPT_TWO}", "size must be a whole number"),
        ("newgame pilo size=" + "9" * 5000, "size must be a whole number of at most 2 ASCII"),
        (f"newgame linage komi={FULLWIDTH_ONE}", "komi must be a number"),
        ("newgame linage komi=inf", "komi must be a number in ASCII digits such as -2"),
        (
            f"setposition pilo size=6 b{SUPERSCRIPT_TWO}...../....../....../....../....../...... "
            "orange passes=0,last=blue,swap=no",
            f"row 1 from the top: '{SUPERSCRIPT_TWO}' is not a cell",
        ),
        (
            f"setposition pilo size={ARABIC_SIX} ....../....../....../....../....../...... "
            "blue passes=0,last=none,swap=no",
            "size must be a whole number of at most 2 ASCII digits",
        ),
        (f"time_per_move {FULLWIDTH_ONE}", "the time must be a number in ASCII digits"),
        (f"{SUPERSCRIPT_TWO} name", f"unknown command '{SUPERSCRIPT_TWO}'"),
    ],
    ids=[
        "size-arabic",
        "size-superscript",
        "size-huge",
        "komi-fullwidth",
        "komi-inf",
        "stack-superscript",
        "position-size-arabic",
        "time-fullwidth",
        "id-superscript",
    ],
)
def test_numbers_must_be_ascii_digits(line: str, message: str) -> None:
    engine = Engine(QUICK)
    (answer,) = answers(engine, [line])
    assert answer.startswith("? ") and message in answer, answer
    assert "internal error" not in answer


NO_NUMBERS_BUT_DIGITS = [
    # What a stranger sent: each took a number the README says is ASCII digits.
    ("newgame linage size=5 komi=1e308", "komi must be a number in ASCII digits such as -2"),
    ("time_per_move 1e9", "the time must be a number in ASCII digits such as 2 or 2.5"),
    ("analyze 1e-9", "the time must be a number in ASCII digits such as 2 or 2.5"),
    # And every other number a command takes: no exponent, sign or padding beyond its
    # digits, no value outside its range.
    ("time_per_move 1e1", "the time must be a number in ASCII digits"),
    ("time_per_move 100000", "(at most 5 digits before the point and 3 after)"),
    ("time_per_move 0.001", "the time must be from 0.01 to 86400 seconds (a day), not 0.001"),
    ("analyze 0", "the time must be from 0.01 to 86400 seconds (a day), not 0"),
    ("analyze 2.", "the time must be a number in ASCII digits"),
    ("newgame pilo size=0008", "size must be a whole number of at most 2 ASCII digits"),
    ("newgame pilo size=+8", "size must be a whole number of at most 2 ASCII digits, not '+8'"),
    ("newgame linage size=5 komi=+0.5", "komi must be a number in ASCII digits"),
    ("newgame linage size=5 komi=0.5000", "(at most 4 digits before the point and 2 after)"),
    ("newgame linage size=5 komi=-1000.5", "komi must lie between -1000 and 1000"),
    (
        "setposition linage size=5,komi=1e2 ...../...../...../...../..... vertical passes=0",
        "komi must be a number in ASCII digits",
    ),
    (
        "setposition pilo size=006 ....../....../....../....../....../...... blue "
        "passes=0,last=none,swap=no",
        "size must be a whole number of at most 2 ASCII digits, not '006'",
    ),
    ("0" * 10 + " name", "the command id must be at most 9 digits, not 10"),
    ("1" * 5000 + " quit", "the command id must be at most 9 digits, not 5,000"),
]


def test_the_real_engine_takes_numbers_only_as_ascii_digits_in_range() -> None:
    lines = ["newgame linage size=5 komi=0.5", *(line for line, _ in NO_NUMBERS_BUT_DIGITS)]
    found, code = talk([*lines, "position", "time_per_move 86400", "time_per_move 0.05"])
    assert code == 0  # the refused quit did not end it
    refused = found[1 : len(lines)]
    for (line, message), answer in zip(NO_NUMBERS_BUT_DIGITS, refused, strict=True):
        assert not answer.ok and answer.ident == "", (line, answer)
        assert message in answer.text and "\n" not in answer.text, (line, answer.text)
    # Nothing refused changed the game.
    assert found[len(lines)] == Answer(
        True, "", "linage size=5,komi=0.5 " + "...../" * 4 + "..... vertical passes=0"
    )
    assert [answer.ok for answer in found[len(lines) + 1 :]] == [True, True]


def test_the_real_engine_takes_the_numbers_at_their_bounds() -> None:
    found, code = talk(
        [
            "123456789 newgame linage size=19 komi=-999.5",
            "newgame linage size=05 komi=6.50",
            "time_per_move 86400",
            "time_per_move 0.01",
            "analyze 0.05",
        ]
    )
    assert code == 0
    # (The search is cut short: the input has ended. Taken is what is tested here.)
    assert [(answer.ok, answer.ident) for answer in found] == [
        (True, "123456789"),
        *[(True, "")] * 4,
    ]


def test_a_command_id_is_ascii_digits() -> None:
    (answer,) = answers(Engine(QUICK), ["42 name"])
    assert answer == "=42 abstracts-tui\n\n"


def session() -> list[str]:
    """A real session: a Pilo game with captures, positions set and read, the AI asked."""
    game = new_game("pilo", 6)
    rng = random.Random(3)
    lines = ["1 newgame pilo size=6", "list_games", "time_per_move 0.01"]
    for _ in range(16):
        move = game.move_name(rng.choice(game.legal_moves()))
        game.play(move)
        lines += [f"play {move}", "legal_moves"]
    lines += [
        f"setposition {game.position()}",
        "position",
        "showboard",
        "2 scores",
        "undo",
        "genmove",
        "analyze 0.01",
        "gogui-rules_final_result",
        "newgame linage size=5 komi=0.5",
        "play c3",
        "moves",
        "known_command genmove",
    ]
    return lines


SESSION = session()

DIGITS = ["0", "7", "\u00b2", "\u00b3", "\u2460", "\u0661", "\u0969", "\uff12", "\U0001d7da"]
"""ASCII digits and characters `str.isdigit()` takes for digits too."""

PIECES = [
    "\u00b2", "\u0661", "\uff12", "\u2460", "9" * 30, "=", ",", "/", " ", "\t", "-", ".",
    "size=", "komi=", "pass", "swap", "b2", "#", "\0", "\x1b", "\u2028", "e", "nan",
]  # fmt: skip


@st.composite
def mutated_line(draw: st.DrawFn) -> str:
    line = draw(st.sampled_from(SESSION))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(line)))
        kind = draw(st.sampled_from(["flip", "digit", "digit", "insert", "delete", "truncate"]))
        if kind == "digit":  # in place of a digit: sizes, komi, stack heights, times
            places = [i for i, char in enumerate(line) if char.isdigit()]
            if places:
                at = draw(st.sampled_from(places))
                line = line[:at] + draw(st.sampled_from(DIGITS)) + line[at + 1 :]
        elif kind == "flip" and at < len(line):
            line = line[:at] + chr(ord(line[at]) ^ (1 << draw(st.integers(0, 7)))) + line[at + 1 :]
        elif kind == "insert":
            piece = draw(st.sampled_from(PIECES) | st.text(max_size=2))
            line = line[:at] + piece + line[at:]
        elif kind == "delete":
            line = line[:at] + line[at + draw(st.integers(1, 8)) :]
        else:
            line = line[:at]
    return line


@settings(max_examples=150, derandomize=True, deadline=timedelta(seconds=10))
@given(st.lists(mutated_line(), min_size=1, max_size=12), st.integers(0, len(SESSION)))
def test_mutated_lines_get_an_answer_in_any_state(lines: list[str], prefix: int) -> None:
    engine = Engine(QUICK)
    answers(engine, SESSION[:prefix])  # the state the real session has reached
    for answer in answers(engine, lines):
        if not answer:
            continue
        event("refused" if answer.startswith("?") else "answered")
        assert answer[0] in "=?" and answer.endswith("\n\n"), answer
        assert "\n\n" not in answer[:-2], answer
        assert "internal error" not in answer, answer


def test_the_real_engine_answers_mutated_sessions_as_bytes() -> None:
    rng = random.Random(5)
    script = "\n".join(SESSION).encode()
    for _ in range(3):
        data = bytearray(script)
        for _ in range(60):
            at = rng.randrange(len(data))
            choice = rng.random()
            if choice < 0.2 and chr(data[at]).isdigit():
                data[at : at + 1] = rng.choice(DIGITS).encode()
            elif choice < 0.4:
                data[at] ^= 1 << rng.randrange(8)
            elif choice < 0.8:
                data[at:at] = rng.choice(PIECES).encode() if rng.random() < 0.7 else b"\xff\xc3"
            else:
                del data[at : at + rng.randrange(1, 6)]
        sent = bytes(data).replace(b"quit", b"qu1t") + b"\nname\n"
        found, code = talk(sent, timeout=120)
        assert code == 0
        assert found and found[-1].text == "abstracts-tui"  # still answering at the end
        assert not [a.text for a in found if "internal error" in a.text]


def run_on(data: bytes) -> list[str]:
    """The answers of `Engine.run` to `data` as its whole input."""
    out = io.StringIO()
    assert Engine(QUICK).run(io.BytesIO(data), out) == 0
    return out.getvalue().split("\n\n")[:-1]


def test_a_line_of_a_mebibyte_is_read_and_a_longer_one_refused_with_its_id() -> None:
    at_most = b"1 name " + b"x" * (MAX_LINE - 7)
    over = b"2 name " + b"x" * (MAX_LINE - 6)
    found = run_on(at_most + b"\n" + over + b"\n3 name\n")
    assert found[0].startswith("?1 this command takes no arguments")
    assert found[1] == f"?2 line too long ({MAX_LINE + 1:,} bytes, at most 1,048,576)"
    assert found[2] == "=3 abstracts-tui"


def test_a_line_too_long_echoes_no_id_longer_than_an_id() -> None:
    long_id = b"9" * 1000 + b" name " + b"x" * MAX_LINE
    found = run_on(long_id + b"\n123456789 name " + b"x" * MAX_LINE + b"\n")
    assert found == [
        f"? line too long ({len(long_id):,} bytes, at most 1,048,576)",
        f"?123456789 line too long ({MAX_LINE + 15:,} bytes, at most 1,048,576)",
    ]


def test_a_long_line_split_across_reads_and_the_end_without_a_line_break() -> None:
    long = b"x" * (3 * MAX_LINE + 12345)  # over several chunks read, cut anywhere
    found = run_on(b"name\r\n" + long + b"\nname\n" + long)
    assert found == [
        "= abstracts-tui",
        f"? line too long ({len(long):,} bytes, at most 1,048,576)",
        "= abstracts-tui",
        f"? line too long ({len(long):,} bytes, at most 1,048,576)",
    ]
    assert run_on(b"name\n5 name") == ["= abstracts-tui", "=5 abstracts-tui"]


def test_nothing_after_quit_is_read_or_answered() -> None:
    assert run_on(b"name\n7 quit now\nname\n") == ["= abstracts-tui", "=7"]
