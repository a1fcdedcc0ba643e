"""Rooms: one shared game each, known by a short code, kept in the server's data directory.

A room holds ONE `Session`; every screen showing the game (both players', any watchers')
shows that same object, so a move made on one screen is on all of them at once. The room's
record is the session's autosave (`CODE.sgf`, written after every move), and `CODE.json`
holds what the record cannot: who created the room, who joined, the options chosen. Both
are read back when the server starts again: each room's files are checked first
(`room_files`), and a room whose files are bad has them moved to `rooms/set-aside/`, with a
log line saying why, while the server starts with the others.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..files import write_atomic
from ..game_setup import Setup
from ..records import RecordError
from ..rules import RulesError
from ..session import Phase, Session
from .files import RefusedFile, own_folder, printable, set_aside
from .limits import ConfigError
from .room_files import (
    CODE_LENGTH,
    CODE_LETTERS,
    OPEN_SEAT,
    RoomFileError,
    read_record,
    read_room,
    record_joiner,
)

SET_ASIDE = "set-aside"
"""The folder in `rooms/` where the files of rooms that cannot be loaded are moved."""
BAD_ROOM = (RoomFileError, RefusedFile, RecordError, RulesError, OSError, RecursionError)
"""What a room's files can hold that stops the room, never the server (a record nested
deeper than the reader can follow raises RecursionError)."""

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

    @property
    def creator(self) -> str:
        return self.setup.first

    @property
    def players(self) -> tuple[str, ...]:
        return (self.creator,) if self.joiner is None else (self.creator, self.joiner)

    @property
    def finished(self) -> bool:
        return self.session.phase is Phase.PLAY and self.session.game.is_over()

    def describe(self) -> str:
        """`k7m2  Pilo 8x8  ann - bob  Blue to move (ann)` for the lobby's lists."""
        game = self.session.game
        info = game.info
        size = f"side {game.size}" if info.geometry == "hex" else f"{game.size}x{game.size}"
        who = f"{self.creator} - {self.joiner or 'waiting for a player'}"
        if self.joiner is None:
            state = "open seat"
        elif self.session.phase is not Phase.PLAY:
            state = "choosing komi and sides"
        else:
            state = self.session.turn_text()
        return f"{self.code}  {info.title} {size}  {who}  {state}"


class NotWritten(Exception):
    """A room read back whose files cannot be written (the disk is full, or read-only)."""


def why(error: BaseException) -> str:
    """What the log says of a room's files that cannot be used."""
    if isinstance(error, RecursionError):
        return "the record is nested too deeply to read"
    if isinstance(error, OSError):
        return f"it cannot be read ({error.strerror or error})"
    return str(error)


class RoomError(Exception):
    """A room cannot be joined or made as asked (the message says why)."""


class Rooms:
    """Every room of the server, in memory and in `data/rooms/`."""

    def __init__(self, folder: Path) -> None:
        self.folder = own_folder(folder)
        self.rooms: dict[str, Room] = {}
        for path in sorted(folder.glob("*.json")):
            try:
                room = self._read(path)
            except NotWritten as error:  # the disk's fault, not the files': leave them be
                log.warning("room %s not loaded: %s", printable(path.name), error)
                continue
            except BAD_ROOM as error:
                self._set_aside(path.stem, why(error))
                continue
            except Exception as error:  # a fault of the program's: the log has the details
                log.exception("room %s: reading it failed", printable(path.name))
                self._set_aside(path.stem, f"reading it failed ({type(error).__name__})")
                continue
            self.rooms[room.code] = room

    # -- files --------------------------------------------------------------------------

    def _record_path(self, code: str) -> Path:
        return self.folder / f"{code}.sgf"

    def _read(self, path: Path) -> Room:
        code, setup, joiner = read_room(path)
        record_path = self._record_path(code)
        record = read_record(record_path, setup)
        try:
            if record is None:  # komi and sides were not settled yet: they are chosen again
                return Room(code, setup, joiner, self._start(setup, joiner, record_path), [])
            joiner = record_joiner(record, joiner)
            session = Session(record, record_path)
            people = (setup.first, joiner or OPEN_SEAT)
            if session.people != people:  # the record was written just before the join was
                session.set_people(*people)
        except OSError as error:
            raise NotWritten(f"its record cannot be written ({error.strerror})") from None
        return Room(code, setup, joiner, session, [])

    def _set_aside(self, stem: str, reason: str) -> None:
        """Move a bad room's files out of the way (kept, to look at), and say why."""
        names = [f"{stem}.json", f"{stem}.sgf"]
        try:
            moved = set_aside(self.folder, names, SET_ASIDE)
        except (OSError, ConfigError) as error:
            log.warning(
                "room %s not loaded (%s) and not set aside: %s",
                printable(names[0]),
                printable(reason),
                printable(str(error)),
            )
            return
        log.warning(
            "room files %s set aside in %s: %s",
            printable(" and ".join(moved)),
            self.folder / SET_ASIDE,
            printable(reason),
        )

    def save(self, room: Room) -> None:
        """Write `CODE.json`; raises OSError."""
        data = {"code": room.code, "setup": asdict(room.setup), "joiner": room.joiner}
        write_atomic(self.folder / f"{room.code}.json", json.dumps(data, indent=1), mode=0o600)

    @staticmethod
    def _start(setup: Setup, joiner: str | None, record: Path) -> Session:
        return Session.start(replace(setup, second=joiner or OPEN_SEAT), record)

    # -- rooms ------------------------------------------------------------------------------

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def create(self, setup: Setup, creator: str) -> Room:
        """A new room for `setup`, with `creator` as the first person and a seat open."""
        setup = replace(setup, first=creator, second=OPEN_SEAT, first_level=None, second_level=None)
        code = self.new_code()
        try:
            room = Room(code, setup, None, self._start(setup, None, self._record_path(code)), [])
            self.save(room)
        except OSError as error:  # a room that could not be kept at a restart is not made
            log.warning("room %s not made: its files cannot be written (%s)", code, error)
            raise RoomError(
                f"the server cannot save a new room now ({error.strerror}); try again later"
            ) from None
        self.rooms[code] = room
        return room

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code.strip().lower())

    def join(self, room: Room, name: str) -> None:
        """`name` takes the open seat; raises RoomError if it is taken by somebody else."""
        if name in room.players:
            return
        if room.joiner is not None:
            raise RoomError(f"room {room.code} is full: {room.creator} and {room.joiner} play")
        room.joiner = name
        session = room.session
        try:
            session.set_people(session.people[0], name)
            self.save(room)
        except OSError as error:  # the game goes on; the next move's save tries again
            log.warning("room %s: %s's join cannot be saved (%s)", room.code, name, error)
        for listener in list(room.listeners):
            listener(room)

    def flush(self) -> None:
        """Wait until every room's record is on the disk (before the server stops)."""
        for room in self.rooms.values():
            room.session.flush()

    def of_player(self, name: str) -> list[Room]:
        """The unfinished games `name` plays in, to take the seat back."""
        return [r for r in self.rooms.values() if name in r.players and not r.finished]

    def to_watch(self, name: str) -> list[Room]:
        """Other people's unfinished games."""
        return [r for r in self.rooms.values() if name not in r.players and not r.finished]
