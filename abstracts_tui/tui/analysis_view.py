"""The analysis panel in words: the evaluation bar, the candidates and the win-rate graph.

Plain functions from search results to text, so that they can be tested without a
screen. A figure of the position shown is the chance of the side to move, named as such
(the bar, the candidates and the hint alike, in `chances.py`'s words, which line mode
says too); the graph over the game, which needs one side throughout, is the first
colour's and its title says so. A figure from fewer than `UNCERTAIN_VISITS` visits
carries a `?`, a result the search proved a `!`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..chances import TOO_FEW, Hint, chance_words, hint_words, mover
from ..chances import percent as percent  # the graph says its figures alike
from ..engine.calibration import candidate_winrate
from ..engine.search import Candidate, Search
from ..engine.terms import line_names
from ..rules import Game

BAR_WIDTH = 26
UNICODE_LEVELS = " ▁▂▃▄▅▆▇█"
ASCII_LEVELS = " .-=#"
UNCERTAIN_VISITS = 100
"""Below this many visits a win rate is marked `?`: it may still change a lot."""
SHOWN_CANDIDATES = 3
RATE_AFTER = 0.2
"""Seconds of search before its playouts per second are shown (before, they jump)."""


def first_colour(game: Game) -> str:
    return game.info.colours[0].capitalize()


def first_share(game: Game, winrate: float) -> float:
    """`winrate` for the side to move in `game`, as the first colour's (and the other way
    round: the first colour's as the side to move's)."""
    return winrate if game.turn == 0 else 1 - winrate


def live_rate(search: Search) -> float | None:
    """The playouts per second of `search` so far, the run under way included; None
    while it has run too short a time to say."""
    return search.playouts_per_second if search.seconds >= RATE_AFTER else None


def proven_text(game: Game, proven: str) -> str:
    """The position's result the search proved (`win`, `loss` or `draw` for the side to
    move), in the first colour's terms: `Proven: Blue wins`."""
    if proven == "draw":
        return "Proven: a draw"
    winner = game.turn if proven == "win" else 1 - game.turn
    return f"Proven: {game.colour_name(winner).capitalize()} wins"


def mark(candidate: Candidate) -> str:
    """`!` when the search proved the result (searches that prove results say so), `?`
    when the visits are too few to trust the figure, else a space."""
    if candidate.proven:
        return "!"
    return "?" if candidate.visits < UNCERTAIN_VISITS else " "


def figure(game: Game, candidate: Candidate) -> str:
    """The side to move's chance with `candidate`, with its mark: `61% `, `91%?`; a proof
    `100%!` or `0%!` (only a proof reads 100% or 0%); `-?` where the visits are too few
    for any figure (`Candidate.few_visits`)."""
    shown = candidate_winrate(candidate, game)
    if shown is None:
        return "-?"
    return percent(shown, candidate.proven) + mark(candidate)


def shown_candidates(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates the panel lists and the board marks: the most visited first."""
    return sorted(candidates, key=lambda c: -c.visits)[:SHOWN_CANDIDATES]


def eval_bar(
    first_winrate: float, game: Game, *, ascii: bool = False, score: float | None = None
) -> str:
    """The side to move's share of a bar, and its chance named below it (`first_winrate`
    is the first colour's, as the record keeps it), with its expected `score` (the side
    to move's, e.g. the search's best candidate's `shown_score`) when given:

    `██████████░░░░░░`
    `Orange's chance 62%, ahead by 1.5`
    """
    share = first_share(game, first_winrate)  # the first colour's is the mover's or not
    filled = round(share * BAR_WIDTH)
    full, empty = ("#", "-") if ascii else ("█", "░")
    words = chance_words(game, share, score=score)
    return f"{full * filled}{empty * (BAR_WIDTH - filled)}\n{words}"


def candidates_text(
    game: Game, candidates: Sequence[Candidate], playouts: int, rate: float | None = None
) -> str:
    """The candidates in visit order under column headers, the side to move's chance
    with each (the header names the side), and the best line. `rate` is playouts per
    second, when known."""
    if not candidates:
        return "No move to search." if game.is_over() else "Searching..."
    speed = f" ({rate:,.0f}/s)" if rate else ""
    head = f"{mover(game)}'s chance"
    names = [game.move_name(candidate.move) for candidate in candidates]
    counts = [f"{candidate.visits:,}" for candidate in candidates]
    # Columns as narrow as their contents: the side's name makes the header long.
    name_width = max(len("move"), *map(len, names)) + 1
    count_width = max(len("visits"), *map(len, counts)) + 1
    lines = [
        f"{playouts:,} playouts{speed}",
        f"  {'move':<{name_width}}{head} {'visits':>{count_width}}",
    ]
    marks = set()
    for name, count, candidate in zip(names, counts, candidates, strict=True):
        shown = figure(game, candidate)
        marks.add(shown[-1])
        lines.append(f"  {name:<{name_width}}{shown:>{len(head) + 1}}{count:>{count_width}}")
    if "!" in marks:
        lines.append("  ! proven: won or lost by force")
    if "?" in marks:
        lines.append(f"  ? fewer than {UNCERTAIN_VISITS} visits")
    if any(candidate.few_visits for candidate in candidates):
        lines.append(f"  - {TOO_FEW}")
    lines.append("Best line: " + line_text(game, candidates[0].pv))
    return "\n".join(lines)


def hint_text(game: Game, hint: Hint) -> str:
    """A hint and why, as line mode says it too (`chances.hint_words`), and the line the
    search expects after it: `Hint: c2 - Orange's chance 55% (best of 12 moves tried)`."""
    return f"{hint_words(game, hint)}\nLine: {line_text(game, hint.pv)}"


def line_text(game: Game, moves: Sequence[int], limit: int = 8) -> str:
    """Moves in notation from `game`'s position, e.g. `c3 d4 e5 ...`."""
    names = line_names(game, moves, limit)
    return " ".join([*names, "..."] if len(moves) > limit else names)


def graph_text(
    values: Sequence[float | None], current: int, width: int, *, ascii: bool
) -> tuple[str, int]:
    """The first colour's win rate over the game, one column per position (`width` of
    them around the position shown), and the column of the position shown (-1 if off).
    Unknown values are `·` (`?` in ASCII)."""
    levels = ASCII_LEVELS if ascii else UNICODE_LEVELS
    start = graph_start(len(values), current, width)
    shown = values[start : start + width]
    bars = "".join(
        ("?" if ascii else "·")
        if value is None
        else levels[max(1, round(value * (len(levels) - 1)))]
        for value in shown
    )
    column = current - start
    return bars, column if 0 <= column < len(bars) else -1


def lead_values(scores: Sequence[float | None]) -> list[float | None]:
    """The first colour's expected scores as the graph draws them: 0.5 level, the line's
    largest lead (at least one point) at the top, its largest deficit at the bottom."""
    largest = max([1.0, *(abs(score) for score in scores if score is not None)])
    return [None if score is None else 0.5 + score / (2 * largest) for score in scores]


def lead_text(score: float | None) -> str:
    """`+3.5`, `-1.0`, `0.0`: a lead in points, as the graph's tooltip says it."""
    return "not evaluated yet" if score is None else f"{score:+.1f} points"


def graph_start(count: int, current: int, width: int) -> int:
    """The position in the graph's first column: `width` columns of `count` positions,
    around the position `current`."""
    return max(0, min(current - width // 2, count - width))


def scale_text(start: int, count: int) -> str:
    """The move numbers under `count` columns of the graph from position `start`: every
    fifth (tenth, ... where the numbers are long) from its column on, and the last one's
    ending under the last column (where it leaves a space after the one before)."""
    last = start + count - 1
    step = next(s for s in (5, 10, 20, 50, 100, 1000) if s > len(str(last)))
    line = ""
    for number in range(start + (-start) % step, last + 1, step):
        column = number - start
        label = str(number)
        if column < len(line) + (1 if line else 0) or column + len(label) > count:
            continue
        line = line.ljust(column) + label
    end = str(last)  # the last position's number too, where it fits
    if not line.endswith(end) and len(line) + 1 + len(end) <= count:
        line = line.ljust(count - len(end)) + end
    return line
