"""A game review at one screen: the review of the line shown, kept with the positions
it reviewed, its mistakes in order and by size, and going to one of them.

Losses are the mover's: how much of their own chance the move gave away, as in
`abstracts-tui review`. Each command returns the sentence that says what it did.
"""

from __future__ import annotations

from ..engine.review import MoveReview, Review, person_names
from ..records import RecordNode
from ..session import Session

SHOWN_MISTAKES = 3
"""Mistakes listed per person (as `abstracts-tui review` does by default)."""
NO_MISTAKE = "The review found no mistake."


def mistakes_in_order(review: Review) -> list[MoveReview]:
    """The mistakes listed, in the order of the game (the keys step through them in this
    order)."""
    listed = [m for person in (0, 1) for m in review.mistakes(person, SHOWN_MISTAKES)]
    return sorted(listed, key=lambda m: m.number)


def next_mistake(review: Review, here: int, step: int) -> int | None:
    """The number of the listed mistake after (`step` 1) or before (-1) the position
    `here` (0 at the start of the reviewed line, -1 off it), round the end; None if none.
    A mistake's position is the one its move was played in: its number - 1."""
    numbers = [m.number for m in mistakes_in_order(review)]
    if not numbers:
        return None
    if step > 0:
        return next((n for n in numbers if n - 1 > here), numbers[0])
    return next((n for n in reversed(numbers) if n - 1 < here), numbers[-1])


def next_biggest(review: Review, shown: int | None) -> int | None:
    """The number of the listed mistake that lost most, or, where `shown` is the number
    of a listed mistake, the one that lost most after it (round to the biggest again);
    None if none."""
    numbers = [m.number for m in sorted(mistakes_in_order(review), key=lambda m: -m.loss)]
    if not numbers:
        return None
    if shown in numbers:
        return numbers[(numbers.index(shown) + 1) % len(numbers)]
    return numbers[0]


class Reviews:
    """The last review of one session's line (None before any) and the commands on it."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.review: Review | None = None
        self.nodes: tuple[RecordNode, ...] = ()
        """The positions `review` evaluated, in order."""

    def line(self) -> list[RecordNode]:
        """The positions of the line shown, from its start: what a review reviews."""
        session = self.session
        return [session.record.root, *session.line_nodes()]

    def names(self) -> list[str]:
        """The people's names (else their colours'), by the colour they began with."""
        game = self.session.game
        return person_names(self.session.record.players, game.info.colours)

    def done(self, nodes: tuple[RecordNode, ...], review: Review) -> str:
        """Keep `review` of `nodes` and its win rates as their evaluations (a longer
        search of a position since replaces its figure, as before); what to say of it."""
        total = len(nodes) - 1
        if not review.moves:
            return f"Review stopped before its first move; {total} moves to review."
        self.review, self.nodes = review, nodes
        playouts = review.playouts // max(1, len(review.evaluations))
        scores = review.scores or (None,) * len(review.evaluations)
        for node, value, score in zip(nodes, review.evaluations, scores, strict=False):
            node.evaluation, node.evaluated_with, node.score = value, playouts, score
        accuracy = ", ".join(
            f"{name} {figure:.0f}"
            for person, name in enumerate(self.names())
            if (figure := review.accuracy(person)) is not None
        )
        done = f"Reviewed {total} moves" if len(review.moves) == total else "Review stopped"
        if len(review.moves) < total:
            done = f"Review stopped: {len(review.moves)} of {total} moves"
        return f"{done}. Accuracy: {accuracy or '-'}."

    def shown_mistake(self) -> int | None:
        """The number of the review's move played in the position shown, if any."""
        node = self.session.node
        if self.review is None or node not in self.nodes:
            return None
        number = self.nodes.index(node) + 1
        return number if number <= len(self.review.moves) else None

    def next_mistake(self, step: int) -> int | None:
        """The review's next (`step` 1) or previous (-1) mistake from the position shown,
        in the order of the game; None if there is none (or no review)."""
        if self.review is None:
            return None
        node = self.session.node
        here = self.nodes.index(node) if node in self.nodes else -1
        return next_mistake(self.review, here, step)

    def biggest(self) -> int | None:
        """The review's biggest mistake; from one of its mistakes, the next biggest."""
        if self.review is None:
            return None
        return next_biggest(self.review, self.shown_mistake())

    def go_to(self, number: int) -> str | None:
        """Show the position in which the review's move `number` was played; what to say
        of the move (None if the review has no such move)."""
        review = self.review
        if review is None or not 1 <= number <= len(review.moves):
            return None
        self.session.go_to(self.nodes[number - 1])
        m = review.moves[number - 1]
        name = self.names()[m.person]
        best = f"; the review's best: {m.best}" if m.best else ""
        return f"Move {number}: {name} played {m.name} here and lost {m.loss:.1%}{best}."
