"""The rooms as a session's thread sees them: the one object its app reaches them by.

The rooms (`Rooms`, each `Room` with its live `Session` and gateway), the presences and
the store belong to the server's loop (`session_thread` says which loop owns what). An
app on a session's thread never touches them: it calls this client, whose calls run on
the server's loop (`crossing.run_in`) and bring back immutable snapshots (`RoomView`: a
room as the lobby lists it) or objects made there for the app alone:

- a screen showing a room shows a REPLICA of its session (`Shown.session`): a copy made on
  the server's loop (`apply.twin`) when the screen asks for it; then every command the
  room applies (`Room.commands`) is applied to the replica on the app's loop by the same
  `apply.apply(session, command, by, at)`, from the moment the screen follows it (its
  listeners in place: what came before waits until then), and a room read again whole
  is copied again (`apply.adopt`, which tells the screen the moves and the rest gained,
  as the commands would have).
  The screen's commands go to the room's gateway (`Shown.send`) and its outcome (done,
  or `Refused` with its sentence) comes back to the screen;
- the room's chat is a replica too (`Shown.chat`: its lines when shown, then each line
  the room adds); a line said (`say`), a rematch accepted (`rematch`) and a room called
  off (`call_off`) run on the server's loop and come back done, or raise with a sentence;
- who is connected to the room (`Shown` is the play screen's presence, and its watcher
  count), whether its store keeps it (the replica's `keeper`), a join awaited, your-move
  and resignation news, ratings and the lobby's lists once a room is made, joined or
  ended (read again on the server's loop: `listing`) cross as calls on the app's loop.

The methods named `_here` run on the app's loop; those named `_there` on the server's.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from ..commands import Abort, Command
from ..rooms.apply import adopt, apply, twin
from ..rooms.chat import Chat, ChatLine
from ..rooms.holder import Holder
from ..rooms.live import Refused
from ..rooms.presence import PRESENCES
from ..rooms.room import Room, RoomError
from ..rooms.rooms import Rooms
from ..rules import RulesError
from ..session import Change, Changed, Phase, Session
from ..store import PlayerRating, Store, StoredRoom
from .crossing import call_in, run_in

log = logging.getLogger(__name__)

News = Callable[[str, str, bool], None]
"""Told on the app's loop: room code, text, whether to ring (`app.YourMove`)."""
Listing = Callable[[], None]
"""Told on the app's loop once a room was made, joined or ended, with the lobby's lists
read again (`RoomClient.views`)."""


@dataclass(frozen=True)
class RoomView:
    """A room as it was when read, on the server's loop: what the lobby lists."""

    code: str
    game: str
    """The game's name (`pilo`)."""
    creator: str
    joiner: str | None
    rated: bool
    finished: bool
    waiting: str | None
    """Whom the game waits for, both seats taken (None: nobody, or a seat open)."""
    game_line: str
    state_line: str
    description: str
    open: bool = False
    """An open challenge: listed in every lobby until somebody joins."""
    clock: str | None = None
    """The time control's spec (`5m+3s`); None: no clock."""

    @property
    def players(self) -> tuple[str, ...]:
        return (self.creator,) if self.joiner is None else (self.creator, self.joiner)

    def waits_for(self, name: str) -> bool:
        return self.waiting == name

    def game_text(self) -> str:
        return self.game_line

    def state_text(self) -> str:
        return self.state_line

    def describe(self) -> str:
        return self.description


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
class Kept:
    """Who keeps a replica's game, as the room's store last said (`session.Keeper`)."""

    location: str
    trouble: str | None


@dataclass
class Entered:
    """What opening a room came to: the room (None: there is none) and a sentence."""

    room: RoomView | None
    notice: str | None = None


@dataclass
class Shown:
    """A room shown on a screen of the app: its replica session, and the play screen's
    presence (who of the room is connected) and sender. Lives on the app's loop."""

    client: RoomClient
    key: int
    room: RoomView
    session: Session
    connected: frozenset[str]
    chat: Chat = field(default_factory=Chat)
    """A replica of the room's chat: its lines when shown, then each line said."""
    changed: Callable[[], None] | None = None
    ended: bool = False
    held: list[Callable[[Shown], None]] | None = field(default_factory=list)
    """What came for the replica before its screen followed it (`follow`), done then in
    order: a screen made after `show` and mounted later is told every change, none of
    them made before it listens (None: followed)."""

    @property
    def code(self) -> str:
        return self.room.code

    def people(self) -> frozenset[str]:
        return self.connected

    def follow(self, here: bool, changed: Callable[[], None]) -> None:
        """The screen starts (`here`, its session listeners in place) or stops showing
        the room: the replica changes from the first and no longer after the second."""
        if here:
            self.changed = changed
            held, self.held = self.held, None
            for act in held or ():
                act(self)
        else:
            self.changed = None
            self.client.hide(self)

    async def send(self, command: Command) -> None:
        """Send a command to the room's gateway; raises Refused with its sentence. The
        replica followed has the command (applied in the order the room applied it)
        before this returns."""
        await run_in(self.client.server, self.client.send_there(self.code, command))


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
class RoomClient:
    """One session's way to the rooms. Made on the server's loop; `connect` on the app's."""

    rooms: Rooms
    store: Store
    holder: Holder
    server: asyncio.AbstractEventLoop
    app: asyncio.AbstractEventLoop | None = None
    news: News | None = None
    views: tuple[RoomView, ...] = ()
    """The unfinished rooms as last read (`refresh`), on the app's loop."""
    shown: dict[int, Shown] = field(default_factory=dict)
    """On the app's loop."""
    opening: dict[int, list[Callable[[Shown], None]]] = field(default_factory=dict)
    """What came for a shown room before its replica was here (the server's loop told
    it in order, after the replica; the app's loop may run it before), on the app's loop."""
    watches: dict[int, Watch] = field(default_factory=dict)
    """On the server's loop."""
    waits: dict[int, tuple[Room, Callable[[Room], None]]] = field(default_factory=dict)
    """Joins awaited, on the server's loop."""
    keys: itertools.count[int] = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        self.user = self.holder.user
        self.rated = self.rooms.rated
        self.listing: Listing | None = None
        self.rooms.movers.append(self.moved_there)
        self.rooms.listing.append(self.listing_there)

    # -- the app's side -----------------------------------------------------------------------

    def connect(self, news: News, listing: Listing | None = None) -> None:
        """The app's loop (the running one) is told the person's news with `news`, and
        with `listing` that the lobby's lists changed (read again already)."""
        self.app = asyncio.get_running_loop()
        self.news = news
        self.listing = listing

    def unfinished(self) -> list[RoomView]:
        return list(self.views)

    def challenges(self, name: str) -> list[RoomView]:
        """As `Rooms.challenges`: other people's open challenges nobody accepted yet."""
        return [
            room
            for room in self.views
            if room.open and room.joiner is None and name not in room.players
        ]

    def of_player(self, name: str) -> list[RoomView]:
        """As `Rooms.of_player`: `name`'s games, those where it is their move first."""
        mine = [room for room in self.views if name in room.players]
        return sorted(mine, key=lambda room: not room.waits_for(name))

    def to_watch(self, name: str) -> list[RoomView]:
        """Other people's games (open challenges aside: they are accepted, not watched)."""
        return [
            room
            for room in self.views
            if name not in room.players and not (room.open and room.joiner is None)
        ]

    def known(self, code: str) -> RoomView | None:
        return next((room for room in self.views if room.code == code), None)

    async def refresh(self) -> None:
        """Read the unfinished rooms again (the lobby's lists)."""
        self.views = await run_in(self.server, self.views_there())

    async def enter(self, code: str, *, watch: bool) -> Entered:
        """Take the seat in room `code` (joining if one is open), or watch it."""
        return await run_in(self.server, self.enter_there(code, watch))

    async def create(self, setup: object, *, rated: bool, open: bool = False) -> RoomView:
        """A new room, an open challenge if `open` (raises RoomError)."""
        return await run_in(self.server, self.create_there(setup, rated, open))

    async def say(self, code: str, text: str) -> None:
        """Say `text` in room `code`'s chat; raises Refused or ChatRefused (a rules'
        error) with one sentence."""
        await run_in(self.server, self.say_there(code, text))

    async def rematch(self, code: str) -> RoomView:
        """Accept the rematch of room `code`: the new room (raises RoomError)."""
        return await run_in(self.server, self.rematch_there(code))

    async def call_off(self, code: str) -> None:
        """Abort room `code`'s game before anybody joined; raises Refused."""
        await run_in(self.server, self.send_there(code, Abort()))

    async def show(self, code: str) -> Shown | None:
        """A replica of room `code`'s session as it is now; kept up to date from the
        moment its screen follows it (`Shown.follow`) until it is hidden."""
        assert self.app is not None
        key = next(self.keys)
        self.opening[key] = []
        try:
            made = await run_in(self.server, self.show_there(code, key, self.app))
        finally:
            early = self.opening.pop(key)
        if made is None:
            return None
        room, session, connected, lines = made
        shown = Shown(self, key, room, session, connected)
        for line in lines:
            shown.chat.add(line)
        assert shown.held is not None
        shown.held.extend(early)
        self.shown[key] = shown
        return shown

    def hide(self, shown: Shown) -> None:
        if self.shown.pop(shown.key, None) is not None:
            shown.ended = True
            call_in(self.server, self.hide_there, shown.key)

    def showing(self, code: str) -> bool:
        return any(shown.code == code for shown in self.shown.values())

    def when_joined(self, code: str, joined: Callable[[], None]) -> Callable[[], None]:
        """Call `joined` (on the app's loop) once somebody takes room `code`'s open seat
        (at once if somebody has); the callable returned stops waiting."""
        assert self.app is not None
        key = next(self.keys)
        call_in(self.server, self.wait_there, code, key, self.app, joined)
        return lambda: call_in(self.server, self.unwait_there, key)

    async def ratings(
        self, game: str | None, names: set[str], *, end: bool = False
    ) -> list[PlayerRating]:
        """The ratings of `names` in `game` (None: every game); at a game's `end`, once
        the end is kept (and rated). Raises StoreError."""
        return await run_in(self.server, self.ratings_there(game, names, end))

    async def archive(
        self, *, finished: bool, player: str | None, limit: int, offset: int
    ) -> list[StoredRoom]:
        """A page of the store's rooms (the archive). Raises StoreError."""
        return await run_in(self.server, self.archive_there(finished, player, limit, offset))

    def _to_shown(self, key: int, act: Callable[[Shown], None]) -> None:
        shown = self.shown.get(key)
        if shown is not None and shown.held is not None:
            shown.held.append(act)
        elif shown is not None:
            act(shown)
        elif key in self.opening:
            self.opening[key].append(act)

    def _apply_here(self, key: int, command: Command, by: str | None, at: float) -> None:
        def act(shown: Shown) -> None:
            try:
                apply(shown.session, command, by, at)
            except RulesError as error:  # the replica went astray: copied again whole
                log.warning(
                    "room %s: %s does not apply to a replica (%s)", shown.code, command, error
                )
                call_in(self.server, self.copy_there, key)

        self._to_shown(key, act)

    def _adopt_here(self, key: int, fresh: Session) -> None:
        self._to_shown(key, lambda shown: adopt(shown.session, fresh))

    def _kept_here(self, key: int, kept: Kept) -> None:
        def act(shown: Shown) -> None:
            shown.session.keeper = kept
            for listener in list(shown.session.saving_listeners):
                listener()

        self._to_shown(key, act)

    def _people_here(self, key: int, people: frozenset[str]) -> None:
        def act(shown: Shown) -> None:
            shown.connected = people
            if shown.changed is not None:
                shown.changed()

        self._to_shown(key, act)

    def _said_here(self, key: int, line: ChatLine) -> None:
        self._to_shown(key, lambda shown: shown.chat.add(line))

    def _news_here(self, code: str, text: str, ring: bool) -> None:
        if self.news is not None:
            self.news(code, text, ring)

    def _listing_here(self, views: tuple[RoomView, ...]) -> None:
        self.views = views
        if self.listing is not None:
            self.listing()

    # -- the server's side -------------------------------------------------------------------

    def moved_there(self, room: Room, changed: Changed) -> None:
        told = your_move(room, changed, self.user)
        if told is not None and self.app is not None:
            call_in(self.app, self._news_here, room.code, *told)

    def listing_there(self) -> None:
        """A room was made, joined or ended: the lists read again go to the app."""
        if self.app is not None:
            views = tuple(view_of(room) for room in self.rooms.unfinished())
            call_in(self.app, self._listing_here, views)

    async def views_there(self) -> tuple[RoomView, ...]:
        return tuple(view_of(room) for room in self.rooms.unfinished())

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
        self, code: str, key: int, app: asyncio.AbstractEventLoop
    ) -> tuple[RoomView, Session, frozenset[str], tuple[ChatLine, ...]] | None:
        room = await self.rooms.get(code)
        if room is None:
            return None
        live = room.session
        replica = twin(live)
        if live.keeper is not None:
            replica.keeper = Kept(live.keeper.location, live.keeper.trouble)

        def commanded(command: Command, by: str | None, at: float) -> None:
            call_in(app, self._apply_here, key, command, by, at)

        records = [live.record]

        def moved(changed: Changed) -> None:
            # Read again whole (`Rooms._reload` adopts another record, then tells what
            # changed): copied again, the replica tells its screen the same. A take-back's
            # steps keep the record, and come to the replica with their command.
            if live.record is not records[0]:
                records[0] = live.record
                call_in(app, self._adopt_here, key, twin(live))

        def saving() -> None:
            keeper = live.keeper
            if keeper is not None:
                call_in(app, self._kept_here, key, Kept(keeper.location, keeper.trouble))

        def presence() -> None:
            call_in(app, self._people_here, key, PRESENCES.people(code))

        def said(line: ChatLine) -> None:
            call_in(app, self._said_here, key, line)

        room.commands.append(commanded)
        live.listeners.append(moved)
        live.saving_listeners.append(saving)
        room.chat.listeners.append(said)
        PRESENCES.follow(code, self.user, True, presence)
        self.watches[key] = Watch(room, commanded, moved, saving, presence, said)
        return view_of(room), replica, PRESENCES.people(code), tuple(room.chat.lines)

    def copy_there(self, key: int) -> None:
        watch = self.watches.get(key)
        if watch is not None and self.app is not None:
            call_in(self.app, self._adopt_here, key, twin(watch.room.session))

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

    def wait_there(
        self, code: str, key: int, app: asyncio.AbstractEventLoop, joined: Callable[[], None]
    ) -> None:
        room = self.rooms.known(code)
        if room is None:
            return
        if room.joiner is not None:
            call_in(app, joined)
            return

        def listener(room: Room) -> None:
            call_in(app, joined)

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
