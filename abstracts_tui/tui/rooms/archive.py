"""The archive in the lobby: finished games, yours or everyone's, a page at a time, and
any of them opened for study on this screen only.

A game opened here is a copy of its record in a session of its own, with no file and no
room: moves, variations and comments made on it reach nobody, and are gone when it is
closed (`export CODE` gives the record to keep).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...records import Record, RecordError
from ...rooms.rows import game_line
from ...session import Session
from ...store import StoredRoom, StoreError
from ..screens import play
from ..screens.play import Mode, PlayScreen, Seat
from ..textual_internals import SteadyScreen
from ..widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from ...rooms.client import RoomClient

PAGE = 15
"""Games a page."""

ARCHIVE_CSS = """
ArchiveScreen #archive-title {
    width: 100%;
    height: 1;
    padding: 0 1;
    text-style: bold;
    background: $primary;
    color: $text;
}
ArchiveScreen OptionList {
    height: 1fr;
    border: round $border;
    border-title-style: bold;
}
ArchiveScreen #archive-status {
    height: auto;
    padding: 0 1;
    color: $text-muted;
}
"""


def archive_line(room: StoredRoom) -> str:
    """`k7m2  Pilo 8x8  ann - bob  ann won (Blue+3)  rated  2026-05-01 14:05`."""
    fields = game_line(room).split("\t")
    if fields[4] == "-":
        del fields[4]
    return "  ".join(fields)


class ArchiveScreen(SteadyScreen[None]):
    """Finished games, newest first: the person's own, or everyone's (`a`)."""

    DEFAULT_CSS = ARCHIVE_CSS
    AUTO_FOCUS = "#games"
    BINDINGS = [
        Binding("a", "everyone", "Yours / everyone's", id="archive.everyone"),
        Binding("right_square_bracket", "page(1)", "Next page", key_display="]"),
        Binding("left_square_bracket", "page(-1)", "Previous page", key_display="["),
        Binding("escape,q", "leave", "Back to the lobby", key_display="esc", id="archive.back"),
    ]

    def __init__(self, user: str, rooms: RoomClient) -> None:
        super().__init__()
        self.user = user
        self.rooms = rooms
        """The store is read through it, on the server's loop."""
        self.everyone = False
        self.page = 0
        self.found: dict[str, StoredRoom] = {}
        self.more = False
        """Whether there is a page after this one."""

    def compose(self) -> ComposeResult:
        yield Static("", id="archive-title", markup=False)
        yield OptionList(id="games")
        yield Static("", id="archive-status", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_page()

    @work(exclusive=True, group="archive")
    async def show_page(self) -> None:
        player = None if self.everyone else self.user
        try:
            rows = await self.rooms.archive(
                finished=True,
                player=player,
                limit=PAGE + 1,
                offset=self.page * PAGE,
            )
        except StoreError as error:
            self.say(f"The archive cannot be read now: {error}. Try again in a moment.")
            return
        except ConnectionError:
            return  # the session ended meanwhile: the app is ending too
        self.more = len(rows) > PAGE
        rows = rows[:PAGE]
        self.found = {row.code: row for row in rows}
        whose = "Everyone's" if self.everyone else "Your"
        self.query_one("#archive-title", Static).update(
            f"{whose} finished games, newest first: page {self.page + 1}"
        )
        games = self.query_one("#games", OptionList)
        games.clear_options()
        games.add_options(Option(Content(archive_line(row)), id=row.code) for row in rows)
        if rows:
            games.highlighted = 0
        else:
            games.add_option(Option("No finished games here.", disabled=True))
        pages = "] next page, [ previous; " if self.more or self.page else ""
        other = "everyone's" if not self.everyone else "yours"
        self.say(f"Enter studies a game on your screen only; {pages}a shows {other}.")
        self.refresh_bindings()

    def say(self, text: str) -> None:
        self.query_one("#archive-status", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "page":
            return bool(self.more) if parameters[0] == 1 else self.page > 0
        return True

    def action_page(self, step: int) -> None:
        self.page = max(0, self.page + step)
        self.show_page()

    def action_everyone(self) -> None:
        self.everyone = not self.everyone
        self.page = 0
        self.show_page()

    def action_leave(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def game_chosen(self, event: OptionList.OptionSelected) -> None:
        row = self.found.get(event.option.id or "")
        if row is None or row.sgf is None:
            return
        try:
            record = Record.from_sgf(row.sgf)
        except RecordError as error:
            self.say(f"Game {row.code} cannot be read: {error}")
            return
        ascii = bool(getattr(self.app, "ascii", False))
        self.app.push_screen(StudyScreen(row.code, Session(record), ascii=ascii))


class StudyScreen(PlayScreen):
    """A finished game's copy, in analysis mode: nobody else sees what is done here."""

    CSS_PATH = str(Path(play.__file__).parent / "play.tcss")  # relative paths are per module
    BINDINGS = [Binding("n", "leave", "Back", id="study.leave_archive")]

    def __init__(self, code: str, session: Session, *, ascii: bool = False) -> None:
        super().__init__(session, ascii=ascii, seat=Seat(files=False))
        self.code = code

    def on_mount(self) -> None:
        self.call_after_refresh(self.study)  # once PlayScreen's on_mount has set it up

    def study(self) -> None:
        self.mode = Mode.ANALYSIS
        self.refresh_bindings()
        self.say(
            f"Game {self.code}, a copy for you alone: [ ] step, v variations, moves start "
            "variations; n goes back to the archive."
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave":
            return True
        return super().check_action(action, parameters)

    def action_leave(self) -> None:
        self.dismiss(None)
