"""How line mode says a move: what it changed beside its own cells, in the rules' words
(docs/rules.md), for a player who cannot see the board."""

from __future__ import annotations

from abstracts_tui.rules import new_game
from abstracts_tui.words import move_words


def said(name: str, moves: list[str], size: int) -> str:
    """How line mode says the last of `moves`, played from the start."""
    game = new_game(name, size=size)
    for text in moves[:-1]:
        game.play(game.parse_move(text))
    before = game.copy()
    move = game.parse_move(moves[-1])
    game.play(move)
    return move_words(before, game, move, "Ann")


def test_a_petrify_capture_says_the_block_it_leaves() -> None:
    assert said("petrify", ["c3", "c5", "c3-c5"], 8) == (
        "Blue (Ann) moves c3 to c5, capturing Orange, leaving a block on c3."
    )


def test_an_egotzi_placement_says_where_each_pushed_stone_went() -> None:
    # White's d3 pushes Black's c3 along the row to b3.
    assert said("egotzi", ["c3", "d3"], 5) == "White (Ann) plays d3, pushing c3 to b3."
    # Black's c4 pushes d4 right to e4 and c3 down to c2 (Egotzi's rules, pushes): the
    # row's first, then the column's; no stone is said to be captured.
    assert said("egotzi", ["d4", "c3", "c4"], 7) == (
        "Black (Ann) plays c4, pushing d4 to e4, c3 to c2."
    )


def test_a_placement_that_changes_nothing_else_says_only_itself() -> None:
    assert said("linage", ["f6"], 11) == "Vertical (Ann) plays f6."
