"""Rooms kept in files by earlier versions, checked and imported into the store once.

Earlier versions kept each room in `rooms/CODE.json` (who made it, who joined, the
options) and `rooms/CODE.sgf` (the record). At the start, each room's files are checked
(`CODE.json` field by field, `CODE.sgf` against it), put in the store, and moved to
`rooms/imported/`, so that a restart does not import them again; the files of a room
that cannot be used are moved to `rooms/set-aside/` with a log line saying why, and the
server starts with the others.

A room file names paths (its code names the record), so nothing in it is used before it
is checked: the code must be a room code and the file's own name, every field must have
its type, the options must be ones the rules accept, and the record must be the room's
game, played by the room's creator and joiner, every move legal.
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..clock import ClockSpecError
from ..game_setup import Setup
from ..printable import printable
from ..records import Record, RecordError
from ..rooms.rows import (
    CODE_LENGTH,
    CODE_LETTERS,
    OPEN_SEAT,
    RoomFileError,
    check_record,
    room_session,
    why,
)
from ..rules import OptionError, RulesError, game_class
from ..store import RoomSave, RoomSetup, Store, StoreError
from .auth import valid_name
from .files import RefusedFile, own_folder, read_own_file, set_aside
from .limits import ConfigError

ROOM_LIMIT = 64 * 1024
"""Bytes a `CODE.json` may have: the server writes a few hundred."""
RECORD_LIMIT = 16 * 1024 * 1024
"""Bytes a `CODE.sgf` may have: far beyond any real game's record."""
SETUP_FIELDS = frozenset(field.name for field in fields(Setup))
IMPORTED = "imported"
"""The folder in `rooms/` where the files of rooms put in the store are moved."""
SET_ASIDE = "set-aside"
"""The folder in `rooms/` where the files of rooms that cannot be used are moved."""
log = logging.getLogger(__name__)


BAD_ROOM = (
    RoomFileError,
    RefusedFile,
    RecordError,
    RulesError,
    ClockSpecError,
    OSError,
    RecursionError,
)
"""What a room's files or row can hold that stops the room, never the server (a record
nested deeper than the reader can follow raises RecursionError; a clock kept by an earlier
version may be past today's bounds)."""


def valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(letter in CODE_LETTERS for letter in code)


def read_room(path: Path) -> tuple[str, Setup, str | None]:
    """The code, setup and joiner a `CODE.json` holds; raises RoomFileError (or
    RefusedFile, OSError) saying what is wrong with it."""
    try:
        content = json.loads(read_own_file(path, ROOM_LIMIT).decode("utf-8"))
    except ValueError as error:  # not UTF-8, or not JSON
        raise RoomFileError(f"not JSON ({error})") from None
    except RecursionError:
        raise RoomFileError("not a room: JSON nested too deeply") from None
    room = _object(content, "the file", required={"code", "setup", "joiner"})
    code = room["code"]
    if not isinstance(code, str) or not valid_code(code):
        raise RoomFileError(
            f"the code {code!r} is not a room code ({CODE_LENGTH} of {CODE_LETTERS})"
        )
    if code != path.stem:
        raise RoomFileError(f"the code {code!r} is not the file's name")
    setup = _setup(room["setup"])
    joiner = room["joiner"]
    if joiner is not None and not (isinstance(joiner, str) and valid_name(joiner)):
        raise RoomFileError(f"the joiner {joiner!r} is not a user name")
    if joiner == setup.first:
        raise RoomFileError(f"{joiner!r} cannot play both seats")
    return code, setup, joiner


def _object(
    value: Any, what: str, *, required: set[str], allowed: frozenset[str] = frozenset()
) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RoomFileError(f"{what} is not a JSON object")
    missing = required - value.keys()
    unknown = value.keys() - required - allowed
    if missing:
        raise RoomFileError(f"{what} has no {', '.join(sorted(missing))}")
    if unknown:
        raise RoomFileError(f"{what} has unknown fields: {', '.join(map(repr, sorted(unknown)))}")
    return value


def _setup(value: Any) -> Setup:
    """The room's game and options; the first person is the creator; no computer plays."""
    setup = _object(value, "setup", required={"game", "first"}, allowed=SETUP_FIELDS)
    kinds: dict[str, tuple[type, ...]] = {
        "game": (str,),
        "size": (int, type(None)),
        "variant": (str, type(None)),
        "komi": (int, float, type(None)),
        "first": (str,),
        "second": (str,),
        "first_level": (type(None),),
        "second_level": (type(None),),
    }
    for name, given in setup.items():
        if isinstance(given, bool) or not isinstance(given, kinds[name]):
            raise RoomFileError(f"setup {name} {given!r} is not of the right kind")
    if not valid_name(setup["first"]):
        raise RoomFileError(f"setup first {setup['first']!r} is not a user name")
    komi = setup.get("komi")
    if isinstance(komi, int | float) and not math.isfinite(komi):
        raise RoomFileError(f"setup komi {komi!r} is not a number")
    try:
        info = game_class(setup["game"]).info
        info.options(setup.get("size"), setup.get("variant"), komi)
    except OptionError as error:
        raise RoomFileError(f"setup: {error}") from None
    return Setup(**setup)


def read_record(path: Path, setup: Setup) -> Record | None:
    """The room's record, checked against its setup; None if it has none yet (komi and
    sides were not settled). Raises RoomFileError, RecordError, RefusedFile or OSError."""
    try:
        data = read_own_file(path, RECORD_LIMIT)
    except FileNotFoundError:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RoomFileError(f"{path.name} is not UTF-8 text") from None
    record = Record.from_sgf(text)
    check_record(record, setup, path.name)
    return record


def record_joiner(record: Record, creator: str, joiner: str | None) -> str | None:
    """Who joined, by the room file and its record: a join was written to the record
    first, so a record may name a joiner the room file has not got yet."""
    other = record.players[1] if record.players[0] == creator else record.players[0]
    if other in (OPEN_SEAT, joiner):
        return joiner
    if joiner is None and valid_name(other) and other != creator:
        return other
    raise RoomFileError(f"the record's other person {other!r} is not the room's")


# -- the import ---------------------------------------------------------------------------


def import_rooms(folder: Path, store: Store) -> None:
    """Put every room of `folder` (the `rooms/` of earlier versions) in the store, and
    move its files to `imported/`; set bad ones aside. Raises ConfigError if `folder`
    is not a folder of the server's own."""
    if not os.path.lexists(folder):
        return
    own_folder(folder)
    for path in sorted(folder.glob("*.json")):
        try:
            room, when = read_room_files(path)
        except BAD_ROOM as error:
            move_files(folder, path.stem, SET_ASIDE, why(error))
            continue
        except Exception as error:  # a fault of the program's: the log has the details
            log.exception("room %s: reading it failed", printable(path.name))
            move_files(folder, path.stem, SET_ASIDE, f"reading it failed ({type(error).__name__})")
            continue
        try:
            added = store.import_room(room, when)
        except StoreError as error:  # the store's fault, not the files': they stay for now
            log.warning("room files %s not imported: %s", printable(path.name), error)
            continue
        move_files(folder, path.stem, IMPORTED, "" if added else "it was in the store already")


def read_room_files(path: Path) -> tuple[RoomSave, datetime]:
    """The room that `CODE.json` (at `path`) and `CODE.sgf` beside it hold, and when it was
    last changed; raises one of BAD_ROOM saying what is wrong."""
    code, setup, joiner = read_room(path)
    record_path = path.with_name(f"{code}.sgf")
    record = read_record(record_path, setup)
    sgf = None
    if record is not None:
        joiner = record_joiner(record, setup.first, joiner)
        sgf = room_session(record, setup.first, joiner).record.to_sgf()
    times = [os.lstat(p).st_mtime for p in (path, record_path) if os.path.lexists(p)]
    room = RoomSave(
        code,
        RoomSetup(setup.game, setup.size, setup.variant, setup.komi, setup.first),
        joiner,
        sgf,
    )
    return room, datetime.fromtimestamp(max(times), UTC)


def move_files(folder: Path, stem: str, into: str, note: str) -> None:
    """Move a room's files to `folder/into/` and say so (with `note`, why)."""
    names = [f"{stem}.json", f"{stem}.sgf"]
    try:
        moved = set_aside(folder, names, into)
    except (OSError, ConfigError) as error:
        log.warning(
            "room files %s not moved to %s (%s): %s",
            printable(names[0]),
            into,
            printable(note),
            printable(str(error)),
        )
        return
    if into == SET_ASIDE:
        log.warning(
            "room files %s set aside in %s: %s",
            printable(" and ".join(moved)),
            folder / into,
            printable(note),
        )
    else:
        log.info(
            "room files %s imported into the store and moved to %s%s",
            printable(" and ".join(moved)),
            folder / into,
            f" ({printable(note)})" if note else "",
        )
