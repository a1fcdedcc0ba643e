"""A game review without an app: kept with the positions it reviewed, its mistakes in
the order of the game and by size, and going to one of them."""

from __future__ import annotations

from abstracts_tui.engine.review import MoveReview, Review
from abstracts_tui.game_setup import Setup
from abstracts_tui.play.review import NO_MISTAKE, Reviews, next_biggest, next_mistake
from abstracts_tui.session import Session


def reviewed(*losses: float) -> tuple[Session, Reviews, Review]:
    """A game of as many moves as `losses`, each move losing that much for its mover."""
    session = Session.start(Setup("partitions", 5, first="Ann", second="Bob"))
    for move in ("a1", "b2", "c3", "d4", "e5")[: len(losses)]:
        session.play(move)
    moves = tuple(
        MoveReview(n, 0, f"m{n}", (n - 1) % 2, (n - 1) % 2, 0.6, 0.6 - loss, "best")
        for n, loss in enumerate(losses, start=1)
    )
    review = Review((0.5,) * (len(losses) + 1), moves, 600)
    return session, Reviews(session), review


def test_a_finished_review_is_kept_with_its_figures_and_its_accuracy_said() -> None:
    _, reviews, review = reviewed(0.0, 0.2, 0.1)
    nodes = tuple(reviews.line())
    said = reviews.done(nodes, review)
    assert said.startswith("Reviewed 3 moves. Accuracy: Ann ")
    assert reviews.review is review and reviews.nodes == nodes
    assert all(node.evaluation == 0.5 for node in nodes)
    assert all(node.evaluated_with == 150 for node in nodes)


def test_a_review_stopped_early_says_how_far_it_went() -> None:
    _, reviews, review = reviewed(0.0, 0.2, 0.1)
    nodes = (*reviews.line(), reviews.line()[-1])  # one more position than reviewed
    assert reviews.done(nodes, review).startswith("Review stopped: 3 of 4 moves.")
    empty = Review((0.5,), (), 0)
    assert reviews.done(nodes, empty) == "Review stopped before its first move; 4 moves to review."


def test_the_mistakes_are_stepped_through_in_order_and_by_size() -> None:
    session, reviews, review = reviewed(0.0, 0.2, 0.1, 0.3)
    reviews.done(tuple(reviews.line()), review)
    session.jump(0)
    assert reviews.next_mistake(1) == 2
    assert reviews.next_mistake(-1) == 4  # round the end
    assert reviews.biggest() == 4
    said = reviews.go_to(4)
    assert said == "Move 4: Bob played m4 here and lost 30.0%; the review's best: best."
    assert session.move_number() == 3  # the position the move was played in
    assert reviews.shown_mistake() == 4
    assert reviews.biggest() == 2  # from the biggest, the next biggest
    assert reviews.go_to(9) is None


def test_without_a_review_or_a_mistake_there_is_none_to_go_to() -> None:
    _, reviews, review = reviewed(0.0, 0.0)
    assert reviews.next_mistake(1) is None and reviews.biggest() is None
    reviews.done(tuple(reviews.line()), review)
    assert next_mistake(review, 0, 1) is None and next_biggest(review, None) is None
    assert NO_MISTAKE == "The review found no mistake."
