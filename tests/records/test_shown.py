"""A record remembers the node shown: `SHOWN[]` marks it when it is not the end of the
main line, and reading the record opens there."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from abstracts_tui.records import Record, RecordError, RecordNode
from abstracts_tui.session import Session

STUDY = (
    "(;FF[4]GM[1000]GA[partitions]COLOURS[white:black]SZ[5]PB[Ann]PW[Bob]\n"
    " ;B[c3]\n"
    " ;W[a1]\n"
    " (;B[e5];W[i5])\n"
    " (;B[d4]C[a side line];W[b2]))\n"
)


def moves(nodes: Iterable[RecordNode]) -> list[str | None]:
    return [node.move for node in nodes]


def test_a_record_without_the_marker_opens_at_the_end_of_its_main_line() -> None:
    record = Record.from_sgf(STUDY)
    assert record.shown is None
    assert moves(record.opening_node().line()) == ["c3", "a1", "e5", "i5"]
    session = Session(record)
    assert moves(session.path()) == ["c3", "a1", "e5", "i5"]
    assert "SHOWN" not in record.to_sgf()  # the end of the main line needs no mark


def test_a_node_of_the_main_line_is_marked_and_read_back() -> None:
    record = Record.from_sgf(STUDY)
    record.shown = record.root.children[0].children[0]  # after a1
    text = record.to_sgf()
    assert " ;W[a1]SHOWN[]\n" in text
    again = Record.from_sgf(text)
    assert again.shown is not None and moves(again.shown.line()) == ["c3", "a1"]
    assert moves(again.root.mainline()) == ["c3", "a1", "e5", "i5"]  # the line stays
    assert again.to_sgf() == text
    assert moves(Session(again).path()) == ["c3", "a1"]


def test_a_node_inside_a_variation_is_marked_and_read_back() -> None:
    record = Record.from_sgf(STUDY)
    side = record.root.children[0].children[0].children[1]
    assert side.move == "d4"
    record.shown = side
    text = record.to_sgf()
    assert ";B[d4]C[a side line]SHOWN[]" in text
    again = Record.from_sgf(text)
    assert again.shown is not None and moves(again.shown.line()) == ["c3", "a1", "d4"]
    assert again.shown.comment == "a side line"
    session = Session(again)
    assert moves(session.path()) == ["c3", "a1", "d4"] and not session.on_main_line()
    # The last move of a variation is marked too: it is not where the record opens.
    record.shown = side.children[0]
    assert ";W[b2]SHOWN[]" in record.to_sgf()
    assert moves(Session(Record.from_sgf(record.to_sgf())).path()) == ["c3", "a1", "d4", "b2"]


def test_the_start_is_marked_at_the_root() -> None:
    record = Record.from_sgf(STUDY)
    record.shown = record.root
    text = record.to_sgf()
    assert text.startswith("(;FF[4]") and "SHOWN[]" in text.splitlines()[0]
    again = Record.from_sgf(text)
    assert again.shown is again.root and again.extra == {}  # not kept as an unknown key
    assert Session(again).game.moves == []
    assert again.to_sgf() == text


def test_a_marked_end_of_the_main_line_is_written_without_the_mark() -> None:
    text = STUDY.replace(";W[i5]", ";W[i5]SHOWN[]")
    record = Record.from_sgf(text)
    assert record.shown is not None and record.shown.move == "i5"
    assert "SHOWN" not in record.to_sgf()


def test_a_second_marker_is_refused_with_its_line() -> None:
    text = STUDY.replace(";W[a1]", ";W[a1]SHOWN[]").replace(";W[b2]", ";W[b2]SHOWN[]")
    with pytest.raises(RecordError) as caught:
        Record.from_sgf(text)
    assert str(caught.value) == (
        "line 5: SHOWN[] marks the one node a record opens at; the node on line 3 has it already"
    )
