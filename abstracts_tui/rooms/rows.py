"""A room's game read back from its row in a store: checked before anything uses it.

A row holds the room's setup and record as text another process (or an earlier version)
wrote, so the record must be the room's game, played by the room's creator and joiner,
every move legal, before a session is made of it. No user-interface code here.
"""

from __future__ import annotations

from pathlib import Path

from ..clock import ClockSpecError
from ..game_setup import Setup
from ..records import Record, RecordError
from ..records.results import How, decided
from ..rules import RulesError, game_class
from ..session import Saving, Session
from .kept import StoredRoom

CODE_LETTERS = "bcdfghjkmnpqrstvwxz23456789"
"""No vowels (no words), no 0/o, 1/l/i: easy to read out and to type."""
CODE_LENGTH = 4
OPEN_SEAT = "(open seat)"
"""The second person's name until somebody joins."""


class RoomFileError(Exception):
    """A room's row or files that cannot be used (the message says why)."""


BAD_ROW = (RoomFileError, RecordError, RulesError, ClockSpecError, OSError, RecursionError)
"""What a room's row can hold that stops the room, never the server (a record nested
deeper than the reader can follow raises RecursionError; a clock kept by an earlier
version may be past today's bounds)."""


def why(error: BaseException) -> str:
    """What the log says of a room that cannot be used."""
    if isinstance(error, RecursionError):
        return "the record is nested too deeply to read"
    if isinstance(error, OSError):
        return f"it cannot be read ({error.strerror or error})"
    return str(error)


def check_record(record: Record, setup: Setup, name: str) -> None:
    """Raise RoomFileError unless `record` (called `name`) is of the room's game and
    played by its creator (`setup.first`), in either seat, with no computer."""
    info = game_class(setup.game).info
    options = info.options(setup.size, setup.variant, setup.komi)
    if record.game != info.name or (record.options.size, record.options.variant) != (
        options.size,
        options.variant,
    ):
        raise RoomFileError(f"{name} is not a record of the room's game")
    if setup.first not in record.players:
        raise RoomFileError(f"{name} is not a record of {setup.first}'s room")
    if record.computers:
        raise RoomFileError(f"{name} has computer players, which rooms have not")


def room_session(
    record: Record,
    creator: str,
    joiner: str | None,
    autosave: Path | None = None,
    saving: Saving | None = None,
) -> Session:
    """The room's game from its record (every move checked by the rules), with the joiner
    in the open seat if the record was written before the join was."""
    session = Session(record, autosave, saving=saving)
    if joiner is not None and OPEN_SEAT in session.people:
        first, second = session.people
        people = (joiner, second) if first == OPEN_SEAT else (first, joiner)
        session.people = session.record.players = people
        session.save_autosave()
    return session


def game_line(room: StoredRoom) -> str:
    """`k7m2  Pilo 8x8  ann - bob  ann won (Blue+3)  rated  2026-05-01 14:05`, tab-separated."""
    setup = room.setup
    info = game_class(setup.game).info
    size = setup.size if setup.size is not None else info.default_size
    board = f"side {size}" if info.geometry == "hex" else f"{size}x{size}"
    players = f"{setup.creator} - {room.joiner or 'waiting for a player'}"
    ended = decided(room.result or "", info.colours)
    if room.finished is None:
        result = "unfinished"
    elif ended is not None and ended.how is How.VOID:
        result = "aborted (no result)"
    elif room.winner is None:
        result = "draw"
    elif ended is not None and ended.how is How.RESIGNATION:
        result = f"{room.winner} won by resignation ({room.result})"
    elif ended is not None and ended.how is How.FORFEIT:  # the other left, and it was claimed
        result = f"{room.winner} won by forfeit ({room.result})"
    else:
        result = f"{room.winner} won ({room.result})"
    date = (room.finished or room.updated).strftime("%Y-%m-%d %H:%M")
    rated = "rated" if setup.rated else "-"
    return f"{room.code}\t{info.title} {board}\t{players}\t{result}\t{rated}\t{date}"
