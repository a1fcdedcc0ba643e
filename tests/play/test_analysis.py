"""Analysis without an app: stepping through a record, its variations, the main line,
comments and jumps, each with the sentence a front end says."""

from __future__ import annotations

from abstracts_tui.game_setup import Setup
from abstracts_tui.play.analysis import END, START, Analysis
from abstracts_tui.session import Session


def partitions(*moves: str) -> Session:
    session = Session.start(Setup("partitions", 5, first="Ann", second="Bob"))
    for move in moves:
        session.play(move)
    return session


def with_variation() -> Session:
    """a1 b2 c3 on the main line; after a1, e5 tried in place of b2 (shown now)."""
    session = partitions("a1", "b2", "c3")
    session.jump(1)
    session.play("e5", branch=True)
    return session


def test_steps_say_the_move_and_stop_at_either_end() -> None:
    session = partitions("a1", "b2")
    analysis = Analysis(session)
    assert analysis.back() == f"Move 1. {session.turn_text()}."
    assert analysis.to_start().startswith("Move 0.")
    assert analysis.back() == START
    assert analysis.to_end().startswith("Move 2.")
    assert analysis.forward() == END
    assert session.move_number() == 2


def test_a_leap_stops_at_the_ends_of_the_line() -> None:
    session = partitions("a1", "b2", "c3")
    analysis = Analysis(session)
    assert analysis.leap(-10).startswith("Move 0.")
    assert analysis.leap(-10) == START
    assert analysis.leap(10).startswith("Move 3.")
    assert analysis.leap(10) == END


def test_a_step_says_the_comment_kept_there() -> None:
    session = partitions("a1", "b2")
    analysis = Analysis(session)
    assert analysis.comment("a fine move") == "Comment kept."
    analysis.back()
    assert analysis.forward().endswith(" Comment: a fine move")
    assert analysis.comment("  ") == "Comment removed."
    assert session.node.comment == ""


def test_a_move_number_is_read_within_the_line_only() -> None:
    analysis = Analysis(partitions("a1", "b2", "c3"))
    assert analysis.move_number(" 2 ") == 2
    assert analysis.move_number("4") is None
    assert analysis.move_number("²") is None  # digits of ASCII only
    assert analysis.jump_check("x") == "a number from 0 (the start) to 3"
    assert analysis.jump_check("0") is None
    assert analysis.jump(2).startswith("Move 2.")


def test_variations_are_stepped_through_round_the_list() -> None:
    session = with_variation()
    analysis = Analysis(session)
    assert analysis.variation(1) == f"Variation 1 of 2: {session.turn_text()}."
    assert session.node.move == "b2"
    assert analysis.variation(1).startswith("Variation 2 of 2")
    analysis.to_start()
    assert analysis.variation(1) == "No other move was tried here."


def test_the_main_line_is_where_a_variation_left_it() -> None:
    session = with_variation()
    analysis = Analysis(session)
    assert analysis.branch_point().move == "a1"
    assert analysis.main_line("M").startswith("Back to the main line, move 1:")
    assert session.on_main_line()
    assert analysis.main_line("M") == (
        "This is the main line already (M makes the line shown the main line)."
    )


def test_promoting_asks_first_and_then_swaps_the_lines() -> None:
    session = with_variation()
    analysis = Analysis(session)
    question = analysis.promote_question("m")
    assert question is not None and "from move 2 on become a variation" in question
    assert analysis.promote() == (
        "This line is now the main line; the one it replaced is a variation."
    )
    assert [n.move for n in session.record.root.mainline()] == ["a1", "e5"]
    assert analysis.promote_question("m") is None  # on the main line now


def test_only_a_variation_is_deleted() -> None:
    session = with_variation()
    analysis = Analysis(session)
    assert analysis.delete_question() == "Delete this variation (1 position from here on)?"
    assert analysis.delete() == "Variation deleted."
    assert session.node.move == "a1"  # back where it branched
    assert [n.move for n in session.node.children] == ["b2"]
    assert analysis.delete_question() is None  # the main line stays


def test_the_comment_prompt_names_the_move_or_the_game() -> None:
    session = partitions("a1")
    analysis = Analysis(session)
    assert analysis.comment_prompt() == "A comment on move 1 (saved with the record):"
    analysis.to_start()
    assert analysis.comment_prompt() == "A comment on the game (saved with the record):"
