"""How the play screen says a move: who played it (as line mode says it), the computer's
time with its move, the swap's taking over of the first colour, and whose turn it is then."""

from __future__ import annotations

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules import SWAP
from abstracts_tui.session import Change, Changed, Session
from abstracts_tui.tui.play_news import move_news


def test_the_computers_swap_says_its_time_before_what_it_takes_over() -> None:
    session = Session.start(Setup("pilo", 6, first="Ann", second="Computer", second_level="easy"))
    session.play("c3")
    session.play(SWAP)
    said = move_news(
        session, Changed(Change.MOVE, 1, "Computer", "swap"), analysing=False, thought=0.04, kept=""
    )
    assert said == (
        "Orange (Computer) swaps in under 0.1 s: Computer now plays Blue. Orange to move (Ann)."
    )


def test_a_move_says_its_time_after_the_move() -> None:
    session = Session.start(Setup("pilo", 6, first="Computer", first_level="easy", second="Bob"))
    session.play("c3")
    said = move_news(
        session, Changed(Change.MOVE, 0, "Computer", "c3"), analysing=False, thought=1.23, kept=""
    )
    assert said == "Blue (Computer) plays c3 in 1.2 s. Orange to move (Bob)."
