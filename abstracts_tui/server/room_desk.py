"""A session's desk on the server's loop: what its `rooms.client.RoomClient` asks of the
rooms, done there, and what the rooms tell it, sent back.

The client (on the app's loop: a session's thread, or a process of its own) asks with a
request of `rooms.link` (`RoomDesk.handle`, one `match`), and the desk tells it with a
telling of that module (`Teller`). On a thread, both are calls between two loops of one
process (`ThreadLink`, `ThreadTeller`); a session in a process of its own sends them as
messages (`session_process`).

Every tie the desk makes to the rooms is a subscription (`subscribers`): its own to the
lobby's news and lists, each screen's to the room it shows (`Showing`: the room's
commands and events, its session's changes and keeper, its chat, its presence) and each
join awaited; `close` ends them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, cast

from ..commands import Abort, Claim, Command
from ..crossing import call_in, run_in
from ..game_setup import Setup
from ..rooms.apply import twin
from ..rooms.client import RoomClient
from ..rooms.events import (
    ChatSaid,
    Ended,
    Joined,
    KomiSet,
    MovePlayed,
    Rated,
    SideChosen,
    Stamped,
    Swapped,
)
from ..rooms.holder import Holder
from ..rooms.link import (
    AcceptRematch,
    Adopt,
    Applied,
    Archive,
    Asked,
    CopyAgain,
    Create,
    Enter,
    Entered,
    Events,
    Hide,
    KeepReplies,
    Kept,
    KeptNow,
    Leaderboard,
    Listing,
    Moderate,
    News,
    Notify,
    Opened,
    People,
    Posted,
    ProfileOf,
    Puzzling,
    Ratings,
    Request,
    RoomView,
    Said,
    SeatTaken,
    Seen,
    Send,
    Show,
    Since,
    Speak,
    Telling,
    Unwait,
    Views,
    Wait,
)
from ..rooms.live import Refused
from ..rooms.room import Room, RoomError
from ..rooms.rooms import Rooms
from ..rooms.terms import RoomTerms
from ..rooms.told import rated_text
from ..session import Changed, Session
from ..standings import read_leaderboard, read_profile
from ..store import Store
from ..subscribers import Subscription, Ties
from .moderation import Standing, abort_refusal, claim_refusal, personal
from .notify_command import notify
from .puzzle_desk import puzzle_errand

log = logging.getLogger(__name__)

T = TypeVar("T")


class Teller(Protocol):
    """How a desk tells its client."""

    def tell(self, telling: Telling) -> None: ...


def kept_of(room: Room) -> Kept | None:
    """What a replica of `room` is told of who keeps its game, and of its clock held (on
    the server's loop)."""
    keeper = room.terms.keeper
    if keeper is None:
        return None
    clock = room.session.clock
    return Kept(keeper.location, keeper.trouble, clock.held if clock is not None else None)


def replica_of(room: Room) -> tuple[Session, RoomTerms]:
    """Copies of `room`'s session and terms for a screen (on the server's loop): values
    only, the keeper the store's last word (`kept_of`), never the store."""
    terms = room.terms.copy()
    terms.keeper = kept_of(room)
    return twin(room.session), terms


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
        room.colour,
        room.rating_range,
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
                elif how == Ended.ABORTED and by is None:  # no first move in time
                    told.append((f"{event.result.removesuffix('.')} ({where}).", False))
                elif how == Ended.ABORTED:
                    told.append(
                        (f"{by} aborted the game in {where}: {session.turn_text()}.", False)
                    )
                elif how == Ended.RESIGNED:
                    told.append((f"{by} resigned in {where}: {session.turn_text()}.", False))
                elif how == Ended.TIME:
                    told.append((f"The game in {where} ended: {session.turn_text()}.", False))
                elif how == Ended.CLAIMED and event.winner is None:  # a draw claimed
                    told.append((f"{by} claimed a draw in {where}: {event.loser} left.", False))
                elif how == Ended.CLAIMED:
                    told.append(
                        (f"{by} claimed the game in {where}: {session.turn_text()}.", False)
                    )
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
class Showing:
    """A room shown on one screen of the session, on the server's loop, and every tie
    that showing made (`ties`: the room's commands and events, its session's changes and
    keeper, its chat, its presence), all ended by `close()`."""

    room: Room
    version: int
    """The room's version the replica was last sent (its events)."""
    ties: Ties = field(default_factory=Ties)

    def close(self) -> None:
        self.ties.close()


@dataclass
class RoomDesk:
    """One session's errands in the rooms, on the server's loop; it tells its client
    through `teller` what the rooms tell it."""

    rooms: Rooms
    store: Store
    holder: Holder
    teller: Teller
    showings: dict[int, Showing] = field(default_factory=dict)
    """The rooms shown on the session's screens, by the client's key."""
    waits: dict[int, Subscription] = field(default_factory=dict)
    """Joins awaited, by the client's key."""
    tasks: set[asyncio.Task[object]] = field(default_factory=set)
    """Posted requests being done."""
    placed: Callable[[str | None], None] | None = None
    """Told the code of the room the session's newest room screen shows or waits in, None
    when it has none (a browser's page keeps that room in its address: `server.web`)."""
    places: dict[int, str] = field(default_factory=dict)
    """The rooms shown or waited in, by the client's key."""

    def __post_init__(self) -> None:
        self.user = self.holder.user
        self.standing = Standing(self.store, self.user)
        """Whom the person mutes and blocks, and who is suspended (`server.moderation`)."""
        self.ties = Ties(
            self.rooms.news.subscribe(self.news), self.rooms.listing.subscribe(self.listing)
        )

    async def handle(self, request: Asked | Posted) -> object:
        """Do what the client asks: the answer (None for a posted request)."""
        match request:
            case Views():
                await self.standing.refresh()
                return self.views()
            case Enter(code, watch):
                return await self.enter(str(code), bool(watch))
            case Create(Setup() as setup, rated, open, str(colour), str(spread)):
                made = await self.rooms.create(
                    setup,
                    self.holder,
                    rated=bool(rated),
                    open=bool(open),
                    colour=colour,
                    rating_range=spread,
                )
                return view_of(made)
            case Speak(code, str(text)):
                await self.rooms.say(self.room(code), text, self.holder)
            case AcceptRematch(code):
                return view_of(await self.rooms.rematch(self.room(code), self.holder))
            case Show(code, int(key)):
                return await self.show(str(code), key)
            case Since(code, int(version)):
                return await self.since(str(code), version)
            case Seen(code):
                return await self.rooms.seen_by(self.user, str(code).strip().lower())
            case Send(code, command) if isinstance(command, Command):
                if isinstance(command, Abort):
                    await self.may_abort()
                if isinstance(command, Claim):
                    refusal = await claim_refusal(self.rooms, self.room(code), self.user)
                    if refusal is not None:
                        raise Refused(refusal)
                await self.rooms.send(self.room(code), command, self.holder)
            case Ratings(game, names, end):
                return await self.ratings(game, frozenset(names), bool(end))
            case Archive(finished, player, int(limit), int(offset)):
                return await asyncio.to_thread(
                    self.store.rooms,
                    finished=bool(finished),
                    player=player,
                    limit=limit,
                    offset=offset,
                )
            case Leaderboard(game):
                return await asyncio.to_thread(read_leaderboard, self.store, str(game))
            case ProfileOf(name):
                return await asyncio.to_thread(read_profile, self.store, str(name))
            case Moderate(words):
                said = await asyncio.to_thread(personal, self.store, self.user, list(words))
                await self.standing.refresh()  # a mute hides the lines said from now on
                return said
            case KeepReplies(code, words):
                room = self.room(code)
                return await self.rooms.conditions.answer(room, self.user, tuple(words))
            case Notify(words):
                return await asyncio.to_thread(notify, self.store, self.user, list(words))
            case Puzzling():
                return await asyncio.to_thread(puzzle_errand, self.store, self.user, request)
            case Hide(int(key), version):
                self.hide(key, version)
            case CopyAgain(int(key)):
                showing = self.showings.get(key)
                if showing is not None:
                    self.teller.tell(Adopt(key, *replica_of(showing.room)))
            case Wait(code, int(key)):
                self.wait(str(code), key)
            case Unwait(int(key)):
                waiting = self.waits.pop(key, None)
                if waiting is not None:
                    waiting.close()
                self.moved(key, None)
            case _:
                raise Refused(f"the server does not do {type(request).__name__}")
        return None

    def post(self, request: Posted) -> None:
        """Do `request` soon; nothing goes back (a failure is a line of the log)."""
        task = asyncio.ensure_future(self.handle(request))
        self.tasks.add(task)
        task.add_done_callback(self._posted)

    def _posted(self, task: asyncio.Task[object]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("%s: a request failed: %s", self.user, task.exception())

    def room(self, code: object) -> Room:
        """Room `code`, in memory here; raises Refused if it is not."""
        room = self.rooms.known(str(code))
        if room is None:
            raise Refused(f"room {code} is not here any more")
        return room

    # -- what the rooms tell ----------------------------------------------------------------------

    def news(self, room: Room, events: list[Stamped]) -> None:
        for text, ring in your_move(room, events, self.user):
            self.teller.tell(News(room.code, text, ring))

    def listing(self) -> None:
        """A room was made, joined or ended: the lists read again go to the app."""
        self.teller.tell(Listing(self.views()))

    # -- requests ---------------------------------------------------------------------------------

    def views(self) -> tuple[RoomView, ...]:
        shown = [room for room in self.rooms.listed(self.user) if not self.hidden(room)]
        return tuple(view_of(room) for room in shown)

    def hidden(self, room: Room) -> bool:
        """Whether the lobby does not list `room` to the person: an open challenge nobody
        took, made by somebody suspended or who blocks them (or whom they block)."""
        waiting = room.open and room.joiner is None
        return waiting and self.standing.hides_challenge(room.creator)

    async def may_abort(self) -> None:
        """Raises Refused when the person has aborted too many games lately."""
        refusal = await asyncio.to_thread(abort_refusal, self.store, self.user)
        if refusal is not None:
            raise Refused(refusal)

    def shown_events(self, events: Iterable[Stamped]) -> tuple[Stamped, ...]:
        """`events` without the chat lines of those the person mutes or blocks."""
        hides = self.standing.hides_chat
        return tuple(e for e in events if not (isinstance(e.event, ChatSaid) and hides(e.event.by)))

    async def enter(self, code: str, watch: bool) -> Entered:
        rooms = self.rooms
        room = await rooms.get(code)
        if room is None:
            return Entered(None, f"There is no room {code}.")
        notice = None
        await self.standing.refresh()
        refusal = self.standing.join_refusal(room.creator)
        if self.user in room.players:
            await rooms.take_seat(room, self.holder)
        elif not watch and refusal is not None and room.joiner is None:
            notice = f"{refusal.capitalize()}: you watch."
        elif not watch:
            try:
                await rooms.join(room, self.holder)
            except RoomError as error:
                said = str(error)  # its names kept as they are (`Pilo`)
                notice = f"{said[:1].upper()}{said[1:]}: you watch."
        return Entered(view_of(room), notice)

    async def show(self, code: str, key: int) -> Opened | None:
        """Room `code` as a screen starts showing it, and the ties that keep its replica
        told (each telling with `key`) until the screen hides it."""
        await self.standing.refresh()  # first: from `hide` to the ties, nothing waits
        room = await self.rooms.get(code)
        if room is None:
            return None
        self.hide(key)  # a key shows one room
        live = room.session
        replica, terms = replica_of(room)
        tell = self.teller.tell
        showing = self.showings[key] = Showing(room, room.version)
        self.moved(key, room.code)
        records = [live.record]

        def commanded(command: Command, by: str | None, at: float) -> None:
            tell(Applied(key, command, by, at))

        def heard(events: list[Stamped]) -> None:
            # After its command (`commanded`): the replica has the change before its events.
            shown = self.shown_events(events)
            if shown:
                tell(Events(key, shown))
            showing.version = events[-1].version

        def moved(changed: Changed) -> None:
            # Read again whole (`Rooms._reload` adopts another record, then has it drawn
            # again): the replica is copied again, silently, before the events since its
            # version come to it and say what happened. A take-back's steps keep the
            # record, and come to the replica with their command.
            if live.record is not records[0]:
                records[0] = live.record
                tell(Adopt(key, *replica_of(room)))

        def saving() -> None:
            kept = kept_of(room)
            if kept is not None:
                tell(KeptNow(key, kept))

        presences = self.rooms.presences
        ties = showing.ties
        ties.add(room.commands.subscribe(commanded))
        ties.add(room.told.subscribe(heard))
        ties.add(live.listeners.subscribe(moved))
        ties.add(live.saving_listeners.subscribe(saving))
        hides = self.standing.hides_chat
        ties.add(
            room.chat.listeners.subscribe(
                lambda line: None if hides(line.by) else tell(Said(key, line))
            )
        )
        ties.add(
            presences.follow(code, self.user, lambda: tell(People(key, presences.people(code))))
        )
        lines = tuple(line for line in room.chat.lines if not hides(line.by))
        return Opened(view_of(room), replica, terms, presences.people(code), lines, room.version)

    def hide(self, key: int, version: object = None) -> None:
        """The screen of `key` stops showing its room, having shown it up to `version`
        (None: as far as it was sent): remembered for the person (`Seen`)."""
        self.moved(key, None)
        showing = self.showings.pop(key, None)
        if showing is None:
            return
        shown = showing.version
        if isinstance(version, int) and not isinstance(version, bool):
            shown = max(0, min(version, showing.version))
        self.rooms.remember_seen(self.user, showing.room.code, shown)
        showing.close()

    async def since(self, code: str, version: int) -> tuple[Stamped, ...]:
        """Room `code`'s events after `version` (none if there is no such room)."""
        room = await self.rooms.get(code)
        if room is None:
            return ()
        return self.shown_events(await self.rooms.events_since(room, max(0, version)))

    def moved(self, key: int, code: str | None) -> None:
        """The screen of `key` now shows or waits in room `code` (None: no room): `placed`
        is told when the newest room screen's room changes."""
        before = next(reversed(self.places.values()), None)
        if code is None:
            self.places.pop(key, None)
        else:
            self.places[key] = code
        now = next(reversed(self.places.values()), None)
        if now != before and self.placed is not None:
            self.placed(now)

    def wait(self, code: str, key: int) -> None:
        self.moved(key, code)
        room = self.rooms.known(code)
        if room is None:
            return
        if room.joiner is not None:
            self.teller.tell(SeatTaken(key))
            return
        self.waits[key] = room.listeners.subscribe(lambda room: self.teller.tell(SeatTaken(key)))

    async def ratings(self, game: str | None, names: frozenset[str], end: bool) -> object:
        if end:  # the end is saved (and rated) before the ratings are read again
            await self.rooms.flush()
        return await asyncio.to_thread(self.store.ratings, game, set(names))

    def close(self) -> None:
        """The session ended (on the server's loop): nothing more is sent to it."""
        self.ties.close()
        for key in list(self.showings):
            self.hide(key)
        for waiting in self.waits.values():
            waiting.close()
        self.waits.clear()


class ThreadTeller:
    """Tells a client on a session's thread: a call on its app's loop, once it has one."""

    def __init__(self, client: RoomClient) -> None:
        self.client = client

    def tell(self, telling: Telling) -> None:
        loop = self.client.app
        if loop is not None:
            call_in(loop, self.client.tell, telling)


class ThreadLink:
    """A client's way to its desk from a session's thread: calls on the server's loop."""

    def __init__(self, server: asyncio.AbstractEventLoop) -> None:
        self.server = server
        self.desk: RoomDesk | None = None

    async def ask(self, request: Request[T]) -> T:
        assert self.desk is not None
        answer = await run_in(self.server, self.desk.handle(cast(Asked, request)))
        return cast(T, answer)

    def post(self, request: Posted) -> None:
        assert self.desk is not None
        call_in(self.server, self.desk.post, request)


def thread_client(
    rooms: Rooms, store: Store, holder: Holder, server: asyncio.AbstractEventLoop
) -> tuple[RoomClient, RoomDesk]:
    """A client for an app on a session's thread (or line mode's), and its desk on the
    server's loop `server`, which this is called on; `RoomDesk.close` once it has ended."""
    link = ThreadLink(server)
    client = RoomClient(holder, rooms.rated, link, web_url=rooms.web_url)
    desk = link.desk = RoomDesk(rooms, store, holder, ThreadTeller(client))
    return client, desk
