"""Who uses a play screen (`Seat`), who of a shared game is connected (`Presence`), and
the check of a typed move (`MoveText`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from textual.validation import ValidationResult, Validator

from ..play.turns import Send
from ..rooms.conditional import is_reply_line
from ..rules import RulesError
from ..session import Session
from .online import RoomSeat


class Presence(Protocol):
    """Who of a shared game's people are connected, as the server knows it."""

    def people(self) -> frozenset[str]:
        """The people connected now."""
        ...

    def follow(self, here: bool, changed: Callable[[], None]) -> None:
        """The screen starts (`here`) or stops showing the game; `changed` is called
        whenever who is connected changes while it shows it."""
        ...


@dataclass(frozen=True)
class Seat:
    """Who uses this play screen: `local_people` (None: everyone at one keyboard, an empty
    set: a watcher), whether the game is `shared` with other screens (over SSH), whether
    records may be saved and loaded, and who of the people is connected (None: not
    known, as in a game at one keyboard)."""

    local_people: frozenset[str] | None = None
    shared: bool = False
    files: bool = True
    presence: Presence | None = None
    download: bool = False
    """Whether saving downloads the record to the user's machine (in a browser), where
    `files` is False."""
    send: Send | None = None
    """How a room's moves, komi and side are sent to its gateway (None: played here)."""
    room: RoomSeat | None = None
    """A room's online play (resign, take-back, rematch, chat, watchers), with `send`."""


class MoveText(Validator):
    """Accepts text that is a legal move now; the failure says why not."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def validate(self, value: str) -> ValidationResult:
        game = self.session.game
        if is_reply_line(value):  # a reply kept ready: the room checks it (`kept_ready`)
            return self.success()
        if not value.strip():
            return self.failure("type a move, e.g. c3")
        try:
            move = game.parse_move(value)
        except RulesError as error:
            return self.failure(str(error))
        reason = game.illegal_reason(move)
        return self.failure(reason) if reason else self.success()
