"""The rooms as a session's thread sees them: the one object its app reaches them by.

The rooms (`Rooms`, each `Room` with its live `Session` and gateway), the presences and
the store belong to the server's loop (`server.session_thread` says which loop owns what).
An app on a session's thread, or in a process of its own (`server.session_process`), never
touches them: it calls this client, whose calls go to its desk on the server's loop
(`server.room_desk.RoomDesk`, through a `Link`) and bring back immutable snapshots
(`RoomView`: a room as the lobby lists it) or objects made there for the app alone:

- a screen showing a room shows a REPLICA of its session and of its terms (`Shown.session`,
  `Shown.terms`: the offers, the rematch, the keeper): copies made on the server's loop
  from their values (`apply.twin`, which reads no record text) when the screen asks for
  them; then every command the room applies (`Room.commands`) is applied to the replica
  on the app's loop by the same `apply.apply(session, terms, command, by, at)`, from the
  moment the screen follows it (its
  listeners in place: what came before waits until then), and a room read again whole
  is copied again (`apply.adopt`, silently: its screen draws it again, and the events
  since its version, which come to it in order as ever, say what happened).
  The screen's commands go to the room's gateway (`Shown.send`) and its outcome (done,
  or `Refused` with its sentence) comes back to the screen;
- each change's events (`events.Stamped`, numbered by the room's version) come to the
  replica with its command, after it (`Shown.events`, `Shown.version`), and are told to
  the screen's listeners (`Shown.listen`); a screen that was away asks for the events
  after the version it saw (`Shown.since`), and the desk remembers, per person and room,
  the last version a screen of theirs showed (`RoomClient.seen`);
- the room's chat is a replica too (`Shown.chat`: its lines when shown, then each line
  the room adds); a line said (`say`), a rematch accepted (`rematch`) and a room called
  off (`call_off`) run on the server's loop and come back done, or raise with a sentence;
- who is connected to the room (`Shown` is the play screen's presence, and its watcher
  count), whether its store keeps it (the replica terms' `keeper`, with its clock held while
  it does not: the `Hold` that runs it on comes as a command), a join awaited, your-move
  and resignation news, ratings and the lobby's lists once a room is made, joined or
  ended (read again on the server's loop: `listing`) cross as calls on the app's loop.

The client asks its desk with the requests of `link` (`Link.ask`, `Link.post`) and the
desk tells it with that module's tellings (`RoomClient.tell`, on the app's loop).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..commands import Abort, Command
from ..game_setup import Setup
from ..ratings import PlayerRating
from ..rules import RulesError
from ..session import Change, Changed, Session
from ..subscribers import Subscribers
from .apply import adopt, apply
from .chat import Chat
from .events import Stamped
from .holder import Holder
from .kept import StoredRoom
from .link import (
    AcceptRematch,
    Adopt,
    Applied,
    Archive,
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
from .room import EVENTS_KEPT
from .terms import RoomTerms

if TYPE_CHECKING:
    from ..puzzles.rated import PuzzleAnswer
    from .profile import Profile

log = logging.getLogger(__name__)

T = TypeVar("T")

__all__ = ["Entered", "Kept", "RoomClient", "RoomView", "Shown"]

Newsreader = Callable[[str, str, bool], None]
"""Told on the app's loop: room code, text, whether to ring (`tui.rooms.app.YourMove`)."""
Heard = Callable[[list[Stamped]], None]
"""Told on the app's loop of a shown room's new events, in order (`Shown.listen`)."""
ListsChanged = Callable[[], None]
"""Told on the app's loop once a room was made, joined or ended, with the lobby's lists
read again (`RoomClient.views`)."""


@dataclass
class Shown:
    """A room shown on a screen of the app: its replica session and terms, and the play
    screen's presence (who of the room is connected) and sender. Lives on the app's loop."""

    client: RoomClient
    key: int
    room: RoomView
    session: Session
    terms: RoomTerms
    """The room's terms beside the replica (offers, rematch, keeper), followed the same way."""
    connected: frozenset[str]
    chat: Chat = field(default_factory=Chat)
    """A replica of the room's chat: its lines when shown, then each line said."""
    changed: Callable[[], None] | None = None
    ended: bool = False
    held: list[Callable[[Shown], None]] | None = field(default_factory=list)
    """What came for the replica before its screen followed it (`follow`), done then in
    order: a screen made after `show` and mounted later is told every change, none of
    them made before it listens (None: followed)."""
    version: int = 0
    """The room's version the replica has: the one it was shown at, then its last event's."""
    events: list[Stamped] = field(default_factory=list)
    """The events the replica has had since it was shown, in order (the last
    `room.EVENTS_KEPT` of them)."""
    hearers: Subscribers[[list[Stamped]]] = field(default_factory=Subscribers)
    """Told of each change's new events (`listen`)."""

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
            self.close()

    def close(self) -> None:
        """The screen no longer shows the room: the replica changes no more, and every
        tie its showing made on the server's loop ends there (`Hide`)."""
        self.changed = None
        self.client.hide(self)

    async def send(self, command: Command) -> None:
        """Send a command to the room's gateway; raises Refused with its sentence. The
        replica followed has the command (applied in the order the room applied it)
        before this returns."""
        await self.client.link.ask(Send(self.code, command))

    def listen(self, heard: Heard) -> Callable[[], None]:
        """Call `heard` (on the app's loop) with each change's new events, in order, once
        the replica's session has the change, from now until the callable returned is
        called (the subscription's `close`). Each listener is told each event once."""
        return self.hearers.subscribe(heard).close

    async def since(self, version: int) -> list[Stamped]:
        """The room's events after `version`, in order (from the room in the server's
        memory, else from its store). Raises Refused if the store cannot be read."""
        found = await self.client.link.ask(Since(self.code, version))
        return list(found)

    def hear(self, events: tuple[Stamped, ...]) -> None:
        """The replica has the change of `events`: keep and tell the new ones."""
        fresh = [stamped for stamped in events if stamped.version > self.version]
        if not fresh:
            return
        self.events.extend(fresh)
        del self.events[:-EVENTS_KEPT]
        self.version = fresh[-1].version
        self.hearers(fresh)


class Link(Protocol):
    """How a session's client reaches its desk (`server.room_desk.RoomDesk`, on the
    server's loop): with a request of `link`."""

    async def ask(self, request: Request[T]) -> T:
        """The desk's answer to `request`, or what it raised."""
        ...

    def post(self, request: Posted) -> None:
        """Give the desk `request` soon; nothing comes back."""
        ...


@dataclass
class RoomClient:
    """One session's way to the rooms, on the app's loop: what it holds of them (the lists,
    the rooms shown), and its desk on the server's loop, reached through `link`."""

    holder: Holder
    rated: bool
    """Whether the server rates games (its store keeps ratings)."""
    link: Link
    app: asyncio.AbstractEventLoop | None = None
    news: Newsreader | None = None
    views: tuple[RoomView, ...] = ()
    """The unfinished rooms as last read (`refresh`)."""
    shown: dict[int, Shown] = field(default_factory=dict)
    opening: dict[int, list[Callable[[Shown], None]]] = field(default_factory=dict)
    """What came for a shown room before its replica was here (the server's loop told
    it in order, after the replica; the app's loop may run it before)."""
    joins: dict[int, Callable[[], None]] = field(default_factory=dict)
    """Joins awaited: what each calls."""
    keys: itertools.count[int] = field(default_factory=itertools.count)
    web_url: str | None = None
    """The address of the server's web page (`Rooms.web_url`); None: no links."""

    def __post_init__(self) -> None:
        self.user = self.holder.user
        self.listing: ListsChanged | None = None

    def room_link(self, code: str) -> str | None:
        """Room `code`'s address in a browser (`URL/room/CODE`), where the server has one."""
        return None if self.web_url is None else f"{self.web_url}room/{code}"

    # -- the app's side -----------------------------------------------------------------------

    def connect(self, news: Newsreader, listing: ListsChanged | None = None) -> None:
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
        self.views = await self.link.ask(Views())

    async def enter(self, code: str, *, watch: bool) -> Entered:
        """Take the seat in room `code` (joining if one is open), or watch it."""
        return await self.link.ask(Enter(code, watch))

    async def create(
        self,
        setup: Setup,
        *,
        rated: bool,
        open: bool = False,
        colour: str = "first",
        rating_range: str = "",
    ) -> RoomView:
        """A new room, an open challenge if `open`, its creator playing `colour`, open to
        the ratings of `rating_range` (raises RoomError)."""
        return await self.link.ask(Create(setup, rated, open, colour, rating_range))

    async def say(self, code: str, text: str) -> None:
        """Say `text` in room `code`'s chat; raises Refused or ChatRefused (a rules'
        error) with one sentence."""
        await self.link.ask(Speak(code, text))

    async def rematch(self, code: str) -> RoomView:
        """Accept the rematch of room `code`: the new room (raises RoomError)."""
        return await self.link.ask(AcceptRematch(code))

    async def call_off(self, code: str) -> None:
        """Abort room `code`'s game before anybody joined; raises Refused."""
        await self.link.ask(Send(code, Abort()))

    async def show(self, code: str) -> Shown | None:
        """A replica of room `code`'s session as it is now; kept up to date from the
        moment its screen follows it (`Shown.follow`) until it is hidden."""
        key = next(self.keys)
        self.opening[key] = []
        try:
            made = await self.link.ask(Show(code, key))
        finally:
            early = self.opening.pop(key)
        if made is None:
            return None
        shown = Shown(
            self, key, made.view, made.session, made.terms, made.people, version=made.version
        )
        for line in made.lines:
            shown.chat.add(line)
        assert shown.held is not None
        shown.held.extend(early)
        self.shown[key] = shown
        return shown

    def hide(self, shown: Shown) -> None:
        if self.shown.pop(shown.key, None) is not None:
            shown.ended = True
            self.link.post(Hide(shown.key, shown.version))

    async def seen(self, code: str) -> int | None:
        """The last version of room `code` a screen of this person's showed, on any of
        their sessions, of any process of the server, before or after a restart (kept in
        the store), once it stopped showing it (None: none did): a screen showing it
        again says what was missed since."""
        return await self.link.ask(Seen(code))

    def showing(self, code: str) -> bool:
        return any(shown.code == code for shown in self.shown.values())

    def when_joined(self, code: str, joined: Callable[[], None]) -> Callable[[], None]:
        """Call `joined` (on the app's loop) once somebody takes room `code`'s open seat
        (at once if somebody has); the callable returned stops waiting."""
        key = next(self.keys)
        self.joins[key] = joined
        self.link.post(Wait(code, key))

        def stop() -> None:
            if self.joins.pop(key, None) is not None:
                self.link.post(Unwait(key))

        return stop

    async def ratings(
        self, game: str | None, names: set[str], *, end: bool = False
    ) -> list[PlayerRating]:
        """The ratings of `names` in `game` (None: every game); at a game's `end`, once
        the end is kept (and rated). Raises StoreError."""
        return await self.link.ask(Ratings(game, frozenset(names), end))

    async def archive(
        self, *, finished: bool, player: str | None, limit: int, offset: int
    ) -> list[StoredRoom]:
        """A page of the store's rooms (the archive). Raises StoreError."""
        return await self.link.ask(Archive(finished, player, limit, offset))

    async def leaderboard(self, game: str) -> list[PlayerRating]:
        """The first ratings of `game`, the highest first. Raises StoreError."""
        return await self.link.ask(Leaderboard(game))

    async def profile(self, name: str) -> Profile:
        """What is known of player `name`. Raises StoreError."""
        return await self.link.ask(ProfileOf(name))

    async def moderate(self, words: tuple[str, ...]) -> str:
        """The answer to `mute NAME` and the like (`link.Moderate`)."""
        return await self.link.ask(Moderate(words))

    async def notify(self, words: tuple[str, ...]) -> tuple[str, bool]:
        """The answer to `notify ...` (`link.Notify`): a sentence, and whether it was
        taken. Raises StoreError."""
        return await self.link.ask(Notify(words))

    async def replies(self, code: str, words: tuple[str, ...]) -> tuple[str, ...]:
        """The answer to `if MOVE then REPLY`, `if clear` or `ifs` in room `code`
        (`link.KeepReplies`): its lines. Raises Refused with one sentence."""
        return await self.link.ask(KeepReplies(code, words))

    async def puzzles(self, request: Puzzling) -> PuzzleAnswer:
        """The answer to a rated puzzles' request (`link.Puzzling`). Raises StoreError."""
        return await self.link.ask(request)

    # -- what the desk tells -----------------------------------------------------------------

    def tell(self, telling: Telling) -> None:
        """What the desk tells (on the app's loop)."""
        match telling:
            case Applied(key, command, by, at):
                self._to_shown(key, lambda shown: self._apply(shown, command, by, at))
            case Events(key, events):
                self._to_shown(key, lambda shown: shown.hear(events))
            case Adopt(key, fresh, terms):
                self._to_shown(key, lambda shown: _adopt(shown, fresh, terms))
            case KeptNow(key, kept):
                self._to_shown(key, lambda shown: _kept(shown, kept))
            case People(key, people):
                self._to_shown(key, lambda shown: _people(shown, people))
            case Said(key, line):
                self._to_shown(key, lambda shown: shown.chat.add(line))
            case News(code, text, ring):
                if self.news is not None:
                    self.news(code, text, ring)
            case Listing(views):
                self.views = views
                if self.listing is not None:
                    self.listing()
            case SeatTaken(key):
                joined = self.joins.get(key)
                if joined is not None:
                    joined()

    def _to_shown(self, key: int, act: Callable[[Shown], None]) -> None:
        shown = self.shown.get(key)
        if shown is not None and shown.held is not None:
            shown.held.append(act)
        elif shown is not None:
            act(shown)
        elif key in self.opening:
            self.opening[key].append(act)

    def _apply(self, shown: Shown, command: Command, by: str | None, at: float) -> None:
        try:
            apply(shown.session, shown.terms, command, by, at)
        except RulesError as error:  # the replica went astray: copied again whole
            log.warning("room %s: %s does not apply to a replica (%s)", shown.code, command, error)
            self.link.post(CopyAgain(shown.key))


def _adopt(shown: Shown, fresh: Session, terms: RoomTerms) -> None:
    adopt(shown.session, fresh)
    shown.terms.take(terms)
    shown.session.notify(Changed(Change.STEP))  # drawn again: no news


def _kept(shown: Shown, kept: Kept) -> None:
    session = shown.session
    shown.terms.keeper = kept
    if kept.held is not None and session.clock is not None:
        session.clock.hold(kept.held)
    session.saving_listeners()


def _people(shown: Shown, people: frozenset[str]) -> None:
    shown.connected = people
    if shown.changed is not None:
        shown.changed()
