"""Setting up a position without an app: when it may be done, the check of a position
string, and the position put in the record."""

from __future__ import annotations

from abstracts_tui.game_setup import Setup
from abstracts_tui.play.setup import NOT_SHARED, SET_UP_FROM_STRING, SetUp, position_check
from abstracts_tui.session import Session


def test_komi_and_sides_come_before_a_set_up() -> None:
    session = Session.start(Setup("linage", 5, first="Ann", second="Bob"))
    assert SetUp(session).refusal() == "Set komi and sides first."
    assert SetUp(Session.start(Setup("pilo", 6))).refusal() is None


def test_a_position_string_is_checked_and_set_up() -> None:
    session = Session.start(Setup("pilo", 6, first="Ann", second="Bob"))
    session.play("c3")
    position = session.game.position()
    session.undo()
    assert position_check(session.game, "no position") is not None
    assert position_check(session.game, f"  {position} ") is None
    said, done = SetUp(session).set_up(position)
    assert done and said == "Position set up: play or analyse from here."
    assert session.game.position() == position


def test_a_wrong_position_is_refused_with_the_rules_words() -> None:
    session = Session.start(Setup("pilo", 6))
    said, done = SetUp(session).set_up("no position")
    assert not done and said.startswith("Not set up: ")
    assert session.game.moves == []


def test_a_string_as_shown_changes_nothing_and_a_shared_game_takes_none() -> None:
    session = Session.start(Setup("pilo", 6))
    set_up = SetUp(session)
    assert set_up.from_string(session.game.position(), shared=False) is None
    assert set_up.from_string(" ", shared=False) is None
    other = Session.start(Setup("pilo", 6))
    other.play("c3")
    assert set_up.from_string(other.game.position(), shared=True) == (NOT_SHARED, False)
    said, done = set_up.from_string(other.game.position(), shared=False) or ("", False)
    assert done and said == SET_UP_FROM_STRING
