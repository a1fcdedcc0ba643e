"""The game saved is the game as shown: a move taken back in play leaves the record (and
is kept for redo), and the record opens where the player was (stepping in analysis, a
variation, a set-up position). Each case reads back the file the session wrote."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from abstracts_tui.game_setup import Setup
from abstracts_tui.play.turns import Turns
from abstracts_tui.records import Record, RecordNode
from abstracts_tui.session import Session
from tests.test_game_clocks import clocked


def partitions(autosave: Path, *moves: str) -> Session:
    session = Session.start(Setup("partitions", 5, first="Ann", second="Bob"), autosave)
    for move in moves:
        session.play(move)
    return session


def names(nodes: Iterable[RecordNode]) -> list[str | None]:
    return [node.move for node in nodes]


def written(session: Session) -> Record:
    """The autosave file as the session has written it."""
    assert session.flush() and session.autosave_path is not None
    return Record.load(session.autosave_path)


def reopened(session: Session) -> Session:
    """The game as the next start resumes it from the autosave file."""
    return Session(written(session))


def test_a_move_taken_back_leaves_the_autosave(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2")
    assert session.undo()
    record = written(session)
    assert names(record.root.mainline()) == ["a1"]
    assert "SHOWN" not in record.to_sgf()  # it opens at the end of its main line
    again = reopened(session)
    assert names(again.path()) == ["a1"]
    assert again.game.position() == session.game.position()
    assert again.turn_text() == "Black to move (Bob)"


def test_redo_plays_the_moves_taken_back_again_in_order_with_their_clock_times() -> None:
    session, time = clocked("5m+3s")
    time.wait(10)
    session.play("c3")
    time.wait(40)
    session.play("d4")
    time.wait(5)
    session.play("e5")
    times = [node.time_left for node in session.path()]
    assert all(times)
    for _ in range(3):
        assert session.undo()
    assert session.record.root.children == [] and session.game.moves == []
    time.wait(100)  # thinking before replaying charges nothing: the times are the old ones
    for _ in range(3):
        assert session.redo()
    assert names(session.path()) == ["c3", "d4", "e5"]
    assert [node.time_left for node in session.path()] == times
    assert names(session.record.root.mainline()) == ["c3", "d4", "e5"]
    clock = session.clock
    assert clock is not None and clock.left(0, time.now).main == 300 - 10 + 3 - 5 + 3
    assert not session.redo()


def test_a_new_move_after_a_takeback_keeps_the_old_line_as_a_variation(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    session.undo()
    session.undo()
    assert names(written(session).root.mainline()) == ["a1"]
    session.play("d4")
    record = written(session)
    assert names(record.root.mainline()) == ["a1", "d4"]
    [first] = record.root.children
    assert names(first.children) == ["d4", "b2"]  # the old line after the new move, whole
    assert names(first.children[1].children) == ["c3"]
    assert names(reopened(session).path()) == ["a1", "d4"]


def test_the_move_taken_back_played_again_is_that_move_and_redo_goes_on(
    tmp_path: Path,
) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    session.undo()
    session.undo()
    session.play("b2")
    assert names(session.record.root.children[0].children) == ["b2"]  # not twice
    assert names(written(session).root.mainline()) == ["a1", "b2"]
    assert session.redo() and names(session.path()) == ["a1", "b2", "c3"]


def test_undo_inside_a_line_is_a_step_and_the_record_opens_there(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    session.back()  # analysis steps back to a1
    session.back()
    assert session.undo()  # in play: a1 has moves after it, so it stays
    assert session.game.moves == []
    record = written(session)
    assert names(record.root.mainline()) == ["a1", "b2", "c3"]
    assert record.shown is record.root
    again = reopened(session)
    assert again.game.moves == [] and again.turn_text() == "White to move (Ann)"
    assert again.redo() and names(again.path()) == ["a1"]  # the line is there to follow


def test_stepping_back_in_analysis_is_saved_where_it_stands(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    session.back()
    record = written(session)
    assert names(record.root.mainline()) == ["a1", "b2", "c3"]  # a step takes nothing back
    assert record.shown is not None and names(record.shown.line()) == ["a1", "b2"]
    assert names(reopened(session).path()) == ["a1", "b2"]
    session.jump(3)  # back at the end: no mark
    assert written(session).shown is None


def test_a_variation_made_in_analysis_is_saved_where_it_stands(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    session.jump(1)
    session.play("e5", branch=True)
    record = written(session)
    assert names(record.root.mainline()) == ["a1", "b2", "c3"]
    again = reopened(session)
    assert names(again.path()) == ["a1", "e5"] and not again.on_main_line()
    assert again.game.position() == session.game.position()


def test_a_position_set_up_is_saved_where_it_stands(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    later = partitions(tmp_path / "other.sgf", "a1", "e5").game.position()
    session.jump(1)
    session.set_up(later)
    record = written(session)
    assert names(record.root.mainline()) == ["a1", "b2", "c3"]
    assert record.shown is not None and record.shown.setup == later
    again = reopened(session)
    assert again.node.setup == later and again.game.position() == later


def test_ctrl_s_writes_the_game_as_shown(tmp_path: Path) -> None:
    session = partitions(tmp_path / "game.sgf", "a1", "b2", "c3")
    session.undo()
    session.save(tmp_path / "after-undo.sgf")
    saved = Record.load(tmp_path / "after-undo.sgf")
    assert names(saved.root.mainline()) == ["a1", "b2"] and saved.shown is None
    session.back()
    session.save(tmp_path / "after-a-step.sgf")
    saved = Record.load(tmp_path / "after-a-step.sgf")
    assert names(saved.root.mainline()) == ["a1", "b2"]
    assert saved.shown is not None and names(saved.shown.line()) == ["a1"]


def test_undo_against_the_computer_takes_both_moves_out_of_the_record(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")
    turns = Turns(Session.start(setup, tmp_path / "game.sgf"))
    session = turns.session
    turns.play("a1")
    turns.decided(session.game.legal_moves()[0])
    reply = session.node.move
    assert turns.undo() == "Took back 2 moves. White to move (Ann)."
    # No move left: not a game in progress, so its file is gone (until a move is made).
    assert session.flush() and session.autosave_path is not None
    assert not session.autosave_path.exists()
    assert turns.redo().startswith("Replayed 2 moves.")
    assert names(session.path()) == ["a1", reply]  # the reply too, back to Ann's turn
    assert names(written(session).root.mainline()) == ["a1", reply]


def test_taking_back_the_last_move_of_a_finished_game_reopens_it(tmp_path: Path) -> None:
    session = Session.start(Setup("linage", 5, komi=0.5), tmp_path / "game.sgf")
    session.choose_side(0)
    session.play("pass")
    session.play("pass")
    assert session.over and written(session).result
    session.undo()
    record = written(session)
    assert record.result == "" and names(record.root.mainline()) == ["pass"]
