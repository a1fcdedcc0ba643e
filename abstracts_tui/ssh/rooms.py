"""Rooms: one shared game each, known by a short code, kept in the server's store.

A room holds ONE `Session`; every screen showing the game (both players', any watchers')
shows that same object, so a move made on one screen is on all of them at once. After
every change the room is saved whole into the store (`store.RoomSave`: its setup, who
joined, the record, and how it ended once it has), on the autosave's writer thread, so the
event loop every player shares never waits for the disk; a store that fails does not stop
the game: the players are told it is not being saved, as with a file. When the server
starts, every unfinished room is read back from the store; a finished one stays in the
store, the archive, and is read back when somebody asks for its code.

A room with a clock keeps its time here, on the server: the side to move's clock runs
from the moment both people are in (komi and sides chosen), whoever is connected or not,
and a timer on the event loop ends the game when it runs out, even if nobody presses a
key. A server restarted goes on from the time left after the last move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from pathlib import Path

from ..game_setup import Setup
from ..records import Record, result_text
from ..records.results import decided
from ..rules import SWAP
from ..session import Change, Changed, Phase, Saving, Session
from ..store import Finish, RoomSave, RoomSetup, Store, StoredRoom, StoreError
from .files import printable
from .room_files import (
    BAD_ROOM,
    CODE_LENGTH,
    CODE_LETTERS,
    OPEN_SEAT,
    check_record,
    room_session,
    why,
)

log = logging.getLogger(__name__)


@dataclass
class Room:
    """A game two people play and others may watch."""

    code: str
    setup: Setup
    """The game and its options; `first` is the creator."""
    joiner: str | None
    session: Session
    listeners: list[Callable[[Room], None]]
    """Called when somebody joins (the creator's waiting screen goes on to the game)."""
    rated: bool = False
    """Whether its end changes both players' ratings in its game."""
    flag_timer: asyncio.TimerHandle | None = None
    """Ends the game when the running clock runs out."""

    @property
    def creator(self) -> str:
        return self.setup.first

    @property
    def players(self) -> tuple[str, ...]:
        return (self.creator,) if self.joiner is None else (self.creator, self.joiner)

    @property
    def finished(self) -> bool:
        return self.session.phase is Phase.PLAY and self.session.over

    def waits_for(self, name: str) -> bool:
        """Whether the game waits for `name` (a move, komi or a side), both seats taken."""
        return self.joiner is not None and self.session.waiting_for() == name

    def describe(self) -> str:
        """`k7m2  Pilo 8x8  ann - bob  Blue to move (ann)`."""
        who = f"{self.creator} - {self.joiner or 'waiting for a player'}"
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
        if clock is None or not clock.control.correspondence or clock.running is None:
            return session.turn_text()
        return f"{session.turn_text()}, {clock.face(clock.running, session.now())} left"


class RoomError(Exception):
    """A room cannot be joined or made as asked (the message says why)."""


def room_save(code: str, setup: Setup, rated: bool, session: Session, sgf: str | None) -> RoomSave:
    """The room as it is now (taken on the event loop), to be saved on the writer thread."""
    creator = setup.first
    joiner = next((p for p in session.people if p not in (creator, OPEN_SEAT)), None)
    kept = RoomSetup(setup.game, setup.size, setup.variant, setup.komi, creator, rated, setup.clock)
    return RoomSave(code, kept, joiner, sgf, ending(session))


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
    if outcome is None:
        return None
    winner = None
    if outcome.winner is not None:
        winner = session.people[outcome.winner ^ (SWAP in game.moves)]
    return Finish(result_text(game), winner, at)


class Rooms:
    """Every unfinished room of the server in memory, and every room in its store."""

    def __init__(self, store: Store, *, rated: bool = False) -> None:
        """The rooms of `store`; new ones are rated if `rated`. Raises StoreError if the
        store cannot be read."""
        self.store = store
        self.rated = rated
        self.movers: list[Callable[[Room, Changed], None]] = []
        """Told of every move, komi, side and join in any room (for the your-move signals)."""
        self.where = Path(store.location)
        self.rooms: dict[str, Room] = {}
        self.codes = store.codes()
        """Every code in use, finished rooms' too: a code names one game for good."""
        for stored in store.rooms(finished=False):
            room = self._load(stored)
            if room is None:
                continue
            self.rooms[room.code] = room
            if room.finished:  # it ended, but the end was not saved: save it (and rate it)
                self.save(room, ending(room.session, stored.updated))

    # -- the store ------------------------------------------------------------------------

    def _load(self, stored: StoredRoom) -> Room | None:
        """The room of a row of the store, or None (and a log line) if it cannot be used."""
        try:
            return self._room(stored)
        except BAD_ROOM as error:
            reason = why(error)
        except Exception as error:  # a fault of the program's: the log has the details
            log.exception("room %s: reading it failed", stored.code)
            reason = f"reading it failed ({type(error).__name__})"
        log.warning(
            "room %s in %s not loaded: %s", stored.code, self.store.location, printable(reason)
        )
        return None

    def _room(self, stored: StoredRoom) -> Room:
        kept = stored.setup
        setup = Setup(
            kept.game, kept.size, kept.variant, kept.komi, kept.creator, OPEN_SEAT, clock=kept.clock
        )
        if stored.sgf is None:  # komi and sides were not settled: they are chosen again
            session = self._start(stored.code, setup, kept.rated, stored.joiner)
        else:
            record = Record.from_sgf(stored.sgf)
            check_record(record, setup, f"the record of room {stored.code}")
            saving = self._saving(stored.code, setup, kept.rated)
            session = room_session(record, setup.first, stored.joiner, self.where, saving)
        room = Room(stored.code, setup, stored.joiner, session, [], kept.rated)
        self._watch_saving(room)
        self._tell_movers(room)
        if stored.joiner is not None:
            self.run_clock(room)
        return room

    def _saving(self, code: str, setup: Setup, rated: bool) -> Saving:
        """How room `code`'s session is saved: whole, into the store."""

        def saving(session: Session, sgf: str) -> Callable[[], object]:
            return partial(self.store.save_room, room_save(code, setup, rated, session, sgf))

        return saving

    def _start(self, code: str, setup: Setup, rated: bool, joiner: str | None) -> Session:
        start = replace(setup, second=joiner or OPEN_SEAT)
        return Session.start(start, self.where, saving=self._saving(code, setup, rated))

    def _watch_saving(self, room: Room) -> None:
        """Log when a room stops being saved, and when it is saved again."""
        session = room.session

        def changed() -> None:
            problem = session.save_problem
            if problem is None:
                log.info("room %s is saved again in %s", room.code, self.store.location)
            else:
                log.warning("room %s is not being saved: %s", room.code, printable(problem))

        session.saving_listeners.append(changed)

    def _tell_movers(self, room: Room) -> None:
        """Tell `movers` of the room's moves, choices and join (a change of people, with
        no `by`), here or from another process."""

        def changed(change: Changed) -> None:
            if change.change in (Change.MOVE, Change.PHASE):
                for mover in list(self.movers):
                    mover(room, change)

        room.session.listeners.append(changed)

    def run_clock(self, room: Room) -> None:
        """Let the room's clock run (both people are in), with a timer for its flag."""
        session = room.session
        if session.clock is None:
            return
        session.resume_clock()

        def arm(changed: Changed | None = None) -> None:
            if room.flag_timer is not None:
                room.flag_timer.cancel()
                room.flag_timer = None
            clock = session.clock
            left = clock.seconds_to_flag(session.now()) if clock is not None else None
            if left is None:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop yet (the server starting): the first change arms it
                return
            # A flag due but not recorded (a store that refused it) is tried again later.
            room.flag_timer = loop.call_later(left + 0.02 if left > 0 else 1.0, flag)

        def flag() -> None:
            room.flag_timer = None
            if not session.check_flag():
                arm()

        if arm not in session.listeners:
            session.listeners.append(arm)
        arm()

    def save(self, room: Room, finish: Finish | None = None) -> None:
        """Save the room whole soon, even before it has a record (komi and sides are being
        chosen); `finish` says when a game found ended at a restart ended."""
        session = room.session
        assert session.autosave is not None
        sgf = session.record.to_sgf() if session.phase is Phase.PLAY else None
        save = room_save(room.code, room.setup, room.rated, session, sgf)
        if finish is not None:
            save = replace(save, finish=finish)
        session.autosave.put(partial(self.store.save_room, save))

    # -- rooms ------------------------------------------------------------------------------

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.codes:
                return code

    def create(self, setup: Setup, creator: str, *, rated: bool | None = None) -> Room:
        """A new room for `setup`, with `creator` as the first person and a seat open;
        rated as the server's rooms are, unless `rated` says."""
        setup = replace(setup, first=creator, second=OPEN_SEAT, first_level=None, second_level=None)
        rated = self.rated if rated is None else rated
        code = self.new_code()
        room = Room(code, setup, None, self._start(code, setup, rated, None), [], rated)
        self._watch_saving(room)
        self._tell_movers(room)
        self.codes.add(code)
        self.rooms[code] = room
        self.save(room)
        return room

    def get(self, code: str) -> Room | None:
        """The room `code`: an unfinished one, or a finished one read from the archive."""
        code = code.strip().lower()
        room = self.rooms.get(code)
        if room is not None or code not in self.codes:
            return room
        try:
            stored = self.store.room(code)
        except StoreError as error:
            log.warning("room %s cannot be read from %s: %s", code, self.store.location, error)
            return None
        room = self._load(stored) if stored is not None else None
        if room is not None:
            self.rooms[code] = room
        return room

    def join(self, room: Room, name: str) -> None:
        """`name` takes the open seat; raises RoomError if it is taken by somebody else."""
        if name in room.players:
            return
        if room.joiner is not None:
            raise RoomError(f"room {room.code} is full: {room.creator} and {room.joiner} play")
        room.joiner = name
        session = room.session
        session.set_people(session.people[0], name)
        self.run_clock(room)
        self.save(room)
        for listener in list(room.listeners):
            listener(room)

    def flush(self) -> None:
        """Wait until every room is saved (before the server stops)."""
        for room in self.rooms.values():
            room.session.flush()

    def unfinished(self) -> list[Room]:
        """The games under way (the lobby lists them)."""
        return [room for room in self.rooms.values() if not room.finished]

    def of_player(self, name: str) -> list[Room]:
        """The unfinished games `name` plays in, to take the seat back, those where it
        is `name`'s move first."""
        mine = [room for room in self.unfinished() if name in room.players]
        return sorted(mine, key=lambda room: not room.waits_for(name))

    def to_watch(self, name: str) -> list[Room]:
        """Other people's unfinished games."""
        return [room for room in self.unfinished() if name not in room.players]
