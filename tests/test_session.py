"""A game in progress as a tree: branches, stepping, promotion, deletion, setup, comments."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record, RecordError
from abstracts_tui.rules import PositionError, load_position
from abstracts_tui.session import Change, Changed, Session


def partitions(*moves: str, autosave: Path | None = None) -> Session:
    session = Session.start(Setup("partitions", 5, first="Ann", second="Bob"), autosave)
    for move in moves:
        session.play(move)
    return session


def main_line(session: Session) -> list[str | None]:
    return [node.move for node in session.record.root.mainline()]


def test_a_branch_keeps_the_main_line_and_play_after_undo_replaces_it() -> None:
    session = partitions("a1", "b2", "c3")
    session.jump(1)
    session.play("e5", branch=True)
    assert main_line(session) == ["a1", "b2", "c3"]
    assert [n.move for n in session.variations()] == ["b2", "e5"]
    session.jump(1)
    session.play("d4")  # not a branch: the new main line, the old kept after it
    assert main_line(session) == ["a1", "d4"]
    assert [n.move for n in session.variations()] == ["d4", "b2", "e5"]


def test_replaying_a_known_move_follows_it_instead_of_adding_one() -> None:
    session = partitions("a1", "b2")
    session.back()
    session.play("b2", branch=True)
    assert len(session.record.root.children[0].children) == 1


def test_stepping_and_jumping_along_the_line() -> None:
    session = partitions("a1", "b2", "c3")
    assert session.move_number() == 3
    assert session.back() and session.move_number() == 2
    assert session.redo() and session.node.move == "c3"
    assert session.jump(0) and session.game.moves == []
    assert not session.back()
    assert not session.jump(4)
    assert (
        session.jump(3) and session.game.position() == partitions("a1", "b2", "c3").game.position()
    )


def test_switch_promote_and_delete_variations() -> None:
    session = partitions("a1", "b2")
    session.back()
    session.play("e5", branch=True)
    assert not session.on_main_line()
    assert session.switch_variation(1) and session.node.move == "b2"
    assert session.switch_variation(-1) and session.node.move == "e5"
    assert session.promote() and main_line(session) == ["a1", "e5"]
    assert not session.promote()
    session.switch_variation(1)  # b2, now the variation
    assert session.delete_variation()
    assert session.node.move == "a1" and [n.move for n in session.node.children] == ["e5"]
    session.redo()
    assert not session.delete_variation()  # the main line stays


def test_the_result_is_the_main_lines_whatever_position_is_shown() -> None:
    session = partitions("a1")
    session.jump(0)
    session.play("b2", branch=True)
    assert session.record.result == ""
    assert main_line(session) == ["a1"]


def test_setup_at_the_root_and_in_the_middle_is_checked_and_recorded(tmp_path: Path) -> None:
    session = partitions()
    start = session.game.copy()
    start.play("c3")
    session.set_up(start.position())  # an empty record: the start position itself
    assert session.record.root.setup == start.position()
    session.play("d4")
    later = load_position(session.game.position())
    later.play("a1")
    session.set_up(later.position())
    assert session.node.setup == later.position()
    with pytest.raises(PositionError):
        session.set_up(later.position().replace("black", "white"))
    session.set_comment("  from a study  ")
    session.save(tmp_path / "s.sgf")
    record = Record.load(tmp_path / "s.sgf")
    nodes = list(record.root.mainline())
    assert record.root.setup == start.position()
    assert nodes[0].move == "d4"
    assert nodes[1].setup == later.position() and nodes[1].comment == "from a study"


def test_computer_seats_are_kept_in_the_record(tmp_path: Path) -> None:
    setup = Setup("petrify", 6, first="Ann", second="Computer", second_level="medium")
    session = Session.start(setup, tmp_path / "auto.sgf")
    session.play("c3")
    assert session.flush()
    record = Record.load(tmp_path / "auto.sgf")
    assert "AI[medium:Computer]" in record.to_sgf()
    resumed = Session(record)
    assert resumed.level("Computer") == "medium" and resumed.level("Ann") is None
    assert resumed.waiting_for() == "Computer"


def test_listeners_hear_every_change_and_what_it_was() -> None:
    session = partitions()
    heard: list[tuple[int, Changed]] = []
    session.listeners.subscribe(lambda changed: heard.append((len(session.game.moves), changed)))
    session.play("a1")
    session.undo()
    session.redo()
    session.jump(0)
    session.set_comment("the start")
    assert [moves for moves, _ in heard] == [1, 0, 1, 0, 0]
    assert [changed.change for _, changed in heard] == [
        Change.MOVE,
        Change.STEP,
        Change.STEP,
        Change.STEP,
        Change.TREE,
    ]
    # A move says who made it, with which colour (the move list needs no replay) and
    # which move (a listener told later names it, not the last one).
    assert heard[0][1] == Changed(Change.MOVE, mover=0, by=session.people[0], move="a1")


def test_a_move_is_played_whole_when_the_autosave_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    session = partitions(autosave=blocker / "games" / "game.sgf")
    heard: list[str | None] = []
    session.saving_listeners.subscribe(lambda: heard.append(session.save_problem))
    session.play("a1")
    assert session.flush()  # the first move is saved (before anything fails: heard from here on)
    shutil.rmtree(blocker)
    blocker.write_text("a file where the data folder should be")
    session.play("b2")  # no error: the game goes on unsaved
    assert session.flush()
    assert [node.move for node in session.path()] == ["a1", "b2"]
    assert session.game.move_name(session.game.moves[-1]) == "b2"
    assert session.save_problem == "a part of the path is a file, not a folder"
    assert heard == ["a part of the path is a file, not a folder"]
    blocker.unlink()
    session.play("c3")
    assert session.flush()
    assert session.save_problem is None and heard[-1] is None
    assert [n.move for n in Record.load(blocker / "games" / "game.sgf").root.mainline()] == [
        "a1",
        "b2",
        "c3",
    ]


def test_a_deep_record_loads_at_the_end_of_its_line_and_steps_back(tmp_path: Path) -> None:
    # A line goes deeper than a game is long only through set-up positions: each one
    # here sets up the start again and four moves follow it.
    start = partitions().game.position()
    third, fourth = partitions("a1", "b2", "d4"), partitions("a1", "b2", "d4", "e5")
    units = 1_500  # 7,500 nodes: far deeper than any recursion could follow
    nodes = 5 * units
    body = f"\n;SP[{start}];W[a1];B[b2];W[d4];B[e5]" * units
    path = tmp_path / "deep.sgf"
    path.write_text(f"(;FF[4]GM[1000]GA[partitions]SZ[5]{body}\n;W[c3])")
    session = Session.load(path, tmp_path / "autosave.sgf")
    assert session.move_number() == nodes + 1
    assert [session.game.move_name(m) for m in session.game.moves] == [
        *("a1", "b2", "d4", "e5", "c3")
    ]
    session.undo()
    assert session.game.position() == fourth.game.position()
    session.back()
    assert session.game.position() == third.game.position()
    session.play("c3")  # a new main line: the rest of the chain kept as a variation
    assert session.move_number() == nodes
    assert session.flush()
    again = Session.load(tmp_path / "autosave.sgf")
    assert again.move_number() == nodes and again.game.position() == session.game.position()


def test_loading_fails_only_with_the_record_error_or_the_disks(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1000]GA[pilo]SZ[6]\n;SP[pilo size=6 b\u00b2])")
    with pytest.raises(RecordError, match=r"^line 2: the setup position SP"):
        Session.load(bad)
    with pytest.raises(OSError):
        Session.load(tmp_path)  # a folder
    with pytest.raises(OSError):
        Session.load(tmp_path / "missing.sgf")
