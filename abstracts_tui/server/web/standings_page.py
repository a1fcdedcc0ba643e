"""The pages `serve --web` writes itself, without a script: a player's profile
(`/@/NAME`), a game's leaderboard (`/leaderboard/GAME`), and the page that says in one
sentence that a room, a player or a game is not there.

Everything shown comes from the store or the address, and is escaped here: a name is
checked by `valid_name` before it is read, a game by the games' list; a profile lists
`standings.RECENT_GAMES` games and a leaderboard `standings.LEADERBOARD_SIZE` players.
Each rating's history is drawn as an inline SVG chart of its last `HISTORY_SHOWN` points.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from ...ratings import PlayerRating
from ...rooms.profile import Profile
from ...rooms.rows import game_line
from ...rules import OptionError, game_class
from ...standings import HISTORY_SHOWN, tally_text

CHART_WIDTH = 240
CHART_HEIGHT = 48
CHART_MARGIN = 4

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Cache-Control": "no-store",
}
"""What these pages may load: nothing but their own inline style."""

Link = Callable[[str], str]
"""The address of one of the server's pages from its path under the prefix
(`room/k7m2`, `@/ann`): `Address.url`."""


def chart(values: Sequence[float]) -> str:
    """An inline SVG line of `values` (the oldest first), from the lowest to the highest,
    with the two written beside it; empty for no values."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    inner_w = CHART_WIDTH - 2 * CHART_MARGIN
    inner_h = CHART_HEIGHT - 2 * CHART_MARGIN
    step = inner_w / (len(values) - 1) if len(values) > 1 else 0.0
    points = []
    for index, value in enumerate(values):
        x = CHART_MARGIN + (index * step if len(values) > 1 else inner_w / 2)
        y = CHART_MARGIN + ((high - value) / span * inner_h if span else inner_h / 2)
        points.append((x, y))
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    last_x, last_y = points[-1]
    label = f"rating after each rated game: {round(values[0])} to {round(values[-1])}"
    return (
        f'<svg class="chart" role="img" width="{CHART_WIDTH}" height="{CHART_HEIGHT}" '
        f'viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}"><title>{html.escape(label)}</title>'
        f'<polyline fill="none" stroke="#ac5af4" stroke-width="2" '
        f'points="{line}"/><circle fill="#ac5af4" cx="{last_x:.1f}" cy="{last_y:.1f}" r="3"/>'
        "</svg>"
        f' <span class="range">{round(low)}&ndash;{round(high)}</span>'
    )


def profile_page(found: Profile, link: Link) -> str:
    """The profile of a player who has played here: the games counted, each game's rating
    with its chart, and the last games, each a link to its room."""
    name = html.escape(found.name)
    parts = [f"<h1>{name}</h1>", f"<p>{html.escape(tally_text(found.tally))}</p>"]
    if found.ratings:
        rows = []
        for rating in found.ratings:
            value = rating.rating
            board = html.escape(link(f"leaderboard/{rating.game}"))
            rows.append(
                f'<tr><td><a href="{board}">{html.escape(game_title(rating.game))}</a></td>'
                f"<td>{html.escape(value.text())}</td><td>{round(value.deviation)}</td>"
                f"<td>{rating.games}</td>"
                f"<td>{chart(found.points(rating.game)[-HISTORY_SHOWN:])}</td></tr>"
            )
        parts.append(
            "<h2>Ratings</h2><table><tr><th>game</th><th>rating</th><th>deviation</th>"
            f"<th>games</th><th>history</th></tr>{''.join(rows)}</table>"
        )
    else:
        parts.append("<p>No rated game yet.</p>")
    if found.recent:
        rows = []
        for room in found.recent:
            code, *cells = game_line(room).split("\t")
            shown = "".join(f"<td>{html.escape(cell)}</td>" for cell in cells)
            href = html.escape(link(f"room/{code}"))
            rows.append(f'<tr><td><a href="{href}">{html.escape(code)}</a></td>{shown}</tr>')
        parts.append(
            "<h2>Recent games</h2><table><tr><th>room</th><th>game</th><th>players</th>"
            f"<th>result</th><th>rated</th><th>date (UTC)</th></tr>{''.join(rows)}</table>"
        )
    return document(f"{found.name}: profile", "".join(parts), link)


def leaderboard_page(game: str, ratings: Sequence[PlayerRating], link: Link) -> str:
    """A game's leaderboard: rank, player (a link to their profile), rating, deviation and
    rated games, the highest first."""
    title = game_title(game)
    rows = []
    for rank, rating in enumerate(ratings, 1):
        value = rating.rating
        href = html.escape(link(f"@/{rating.name}"))
        rows.append(
            f'<tr><td>{rank}</td><td><a href="{href}">{html.escape(rating.name)}</a></td>'
            f"<td>{html.escape(value.text())}</td><td>{round(value.deviation)}</td>"
            f"<td>{rating.games}</td></tr>"
        )
    body = (
        "<table><tr><th>rank</th><th>player</th><th>rating</th><th>deviation</th>"
        f"<th>games</th></tr>{''.join(rows)}</table>"
        if rows
        else f"<p>Nobody has played a rated game of {html.escape(title)} yet.</p>"
    )
    heading = f"<h1>{html.escape(title)}: leaderboard</h1>"
    return document(f"{title}: leaderboard", heading + body, link)


def missing_page(sentence: str, link: Link) -> str:
    """The page of something not there: its one sentence, and the way to the lobby."""
    return document("not found", f'<p class="missing">{html.escape(sentence)}</p>', link)


def game_title(game: str) -> str:
    """`Pilo` for `pilo` (the game's own name when it is not one of the games)."""
    try:
        return game_class(game).info.title
    except OptionError:
        return game


def document(title: str, body: str, link: Link) -> str:
    """A whole page: `title` (plain text) and `body` (HTML, escaped already)."""
    lobby = html.escape(link(""))
    return PAGE.format(title=html.escape(title), body=body, lobby=lobby)


PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>abstracts-tui: {title}</title>
    <link rel="icon" href="data:,">
    <style>
      body {{ margin: 0 auto; padding: 24px; max-width: 60em; background: #0c181f;
        color: rgba(255, 255, 255, 0.95); font: 16px menlo, monospace; }}
      a {{ color: #c99bf7; }}
      table {{ border-collapse: collapse; margin: 8px 0 24px; }}
      th, td {{ padding: 4px 12px; text-align: left; vertical-align: middle; }}
      th {{ border-bottom: 1px solid #5e0ba7; }}
      .range {{ color: #9fb3bf; }}
    </style>
  </head>
  <body>
    <nav><a href="{lobby}">abstracts-tui: the lobby</a></nav>
    <main>{body}</main>
  </body>
</html>
"""
