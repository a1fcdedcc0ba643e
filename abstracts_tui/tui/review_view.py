"""A game review in the analysis panel: each person's accuracy and biggest mistakes, each
mistake a link to its position.

Plain functions from a `Review` to text, so that they can be tested without a screen;
which mistakes are listed, and in which order the keys go through them, is
`abstracts_tui/play/review.py`'s.
Losses are the mover's: how much of their own chance the move gave away, as in
`abstracts-tui review`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ..engine.review import Review
from ..play.review import SHOWN_MISTAKES


def mistake_line(review: Review, number: int) -> int | None:
    """The line of `review_text` that lists mistake `number` (0 for its first line);
    None if it is not listed."""
    line = 1
    for person in (0, 1):
        found = review.mistakes(person, SHOWN_MISTAKES)
        numbers = [m.number for m in found]
        if number in numbers:
            return line + 1 + numbers.index(number)
        line += 1 + max(1, len(found))
    return None


def review_text(
    review: Review, names: Sequence[str], colours: Sequence[str], shown: int | None = None
) -> Text:
    """`Review (chance the mover lost)`, then per person the accuracy and the biggest
    mistakes (`    5. e5     -10.8% b3`: move 5, e5 lost 10.8 points, the review's best was
    b3), mistake `shown` in reverse video; a click on a mistake goes to it."""
    text = Text("Review (chance the mover lost)\n")
    for person, name in enumerate(names):
        accuracy = review.accuracy(person)
        figure = "-" if accuracy is None else f"{accuracy:.0f}"
        text.append(f"{name} ({colours[person].capitalize()}) accuracy {figure}\n")
        found = review.mistakes(person, SHOWN_MISTAKES)
        if not found:
            text.append("  no move lost anything\n")
        for m in found:
            best = f" {m.best}" if m.best else ""
            line = f"  {m.number:>3}. {m.name:<6}{-100 * m.loss:6.1f}%{best}"
            click = Style(meta={"@click": f"screen.study('go_to_mistake', {m.number})"})
            text.append(line, click + Style(reverse=True) if m.number == shown else click)
            text.append("\n")
    text.append("! the biggest first, . , in order,\nor a click: go to a mistake")
    return text


def progress_text(done: int, total: int) -> str:
    return f"Reviewing: {done} of {total} positions\n(% or Esc stops)"
