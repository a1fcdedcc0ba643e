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
from ..rooms.holder import Holder
from ..rooms.live import Refused
from ..rooms.presence import PRESENCES
from ..rooms.room import Room, RoomError
from ..rooms.rooms import Rooms
from ..session import Change, Changed, Phase, Session
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


def your_move(room: Room, changed: Changed, user: str) -> tuple[str, bool] | None:
    """What `user` is told when somebody moved in `room` (on any connection, of any
    process): (text, whether to ring), or None (not their room, their own move)."""
    session = room.session
    joined = changed.change is Change.PHASE and changed.by is None
    by = room.joiner if joined else changed.by
    if user not in room.players or by in (None, user):
        return None
    where = f"room {room.code} ({session.game.info.title})"
    if changed.change is Change.END:  # resigned or called off: news, no bell
        ended_how = session.ended()
        aborted = ended_how is not None and ended_how.winner is None
        what = "aborted the game" if aborted else "resigned"
        return f"{by} {what} in {where}: {session.turn_text()}.", False
    move = changed.move or session.node.move
    if room.finished:  # news, but nothing to do: no bell
        return f"{by} played {move} in {where}: {session.turn_text()}.", False
    if session.waiting_for() != user:
        return None
    if joined:
        what = "joined"
    elif changed.change is Change.MOVE:
        what = f"played {move}"
    elif session.phase is Phase.SIDE:
        what = "set komi: choose your side"
    else:
        what = "chose a side"
    return f"{by} {what} in {where}: your move.", True


@dataclass
class Watch:
    """A shown room's ties on the server's loop, to be cut when it is no longer shown."""

    room: Room
    commanded: Callable[[Command, str | None, float], None]
    moved: Callable[[Changed], None]
    saving: Callable[[], None]
    presence: Callable[[], None]
    said: Callable[[ChatLine], None]


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
        self.rooms.movers.append(self.moved_there)
        self.rooms.listing.append(self.listing_there)

    def moved_there(self, room: Room, changed: Changed) -> None:
        told = your_move(room, changed, self.user)
        if told is not None:
            self.teller.tell("_news_here", room.code, *told)

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
    ) -> tuple[RoomView, Session, frozenset[str], tuple[ChatLine, ...]] | None:
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
            # Read again whole (`Rooms._reload` adopts another record, then tells what
            # changed): copied again, the replica tells its screen the same. A take-back's
            # steps keep the record, and come to the replica with their command.
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

        room.commands.append(commanded)
        live.listeners.append(moved)
        live.saving_listeners.append(saving)
        room.chat.listeners.append(said)
        PRESENCES.follow(code, self.user, True, presence)
        self.watches[key] = Watch(room, commanded, moved, saving, presence, said)
        return view_of(room), replica, PRESENCES.people(code), tuple(room.chat.lines)

    def copy_there(self, key: int) -> None:
        watch = self.watches.get(key)
        if watch is not None:
            self.teller.tell("_adopt_here", key, twin(watch.room.session))

    def hide_there(self, key: int) -> None:
        watch = self.watches.pop(key, None)
        if watch is None:
            return
        room, live = watch.room, watch.room.session
        for ties, tie in (
            (room.commands, watch.commanded),
            (live.listeners, watch.moved),
            (live.saving_listeners, watch.saving),
            (room.chat.listeners, watch.said),
        ):
            if tie in ties:
                ties.remove(tie)  # type: ignore[arg-type]
        PRESENCES.follow(room.code, self.user, False, watch.presence)

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
        if self.moved_there in self.rooms.movers:
            self.rooms.movers.remove(self.moved_there)
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
