"""Ratings in the lobby (`l`): a player's profile (their ratings, each with a chart of its
history, games won and lost, the last games) beside a game's leaderboard, whose players'
profiles Enter shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...rooms.profile import Profile
from ...rules import CATALOGUE
from ...standings import HISTORY_SHOWN, sparkline, tally_text
from ...store import StoreError
from ..textual_internals import SteadyScreen
from ..widgets.key_bar import KeyBar
from .archive import archive_line

if TYPE_CHECKING:
    from ...ratings import PlayerRating
    from ...rooms.client import RoomClient

STANDINGS_CSS = """
StandingsScreen #standings-title {
    width: 100%;
    height: 1;
    padding: 0 1;
    text-style: bold;
    background: $primary;
    color: $text;
}
StandingsScreen #profile, StandingsScreen #leaderboard {
    border: round $border;
    border-title-style: bold;
}
StandingsScreen #profile {
    width: 3fr;
    height: 1fr;
    padding: 0 1;
}
StandingsScreen #leaderboard {
    width: 2fr;
    height: 1fr;
}
StandingsScreen #standings-status {
    height: auto;
    padding: 0 1;
    color: $text-muted;
}
"""


def profile_text(found: Profile) -> str:
    """The profile's lines: the games counted, each rating with its chart and its points
    (the oldest first), then the last games."""
    lines = [tally_text(found.tally), ""]
    for rating in found.ratings:
        info = CATALOGUE.get(rating.game)
        title = info.title if info is not None else rating.game
        points = found.points(rating.game)[-HISTORY_SHOWN:]
        value = rating.rating
        games = f"{rating.games} rated game{'s' if rating.games != 1 else ''}"
        lines.append(f"{title} {value.text()}  ±{round(value.deviation)}  {games}")
        if points:
            lines.append(f"  {sparkline(points)}  {round(min(points))}-{round(max(points))}")
    if not found.ratings:
        lines.append("No rating yet.")
    lines += ["", "Last games:"]
    lines += [archive_line(room) for room in found.recent] or ["none"]
    return "\n".join(lines)


def leader_line(rank: int, rating: PlayerRating) -> str:
    """`1. ann 1662? ±290 (3)`."""
    value = rating.rating
    return f"{rank:>2}. {rating.name} {value.text()} ±{round(value.deviation)} ({rating.games})"


class StandingsScreen(SteadyScreen[None]):
    """A player's profile (the person's own first) and a game's leaderboard."""

    DEFAULT_CSS = STANDINGS_CSS
    AUTO_FOCUS = "#leaderboard"
    BINDINGS = [
        Binding("g", "next_game", "Next game", id="standings.next_game"),
        Binding("p", "own", "Your profile", id="standings.own"),
        Binding("escape,q", "leave", "Back to the lobby", key_display="esc", id="standings.back"),
    ]

    def __init__(self, user: str, rooms: RoomClient, game: str | None = None) -> None:
        super().__init__()
        self.user = user
        self.rooms = rooms
        """The store is read through it, on the server's loop."""
        self.games = list(CATALOGUE)
        self.game = game if game in CATALOGUE else None
        """The leaderboard's game (None until the profile is read: the game of the most
        rated games of the person's)."""
        self.shown = user
        """Whose profile is shown."""

    def compose(self) -> ComposeResult:
        yield Static("", id="standings-title", markup=False)
        with Horizontal():
            with VerticalScroll(id="profile"):
                yield Static("", id="profile-text", markup=False)
            yield OptionList(id="leaderboard")
        yield Static("", id="standings-status", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_profile()
        if self.game is not None:
            self.show_leaderboard()

    @work(exclusive=True, group="profile")
    async def show_profile(self) -> None:
        try:
            found = await self.rooms.profile(self.shown)
        except StoreError as error:
            self.say(f"The ratings cannot be read now: {error}. Try again in a moment.")
            return
        except ConnectionError:
            return  # the session ended meanwhile: the app is ending too
        self.query_one("#standings-title", Static).update(f"{found.name}'s profile")
        self.query_one("#profile", VerticalScroll).border_title = found.name
        text = profile_text(found) if found.known else f"{found.name} has played no game here."
        self.query_one("#profile-text", Static).update(text)
        if self.game is None:
            played = sorted(found.ratings, key=lambda rating: -rating.games)
            self.game = played[0].game if played else self.games[0]
            self.show_leaderboard()

    @work(exclusive=True, group="leaderboard")
    async def show_leaderboard(self) -> None:
        if self.game is None:
            return
        try:
            ratings = await self.rooms.leaderboard(self.game)
        except StoreError as error:
            self.say(f"The ratings cannot be read now: {error}. Try again in a moment.")
            return
        except ConnectionError:
            return
        board = self.query_one("#leaderboard", OptionList)
        board.border_title = f"{CATALOGUE[self.game].title} leaderboard"
        board.clear_options()
        board.add_options(
            Option(Content(leader_line(rank, rating)), id=rating.name)
            for rank, rating in enumerate(ratings, 1)
        )
        if ratings:
            board.highlighted = 0
        else:
            board.add_option(Option("Nobody rated yet.", disabled=True))
        self.say("Enter shows a player's profile; g the next game's leaderboard; p yours.")

    def say(self, text: str) -> None:
        self.query_one("#standings-status", Static).update(text)

    def action_next_game(self) -> None:
        at = self.games.index(self.game) if self.game is not None else -1
        self.game = self.games[(at + 1) % len(self.games)]
        self.show_leaderboard()

    def action_own(self) -> None:
        self.shown = self.user
        self.show_profile()

    def action_leave(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def player_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.shown = event.option.id
            self.show_profile()
