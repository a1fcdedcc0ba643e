"""The app each SSH connection gets: the game app with a lobby as its home screen.

It is the ordinary `AbstractsApp` (the same selection, play, dialog and help screens),
drawn by `ChannelDriver` on the connection's channel, with three differences: the lobby
is home, room games are shown with the seat's person only (`Seat.local_people`), and its
policy allows no files (saving and loading records are not offered: the server's disk is
not the player's). Who is connected to each room is kept here, so that a player sees
when the other's connection dropped.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from textual import on
from textual.filter import LineFilter, Monochrome
from textual.screen import Screen

from ..game_setup import Setup
from ..tui import app as tui_app
from ..tui.app import AbstractsApp, Policy
from ..tui.screens.select import SelectScreen
from .driver import Channel, ChannelDriver
from .lobby import LobbyScreen, WaitingScreen
from .rooms import Room, RoomError, Rooms

NO_FILES = "Saving and loading files is not available over SSH: the server keeps the game."

PRESENT: dict[str, Counter[str]] = {}
"""Room code -> the people showing that room's game on a connection, with how many
connections each (every app of the server runs in one process and one event loop)."""


def present(code: str) -> frozenset[str]:
    """The people connected to room `code` now."""
    return frozenset(name for name, count in PRESENT.get(code, Counter()).items() if count)


@dataclass(frozen=True)
class Terminal:
    """What the client told about its terminal."""

    width: int
    height: int
    type: str = "xterm-256color"
    colorterm: str = ""
    no_color: bool = False

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
    MODES = {"home": LobbyScreen}

    def __init__(
        self,
        *,
        user: str,
        rooms: Rooms,
        channel: Channel,
        terminal: Terminal,
        address: str,
        data: Path,
        command: Command | None = None,
    ) -> None:
        super().__init__(data=data, policy=Policy(files=False, files_refusal=NO_FILES))
        self.user = user
        self.rooms = rooms
        self.channel = channel
        self.address = address
        self.command = command
        self.driver_class = ChannelDriver
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

    # -- rooms ----------------------------------------------------------------------------

    @on(LobbyScreen.Open)
    def open_requested(self, message: LobbyScreen.Open) -> None:
        self.open_room(message.code, watch=message.watch)

    def open_room(self, code: str, *, watch: bool) -> None:
        """Take the seat in room `code` (joining if one is open), or watch it."""
        room = self.rooms.get(code)
        if room is None:
            self.notify(f"There is no room {code}.", severity="error", markup=False)
            return
        if not watch and self.user not in room.players:
            try:
                self.rooms.join(room, self.user)
            except RoomError as error:
                self.notify(f"{str(error).capitalize()}: you watch.", markup=False)
        self.enter_room(room)

    def enter_room(self, room: Room) -> None:
        """The waiting screen for a creator still alone, else the game."""
        from ..tui.screens.play import PlayScreen, Seat

        screen: Screen[Any]
        if room.joiner is None and self.user == room.creator:
            screen = WaitingScreen(room, self.address)
        else:
            seat = Seat(
                local_people=frozenset({self.user}) & frozenset(room.players),
                shared=True,
                files=False,
                present=lambda: present(room.code),
                showing=lambda here: self.connected(room.code, here),
            )
            screen = PlayScreen(room.session, ascii=self.ascii, seat=seat)
        if isinstance(self.screen, WaitingScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def connected(self, code: str, here: bool) -> None:
        """This connection shows room `code`'s game (`here`) or no longer does."""
        people = PRESENT.setdefault(code, Counter())
        people[self.user] += 1 if here else -1
        if people[self.user] <= 0:
            del people[self.user]

    @on(WaitingScreen.Joined)
    def joined(self) -> None:
        if isinstance(self.screen, WaitingScreen):
            self.enter_room(self.screen.room)

    @on(LobbyScreen.Create)
    def create_requested(self) -> None:
        def chosen(setup: Setup | None) -> None:
            if setup is None:
                return
            try:
                room = self.rooms.create(setup, self.user)
            except RoomError as error:
                self.notify(f"{str(error).capitalize()}.", severity="error")
                return
            self.enter_room(room)

        default = Setup("petrify", first=self.user, second="(joins by code)")
        self.push_screen(SelectScreen(default), chosen)

    @on(LobbyScreen.HotSeat)
    def hot_seat_requested(self) -> None:
        def chosen(setup: Setup | None) -> None:
            if setup is not None:
                self.start_game(setup)

        self.push_screen(SelectScreen(), chosen)
