"""What a person last chose on the room creation screen, kept in their folder on the
server (`room-choices.json`): the next room they make starts from it.

Anything in the file that this version cannot use (damaged, too long, a game or a value
it does not know) is passed over, field by field: the screen then starts from its own
defaults there. No Textual here.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...clock import ClockSpecError, TimeControl
from ...files import write_atomic
from ...rooms.pairing import COLOURS, PairingError, parse_range, range_text
from ...rules import CATALOGUE, RulesError

log = logging.getLogger(__name__)

FILE_NAME = "room-choices.json"
READ_LIMIT = 4096
"""The most bytes of the file read: anything longer is not what this program writes."""


@dataclass(frozen=True)
class RoomChoices:
    """The creation screen's fields as last chosen (None: the screen's own default)."""

    game: str = "petrify"
    size: int | None = None
    variant: str | None = None
    komi: float | None = None
    clock: str | None = None
    rated: bool | None = None
    """None: as the server's `--rated` says."""
    open: bool = False
    colour: str = "first"
    rating_range: str = ""


def read_choices(folder: Path) -> RoomChoices:
    """The choices kept in `folder`, each checked; the defaults where there are none."""
    try:
        fd = os.open(folder / FILE_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            raw = handle.read(READ_LIMIT + 1)
    except OSError:
        return RoomChoices()
    try:
        data = json.loads(raw.decode("utf-8")) if len(raw) <= READ_LIMIT else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        log.warning("%s in %s cannot be read: the defaults are used", FILE_NAME, folder)
        return RoomChoices()
    return checked_choices(data)


def checked_choices(data: dict[str, Any]) -> RoomChoices:
    """The choices of `data` that this version can use, the defaults for the others."""
    game = data.get("game")
    info = CATALOGUE.get(game) if isinstance(game, str) else None
    if info is None:
        return RoomChoices()
    size, variant, komi = data.get("size"), data.get("variant"), data.get("komi")
    if not (size is None or (type(size) is int and size in info.sizes)):
        size = None
    if not (variant is None or variant in info.variants):
        variant = None
    if not (komi is None or isinstance(komi, int | float)):
        komi = None
    try:
        info.options(size, variant, komi)
    except (RulesError, ValueError, TypeError):
        size, variant, komi = None, None, None
    clock = data.get("clock")
    try:
        control = TimeControl.parse(clock) if isinstance(clock, str) and clock else None
    except ClockSpecError:
        control = None
    rated = data.get("rated")
    colour = data.get("colour")
    spread = data.get("rating_range")
    try:
        spread = range_text(parse_range(spread)) if isinstance(spread, str) else ""
    except PairingError:
        spread = ""
    return RoomChoices(
        game=info.name,
        size=size,
        variant=variant,
        komi=float(komi) if komi is not None else None,
        clock=control.spec if control is not None else None,
        rated=rated if isinstance(rated, bool) else None,
        open=data.get("open") is True,
        colour=colour if colour in COLOURS else "first",
        rating_range=spread,
    )


def keep_choices(folder: Path, choices: RoomChoices) -> None:
    """Keep `choices` in `folder` (owner-only); a failure is one line of the log."""
    text = json.dumps(asdict(choices), ensure_ascii=False)
    try:
        write_atomic(folder / FILE_NAME, text, private=True)
    except OSError as error:
        log.warning("the room choices cannot be kept in %s: %s", folder, error)
