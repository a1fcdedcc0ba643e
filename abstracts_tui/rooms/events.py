"""What happened in a room, as typed values: each committed command yields one event per
thing it did (a move, the end, an offer answered), with the facts in it.

A room's events are its history as every screen tells it: numbered from 1 in the order
they were committed (a room's version is how many it has), kept by the store with the
command that made them, and sent to every process showing the room. A screen that was
away asks for the events after the version it saw and says what it missed. Nothing here
knows of a store, a terminal or Textual: `encode` and `decode` give each event as a kind
and a JSON text, bounded, for the stores and the link between processes.
"""

from __future__ import annotations

import json
import math
from dataclasses import MISSING, Field, dataclass, fields
from typing import Any, TypeAlias

EVENT_LIMIT = 16_384
"""The longest event's JSON text, in characters: a stored or sent event longer than that
is refused (a chat line is at most 300 characters, a move's words a few hundred)."""


@dataclass(frozen=True)
class Made:
    """The room was made (version 1): by whom, its game (`pilo`) and options as the room
    keeps them (`rooms.kept.RoomSetup`: komi None is set in the game), rated, an open
    challenge, its clock's spec (`5m+3s`; empty: none), and the game as the lobby names it
    (`Pilo 8x8, komi 3.5`)."""

    creator: str
    game: str
    size: int | None = None
    variant: str | None = None
    komi: float | None = None
    rated: bool = False
    open: bool = False
    clock: str = ""
    title: str = ""
    colour: str = "first"
    """The creator's colour: `first`, `second` or `random` (drawn when somebody joins);
    rooms of earlier versions read as `first`."""
    rating_range: str = ""
    """The ratings that may accept it (`±200`, `1400-1800`); "": anyone."""


@dataclass(frozen=True)
class Joined:
    """`name` took the open seat: the game begins. `drawn`: the creator's colour as the
    server drew it when the room left it to chance (`first`, `second`; "": not drawn)."""

    name: str
    drawn: str = ""


@dataclass(frozen=True)
class KomiSet:
    """`by` set komi (the first person, before the first move)."""

    by: str
    komi: float


@dataclass(frozen=True)
class SideChosen:
    """`by` (the second person) took `colour` (0 moves first), named `colour_name`."""

    by: str
    colour: int
    colour_name: str


@dataclass(frozen=True)
class MovePlayed:
    """`by` played `move` with `colour`; `words` say it as line mode does (`Blue (ann)
    moves c6 to b6, capturing Orange, leaving a block on c6.`); `left`: the mover's main
    seconds and periods after it, in a room with a clock."""

    by: str
    colour: int
    move: str
    words: str
    left: tuple[float, int] | None = None


@dataclass(frozen=True)
class Swapped:
    """`by` took the pie rule's swap: they now play the first mover's colour."""

    by: str
    words: str


@dataclass(frozen=True)
class TakenBack:
    """`by` accepted the take-back of `moves` (in the order played); `turn` says whose
    move it is after it (`Blue to move (ann)`)."""

    by: str
    moves: tuple[str, ...]
    turn: str


@dataclass(frozen=True)
class OfferMade:
    """`by` offered a take-back (`kind` "takeback", of `moves`) or a rematch ("rematch")."""

    kind: str
    by: str
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class OfferDeclined:
    """`by` declined the other's offer of `kind`."""

    kind: str
    by: str


@dataclass(frozen=True)
class RematchMade:
    """`by` accepted the rematch: it is played in room `room`."""

    by: str
    room: str


@dataclass(frozen=True)
class ChatSaid:
    """A line of the room's chat, by a player or a watcher."""

    by: str
    text: str
    watcher: bool = False


@dataclass(frozen=True)
class Ended:
    """The game ended: `how` is `resigned`, `time`, `claimed` (the loser left the game),
    `aborted` or `board` (the count at the end of play); `winner` and `loser` are names
    (None both: no winner); `result` is the end as a sentence (`Orange (bob) resigned:
    Blue (ann) wins`), `score` the count's lines at the end of play; `by` who ended it
    (who resigned, claimed or called it off; None: the board or the clock)."""

    how: str
    winner: str | None
    loser: str | None
    result: str
    score: tuple[str, ...] = ()
    by: str | None = None

    RESIGNED = "resigned"
    TIME = "time"
    CLAIMED = "claimed"
    """The loser left the game, and the winner claimed it (`rooms.claims`)."""
    ABORTED = "aborted"
    BOARD = "board"
    AGREED = "agreed"


@dataclass(frozen=True)
class RatingChange:
    """One player's rating in the room's game before and after it (`1662?` while
    provisional)."""

    name: str
    before: str
    after: str


@dataclass(frozen=True)
class Rated:
    """The game changed both players' ratings (written by the store in the transaction
    that rated it, right after its `Ended`)."""

    changes: tuple[RatingChange, ...]


@dataclass(frozen=True)
class ClockHeld:
    """The store kept no change from `since` (seconds since the epoch) until this event:
    the running clock was charged nothing for that time, and runs on from here."""

    since: float


@dataclass(frozen=True)
class Arrived:
    """`name`, a player, is in the room for the first time since taking their seat (a
    rematch's players take theirs before they come to it): said as their joining."""

    name: str


@dataclass(frozen=True)
class Left:
    """`name`, a player, is no longer in the room: no screen of theirs shows it, on any
    connection (their seat is kept)."""

    name: str


@dataclass(frozen=True)
class Back:
    """`name`, a player who had left the room, is in it again."""

    name: str


@dataclass(frozen=True)
class Watching:
    """How many people who do not play watch the room now."""

    count: int


PRESENCE_EVENTS = (Arrived, Left, Back, Watching)
"""The events of who is in a room (`presence`): committed as a change of their own, by
nobody, when who is connected differs from what the room's events last said."""


@dataclass(frozen=True)
class Unknown:
    """An event of a kind this version does not know (a newer version's)."""

    kind: str


Event: TypeAlias = (
    Made
    | Joined
    | KomiSet
    | SideChosen
    | MovePlayed
    | Swapped
    | TakenBack
    | OfferMade
    | OfferDeclined
    | RematchMade
    | ChatSaid
    | Ended
    | Rated
    | ClockHeld
    | Arrived
    | Left
    | Back
    | Watching
    | Unknown
)

KINDS: dict[str, type[Any]] = {
    "made": Made,
    "joined": Joined,
    "komi": KomiSet,
    "side": SideChosen,
    "move": MovePlayed,
    "swap": Swapped,
    "takeback": TakenBack,
    "offer": OfferMade,
    "declined": OfferDeclined,
    "rematch": RematchMade,
    "chat": ChatSaid,
    "ended": Ended,
    "rated": Rated,
    "held": ClockHeld,
    "arrived": Arrived,
    "left": Left,
    "back": Back,
    "watching": Watching,
}
"""Each event's kind as stored and sent: a name that never changes once released."""
KIND_OF = {cls: kind for kind, cls in KINDS.items()}


@dataclass(frozen=True)
class Stamped:
    """An event as a room numbers it: its version (the room's event count once it is
    made, from 1) and the store's time of the command that made it (seconds since the
    epoch)."""

    version: int
    at: float
    event: Event


class EventError(ValueError):
    """An event that cannot be read (the message says why, in one sentence)."""


def encode(event: Event) -> tuple[str, str]:
    """`event` as its kind and a JSON text of its fields (a Rated's changes as lists)."""
    if isinstance(event, Unknown):
        raise EventError(f"an event of kind {event.kind!r} is not this version's to write")
    kind = KIND_OF[type(event)]
    data: dict[str, Any] = {}
    for item in fields(event):
        value = getattr(event, item.name)
        if isinstance(event, Rated):
            value = [[c.name, c.before, c.after] for c in event.changes]
        data[item.name] = value
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if len(text) > EVENT_LIMIT:
        raise EventError(f"a {kind} event of {len(text)} characters is longer than {EVENT_LIMIT}")
    return kind, text


def decode(kind: str, text: str) -> Event:
    """The event of a stored or sent `kind` and JSON `text`; `Unknown` for a kind this
    version does not know. Raises EventError for one that cannot be read."""
    cls = KINDS.get(kind)
    if cls is None:
        return Unknown(kind[:40])
    if len(text) > EVENT_LIMIT:
        raise EventError(f"a {kind} event of {len(text)} characters is longer than {EVENT_LIMIT}")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise EventError(f"a {kind} event is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise EventError(f"a {kind} event is not an object")
    missing = [item.name for item in fields(cls) if item.name not in data and _required(item)]
    if missing:
        raise EventError(f"a {kind} event lacks {', '.join(missing)}")
    try:
        values = {item.name: data[item.name] for item in fields(cls) if item.name in data}
        if cls is Rated:
            values["changes"] = tuple(RatingChange(*map(str, c)) for c in values["changes"])
        for name in ("moves", "score"):
            if name in values:
                values[name] = tuple(str(v) for v in values[name])
        if values.get("left") is not None:
            main, periods = values["left"]
            values["left"] = (float(main), int(periods))
        event = cls(**values)
    except (ValueError, TypeError, KeyError) as error:
        raise EventError(f"a {kind} event cannot be read: {error}") from None
    _check(event)
    return event  # type: ignore[no-any-return]


def _required(item: Field[Any]) -> bool:
    return item.default is MISSING and item.default_factory is MISSING


def _check(event: Event) -> None:
    """The types each field must have (a stored text may come from anywhere)."""
    for item in fields(event):
        value = getattr(event, item.name)
        wanted = item.type if isinstance(item.type, str) else item.type.__name__
        if wanted.endswith(" | None"):
            if value is None:
                continue
            wanted = wanted.removesuffix(" | None")
        if wanted == "str" and not isinstance(value, str):
            raise EventError(f"{item.name} of a {type(event).__name__} is not a text")
        if wanted == "bool" and not isinstance(value, bool):
            raise EventError(f"{item.name} of a {type(event).__name__} is not true or false")
        if wanted == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise EventError(f"{item.name} of a {type(event).__name__} is not a number")
        if wanted == "float" and (
            not isinstance(value, int | float) or not math.isfinite(float(value))
        ):
            raise EventError(f"{item.name} of a {type(event).__name__} is not a number")
