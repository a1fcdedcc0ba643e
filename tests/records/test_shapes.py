"""Records of every shape and size: far deeper than Python's recursion limit, very wide,
with huge comments, over the size limit, with digits of other scripts."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from abstracts_tui.records import MAX_SIZE, Record, RecordError, RecordNode, sgf
from abstracts_tui.records.record import MAX_SETUPS
from abstracts_tui.records.sgf import MAX_NODES, MAX_VALUES
from abstracts_tui.rules import load_position, new_game

DEEP = sys.getrecursionlimit() * 10
"""Deeper than any recursive reader, writer or walk could go."""
START = new_game("egotzi", 5).position()
OPENING = [("B", "b1"), ("W", "d1"), ("B", "e1"), ("W", "e3"), ("B", "d2"), ("W", "d3")]
"""Six legal moves from the start of Egotzi 5x5: a line of the tree goes deeper than the
game is long only through set-up positions, of which a record holds `MAX_SETUPS`."""

OTHER_DIGITS = {
    "superscript two": "\u00b2",
    "arabic-indic one": "\u0661",
    "devanagari three": "\u0969",
    "double-struck two": "\U0001d7da",
    "circled one": "\u2460",
    "fullwidth two": "\uff12",
}
"""Characters `str.isdigit()` accepts (and `int()` reads, for some) that are not ASCII."""

HEAD = "(;FF[4]GM[1000]GA[egotzi]SZ[5]PB[Ann]PW[Bob]"


def egotzi_positions() -> list[str]:
    """Three positions of a 5x5 Egotzi game: 1, 2 and 3 stones (White, Black, White to move)."""
    game = new_game("egotzi", 5)
    found = []
    for move in ("c3", "b2", "d4"):
        game.play(move)
        found.append(game.position())
    return found


def depth(node: RecordNode) -> int:
    return sum(1 for _ in node.mainline())


def test_a_line_deeper_than_the_recursion_limit_reads_writes_and_walks() -> None:
    levels = DEEP // (1 + len(OPENING)) + 1  # a setup and six moves each
    assert levels <= MAX_SETUPS
    level = f"\n;SP[{START}]" + "".join(f";{letter}[{move}]" for letter, move in OPENING)
    text = HEAD + level * levels + ")"
    record = Record.from_sgf(text)
    assert depth(record.root) == levels * 7 > DEEP
    assert sum(1 for _ in record.root.walk()) == levels * 7 + 1
    after = new_game("egotzi", 5)
    for _, move in OPENING:
        after.play(move)
    assert record.main_game().position() == after.position()
    again = Record.from_sgf(record.to_sgf())
    assert again.to_sgf() == record.to_sgf()
    assert depth(again.root) == levels * 7


def test_variations_nested_deeper_than_the_recursion_limit() -> None:
    # Each level: a setup whose first variation is a Black move and whose second holds
    # six moves, each in a variation of its own inside the one before, then the next
    # level: the SGF text nests 7 parentheses deeper a level.
    levels = DEEP // 7 + 1
    assert levels <= MAX_SETUPS
    level = f"(;SP[{START}](;B[a1])" + "".join(f"(;{letter}[{move}]" for letter, move in OPENING)
    text = HEAD + level * levels + ")" * (1 + len(OPENING)) * levels + ")"
    record = Record.from_sgf(text)
    node = record.root
    for _ in range(levels):
        (node,) = node.children
        assert node.setup == START
        assert [child.move for child in node.children] == ["a1", "b1"]
        node = node.children[1]
        for _, move in OPENING[1:]:
            (node,) = node.children
            assert node.move == move
    assert sum(1 for _ in record.root.walk()) == (2 + len(OPENING)) * levels + 1
    written = record.to_sgf()
    # Parentheses around the record and both variations of every level.
    assert written.count("(") == 1 + 2 * levels
    assert max(len(line) - len(line.lstrip()) for line in written.splitlines()) <= 2 * 16 + 1
    assert Record.from_sgf(written).to_sgf() == written
    game = record.game_at(node)  # from the last setup above
    assert [game.move_name(move) for move in game.moves] == [move for _, move in OPENING]


def test_a_deep_tree_of_moves_and_setups_replays_each_line() -> None:
    # Each level: a setup, a move, another setup, then two variations: a move, and the
    # next level. A node's game is the last setup above it and the moves after that.
    one, _, three = egotzi_positions()
    levels = MAX_SETUPS // 2
    text = HEAD + f"(;SP[{one}];W[a1];SP[{three}](;W[e5])" * levels + ")" * levels + ")"
    record = Record.from_sgf(text)
    after = load_position(three)
    after.play("e5")
    leaves = [node for node in record.root.walk() if node.move == "e5"]
    assert len(leaves) == levels
    for leaf in leaves[::100]:
        game = record.game_at(leaf)
        assert game.position() == after.position()
        assert [game.move_name(m) for m in game.moves] == ["e5"]
    assert Record.from_sgf(record.to_sgf()).to_sgf() == record.to_sgf()


def test_a_record_with_as_many_variations_as_allowed_merges_the_same_moves() -> None:
    cells = [f"{column}{row}" for column in "abcde" for row in range(1, 6)]
    count = MAX_NODES - 1  # and the root
    text = HEAD + "".join(f"(;B[{cells[i % 25]}]C[{i}])" for i in range(count)) + ")"
    record = Record.from_sgf(text)
    assert [child.move for child in record.root.children] == cells
    # Twins are one node: the last comment read is kept.
    assert record.root.children[0].comment == str(count - 1 - (count - 1) % 25)
    assert Record.from_sgf(record.to_sgf()).to_sgf() == record.to_sgf()


def test_many_different_setups_below_one_node_stay_apart() -> None:
    game = new_game("egotzi", 5)
    positions = []
    for move in game.legal_moves():
        game.play(move)
        positions.append(game.position())
        game.undo()
    text = HEAD + "".join(f"(;SP[{p}])" for p in positions * 3) + ")"
    record = Record.from_sgf(text)
    assert [child.setup for child in record.root.children] == positions


def test_a_huge_comment_reads_as_it_was_written() -> None:
    comment = "a ] b \\ c\n" * 800_000  # 8 MB, with every character SGF escapes
    record = Record.from_sgf(HEAD + ";B[c3]C[" + sgf.escape(comment) + "])")
    assert record.root.children[0].comment == comment
    assert Record.from_sgf(record.to_sgf()).root.children[0].comment == comment


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("\\\\\\]", "\\]"),  # an escaped backslash, then an escaped bracket
        ("\\\\", "\\"),
        ("a\\\nb", "ab"),  # a soft line break
        ("a\\\r\nb", "ab"),
        ("a\\\n\rb", "a\rb"),
        ("\\x\\y", "xy"),
        ("\0\\]\\\\", "\0]\\"),  # the value holds a NUL already
    ],
)
def test_escapes_are_undone_in_one_pass(raw: str, value: str) -> None:
    (root,) = sgf.parse(f"(;C[{raw}])")
    assert root.get("C") == value


def test_a_value_never_closed_after_many_escapes_names_its_start() -> None:
    with pytest.raises(RecordError, match=r"^line 2, column 3: a value opened here"):
        Record.from_sgf(HEAD + "\n;C[" + "\\]" * 100_000)


def test_line_numbers_are_right_far_into_a_file() -> None:
    text = HEAD + "\n;B[c3]" + "\n;C[x]" * 50_000 + ")"
    with pytest.raises(RecordError, match=r"^line 3: a node after the first holds a move"):
        Record.from_sgf(text)
    bad = HEAD + "\n;B[c3]C[\n\n]\n;W[b2]\n;B[d4]\n;B[a1])"
    with pytest.raises(RecordError, match=r"^line 7: the move B\[a1\] is marked for Black"):
        Record.from_sgf(bad)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.sgf"
    with path.open("wb") as handle:
        handle.truncate(64 * MAX_SIZE)  # 1 GiB, sparse: reading it would take a while
    with pytest.raises(RecordError, match=r"^a record file is at most 16 MiB .*this one is 1,"):
        Record.load(path)


def test_a_stream_over_the_size_limit_is_refused() -> None:
    with pytest.raises(RecordError, match=r"^a record file is at most 16 MiB .*this one is larger"):
        Record.load("/dev/zero")


def test_a_file_just_under_the_limit_loads(tmp_path: Path) -> None:
    path = tmp_path / "long.sgf"
    head = HEAD + ";B[c3]C["
    path.write_text(head + "x" * (MAX_SIZE - len(head) - 2) + "])")
    assert path.stat().st_size == MAX_SIZE
    assert len(Record.load(path).root.children[0].comment) == MAX_SIZE - len(head) - 2


@pytest.mark.parametrize(
    ("root", "message"),
    [
        ("GA[pilo]SZ[\u0666]", "the board size SZ must be a whole number, not '\u0666'"),
        ("GA[pilo]SZ[6²]", "the board size SZ must be a whole number, not '6²'"),
        ("GA[pilo]SZ[1_0]", "the board size SZ must be a whole number, not '1_0'"),
        (
            "GA[pilo]SZ[" + "9" * 5000 + "]",
            "the board size SZ must be a whole number, not '9{39}…'",
        ),
        ("GA[linage]SZ[5]KM[\u0661.\u0665]", "the komi KM must be a number, not '\u0661.\u0665'"),
        ("GA[linage]SZ[5]KM[nan]", "the komi KM must be a number, not 'nan'"),
        ("GA[linage]SZ[5]KM[1e999]", "komi must be a whole or half number, not inf"),
    ],
    ids=["arabic", "superscript", "underscore", "huge", "arabic-komi", "nan", "infinite"],
)
def test_numbers_in_other_scripts_are_refused_at_the_root(root: str, message: str) -> None:
    with pytest.raises(RecordError, match=f"^line 1: {message}"):
        Record.from_sgf(f"(;GM[1000]{root})")


@pytest.mark.parametrize("digit", OTHER_DIGITS.values(), ids=OTHER_DIGITS.keys())
def test_a_pilo_stack_height_in_other_digits_is_refused(digit: str) -> None:
    board = f"b{digit}...../....../....../....../....../......"
    text = f"(;GM[1000]GA[pilo]SZ[6]\n;SP[pilo size=6 {board} orange passes=0,last=blue,swap=no])"
    with pytest.raises(RecordError, match=f"^line 2: the setup position SP: row 1 .*'{digit}'"):
        Record.from_sgf(text)


def test_long_outside_text_is_cut_short_in_messages() -> None:
    text = HEAD + ";B[" + "z" * 100_000 + "])"
    with pytest.raises(RecordError) as caught:
        Record.from_sgf(text)
    assert len(str(caught.value)) < 200
    assert str(caught.value).startswith("line 1: the move B[zzz")


def test_a_node_prints_without_its_subtree() -> None:
    positions = egotzi_positions()
    text = HEAD + "".join(f"\n;SP[{positions[i % 3]}]" for i in range(MAX_SETUPS)) + ")"
    record = Record.from_sgf(text)
    assert "children" not in repr(record.root)
    assert len(repr(record.root.children[0])) < 300


def test_a_record_of_more_nodes_than_the_limit_is_refused_where_it_goes_over() -> None:
    text = HEAD + "\n(;B[c3])" * MAX_NODES + ")"  # the root and MAX_NODES moves
    line = MAX_NODES + 1
    with pytest.raises(
        RecordError, match=f"^line {line}, column 2: a record holds at most 50,000 nodes"
    ):
        Record.from_sgf(text)
    assert len(Record.from_sgf(HEAD + "\n(;B[c3])" * (MAX_NODES - 1) + ")").root.children) == 1


def test_a_record_of_more_setups_than_the_limit_is_refused_where_it_goes_over() -> None:
    positions = egotzi_positions()
    text = HEAD + "".join(f"\n;SP[{positions[i % 3]}]" for i in range(MAX_SETUPS + 1)) + ")"
    with pytest.raises(
        RecordError, match=f"^line {MAX_SETUPS + 2}: a record holds at most 2,000 set-up positions"
    ):
        Record.from_sgf(text)


def names(count: int) -> list[str]:
    """`count` different property names (`XAAAA`, `XAAAB`, ...) that records do not use."""
    found = []
    for number in range(count):
        letters = ""
        for _ in range(4):
            number, letter = divmod(number, 26)
            letters += chr(ord("A") + letter)
        found.append("X" + letters)
    return found


@pytest.mark.parametrize("where", ["one property", "many properties"])
def test_a_record_of_more_values_than_the_limit_is_refused(where: str) -> None:
    if where == "one property":
        root = "XV" + "[1]" * MAX_VALUES
    else:
        root = "".join(f"{name}[1]" for name in names(MAX_VALUES))
    text = "(;GM[1000]GA[egotzi]SZ[5]" + root + ";B[c3])"
    with pytest.raises(
        RecordError, match=r"^line 1, column [0-9]+: a record holds at most 200,000 property values"
    ):
        Record.from_sgf(text)


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ("TM[300]OT[" + "9" * 309 + "s fischer]", "the increment is at most 1 day (1d)"),
        ("TM[300]OT[" + "9" * 4301 + "x30s byo-yomi]", "byo-yomi has at most 100 periods"),
        ("TM[300]OT[3x" + "9" * 309 + "s byo-yomi]", "a byo-yomi period lasts at most 1 day (1d)"),
        ("TM[1e999]", "the main time is at most 100 days (100d)"),
        ("TM[" + "9" * 30 + "]", "the main time is at most 100 days (100d)"),
        ("TM[0]OT[1x101d byo-yomi]", "the time per move is at most 100 days (100d)"),
    ],
    ids=["increment", "periods", "period", "infinite", "thirty-digits", "days-per-move"],
)
def test_huge_numbers_in_the_time_control_are_refused_naming_the_bound(
    clock: str, message: str
) -> None:
    with pytest.raises(RecordError) as refused:
        Record.from_sgf(f"(;GM[1000]GA[petrify]SZ[6]{clock}\n;B[c3])")
    assert str(refused.value) == f"line 1: the time control TM/OT: {message}"


@pytest.mark.parametrize(
    ("left", "message"),
    [
        ("BL[1e999]", "the time left BL is at most 1,000 days (1000d), not '1e999'"),
        ("BL[" + "9" * 30 + "]", "the time left BL is at most 1,000 days (1000d), not '999"),
        ("BL[86400001]", "the time left BL is at most 1,000 days (1000d), not '86400001'"),
        ("BL[5]OB[" + "9" * 30 + "]", "the periods left OB must be a whole number from 0 to 3"),
    ],
    ids=["infinite", "thirty-digits", "over", "periods"],
)
def test_huge_times_left_are_refused_naming_the_bound(left: str, message: str) -> None:
    text = f"(;GM[1000]GA[petrify]SZ[6]TM[300]OT[3x30s byo-yomi]\n;B[c3]{left})"
    with pytest.raises(RecordError, match=f"^line 2: {re.escape(message)}"):
        Record.from_sgf(text)
    most = "(;GM[1000]GA[petrify]SZ[6]TM[300]OT[3x30s byo-yomi]\n;B[c3]BL[86400000]OB[3])"
    record = Record.from_sgf(most)  # the bound itself reads, and writes back
    assert Record.from_sgf(record.to_sgf()).to_sgf() == record.to_sgf()
