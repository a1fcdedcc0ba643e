"""SGF syntax: reading, writing, and errors that point at the fault."""

from __future__ import annotations

import pytest

from abstracts_tui.records import sgf


def test_reads_a_tree_with_variations() -> None:
    (root,) = sgf.parse("(;GM[1000]GA[linage] ;V[c3] (;H[d4];V[e5]) (;H[a1]))")
    assert root.properties == {"GM": ["1000"], "GA": ["linage"]}
    (first,) = root.children
    assert first.get("V") == "c3"
    assert [child.get("H") for child in first.children] == ["d4", "a1"]
    assert first.children[0].children[0].get("V") == "e5"


def test_values_keep_escaped_brackets_and_drop_soft_line_breaks() -> None:
    (root,) = sgf.parse("(;C[a \\] b \\\\ c\\\nd]XY[1][2])")
    assert root.get("C") == "a ] b \\ cd"
    assert root.properties["XY"] == ["1", "2"]


def test_writing_then_reading_gives_the_same_tree() -> None:
    text = "(;GM[1000]C[x\\]y];B[a1](;O[b2];B[c3])(;O[swap]C[why (not)?]))"
    (root,) = sgf.parse(text)
    (again,) = sgf.parse(sgf.dumps(root))
    assert sgf.dumps(again) == sgf.dumps(root)
    assert again.children[0].children[1].get("C") == "why (not)?"
    assert again.get("C") == "x]y"


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("", "line 1, column 1", "no game tree"),
        ("hello", "line 1, column 1", "expected '\\(' to open a game tree"),
        ("(GM[1])", "line 1, column 2", "must start with a node"),
        ("(;GM[1]\n;B[a1]\n;O[b2", "line 3, column 3", "never closed with '\\]'"),
        ("(;GM[1]\n;B[a1]", "line 1, column 1", "never closed"),
        ("(;GM[1];B[a1]) junk", "line 1, column 16", "expected '\\('"),
        ("(;GM[1]\n  ;gm[1])", "line 2, column 4", "upper-case letters, not 'gm'"),
        ("(;GM[1]GM[2])", "line 1, column 8", "appears twice"),
        ("(;GM[1];B)", "line 1, column 10", "has no value"),
        ("(;GM[1];B[a1]x)", "line 1, column 14", "upper-case letters, not 'x'"),
    ],
)
def test_errors_name_line_and_column(text: str, where: str, what: str) -> None:
    with pytest.raises(sgf.SgfError, match=f"^{where}: .*{what}"):
        sgf.parse(text)
