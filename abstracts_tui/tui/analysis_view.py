"""The analysis panel in words: the evaluation bar, the candidates and the win-rate graph.

Plain functions from search results to text, so that they can be tested without a
screen; the play screen puts their text in its panel.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.search import Candidate
from ..rules import Game

BAR_WIDTH = 26
UNICODE_LEVELS = " ▁▂▃▄▅▆▇█"
ASCII_LEVELS = " .-=#"


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def eval_bar(first_winrate: float, game: Game, *, ascii: bool = False) -> str:
    """The first colour's share of a bar, and both win rates below it:

    `██████████░░░░░░`
    `Blue 62%   38% Orange`
    """
    filled = round(first_winrate * BAR_WIDTH)
    full, empty = ("#", "-") if ascii else ("█", "░")
    one, two = (c.capitalize() for c in game.info.colours)
    bar = full * filled + empty * (BAR_WIDTH - filled)
    left, right = f"{one} {percent(first_winrate)}", f"{percent(1 - first_winrate)} {two}"
    gap = max(1, BAR_WIDTH - len(left) - len(right))
    return f"{bar}\n{left}{' ' * gap}{right}"


def candidates_text(game: Game, candidates: Sequence[Candidate], playouts: int) -> str:
    """The top moves with visits and win rates for the side to move, and the best line."""
    if not candidates:
        return "No move to search." if game.is_over() else "Searching..."
    lines = [f"{playouts:,} playouts:"]
    for candidate in candidates:
        name = game.move_name(candidate.move)
        lines.append(f"  {name:<9}{percent(candidate.winrate):>5}{candidate.visits:>9,}")
    lines.append("Best line: " + line_text(game, candidates[0].pv))
    return "\n".join(lines)


def line_text(game: Game, moves: Sequence[int], limit: int = 8) -> str:
    """Moves in notation from `game`'s position, e.g. `c3 d4 e5 ...`."""
    replay = game.copy()
    names = []
    for move in moves[:limit]:
        if replay.illegal_reason(move) is not None:
            break
        names.append(replay.move_name(move))
        replay.push(move)
    if len(moves) > limit:
        names.append("...")
    return " ".join(names)


def graph_text(
    values: Sequence[float | None], current: int, width: int, *, ascii: bool
) -> tuple[str, int]:
    """The first colour's win rate over the game, one column per position (`width` of
    them around the position shown), and the column of the position shown (-1 if off).
    Unknown values are `·` (`?` in ASCII)."""
    levels = ASCII_LEVELS if ascii else UNICODE_LEVELS
    start = max(0, min(current - width // 2, len(values) - width))
    shown = values[start : start + width]
    bars = "".join(
        ("?" if ascii else "·")
        if value is None
        else levels[max(1, round(value * (len(levels) - 1)))]
        for value in shown
    )
    column = current - start
    return bars, column if 0 <= column < len(bars) else -1
