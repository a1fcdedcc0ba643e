"""A room: one game two people play and others may watch, known by a short code.

A room holds ONE live `Session`, its game, and its terms beside it (`terms.RoomTerms`:
the offers waiting, the rematch agreed, its keeper); every screen of this process showing
the game shows those same objects, so a change made through the room's gateway is on all
of them at once. No user-interface code and no store here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from ..clock import clock_text
from ..commands import Command
from ..game_setup import Setup
from ..records import result_text
from ..records.results import DRAW, decided
from ..rules import SWAP
from ..session import Phase, Session
from ..subscribers import Subscribers
from .chat import Chat, Rates
from .events import Stamped
from .fold import Attendance
from .kept import Finish, RoomSave, RoomSetup
from .pairing import FIRST, colour_note
from .rows import OPEN_SEAT
from .terms import RoomTerms

EVENTS_KEPT = 2000
"""The most events a room keeps in memory (its last ones): a screen that asks for older
ones has them read from the store."""


class RoomError(Exception):
    """A room cannot be joined or made as asked (the message says why)."""


@dataclass
class Room:
    """A game two people play and others may watch."""

    code: str
    setup: Setup
    """The game and its options; `first` is the creator."""
    session: Session
    terms: RoomTerms = field(default_factory=RoomTerms)
    """What the room adds to its game: offers, rematch, keeper (changed with the session
    by the same commands, `apply.apply`)."""
    listeners: Subscribers[[Room]] = field(default_factory=Subscribers)
    """Told when somebody joins (the creator's waiting screen goes on to the game)."""
    rated: bool = False
    """Whether its end changes both players' ratings in its game."""
    flag_timer: asyncio.TimerHandle | None = None
    """Ends the game when the running clock runs out."""
    version: int = 0
    """How many changes the room has had, as the live rooms last said."""
    holders: dict[str, str] = field(default_factory=dict)
    """The connection holding each seat (by name), as the live rooms last said."""
    open: bool = False
    """An open challenge: listed in every lobby until somebody joins."""
    chat: Chat = field(default_factory=Chat)
    """The lines said in the room while this process has had it."""
    rates: Rates = field(default_factory=Rates)
    """How fast each person may chat in it (this process's sayers)."""
    commands: Subscribers[[Command, str | None, float]] = field(default_factory=Subscribers)
    """Told of every command applied to the live session, by whom and at what moment (the
    replicas of the session on the SSH sessions' threads apply the same)."""
    events: list[Stamped] = field(default_factory=list)
    """The room's events known here, in order, without a gap: those of each change
    applied here since the room was read (its own commits and those of other processes),
    or read from the store for a screen that asked (`Rooms.events_since`)."""
    told: Subscribers[[list[Stamped]]] = field(default_factory=Subscribers)
    """Told of each change's events once its command is applied to the live session."""
    version_known: int = 0
    """The last event given to the room here (`gateway.keep_events`): each is told once."""
    attendance: Attendance | None = None
    """Who is in the room as its events say, up to `attendance_version` (None: not read
    yet, or a gap in the events given here: folded again from the store when needed)."""
    attendance_version: int = 0
    news: Callable[[Room, list[Stamped]], None] | None = None
    """The rooms' own hook for every new event of the room (the players' news in their
    lobbies): not a screen's, so it does not keep the room in memory as `told` does."""
    colour: str = FIRST
    """The creator's colour as chosen (`pairing.COLOURS`): its session seats them so, a
    random one when somebody joins."""
    rating_range: str = ""
    """The ratings that may accept it, as `pairing.parse_range` reads them ("": anyone)."""

    @property
    def creator(self) -> str:
        return self.setup.first

    @property
    def joiner(self) -> str | None:
        """Who took the open seat (the session's other person), if anybody has."""
        return next((p for p in self.session.people if p not in (self.creator, OPEN_SEAT)), None)

    @property
    def players(self) -> tuple[str, ...]:
        return (self.creator,) if self.joiner is None else (self.creator, self.joiner)

    @property
    def finished(self) -> bool:
        return self.session.phase is Phase.PLAY and self.session.over

    @property
    def abandoned(self) -> bool:
        """Whether the room ended before anybody joined it (its creator called it off):
        it has one player and no move, and nothing of it is worth keeping."""
        return self.finished and self.joiner is None

    def waits_for(self, name: str) -> bool:
        """Whether the game waits for `name` (a move, komi or a side), both seats taken."""
        return self.joiner is not None and self.session.waiting_for() == name

    def describe(self) -> str:
        """`k7m2  Pilo 8x8  ann - bob  Blue to move (ann)`."""
        note = colour_note(self.colour) if self.joiner is None else ""
        creator = f"{self.creator} ({note})" if note else self.creator
        who = f"{creator} - {self.joiner or 'waiting for a player'}"
        return f"{self.code}  {self.game_text()}  {who}  {self.state_text()}"

    def game_text(self) -> str:
        """`Pilo 8x8`, `Partitions side 6`."""
        game = self.session.game
        info = game.info
        size = f"side {game.size}" if info.geometry == "hex" else f"{game.size}x{game.size}"
        return f"{info.title} {size}"

    def state_text(self) -> str:
        """`open seat`, `choosing komi and sides`, or whose turn it is (in a game of days
        per move, with the mover's time left: `Blue to move (ann), 2d 5h left`)."""
        if self.joiner is None:
            return "open seat"
        session = self.session
        if session.phase is not Phase.PLAY:
            return "choosing komi and sides"
        clock = session.clock
        if clock is None or not clock.control.correspondence:
            return session.turn_text()
        now = session.now()
        if clock.running is not None:
            return f"{session.turn_text()}, {clock.face(clock.running, now)} left"
        first = session.first_move_left(now)  # a first move due (no clock runs yet)
        if first is None:
            return session.turn_text()
        return f"{session.turn_text()}, {clock_text(first)} left"

    def save(self, session: Session | None = None) -> RoomSave:
        """The room whole as `session` (its live one by default) has it: what a store keeps."""
        save = room_save(self.code, self.setup, self.rated, session or self.session, self.open)
        kept = replace(save.setup, colour=self.colour, rating_range=self.rating_range)
        return replace(save, setup=kept)


def room_save(
    code: str, setup: Setup, rated: bool, session: Session, open: bool = False
) -> RoomSave:
    """The room as `session` has it (taken on the event loop), whole: setup, joiner,
    record (once komi and sides are settled), how it ended, the phase and the clocks."""
    creator = setup.first
    joiner = next((p for p in session.people if p not in (creator, OPEN_SEAT)), None)
    kept = RoomSetup(
        setup.game, setup.size, setup.variant, setup.komi, creator, rated, setup.clock, open
    )
    sgf = session.record.to_sgf() if session.phase is Phase.PLAY else None
    komi = session.game.options.komi if session.phase is Phase.SIDE else None
    save = RoomSave(
        code, kept, joiner, sgf, ending(session), phase=session.phase.value, komi_chosen=komi
    )
    clock = session.clock
    if clock is None:
        return save
    main = tuple(side.main for side in clock.sides)
    return replace(save, clock_main=main, clock_periods=tuple(s.periods for s in clock.sides))


def ending(session: Session, at: datetime | None = None) -> Finish | None:
    """How the session's game ended (its main line's), None while it goes on."""
    if session.phase is not Phase.PLAY:
        return None
    on_end = session.node_is_last() and session.on_main_line()
    game = session.game if on_end else session.record.main_game()
    off_the_board = decided(session.record.result, game.info.colours)
    if off_the_board is not None:  # on time, resigned, or called off (no winner)
        colour = off_the_board.winner
        person = None if colour is None else session.people[colour ^ (SWAP in game.moves)]
        return Finish(session.record.result, person, at)
    outcome = game.outcome()
    if outcome is None and session.record.result == DRAW:  # agreed before the end of play
        return Finish(DRAW, None, at)
    if outcome is None:
        return None
    winner = None
    if outcome.winner is not None:
        winner = session.people[outcome.winner ^ (SWAP in game.moves)]
    return Finish(result_text(game), winner, at)
