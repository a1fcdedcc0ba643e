"""The app each SSH connection gets: the game app with a lobby as its home screen.

It is the ordinary `AbstractsApp` (the same selection, play, dialog and help screens),
drawn by `ChannelDriver` on the connection's channel, on a thread of its own
(`server.session_thread`), with three differences: the lobby
is home, room games are shown with the seat's person only (`Seat.local_people`), and its
policy allows no files (saving and loading records are not offered: the server's disk is
not the player's). A room's game screen counts its person as connected, so that a player
sees when the other's connection dropped. The rooms belong to the server's loop: the app
reaches them through its `rooms.client.RoomClient` only, and its screens show replicas.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from textual import on
from textual.filter import LineFilter, Monochrome
from textual.message import Message
from textual.screen import Screen

from ...game_setup import Setup
from ...rooms.client import RoomClient, RoomView, Shown
from ...rooms.events import Rated, Stamped
from ...rooms.holder import Holder
from ...rooms.pairing import drawn_notice
from ...rooms.room import RoomError
from ...rooms.told import came_back, rated_text
from ...rules import RulesError
from ...session import Session
from .. import app as tui_app
from ..app import AbstractsApp
from ..messages import NewGameRequested
from ..policy import Policy
from ..screens.select import SelectScreen
from .driver import Channel, ChannelDriver
from .lobby import LobbyScreen, WaitingScreen
from .signals import signal

if TYPE_CHECKING:
    from ..online import RoomSeat

log = logging.getLogger(__name__)

OVER_SSH = "over SSH"
IN_A_BROWSER = "in a browser"


def no_files(reached: str) -> str:
    """Why a file cannot be saved or loaded, for a person who reached the server so."""
    return f"Saving and loading files is not available {reached}: the server keeps the game."


@dataclass(frozen=True)
class Terminal:
    """What the client told about its terminal."""

    width: int
    height: int
    type: str = "xterm-256color"
    colorterm: str = ""
    no_color: bool = False
    notice: str | None = None
    """The desktop notification it reads (`signals.notice_kind`); None: the bell only."""

    @property
    def color_system(self) -> str | None:
        """The colours to send, from the terminal type the client gave (as rich reads TERM)."""
        if self.colorterm in ("truecolor", "24bit"):
            return "truecolor"
        if self.type in ("dumb", "unknown"):
            return None
        if "256color" in self.type or "direct" in self.type:
            return "256"
        return "standard"


class ListsChanged(Message):
    """A room was made, joined or ended: the lobby's lists are drawn again."""


class YourMove(Message):
    """An opponent moved in one of the person's rooms, which this connection does not show:
    it is their move now, or the game is over."""

    def __init__(self, code: str, text: str, *, signal: bool = True) -> None:
        super().__init__()
        self.code = code
        self.text = text
        self.signal = signal
        """Whether to ring the bell (False: news only, e.g. the game ended)."""


@dataclass(frozen=True)
class Command:
    """What the client asked for with `ssh -t host join CODE` or `watch CODE`."""

    action: str
    code: str


class ServerApp(AbstractsApp):
    """One SSH connection's app."""

    CSS_PATH = [  # relative paths are per module
        str(Path(tui_app.__file__).parent / name) for name in AbstractsApp.CSS_PATH
    ]

    def __init__(
        self,
        *,
        user: str,
        holder: Holder,
        rooms: RoomClient,
        channel: Channel,
        terminal: Terminal,
        address: str,
        data: Path,
        command: Command | None = None,
        reached: str = OVER_SSH,
    ) -> None:
        """`reached`: how the person reached the server (`OVER_SSH`, `IN_A_BROWSER`)."""
        super().__init__(data=data, policy=Policy(files=False, files_refusal=no_files(reached)))
        self.reached = reached
        self.user = user
        self.holder = holder
        """This connection: the commands of its screens are sent as its."""
        self.rooms = rooms
        """The rooms, the ratings and the archive, on the server's loop."""
        self.channel = channel
        self.address = address
        self.command = command
        self.driver_class = ChannelDriver
        self.terminal = terminal
        self.news: list[str] = []
        """What happened in the person's rooms while this connection showed others, newest
        first (the lobby shows it)."""
        self.rooms.connect(self.room_news, self.lists_changed)
        self.shown = False
        """Whether the first frame is drawn (the first screen is mounted)."""
        self.ending = False
        # Apps swap sys.stderr while they run, and many run at once: errors go to the real one.
        self.error_console = Console(markup=False, highlight=False, file=sys.__stderr__)
        self.monochrome = Monochrome() if terminal.no_color else None
        # The console decides the colour codes sent: the client's terminal, not the server's.
        self.console = Console(
            color_system=terminal.color_system,  # type: ignore[arg-type]
            file=self.console.file,
            markup=True,
            highlight=False,
            emoji=False,
            legacy_windows=False,
            force_terminal=True,
            safe_box=False,
            soft_wrap=False,
            width=terminal.width,
            height=terminal.height,
        )

    def end(self) -> None:
        """End the session (the client left or idled, or the server stops); games are kept.

        A Textual app that exits while its first screen is still being mounted fails in
        that screen's `on_mount` (its children are gone by then), so until the first frame
        is drawn the exit waits for it.
        """
        if self.shown:
            self.exit()
        else:
            self.ending = True

    def on_ready(self) -> None:
        self.shown = True
        if self.ending:
            self.exit()

    def get_line_filters(self) -> Sequence[LineFilter]:
        """The app's filters, and no colours for a client that asked for none."""
        filters = list(super().get_line_filters())
        if self.monochrome is not None:
            filters.append(self.monochrome)
        return filters

    def offer_resume(self) -> None:
        """After the first frame: the room asked for on the command line, else the hot-seat
        game left unfinished at this name (as the plain app offers it)."""
        if self.command is not None:
            self.open_room(self.command.code, watch=self.command.action == "watch")
        else:
            super().offer_resume()

    def show_play(self, session: Session) -> None:
        """A hot-seat game: as in the app, and the server's log says when its file cannot
        be written (the player is told on the screen)."""
        user = self.user

        def saving_changed() -> None:
            problem, path = session.save_problem, session.autosave_path
            if problem is None:
                log.info("%s: the hot-seat game in %s is saved again", user, path)
            else:
                log.warning(
                    "%s: the hot-seat game in %s is not being saved: %s", user, path, problem
                )

        session.saving_listeners.subscribe(saving_changed)  # the session's own
        super().show_play(session)

    # -- your move -------------------------------------------------------------------------

    def room_news(self, code: str, text: str, ring: bool) -> None:
        """Somebody moved in room `code` (`rooms.client.your_move`): signal this person,
        unless this connection shows that game."""
        if not self.shows(code):
            self.post_message(YourMove(code, text, signal=ring))

    def lists_changed(self) -> None:
        """A room was made, joined or ended (the lists read again already): the lobby
        draws them."""
        self.post_message(ListsChanged())

    @on(ListsChanged)
    def redraw_lobby(self) -> None:
        if isinstance(self.screen, LobbyScreen):
            self.screen.draw_lists()  # from memory: the lists, open challenges first

    def shows(self, code: str) -> bool:
        return self.rooms.showing(code) or any(
            isinstance(screen, WaitingScreen) and screen.room.code == code
            for screen in self.screen_stack
        )

    def get_default_screen(self) -> LobbyScreen:  # type: ignore[override]
        # The lobby is the app's default screen, not a mode's: Textual mounts a mode's
        # screen before it puts it on the screen stack, which with eager tasks (see
        # `keep_tasks_lazy`) had the lobby's code field find no screen and fail.
        return LobbyScreen()

    @on(YourMove)
    def your_move(self, message: YourMove) -> None:
        self.news.insert(0, message.text)
        del self.news[5:]
        if message.signal:  # beside the frames, which the driver writes whole
            self.channel.write_screen(signal(self.terminal.notice, "abstracts-tui", message.text))
        if isinstance(self.screen, LobbyScreen):
            self.screen.refresh_lists()
        else:
            self.notify(message.text, timeout=10, markup=False)

    # -- rooms ----------------------------------------------------------------------------

    @on(LobbyScreen.Open)
    def open_requested(self, message: LobbyScreen.Open) -> None:
        self.open_room(message.code, watch=message.watch)

    def open_room(self, code: str, *, watch: bool) -> None:
        """Take the seat in room `code` (joining if one is open), or watch it: off the
        loop's way (the store may be asked), the room shown once it is done."""
        self.run_worker(self.enter_code(code, watch=watch), group="rooms")

    async def enter_code(self, code: str, *, watch: bool) -> None:
        entered = await self.rooms.enter(code, watch=watch)
        if entered.room is None:
            self.notify(entered.notice or "", severity="error", markup=False)
            return
        if entered.notice is not None:
            self.notify(entered.notice, markup=False)
        await self.enter_room(entered.room)

    async def enter_room(self, room: RoomView) -> None:
        """The waiting screen for a creator still alone, else the game (a replica)."""
        from ..screens.play import PlayScreen, Seat

        screen: Screen[Any]
        missed: str | None = None
        if room.joiner is None and self.user == room.creator:
            from ...waiting_notes import waiting_notes

            notes = await waiting_notes(self.rooms, room)
            screen = WaitingScreen(room, self.address, notes=tuple(notes))
        else:
            shown = await self.rooms.show(room.code)
            if shown is None:
                self.notify(f"There is no room {room.code}.", severity="error", markup=False)
                return
            room = shown.room
            seat = Seat(
                local_people=frozenset({self.user}) & frozenset(room.players),
                shared=True,
                files=False,
                presence=shown,
                send=shown.send,
                room=self.room_seat(shown),
            )
            screen = PlayScreen(shown.session, ascii=self.ascii, seat=seat)
            self.follow_events(shown)
            missed, _ = await came_back(self.rooms, shown)
            moved = bool(shown.session.record.root.children)
            drawn = drawn_notice(room.colour, room.creator, shown.session.people, moved)
            if drawn is not None:
                missed = drawn if missed is None else f"{drawn} {missed}"
        if isinstance(self.screen, WaitingScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        if missed is not None:  # once, over the room's screen
            self.notify(missed, timeout=30, markup=False)

    def room_seat(self, shown: Shown) -> RoomSeat:
        """What the room's play screen needs for online play, as this connection's: its
        chat a replica, its lines and rematch sent to the room on the server's loop."""
        from ..online import RoomSeat, sentence

        rooms, code = self.rooms, shown.code

        async def say(text: str) -> str | None:
            try:
                await rooms.say(code, text)
            except RulesError as refused:
                return sentence(refused)
            return None

        async def rematch() -> None:
            await rooms.rematch(code)

        return RoomSeat(
            code=code,
            user=self.user,
            rated=shown.room.rated,
            chat=shown.chat,
            say=say,
            rematch_room=rematch,
            go_to=lambda new: self.open_room(new, watch=self.user not in shown.room.players),
            players=lambda: shown.room.players,
            listen=shown.listen,
            terms=shown.terms,
            replies=lambda words: rooms.replies(code, words),
            moderate=rooms.moderate,
        )

    def follow_events(self, shown: Shown) -> None:
        """A rated game's rating change as a notice while the room's play screen is not
        on top (on top, the screen says it with the rest of the room's events)."""

        def heard(events: list[Stamped]) -> None:
            for stamped in events:
                if isinstance(stamped.event, Rated):
                    self.show_ratings(shown.code, shown.session, rated_text(stamped.event))

        shown.listen(heard)  # for as long as the replica is shown: its events end then

    def show_ratings(self, code: str, session: Session, text: str) -> None:
        from ..screens.play import PlayScreen

        screen = self.screen
        if not (isinstance(screen, PlayScreen) and screen.session is session):
            self.notify(f"Room {code}: {text}", timeout=30, markup=False)

    @on(WaitingScreen.CallOff)
    def call_off(self, message: WaitingScreen.CallOff) -> None:
        """The creator calls a room nobody joined off: its game is aborted (no result),
        and it leaves every lobby."""
        room = message.room

        async def abort() -> None:
            try:
                await self.rooms.call_off(room.code)
            except RulesError as refused:
                self.notify(f"Not called off: {refused}", severity="error", markup=False)
                return
            if isinstance(self.screen, WaitingScreen) and self.screen.room.code == room.code:
                self.pop_screen()
            self.notify(f"Room {room.code} is called off.", markup=False)

        self.run_worker(abort(), group="rooms")

    @on(WaitingScreen.Joined)
    def joined(self) -> None:
        if isinstance(self.screen, WaitingScreen):
            # The room read again: with its joiner now.
            code = self.screen.room.code
            self.run_worker(self.enter_code(code, watch=False), group="rooms")

    @on(LobbyScreen.Create)
    def create_requested(self) -> None:
        from .choices import keep_choices, read_choices
        from .create import remembered_screen

        screen = remembered_screen(read_choices(self.data), self.user, rated=self.rooms.rated)

        async def create(setup: Setup) -> None:
            await asyncio.to_thread(keep_choices, self.data, screen.chosen(setup))
            try:
                room = await self.rooms.create(
                    setup,
                    rated=screen.rated,
                    open=screen.open,
                    colour=screen.room_colour(),
                    rating_range=screen.room_range(),
                )
            except RoomError as error:
                self.notify(f"{str(error).capitalize()}.", severity="error")
                return
            await self.enter_room(room)

        def chosen(setup: Setup | None) -> None:
            if setup is not None:
                self.run_worker(create(setup), group="rooms")

        self.push_screen(screen, chosen)

    @on(NewGameRequested)
    def back_to_lobby(self, message: NewGameRequested) -> None:
        """`n` in a room goes back to the lobby (the room goes on without this screen);
        in a hot-seat game it opens the selection screen, as in the plain app."""
        from ..screens.play import PlayScreen

        screen = self.screen
        if isinstance(screen, PlayScreen) and screen.seat.shared:
            message.prevent_default()
            for _ in self.screen_stack[1:]:
                self.pop_screen()

    @on(LobbyScreen.HotSeat)
    def hot_seat_requested(self) -> None:
        def chosen(setup: Setup | None) -> None:
            if setup is not None:
                self.start_game(setup)

        self.push_screen(SelectScreen(), chosen)
