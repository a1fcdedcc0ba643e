"""Game records: what is kept, and faults reported with their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from abstracts_tui.records import Record, RecordError
from abstracts_tui.rules import new_game


def test_a_record_keeps_options_players_date_result_and_moves() -> None:
    game = new_game("egotzi", size=5, variant="squared", komi=-2)
    for move in ("c3", "b2", "d4"):
        game.play(move)
    record = Record.from_game(game, players=("Ann", "Bob"), date="2026-11-21")
    text = record.to_sgf()
    assert "GM[1000]" in text and "GA[egotzi]" in text
    assert "SZ[5]" in text and "VR[squared]" in text and "KM[-2]" in text
    assert "PB[Ann]" in text and "PW[Bob]" in text and "DT[2026-11-21]" in text
    assert ";B[c3]" in text and ";W[b2]" in text and ";B[d4]" in text
    loaded = Record.from_sgf(text)
    assert loaded.main_game().position() == game.position()
    assert loaded.result == ""  # not finished


def test_a_finished_game_records_its_result() -> None:
    game = new_game("linage", size=5, komi=0.5)
    game.play("pass")
    game.play("pass")
    record = Record.from_game(game)
    # Empty 5x5 board: one free region, nobody owns anything; Horizontal has komi.
    assert record.result == "horizontal+0.5"
    assert "RE[W+0.5]" in record.to_sgf()  # W: the person who began as Horizontal


def test_variations_comments_and_setup_positions_survive_saving(tmp_path: Path) -> None:
    start = new_game("partitions", size=5)
    start.play("e5")
    start.play("a1")
    setup = start.position()
    text = (
        "(;FF[4]GM[1000]GA[partitions]SZ[5]SP[" + setup + "]C[a study]\n"
        " ;W[c3]C[the main line]\n"
        " (;B[c4];W[c5])\n"
        " (;B[i5]C[a side line]))\n"
    )
    record = Record.from_sgf(text)
    assert record.root.setup == setup
    assert record.root.comment == "a study"
    first = record.root.children[0]
    assert first.move == "c3" and first.comment == "the main line"
    assert [child.move for child in first.children] == ["c4", "i5"]
    assert first.children[1].comment == "a side line"
    assert record.main_game().moves == [start.parse_move(m) for m in ("c3", "c4", "c5")]
    side = record.game_at(first.children[1])
    assert side.move_name(side.moves[-1]) == "i5"
    path = tmp_path / "study.sgf"
    record.save(path)
    again = Record.load(path)
    assert again.to_sgf() == record.to_sgf()
    assert again.game_at(again.root.children[0].children[1]).position() == side.position()


def test_pass_and_swap_are_moves() -> None:
    game = new_game("petrify", size=6)
    game.play("c3")
    game.play("swap")
    game.play("d4")
    text = Record.from_game(game).to_sgf()
    # By person: the swap gives Orange to the person who played c3, who moves next.
    assert ";B[c3]" in text and ";W[swap]" in text and ";B[d4]" in text
    assert Record.from_sgf(text).main_game().position() == game.position()


def test_unknown_root_properties_are_kept() -> None:
    text = "(;FF[4]GM[1000]GA[linage]SZ[5]KM[0.5]XX[kept][too];V[c3])"
    record = Record.from_sgf(text)
    assert record.extra == {"XX": ["kept", "too"]}
    assert "XX[kept][too]" in record.to_sgf()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;FF[4]GM[1]SZ[19];B[dd])", "line 1: not an abstracts-tui record"),
        ("(;GM[1000]GA[chess])", "line 1: unknown game 'chess'"),
        ("(;GM[1000]GA[pilo]SZ[12])", "line 1: Pilo is played on sizes 6 to 10, not 12"),
        (
            "(;GM[1000]GA[pilo]SZ[big])",
            "line 1: the board size SZ must be a whole number, not 'big'",
        ),
        ("(;GM[1000]GA[linage]SZ[5]\n;V[c3]\n;V[c4])", "line 3: the move V.c4. is marked for"),
        ("(;GM[1000]GA[linage]SZ[5]\n;V[c3]\n;H[c3])", "line 3: the move H.c3.: c3 is"),
        ("(;GM[1000]GA[linage]SZ[5]\n;V[c3]\n;H[q9])", "line 3: the move H.q9.: q9 is off"),
        ("(;GM[1000]GA[linage]SZ[5]\n;V[c3]H[c4])", "line 2: a node holds one move"),
        ("(;GM[1000]GA[linage]SZ[5]\n;C[empty])", "line 2: a node after the first holds"),
        ("(;GM[1000]GA[linage]SZ[5]SP[linage size=5 bad])", "line 1: the setup position"),
        ("(;GM[1000]GA[linage]SZ[5]\n;V[c3]\n(;H[a1])\n(;H[e6]))", "line 4: the move H.e6."),
        ("(;GM[1000]GA[linage]SZ[5];V[c3]", "line 1, column 1: the game tree opened"),
        ("(;GM[1000]GA[linage])(;GM[1000]GA[linage])", "holds 2 games"),
    ],
)
def test_faults_are_reported_with_their_line(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_sgf(text)


def test_a_file_that_is_not_in_its_charset_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.sgf"
    path.write_bytes(b"(;GM[1000]CA[UTF-8]GA[linage]\n;B[c3]C[\xff])")
    with pytest.raises(RecordError, match="line 2: the file is not UTF-8 text, as its CA says"):
        Record.load(path)
