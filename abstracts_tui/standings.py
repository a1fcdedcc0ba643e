"""A game's leaderboard and a player's profile as text: what `ssh host leaderboard GAME`
and `ssh host profile NAME` print, and line mode's lobby says (no Textual here).

Tables are tab-separated lines under a header line, as the other commands print them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .ratings import PlayerRating, Tally
from .rooms.profile import Profile
from .rooms.rows import game_line
from .store.base import Store

LEADERBOARD_SIZE = 20
"""How many players a leaderboard lists."""
RECENT_GAMES = 10
"""How many of a player's last games a profile lists."""
HISTORY_SHOWN = 30
"""How many of the last points of a rating's history a profile's line shows."""

BARS = "▁▂▃▄▅▆▇█"


def leaderboard(ratings: Sequence[PlayerRating]) -> list[str]:
    """The lines of a game's leaderboard from its ratings (the highest first): the header,
    then `1  ann  1662?  290  4` for each of the first `LEADERBOARD_SIZE`."""
    lines = ["rank\tname\trating\tdeviation\tgames"]
    for rank, rating in enumerate(ratings[:LEADERBOARD_SIZE], 1):
        value = rating.rating
        lines.append(
            f"{rank}\t{rating.name}\t{value.text()}\t{round(value.deviation)}\t{rating.games}"
        )
    return lines


def tally_text(tally: Tally) -> str:
    """`4 games played: 2 won, 1 lost, 1 drawn`."""
    played = f"{tally.played} game{'s' if tally.played != 1 else ''} played"
    return f"{played}: {tally.won} won, {tally.lost} lost, {tally.drawn} drawn"


def sparkline(values: Sequence[float]) -> str:
    """`▁▃▅█`: one bar per value, from the lowest to the highest of them."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    top = len(BARS) - 1
    return "".join(BARS[round((v - low) / span * top) if span else top // 2] for v in values)


def profile(found: Profile) -> list[str]:
    """The lines of a player's profile: the games counted, a table of ratings with their
    history (the rating after each rated game, the oldest first, and as bars), and a
    table of the last games."""
    lines = [f"{found.name}: {tally_text(found.tally)}", ""]
    lines.append("game\trating\tdeviation\tgames\tchart\thistory")
    for rating in found.ratings:
        points = found.points(rating.game)[-HISTORY_SHOWN:]
        value = rating.rating
        history = " ".join(str(round(point)) for point in points)
        lines.append(
            f"{rating.game}\t{value.text()}\t{round(value.deviation)}\t{rating.games}"
            f"\t{sparkline(points)}\t{history}"
        )
    lines += ["", "code\tgame\tplayers\tresult\trated\tdate (UTC)"]
    lines += [game_line(room) for room in found.recent]
    return lines


def read_profile(store: Store, name: str) -> Profile:
    """`name`'s profile as `store` has it now (blocks; raises StoreError)."""
    return Profile(
        name,
        store.ratings(names=[name]),
        store.rating_history(name),
        store.tally(name),
        store.rooms(finished=True, player=name, limit=RECENT_GAMES),
    )


def read_leaderboard(store: Store, game: str) -> list[PlayerRating]:
    """The first `LEADERBOARD_SIZE` ratings of `game`, the highest first (blocks; raises
    StoreError)."""
    return store.ratings(game)[:LEADERBOARD_SIZE]
