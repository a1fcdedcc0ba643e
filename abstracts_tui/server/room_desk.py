"""A session's desk on the server's loop: what its `rooms.client.RoomClient` asks of the
rooms, done there, and what the rooms tell it, sent back.

The client (on the app's loop: a session's thread, or a process of its own) reaches the
desk by the name of one of its methods named `_there` (`Link.call` and `Link.post`); the
desk tells the client by the name of one of the client's methods named `_here`
(`Teller`). On a thread, both are calls between two loops of one process (`ThreadLink`,
`ThreadTeller`); a session in a process of its own sends them as messages
(`session_process`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..commands import Command
from ..crossing import call_in, run_in
from ..rooms.apply import twin
from ..rooms.chat import ChatLine
from ..rooms.client import Entered, RoomClient, RoomView, kept_of
from ..rooms.events import Ended, Joined, KomiSet, MovePlayed, Rated, SideChosen, Stamped, Swapped
from ..rooms.holder import Holder
from ..rooms.live import Refused
from ..rooms.presence import PRESENCES
from ..rooms.room import Room, RoomError
from ..rooms.rooms import Rooms
from ..rooms.told import rated_text
from ..session import Changed, Session
from ..store import PlayerRating, Store, StoredRoom


class Teller(Protocol):
    """How a desk tells its client: by the name of one of the client's `_here` methods."""

    def tell(self, name: str, *args: Any) -> None: ...


def view_of(room: Room) -> RoomView:
    """The room now (on the server's loop)."""
    waiting = room.session.waiting_for() if room.joiner is not None else None
    return RoomView(
        room.code,
        room.setup.game,
        room.creator,
        room.joiner,
        room.rated,
        room.finished,
        waiting,
        room.game_text(),
        room.state_text(),
        room.describe(),
        room.open,
        room.setup.clock,
    )


def your_move(room: Room, events: list[Stamped], user: str) -> list[tuple[str, bool]]:
    """What `user` is told of `events`, new in `room` (made on any connection, of any
    process): each (text, whether to ring). A player is told the other's last move, join,
    komi or side when it is their move then (with the bell), and the game's end and its
    rating change (news, no bell); nothing of their own doing, nothing to others."""
    session = room.session
    if user not in room.players:
        return []
    where = f"room {room.code} ({session.game.info.title})"
    told: list[tuple[str, bool]] = []
    handed: str | None = None
    """What the last event that hands the move on says, by somebody else."""
    for stamped in events:
        event = stamped.event
        match event:
            case Joined(name) if name != user:
                handed = f"{name} joined"
            case KomiSet(by=by) if by != user:
                handed = f"{by} set komi: choose your side"
            case SideChosen(by=by) if by != user:
                handed = f"{by} chose a side"
            case MovePlayed(by=by, move=move) if by != user:
                handed = f"{by} played {move}"
            case Swapped(by=by) if by != user:
                handed = f"{by} played swap"
            case Ended(how=how, by=by) if by != user:
                if handed is not None and how == Ended.BOARD:
                    told.append((f"{handed} in {where}: {session.turn_text()}.", False))
                elif how == Ended.ABORTED:
                    told.append(
                        (f"{by} aborted the game in {where}: {session.turn_text()}.", False)
                    )
                elif how == Ended.RESIGNED:
                    told.append((f"{by} resigned in {where}: {session.turn_text()}.", False))
                elif how == Ended.TIME:
                    told.append((f"The game in {where} ended: {session.turn_text()}.", False))
                handed = None
            case Rated():  # said with the end it follows when they come together
                if told and where in told[-1][0] and not told[-1][1]:
                    told[-1] = (f"{told[-1][0]} {rated_text(event)}", False)
                else:
                    told.append((f"{rated_text(event).removesuffix('.')} ({where}).", False))
            case Joined() | KomiSet() | SideChosen() | MovePlayed() | Swapped() | Ended():
                handed = None  # the user's own: nothing to tell of what came before it
    if handed is not None and not session.over and session.waiting_for() == user:
        told.insert(0, (f"{handed} in {where}: your move.", True))
    return told


@dataclass
class Watch:
    """A shown room's ties on the server's loop, to be cut when it is no longer shown."""

    room: Room
    commanded: Callable[[Command, str | None, float], None]
    moved: Callable[[Changed], None]
    saving: Callable[[], None]
    presence: Callable[[], None]
    said: Callable[[ChatLine], None]
    heard: Callable[[list[Stamped]], None]
    version: int
    """The room's version the replica was last sent (its events)."""


@dataclass
class RoomDesk:
    """One session's errands in the rooms, on the server's loop; it tells its client
    through `teller` what the rooms tell it."""

    rooms: Rooms
    store: Store
    holder: Holder
    teller: Teller
    watches: dict[int, Watch] = field(default_factory=dict)
    waits: dict[int, tuple[Room, Callable[[Room], None]]] = field(default_factory=dict)
    """Joins awaited."""

    def __post_init__(self) -> None:
        self.user = self.holder.user
        self.rooms.news.append(self.news_there)
        self.rooms.listing.append(self.listing_there)

    def news_there(self, room: Room, events: list[Stamped]) -> None:
        for text, ring in your_move(room, events, self.user):
            self.teller.tell("_news_here", room.code, text, ring)

    def listing_there(self) -> None:
        """A room was made, joined or ended: the lists read again go to the app."""
        views = tuple(view_of(room) for room in self.rooms.listed(self.user))
        self.teller.tell("_listing_here", views)

    async def views_there(self) -> tuple[RoomView, ...]:
        return tuple(view_of(room) for room in self.rooms.listed(self.user))

    async def enter_there(self, code: str, watch: bool) -> Entered:
        rooms = self.rooms
        room = await rooms.get(code)
        if room is None:
            return Entered(None, f"There is no room {code}.")
        notice = None
        if self.user in room.players:
            await rooms.take_seat(room, self.holder)
        elif not watch:
            try:
                await rooms.join(room, self.holder)
            except RoomError as error:
                notice = f"{str(error).capitalize()}: you watch."
        return Entered(view_of(room), notice)

    async def create_there(self, setup: object, rated: bool, open: bool) -> RoomView:
        from ..game_setup import Setup

        assert isinstance(setup, Setup)
        return view_of(await self.rooms.create(setup, self.holder, rated=rated, open=open))

    async def say_there(self, code: str, text: str) -> None:
        room = self.rooms.known(code)
        if room is None:
            raise Refused(f"room {code} is not here any more")
        await self.rooms.say(room, text, self.holder)

    async def rematch_there(self, code: str) -> RoomView:
        room = self.rooms.known(code)
        if room is None:
            raise RoomError(f"room {code} is not here any more")
        return view_of(await self.rooms.rematch(room, self.holder))

    async def show_there(
        self, code: str, key: int
    ) -> tuple[RoomView, Session, frozenset[str], tuple[ChatLine, ...], int] | None:
        room = await self.rooms.get(code)
        if room is None:
            return None
        live = room.session
        replica = twin(live)
        tell = self.teller.tell
        replica.keeper = kept_of(live)

        def commanded(command: Command, by: str | None, at: float) -> None:
            tell("_apply_here", key, command, by, at)

        records = [live.record]

        def moved(changed: Changed) -> None:
            # Read again whole (`Rooms._reload` adopts another record, then has it drawn
            # again): the replica is copied again, silently, before the events since its
            # version come to it and say what happened. A take-back's steps keep the
            # record, and come to the replica with their command.
            if live.record is not records[0]:
                records[0] = live.record
                tell("_adopt_here", key, twin(live))

        def saving() -> None:
            kept = kept_of(live)
            if kept is not None:
                tell("_kept_here", key, kept)

        def presence() -> None:
            tell("_people_here", key, PRESENCES.people(code))

        def said(line: ChatLine) -> None:
            tell("_said_here", key, line)

        def heard(events: list[Stamped]) -> None:
            # After its command (`commanded`): the replica has the change before its events.
            tell("_events_here", key, tuple(events))
            watch = self.watches.get(key)
            if watch is not None:
                watch.version = events[-1].version

        room.commands.append(commanded)
        room.told.append(heard)
        live.listeners.append(moved)
        live.saving_listeners.append(saving)
        room.chat.listeners.append(said)
        PRESENCES.follow(code, self.user, True, presence)
        self.watches[key] = Watch(
            room, commanded, moved, saving, presence, said, heard, room.version
        )
        lines = tuple(room.chat.lines)
        return view_of(room), replica, PRESENCES.people(code), lines, room.version

    def copy_there(self, key: int) -> None:
        watch = self.watches.get(key)
        if watch is not None:
            self.teller.tell("_adopt_here", key, twin(watch.room.session))

    def hide_there(self, key: int, version: int | None = None) -> None:
        """The screen stops showing the room, having shown it up to `version` (None: as
        far as it was sent): remembered for the person (`seen_there`)."""
        watch = self.watches.pop(key, None)
        if watch is None:
            return
        room, live = watch.room, watch.room.session
        shown = watch.version
        if isinstance(version, int) and not isinstance(version, bool):
            shown = max(0, min(version, watch.version))
        self.rooms.remember_seen(self.user, room.code, shown)
        for ties, tie in (
            (room.commands, watch.commanded),
            (live.listeners, watch.moved),
            (live.saving_listeners, watch.saving),
            (room.chat.listeners, watch.said),
            (room.told, watch.heard),
        ):
            if tie in ties:
                ties.remove(tie)  # type: ignore[arg-type]
        PRESENCES.follow(room.code, self.user, False, watch.presence)

    async def since_there(self, code: str, version: int) -> tuple[Stamped, ...]:
        """Room `code`'s events after `version` (none if there is no such room)."""
        room = await self.rooms.get(str(code))
        if room is None or not isinstance(version, int):
            return ()
        return tuple(await self.rooms.events_since(room, max(0, version)))

    async def seen_there(self, code: str) -> int | None:
        return self.rooms.seen_by(self.user, str(code).strip().lower())

    def wait_there(self, code: str, key: int) -> None:
        room = self.rooms.known(code)
        if room is None:
            return
        if room.joiner is not None:
            self.teller.tell("_joined_here", key)
            return

        def listener(room: Room) -> None:
            self.teller.tell("_joined_here", key)

        room.listeners.append(listener)
        self.waits[key] = (room, listener)

    def unwait_there(self, key: int) -> None:
        waiting = self.waits.pop(key, None)
        if waiting is not None and waiting[1] in waiting[0].listeners:
            waiting[0].listeners.remove(waiting[1])

    async def send_there(self, code: str, command: Command) -> None:
        room = self.rooms.known(code)
        if room is None:
            raise Refused(f"room {code} is not here any more")
        await self.rooms.send(room, command, self.holder)

    async def ratings_there(
        self, game: str | None, names: set[str], end: bool
    ) -> list[PlayerRating]:
        if end:  # the end is saved (and rated) before the ratings are read again
            await self.rooms.flush()
        return await asyncio.to_thread(self.store.ratings, game, names)

    async def archive_there(
        self, finished: bool, player: str | None, limit: int, offset: int
    ) -> list[StoredRoom]:
        return await asyncio.to_thread(
            self.store.rooms, finished=finished, player=player, limit=limit, offset=offset
        )

    def close(self) -> None:
        """The session ended (on the server's loop): nothing more is sent to it."""
        if self.news_there in self.rooms.news:
            self.rooms.news.remove(self.news_there)
        if self.listing_there in self.rooms.listing:
            self.rooms.listing.remove(self.listing_there)
        for key in list(self.watches):
            self.hide_there(key)
        for key in list(self.waits):
            self.unwait_there(key)


class ThreadTeller:
    """Tells a client on a session's thread: a call on its app's loop, once it has one."""

    def __init__(self, client: RoomClient) -> None:
        self.client = client

    def tell(self, name: str, *args: Any) -> None:
        loop = self.client.app
        if loop is not None:
            call_in(loop, getattr(self.client, name), *args)


class ThreadLink:
    """A client's way to its desk from a session's thread: calls on the server's loop."""

    def __init__(self, server: asyncio.AbstractEventLoop) -> None:
        self.server = server
        self.desk: RoomDesk | None = None

    async def call(self, name: str, *args: Any) -> Any:
        assert self.desk is not None
        return await run_in(self.server, getattr(self.desk, name)(*args))

    def post(self, name: str, *args: Any) -> None:
        assert self.desk is not None
        call_in(self.server, getattr(self.desk, name), *args)


def thread_client(
    rooms: Rooms, store: Store, holder: Holder, server: asyncio.AbstractEventLoop
) -> tuple[RoomClient, RoomDesk]:
    """A client for an app on a session's thread (or line mode's), and its desk on the
    server's loop `server`, which this is called on; `RoomDesk.close` once it has ended."""
    link = ThreadLink(server)
    client = RoomClient(holder, rooms.rated, link)
    desk = link.desk = RoomDesk(rooms, store, holder, ThreadTeller(client))
    return client, desk
