"""Line mode's room asks komi, the side and the pie rule's question, and says whose turn it
is, from the play model's turns (`play.turns.Turns`, as the full-screen app's room screen
does): a real room, its store SQLite, followed from a session's thread."""

from __future__ import annotations

from pathlib import Path

from abstracts_tui.commands import Play, SetKomi
from abstracts_tui.game_setup import Setup
from tests.play.test_offer_cases import Case, check, run_lines


def test_komi_then_the_side_are_asked_of_whom_they_are_for(tmp_path: Path) -> None:
    case = Case(
        "komi set by ann, then bob's side, then ann's turn",
        0,
        (SetKomi(2.5), "komi 3", "second", "a1"),
        (
            "ann sets komi before the first move.",
            "ann sets komi 2.5.",
            "bob, which colour do you take?",
            "Type first for Vertical or second for Horizontal.",
            "Sent: Horizontal, waiting for the server.",
            "bob takes Horizontal.",
            "Vertical to move (ann).",
            "Not played: it is ann's turn.",
        ),
        0,
        setup=Setup("linage", 5),
    )
    check(case, *run_lines(case, tmp_path))


def test_a_move_is_sent_then_played_and_the_pie_rule_asked_of_the_second_player(
    tmp_path: Path,
) -> None:
    case = Case(
        "ann's first move, bob asked to swap, then bob's move sent",
        0,
        (Play("d4"), "play on", "c3", "e5"),
        (
            "bob, you may swap",
            "bob plays on: type a move.",
            "Sent: c3, waiting for the server.",
            "Orange (bob) plays c3.",
            "Blue to move (ann).",
            "Not played: it is ann's turn.",
        ),
        2,
    )
    check(case, *run_lines(case, tmp_path))
