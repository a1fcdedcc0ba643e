"""What a session's room client and its desk on the server's loop say to each other: one
typed union of messages each way.

The client (`client.RoomClient`, on the app's loop) asks its desk
(`server.room_desk.RoomDesk`) with a `Request`: one it waits for the answer of (`Asked`:
`Views`, `Enter`, `Create`, `Speak`, `AcceptRematch`, `Show`, `Since`, `Seen`, `Send`,
`Ratings`, `Archive`) or one it only posts (`Posted`: `Hide`, `CopyAgain`, `Wait`,
`Unwait`). The desk tells the client what the rooms tell it with a `Telling` (`Applied`,
`Events`, `Adopt`, `KeptNow`, `People`, `Said`, `News`, `Listing`, `SeatTaken`). Each side
handles what comes in one `match`; on a thread they are calls between two loops, from a
process of its own pickled messages (`server.messages`), whose reader takes the requests'
classes of this module and no other of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeAlias, TypeVar

from ..commands import Command
from ..ratings import PlayerRating
from .chat import ChatLine
from .events import Stamped
from .kept import StoredRoom
from .profile import Profile

if TYPE_CHECKING:
    from ..game_setup import Setup
    from ..puzzles.rated import PuzzleAnswer  # noqa: F401  (named in `Puzzling`)
    from ..session import Session
    from .terms import RoomTerms

T_co = TypeVar("T_co", covariant=True)


# -- what the client is told of the rooms ------------------------------------------------------


@dataclass(frozen=True)
class RoomView:
    """A room as it was when read, on the server's loop: what the lobby lists."""

    code: str
    game: str
    """The game's name (`pilo`)."""
    creator: str
    joiner: str | None
    rated: bool
    finished: bool
    waiting: str | None
    """Whom the game waits for, both seats taken (None: nobody, or a seat open)."""
    game_line: str
    state_line: str
    description: str
    open: bool = False
    """An open challenge: listed in every lobby until somebody joins."""
    clock: str | None = None
    """The time control's spec (`5m+3s`); None: no clock."""
    colour: str = "first"
    """The creator's colour as chosen (`first`, `second`, `random`)."""
    rating_range: str = ""
    """The ratings that may accept it (`±200`, `1400-1800`); "": any."""

    @property
    def players(self) -> tuple[str, ...]:
        return (self.creator,) if self.joiner is None else (self.creator, self.joiner)

    def waits_for(self, name: str) -> bool:
        return self.waiting == name

    def game_text(self) -> str:
        return self.game_line

    def state_text(self) -> str:
        return self.state_line

    def describe(self) -> str:
        return self.description


@dataclass
class Kept:
    """Who keeps a replica's game, as the room's store last said (`terms.Keeper`)."""

    location: str
    trouble: str | None
    held: float | None = None
    """Since when the room's running clock is held (its store keeps no change): the
    replica's is held from then too, until the `Hold` that runs it on is applied."""


@dataclass
class Entered:
    """What opening a room came to: the room (None: there is none) and a sentence."""

    room: RoomView | None
    notice: str | None = None


@dataclass(frozen=True)
class Opened:
    """A room as a screen starts showing it: the room, a replica of its session and of
    its terms (their keeper a `Kept`), who is connected to it, its chat's lines and the
    room's version the replica is at."""

    view: RoomView
    session: Session
    terms: RoomTerms
    people: frozenset[str]
    lines: tuple[ChatLine, ...]
    version: int


# -- the client's requests ----------------------------------------------------------------------


class Request(Generic[T_co]):
    """What the client asks of its desk; `T_co` is what the desk answers."""


@dataclass(frozen=True)
class Views(Request[tuple[RoomView, ...]]):
    """The rooms the person's lobby lists."""


@dataclass(frozen=True)
class Enter(Request[Entered]):
    """Take the seat in room `code` (joining if one is open), or `watch` it."""

    code: str
    watch: bool


@dataclass(frozen=True)
class Create(Request[RoomView]):
    """A new room of `setup` (an open challenge if `open`), its creator playing `colour`
    (`first`, `second`, `random`), accepted by ratings in `rating_range` ("": any)."""

    setup: Setup
    rated: bool
    open: bool
    colour: str = "first"
    rating_range: str = ""


@dataclass(frozen=True)
class Speak(Request[None]):
    """Say `text` in room `code`'s chat."""

    code: str
    text: str


@dataclass(frozen=True)
class AcceptRematch(Request[RoomView]):
    """Accept the rematch of room `code`."""

    code: str


@dataclass(frozen=True)
class Show(Request["Opened | None"]):
    """A screen starts showing room `code`; what the room tells it comes with `key`."""

    code: str
    key: int


@dataclass(frozen=True)
class Since(Request[tuple[Stamped, ...]]):
    """Room `code`'s events after `version`."""

    code: str
    version: int


@dataclass(frozen=True)
class Seen(Request["int | None"]):
    """The last version of room `code` a screen of the person's showed."""

    code: str


@dataclass(frozen=True)
class Send(Request[None]):
    """Send `command` to room `code`'s gateway."""

    code: str
    command: Command


@dataclass(frozen=True)
class Ratings(Request[list[PlayerRating]]):
    """The ratings of `names` in `game` (None: every game); at a game's `end`, once the
    end is kept."""

    game: str | None
    names: frozenset[str]
    end: bool


@dataclass(frozen=True)
class Archive(Request[list[StoredRoom]]):
    """A page of the store's rooms."""

    finished: bool
    player: str | None
    limit: int
    offset: int


@dataclass(frozen=True)
class Leaderboard(Request[list[PlayerRating]]):
    """The first ratings of `game`, the highest first (`standings.read_leaderboard`)."""

    game: str


@dataclass(frozen=True)
class ProfileOf(Request[Profile]):
    """What is known of player `name` (`standings.read_profile`)."""

    name: str


@dataclass(frozen=True)
class Moderate(Request[str]):
    """A person's `mute`, `unmute`, `block`, `unblock` or `report` and its words: the
    answer in a sentence or a few lines (`server.moderation`)."""

    words: tuple[str, ...]


@dataclass(frozen=True)
class Notify(Request[tuple[str, bool]]):
    """A person's `notify` and its words: the answer in a sentence, and whether it was
    taken (`server.notify_command`)."""

    words: tuple[str, ...]


@dataclass(frozen=True)
class KeepReplies(Request[tuple[str, ...]]):
    """A player's `if MOVE then REPLY`, `if clear` or `ifs` in room `code`: the lines
    answering it (`conditional.Conditions.answer`)."""

    code: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Puzzling(Request["PuzzleAnswer"]):
    """A person's rated puzzles (`server.puzzle_desk`): `next` (a puzzle of `game`),
    `tried` (puzzle `key`, `won` or not) or `ratings`."""

    what: str
    game: str = ""
    key: str = ""
    won: bool = False


@dataclass(frozen=True)
class Hide(Request[None]):
    """The screen of `key` stops showing its room, having shown it up to `version`."""

    key: int
    version: int | None = None


@dataclass(frozen=True)
class CopyAgain(Request[None]):
    """The replica of `key` went astray: send it a copy of the room's session."""

    key: int


@dataclass(frozen=True)
class Wait(Request[None]):
    """Tell `SeatTaken(key)` once somebody takes room `code`'s open seat."""

    code: str
    key: int


@dataclass(frozen=True)
class Unwait(Request[None]):
    """Stop waiting for the join of `key`."""

    key: int


Asked: TypeAlias = (
    Views
    | Enter
    | Create
    | Speak
    | AcceptRematch
    | Show
    | Since
    | Seen
    | Send
    | Ratings
    | Archive
    | Leaderboard
    | ProfileOf
    | Moderate
    | Notify
    | Puzzling
    | KeepReplies
)
"""The requests the client waits for the answer of."""
Posted: TypeAlias = Hide | CopyAgain | Wait | Unwait
"""The requests the client only posts: nothing comes back."""
REQUESTS: tuple[type[Request[object]], ...] = (
    Views,
    Enter,
    Create,
    Speak,
    AcceptRematch,
    Show,
    Since,
    Seen,
    Send,
    Ratings,
    Archive,
    Leaderboard,
    ProfileOf,
    Moderate,
    Notify,
    Puzzling,
    KeepReplies,
    Hide,
    CopyAgain,
    Wait,
    Unwait,
)
"""Every request's class: all an app's process may send of this module."""


# -- what the desk tells the client ---------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """The room of `key` applied `command`, by `by`, at `at`: the replica does too."""

    key: int
    command: Command
    by: str | None
    at: float


@dataclass(frozen=True)
class Events:
    """The events of the room of `key`'s last change (after its `Applied`)."""

    key: int
    events: tuple[Stamped, ...]


@dataclass(frozen=True)
class Adopt:
    """The room of `key` was read again whole: its replica is copied again."""

    key: int
    session: Session
    terms: RoomTerms


@dataclass(frozen=True)
class KeptNow:
    """Who keeps the game of the room of `key` now, and its clock held."""

    key: int
    kept: Kept


@dataclass(frozen=True)
class People:
    """Who is connected to the room of `key` now."""

    key: int
    people: frozenset[str]


@dataclass(frozen=True)
class Said:
    """A line said in the room of `key`."""

    key: int
    line: ChatLine


@dataclass(frozen=True)
class News:
    """News for the person of room `code` (your move, an end): `text`, with the bell if
    `ring`."""

    code: str
    text: str
    ring: bool


@dataclass(frozen=True)
class Listing:
    """The lobby's lists read again (a room made, joined or ended)."""

    views: tuple[RoomView, ...]


@dataclass(frozen=True)
class SeatTaken:
    """Somebody took the open seat of the room waited for with `key`."""

    key: int


Telling: TypeAlias = Applied | Events | Adopt | KeptNow | People | Said | News | Listing | SeatTaken
"""What the desk tells its client."""
