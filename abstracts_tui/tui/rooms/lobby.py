"""The lobby (create, join or watch a room, or play hot-seat) and the waiting screen.

The lobby is the home screen of every SSH connection. It lists the person's own
unfinished games first, so that somebody whose connection dropped takes the seat back
with Enter, then the open challenges of others (Enter accepts one), then the games others
play in rooms open to anyone, to watch. A room made to be joined by its code is listed
to its players only: the others reach it by its code (the code field, `j`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...rated import Ratings, own_ratings, rated_name, read_ratings
from ...time_odds import spec_words
from ..textual_internals import SteadyScreen
from ..widgets.key_bar import KeyBar
from .challenges import Challenge, ChallengeList, pairing_words

if TYPE_CHECKING:
    from ...rooms.client import RoomClient, RoomView


class LobbyHost(Protocol):
    """What the lobby needs of its app: who is connected, the rooms, the address, and
    what happened in the person's rooms meanwhile (newest first)."""

    user: str
    rooms: RoomClient
    """The rooms, the ratings and the archive (on the server's loop)."""
    address: str
    news: list[str]
    reached: str
    """How the person reached the server, for the title: `over SSH`, `in a browser`."""


def room_line(room: RoomView, user: str, ratings: Ratings, link: str | None = None) -> str:
    """`your move  k7m2  Pilo 8x8 5m+3s rated  ann 1662? - bob 1500?  Blue to move (ann)`
    (the clock's spec, when the room has one), and the room's `link` in a browser if any."""
    game = room.game
    rated = f" {spec_words(room.clock)}" if room.clock else ""
    rated += " rated" if room.rated else ""
    first = rated_name(room.creator, game, ratings)
    second = rated_name(room.joiner, game, ratings) if room.joiner else "waiting for a player"
    if room.joiner is None and (note := pairing_words(room, ratings)[0]):
        first = f"{first} ({note})"
    mark = "your move  " if room.waits_for(user) else ""
    line = f"{mark}{room.code}  {room.game_text()}{rated}  {first} - {second}  {room.state_text()}"
    return f"{line}  {link}" if link else line


def challenge(room: RoomView, ratings: Ratings) -> Challenge:
    """Room `room`, an open challenge, as the lobby lists it."""
    creator = rated_name(room.creator, room.game, ratings)
    colour, allowed = pairing_words(room, ratings)
    clock = spec_words(room.clock) if room.clock else room.clock
    return Challenge(room.code, creator, room.game_text(), clock, room.rated, colour, allowed)


class RoomList(OptionList):
    """A list of rooms in the lobby. The arrows go on to the next part of the lobby past
    its last room (and back past its first), and Enter on a list with no room in it does
    too: a person with no games of their own reaches the games to watch as they would
    go down one list."""

    def enabled(self) -> list[int]:
        return [index for index, option in enumerate(self.options) if not option.disabled]

    def action_cursor_down(self) -> None:
        here = self.highlighted
        if here is None or not any(index > here for index in self.enabled()):
            self.screen.focus_next()
        else:
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        here = self.highlighted
        if here is None or not any(index < here for index in self.enabled()):
            if self.screen.focus_chain[:1] != [self]:  # the first part: nothing above it
                self.screen.focus_previous()
        else:
            super().action_cursor_up()

    def action_select(self) -> None:
        if self.highlighted is None:
            self.screen.focus_next()
        else:
            super().action_select()


class Challenges(RoomList, ChallengeList):
    """The open challenges, a part of the lobby as the lists of rooms are."""


LOBBY_CSS = """
LobbyScreen #lobby-title, WaitingScreen #waiting-title {
    width: 100%;
    height: 1;
    padding: 0 1;
    text-style: bold;
    background: $primary;
    color: $text;
}
LobbyScreen OptionList {
    height: 1fr;
    border: round $border-blurred;
    border-title-style: bold;
}
LobbyScreen OptionList:focus {
    border: round $border;
}
LobbyScreen #code-row {
    height: 1;
    margin: 1 1 0 1;
}
LobbyScreen #code-row Label {
    width: auto;
    margin-right: 1;
}
LobbyScreen #code {
    width: 12;
}
LobbyScreen #code-hint, LobbyScreen #lobby-status {
    height: auto;
    padding: 0 1;
    color: $text-muted;
}
WaitingScreen #waiting-text {
    padding: 1 2;
}
"""


class LobbyScreen(SteadyScreen[None]):
    """Your games, games to watch, and a room code to join."""

    DEFAULT_CSS = LOBBY_CSS
    AUTO_FOCUS = "#mine"
    BINDINGS = [
        # The lists, then the code field; ↑/↓ go on from one to the next as well.
        Binding("tab", "app.focus_next", "Next part", id="lobby.next_part"),
        Binding("up", "previous_part", "Previous part", show=False, id="lobby.previous_part"),
        Binding("c", "create", "New room", id="lobby.create"),
        # Priority: the code typed right after j goes to the field, however fast.
        Binding("j", "code", "Join", id="lobby.join", priority=True),
        Binding("h", "hot_seat", "Hot-seat", id="lobby.hot_seat"),
        Binding("a", "archive", "Archive", id="lobby.archive"),
        Binding("l", "standings", "Ratings", id="lobby.standings"),
        Binding("n", "notices", "Notices", id="lobby.notices"),
        Binding("p", "puzzles", "Puzzles", id="lobby.puzzles"),
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?", id="lobby.help"),
        Binding("q", "app.quit", "Quit", show=False, id="lobby.quit"),
    ]

    class Open(Message):
        """The person wants room `code`: to take a seat, or to watch if `watch`."""

        def __init__(self, code: str, watch: bool) -> None:
            super().__init__()
            self.code = code
            self.watch = watch

    class Create(Message):
        """The person wants a new room (the app asks for the game)."""

    class HotSeat(Message):
        """The person wants a game for two at this one terminal."""

    def __init__(self, host: LobbyHost | None = None) -> None:
        """The lobby of `host` (by default the app: the lobby is its home screen)."""
        super().__init__()
        if host is None:
            host = self.app  # type: ignore[assignment]
        assert host is not None
        self.host = host
        self.user = host.user
        self.rooms = host.rooms
        self.address = host.address
        self.ratings: Ratings = {}
        self.drawn: tuple[object, ...] | None = None
        """What the lists, the title and the news showed when last drawn."""

    def compose(self) -> ComposeResult:
        yield Static(self.title_text(), id="lobby-title", markup=False)
        with Vertical():
            mine = RoomList(id="mine")
            mine.border_title = "Your games (Enter: take your seat)"
            yield mine
            challenges = Challenges(id="challenges")
            challenges.border_title = "Open challenges (Enter: accept, and play)"
            yield challenges
            others = RoomList(id="others")
            others.border_title = "Games to watch (Enter: watch)"
            yield others
            with Horizontal(id="code-row"):
                yield Label("Room code:")
                yield Input(id="code", max_length=8, compact=True, placeholder="e.g. k7m2")
            yield Static(
                "Enter joins the room (or watches it when both seats are taken). "
                f"From a shell: ssh -t {self.address} join CODE",
                id="code-hint",
                markup=False,
            )
            yield Static("", id="lobby-status", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#mine"))  # at once: keys typed as it shows are its
        self.refresh_lists()

    def on_screen_resume(self) -> None:
        self.refresh_lists()

    def refresh_lists(self) -> None:
        """Draw the lists and the news once the rooms are read again (on the server's
        loop: a moment), and again once the ratings are read."""
        self.read_ratings()

    @work(exclusive=True, group="ratings")
    async def read_ratings(self) -> None:
        """Read the rooms again and draw them with the news, then read the ratings of the
        people the lists name (and of this person)."""
        try:
            await self.rooms.refresh()
            self.draw_lists()
            names = {self.user}.union(*(room.players for room in self.rooms.unfinished()))
            ratings = await read_ratings(self.rooms, names)
        except ConnectionError:
            return  # the session ended meanwhile: the app is ending too
        if ratings is None:
            return  # the lists are shown without ratings; the next refresh tries again
        if ratings != self.ratings:
            self.ratings = ratings
            self.draw_lists()

    def draw_lists(self) -> None:
        """Draw the lists, the title and the news as they are now; nothing if none of them
        changed since they were drawn (the lists are read again whenever any room is made,
        joined or ended, most often for rooms this lobby does not show)."""
        mine = self.rooms.of_player(self.user)
        others = self.rooms.to_watch(self.user)
        challenges = [challenge(room, self.ratings) for room in self.rooms.challenges(self.user)]
        link = self.rooms.room_link
        lines = {
            list_id: [
                (room.code, room_line(room, self.user, self.ratings, link(room.code)))
                for room in rooms
            ]
            for list_id, rooms in (("#mine", mine), ("#others", others))
        }
        news = self.host.news[0] if self.host.news else None
        rated = own_ratings(self.user, self.ratings)
        drawn = (tuple(map(tuple, lines.values())), tuple(challenges), rated, news)
        if drawn == self.drawn:
            return
        self.drawn = drawn
        for list_id, rooms in (("#mine", mine), ("#others", others)):
            options = self.query_one(list_id, OptionList)
            highlighted = options.highlighted_option
            options.clear_options()
            options.add_options(Option(Content(line), id=code) for code, line in lines[list_id])
            if rooms:  # Enter takes the first game at once (your move first)
                codes = [room.code for room in rooms]
                kept = highlighted.id if highlighted is not None else None
                options.highlighted = codes.index(kept) if kept in codes else 0
        if not mine:
            self.query_one("#mine", OptionList).add_option(
                Option("No games yet: c creates a room, j joins one by its code.", disabled=True)
            )
        self.query_one(Challenges).show(challenges)
        title = self.title_text()
        self.query_one("#lobby-title", Static).update(f"{title} ({rated})" if rated else title)
        if news is not None:
            self.say(news)

    def title_text(self) -> str:
        return f"abstracts-tui {self.host.reached}: you are {self.user}"

    def say(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(text)

    @on(OptionList.OptionSelected)
    def room_chosen(self, event: OptionList.OptionSelected) -> None:
        code = event.option.id
        if code is not None:
            self.post_message(self.Open(code, watch=event.option_list.id == "others"))

    @on(ChallengeList.Accept)
    def challenge_accepted(self, event: ChallengeList.Accept) -> None:
        self.post_message(self.Open(event.code, watch=False))

    @on(Input.Submitted, "#code")
    def code_typed(self, event: Input.Submitted) -> None:
        code = event.value.strip().lower()
        if code:
            event.input.value = ""
            self.post_message(self.Open(code, watch=False))

    def action_create(self) -> None:
        self.post_message(self.Create())

    def action_hot_seat(self) -> None:
        self.post_message(self.HotSeat())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """j types a j into the code field once it is there."""
        return not (action == "code" and isinstance(self.focused, Input))

    def action_previous_part(self) -> None:
        """↑ in the code field: back to the lists (which move on by themselves)."""
        self.focus_previous()

    def action_code(self) -> None:
        self.set_focus(self.query_one("#code", Input))  # at once: the code typed next is for it

    def action_refresh(self) -> None:
        self.refresh_lists()

    def action_archive(self) -> None:
        from .archive import ArchiveScreen

        self.app.push_screen(ArchiveScreen(self.user, self.rooms))

    def action_standings(self) -> None:
        from .standings import StandingsScreen

        self.app.push_screen(StandingsScreen(self.user, self.rooms))

    def action_notices(self) -> None:
        from .notices import NoticesScreen

        self.app.push_screen(NoticesScreen(self.rooms))

    def action_puzzles(self) -> None:
        from .puzzles import PuzzleGamesScreen  # rated puzzles, near the person's rating

        ascii = bool(getattr(self.app, "ascii", False))
        self.app.push_screen(PuzzleGamesScreen(self.rooms, ascii=ascii))


OPEN_TEXT = "An open challenge: anyone may accept it in their lobby.\n\n"
BY_CODE_TEXT = "Listed in nobody else's lobby: only those given its code find it.\n\n"


class WaitingScreen(SteadyScreen[None]):
    """The creator of a room waits here until a second person joins."""

    DEFAULT_CSS = LOBBY_CSS
    BINDINGS = [
        Binding("escape", "leave", "Back to the lobby (the room stays open)"),
        Binding("x", "call_off", "Call it off", id="waiting.call_off"),
    ]

    class Joined(Message):
        """Somebody took the open seat."""

    class CallOff(Message):
        """The creator calls the room off before anybody joined (its game is aborted)."""

        def __init__(self, room: RoomView) -> None:
            super().__init__()
            self.room = room

    def __init__(self, room: RoomView, address: str, notes: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.room = room
        self.address = address
        self.notes = notes
        """Its rating range and time odds, as `waiting_notes` says them."""

    def compose(self) -> ComposeResult:
        room = self.room
        host: LobbyHost = self.app  # type: ignore[assignment]
        link = host.rooms.room_link(room.code)
        browser = f"or they open {link} in a browser, " if link else ""
        notes = "".join(note + "\n\n" for note in self.notes)
        yield Static(f"Room {room.code}", id="waiting-title")
        yield Static(
            f"{room.describe()}\n"
            f"Clock: {spec_words(room.clock or 'none')}\n\n"
            f"{OPEN_TEXT if room.open else BY_CODE_TEXT}"
            f"{notes}"
            f"Waiting for a second player. Give them the room code {room.code}:\n\n"
            f"    ssh -t {self.address} join {room.code}\n\n"
            f"{browser}"
            "or they type the code in the lobby. The game starts as soon as they join.",
            id="waiting-text",
            markup=False,
        )
        yield KeyBar()

    def on_mount(self) -> None:
        host: LobbyHost = self.app  # type: ignore[assignment]
        self.stop_waiting = host.rooms.when_joined(self.room.code, self.joined)

    def on_unmount(self) -> None:
        self.stop_waiting()

    def joined(self) -> None:
        self.post_message(self.Joined())

    def action_leave(self) -> None:
        self.dismiss(None)

    def action_call_off(self) -> None:
        self.post_message(self.CallOff(self.room))
