"""The search's figures in words: the side to move's chance and, beside it, by how much
it is expected to lead or trail at the count, the same in hints, the app's panel and line
mode; a proof is said without figures, and a score from a handful of playouts not at all."""

from __future__ import annotations

from abstracts_tui.chances import (
    Hint,
    candidate_chance,
    candidate_words,
    chance_words,
    hint_words,
    percent,
    score_words,
)
from abstracts_tui.engine.calibration import calibrated
from abstracts_tui.engine.search import Budget, Search
from abstracts_tui.engine.terms import Candidate
from abstracts_tui.rules import Game, new_game
from abstracts_tui.tui.analysis_view import eval_bar


def orange_to_move() -> Game:
    game = new_game("petrify", size=6)
    game.play("c3")
    return game


def test_the_score_is_said_beside_the_chance() -> None:
    game = orange_to_move()
    assert chance_words(game, 0.45, score=-2.5) == "Orange's chance 45%, behind by 2.5"
    assert chance_words(game, 0.62, score=3.0) == "Orange's chance 62%, ahead by 3"
    assert chance_words(game, 0.5, score=0.04) == "Orange's chance 50%, level"
    assert chance_words(game, 0.5) == "Orange's chance 50%"


def test_a_score_is_said_to_a_tenth_of_a_point() -> None:
    assert score_words(3.04) == "ahead by 3"
    assert score_words(-0.25) == "behind by 0.2"
    assert score_words(12.96) == "ahead by 13"
    assert score_words(-0.04) == "level"


def test_a_proof_is_said_without_a_score() -> None:
    game = orange_to_move()
    assert chance_words(game, 1.0, "win", score=-0.5) == "Orange wins by force"
    assert chance_words(game, 0.0, "loss", score=4.0) == "Orange loses by force"


def test_a_candidate_says_its_score_once_enough_playouts_gave_it() -> None:
    game = orange_to_move()
    move = game.parse_move("d4")
    seen = Candidate(move, 1200, 0.61, (move,), score=1.5)
    chance = percent(calibrated("petrify", 6, 0.61))  # the figure shown, not the raw one
    assert candidate_words(game, seen) == f"Orange's chance {chance}, ahead by 1.5"
    assert candidate_chance(game, seen) == (
        f"d4: Orange's chance {chance}, ahead by 1.5, 1,200 playouts; the line d4."
    )
    # Visited often, but scored by three playouts only (a proof answered the rest).
    proven = Candidate(move, 900, 1.0, (move,), "win", score=-1.0, scored=3)
    assert proven.shown_score is None
    assert candidate_words(game, proven) == "Orange wins by force"
    unscored = Candidate(move, 900, 0.7, (move,), score=None)
    assert (
        candidate_words(game, unscored)
        == f"Orange's chance {percent(calibrated('petrify', 6, 0.7))}"
    )
    few = Candidate(move, 4, 0.75, (move,), score=2.0)
    assert candidate_words(game, few) == "too few playouts to judge"


def test_a_hint_says_the_score_of_its_move() -> None:
    game = new_game("egotzi", size=5, variant="squared", komi=4)
    game.play("c3")
    search = Search(game, seed=2)
    search.run(Budget(playouts=2000))
    found = search.candidates()
    hint = Hint.best_of(found)
    assert hint is not None
    assert hint.score == found[0].score and hint.score is not None
    words = hint_words(game, hint)
    assert words.startswith(f"Hint: {game.move_name(hint.move)} - White's chance ")
    assert f", {score_words(hint.score)} (best of {len(found)} moves tried)" in words


def test_the_panels_bar_says_the_score_under_it() -> None:
    bar = eval_bar(0.38, orange_to_move(), score=-1.5)  # Blue's 38%: Orange's 62%
    assert bar.splitlines()[1] == "Orange's chance 62%, behind by 1.5"
