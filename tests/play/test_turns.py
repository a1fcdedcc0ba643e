"""Whose turn it is and what to ask, without an app: `Turns` over a session."""

from __future__ import annotations

from abstracts_tui.game_setup import Setup
from abstracts_tui.play.turns import Ask, Request, Turns
from abstracts_tui.rules import SWAP
from abstracts_tui.session import Phase, Session


def petrify() -> Turns:
    return Turns(Session.start(Setup("petrify", 6, first="Ann", second="Bob")))


def test_the_pie_rule_is_offered_after_the_first_move_only() -> None:
    turns = petrify()
    assert turns.request() is None
    assert turns.play("c3") is None
    assert turns.request() == Request(Ask.PIE, "Bob")
    assert turns.play("d4") is None
    assert turns.request() is None


def test_the_pie_rule_is_offered_again_after_the_swap_is_taken_back() -> None:
    turns = petrify()
    turns.play("c3")
    assert turns.swap() is None
    assert turns.session.game.moves[-1] == SWAP
    assert turns.session.person(0) == "Bob"
    assert turns.request() is None  # Ann (now Orange) moves
    assert turns.undo().startswith("Took back 1 move.")
    assert turns.request() == Request(Ask.PIE, "Bob")
    # Also after the reply that declined it is taken back.
    turns.play("d4")
    turns.undo()
    assert turns.request() == Request(Ask.PIE, "Bob")


def test_komi_then_side_are_asked_of_the_right_people() -> None:
    turns = Turns(Session.start(Setup("linage", 5, first="Ann", second="Bob")))
    assert turns.request() == Request(Ask.KOMI, "Ann")
    turns.set_komi("2.5")
    assert turns.request() == Request(Ask.SIDE, "Bob")
    turns.choose_side(0)  # Bob takes Vertical, which moves first
    assert turns.session.phase is Phase.PLAY
    assert turns.session.person(0) == "Bob"
    assert turns.request() is None


def test_the_computer_is_asked_for_its_decisions_and_its_reply_is_taken_back_too() -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")
    turns = Turns(Session.start(setup))
    turns.play("a1")
    assert turns.request() == Request(Ask.COMPUTER, "Computer", "easy")
    turns.decided(turns.session.game.legal_moves()[0])
    assert turns.undo() == "Took back 2 moves. White to move (Ann)."
    assert turns.session.game.moves == []


def test_a_watcher_may_not_move_and_a_player_only_in_turn() -> None:
    session = Session.start(Setup("partitions", 5, first="ann", second="bob"))
    watcher = Turns(session, local_people=frozenset(), shared=True)
    bob = Turns(session, local_people=frozenset({"bob"}), shared=True)
    assert watcher.watching and not bob.watching
    assert watcher.play("a1") == "You are watching: ann and bob make the moves."
    assert bob.play("a1") == "Not played: it is ann's turn."
    assert bob.undo() == "Taking back a move is not possible in a shared game."
    assert session.game.moves == []


def test_passing_is_offered_only_where_it_is_legal() -> None:
    linage = Turns(Session.start(Setup("linage", 5, komi=0.5)))
    assert not linage.can_pass()  # sides are chosen first
    linage.choose_side(0)
    assert linage.can_pass()  # always, in Linage (docs/rules.md, Linage: passing and the end)
    # Petrify only when no board play is left (docs/rules.md, Petrify: passing and the end).
    assert not petrify().can_pass()
    assert not Turns(Session.start(Setup("partitions", 5))).can_pass()
    assert not Turns(Session.start(Setup("egotzi", 5))).can_pass()
