"""A room's two files read back: `CODE.json` checked field by field, `CODE.sgf` against it.

A room file names paths (its code names the record the server writes after every move),
so nothing in it is used before it is checked: the code must be a room code and the
file's own name, every field must have its type, the options must be ones the rules
accept, and the record must be the room's game, begun by the room's creator.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..game_setup import Setup
from ..records import Record
from ..rules import OptionError, game_class
from .auth import valid_name
from .files import read_own_file

CODE_LETTERS = "bcdfghjkmnpqrstvwxz23456789"
"""No vowels (no words), no 0/o, 1/l/i: easy to read out and to type."""
CODE_LENGTH = 4
OPEN_SEAT = "(open seat)"
"""The second person's name until somebody joins."""
ROOM_LIMIT = 64 * 1024
"""Bytes a `CODE.json` may have: the server writes a few hundred."""
RECORD_LIMIT = 16 * 1024 * 1024
"""Bytes a `CODE.sgf` may have: far beyond any real game's record."""
SETUP_FIELDS = frozenset(field.name for field in fields(Setup))


class RoomFileError(Exception):
    """A room file that cannot be used (the message says why)."""


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
    info = game_class(setup.game).info
    options = info.options(setup.size, setup.variant, setup.komi)
    if record.game != info.name or (record.options.size, record.options.variant) != (
        options.size,
        options.variant,
    ):
        raise RoomFileError(f"{path.name} is not a record of the room's game")
    if record.players[0] != setup.first:
        raise RoomFileError(f"{path.name} is not a record of {setup.first}'s room")
    if record.computers:
        raise RoomFileError(f"{path.name} has computer players, which rooms have not")
    return record


def record_joiner(record: Record, joiner: str | None) -> str | None:
    """Who joined, by the room file and its record: a join is written to the record
    first, so a record may name a joiner the room file has not got yet."""
    second = record.players[1]
    if second in (OPEN_SEAT, joiner):
        return joiner
    if joiner is None and valid_name(second) and second != record.players[0]:
        return second
    raise RoomFileError(f"the record's second person {second!r} is not the room's")
