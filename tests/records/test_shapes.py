"""Records of every shape and size: far deeper than Python's recursion limit, very wide,
with huge comments, over the size limit, with digits of other scripts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from abstracts_tui.records import MAX_SIZE, Record, RecordError, RecordNode, sgf
from abstracts_tui.rules import load_position, new_game

DEEP = sys.getrecursionlimit() * 10
"""Deeper than any recursive reader, writer or walk could go."""

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


def test_a_chain_of_setups_deeper_than_the_recursion_limit_reads_writes_and_walks() -> None:
    positions = egotzi_positions()
    text = HEAD + "".join(f"\n;SP[{positions[i % 3]}]" for i in range(DEEP)) + ")"
    record = Record.from_sgf(text)
    assert depth(record.root) == DEEP
    assert sum(1 for _ in record.root.walk()) == DEEP + 1
    assert record.main_game().position() == positions[(DEEP - 1) % 3]
    again = Record.from_sgf(record.to_sgf())
    assert again.to_sgf() == record.to_sgf()
    assert depth(again.root) == DEEP


def test_variations_nested_deeper_than_the_recursion_limit() -> None:
    # Each level: a setup whose first variation is a White move and whose second holds
    # the next level, so the SGF text nests DEEP parentheses deep.
    one = egotzi_positions()[0]  # White to move
    text = HEAD + f"(;SP[{one}](;W[a1])" * DEEP + ")" * DEEP + ")"
    record = Record.from_sgf(text)
    node = record.root
    for _ in range(DEEP):
        (node,) = node.children if node is record.root else node.children[1:]
        assert node.setup == one
        assert [child.move for child in node.children][:1] == ["a1"]
    assert sum(1 for _ in record.root.walk()) == 2 * DEEP + 1
    written = record.to_sgf()
    # Parentheses around the record and both variations of every level but the last.
    assert written.count("(") == 1 + 2 * (DEEP - 1)
    assert max(len(line) - len(line.lstrip()) for line in written.splitlines()) <= 2 * 16 + 1
    assert Record.from_sgf(written).to_sgf() == written
    assert record.game_at(node.children[0]).position() != one


def test_a_deep_tree_of_moves_and_setups_replays_each_line() -> None:
    # Each level: a setup, a move, another setup, then two variations: a move, and the
    # next level. A node's game is the last setup above it and the moves after that.
    one, _, three = egotzi_positions()
    text = HEAD + f"(;SP[{one}];W[a1];SP[{three}](;W[e5])" * 2000 + ")" * 2000 + ")"
    record = Record.from_sgf(text)
    after = load_position(three)
    after.play("e5")
    leaves = [node for node in record.root.walk() if node.move == "e5"]
    assert len(leaves) == 2000
    for leaf in leaves[::100]:
        game = record.game_at(leaf)
        assert game.position() == after.position()
        assert [game.move_name(m) for m in game.moves] == ["e5"]
    assert Record.from_sgf(record.to_sgf()).to_sgf() == record.to_sgf()


def test_a_record_with_64000_variations_merges_the_same_moves() -> None:
    cells = [f"{column}{row}" for column in "abcde" for row in range(1, 6)]
    text = HEAD + "".join(f"(;B[{cells[i % 25]}]C[{i}])" for i in range(64000)) + ")"
    record = Record.from_sgf(text)
    assert [child.move for child in record.root.children] == cells
    # Twins are one node: the last comment read is kept.
    assert record.root.children[0].comment == str(64000 - 25)
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
    text = HEAD + "".join(f"\n;SP[{positions[i % 3]}]" for i in range(DEEP)) + ")"
    record = Record.from_sgf(text)
    assert "children" not in repr(record.root)
    assert len(repr(record.root.children[0])) < 300
