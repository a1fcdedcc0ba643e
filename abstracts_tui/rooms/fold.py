"""A room as its events make it: one pure function from events to what a screen draws,
the same in every process, whatever version it starts from.

`step(state, stamped)` gives the room after one more event; `fold(events)` the room after
all of them. A screen that was away folds the events it missed onto the state it had, and
draws what one that watched from the start draws. The position is the rules' own, built
from the game's options and the moves in order (`position`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..rules import Game, new_game
from .events import (
    Arrived,
    Back,
    ChatSaid,
    ClockHeld,
    Ended,
    Joined,
    KomiSet,
    Left,
    Made,
    MovePlayed,
    OfferDeclined,
    OfferMade,
    Rated,
    RematchMade,
    SideChosen,
    Stamped,
    Swapped,
    TakenBack,
    Unknown,
    Watching,
)
from .pairing import SECOND

CHAT_KEPT = 50
"""The last lines of chat a room's state keeps (the chat panel's)."""
SWAP_NAME = "swap"
"""The pie rule's swap as the notation names it."""


@dataclass(frozen=True)
class Attendance:
    """Who is in a room, as its events last said (`Arrived`, `Left`, `Back`, `Watching`)."""

    here: frozenset[str] = frozenset()
    """The players in the room."""
    came: frozenset[str] = frozenset()
    """The players who have been in it since taking their seat (a later arrival is a
    coming back)."""
    watching: int = 0
    """How many people who do not play watch it."""


def attend(attendance: Attendance, event: object) -> Attendance:
    """Who is in the room after `event` (the same for an event of anything else)."""
    match event:
        case Arrived(name) | Back(name):
            return replace(attendance, here=attendance.here | {name}, came=attendance.came | {name})
        case Left(name):
            return replace(attendance, here=attendance.here - {name})
        case Watching(count):
            return replace(attendance, watching=count)
    return attendance


def presence(
    attendance: Attendance, players: Iterable[str], connected: frozenset[str]
) -> list[Arrived | Left | Back | Watching]:
    """The events that make `attendance` say who is `connected` now (through any
    process): each player arrived, left or back, then the watchers' count if it
    changed; none if it says so already. Pure: every process that computes it from the
    same events and the same people commits the same, and the room's version lets one."""
    seated = set(players)
    found: list[Arrived | Left | Back | Watching] = []
    for name in sorted(seated):
        if name in connected and name not in attendance.here:
            found.append(Back(name) if name in attendance.came else Arrived(name))
        elif name not in connected and name in attendance.here:
            found.append(Left(name))
    watching = len(connected - seated)
    if watching != attendance.watching:
        found.append(Watching(watching))
    return found


@dataclass(frozen=True)
class RoomState:
    """What a room's events say it is now."""

    version: int = 0
    made: Made | None = None
    joiner: str | None = None
    komi: float | None = None
    """Komi as set in the game (None: agreed when the room was made, or not set yet)."""
    side: int | None = None
    """The colour the second person took (0 moves first); None: not chosen (yet)."""
    drawn: str = ""
    """The creator's colour as drawn when somebody joined (a random room's)."""
    moves: tuple[str, ...] = ()
    """The moves played, in order, by their names (`swap` for the pie rule's)."""
    left: tuple[tuple[float, int] | None, tuple[float, int] | None] = (None, None)
    """Each colour's main seconds and periods after its last move (None: none yet)."""
    offers: tuple[tuple[str, str], ...] = ()
    """The offers waiting: (kind, by), at most one of each kind."""
    rematch: str | None = None
    ended: Ended | None = None
    rated: Rated | None = None
    chat: tuple[ChatSaid, ...] = ()
    held: float | None = None
    """The last time the store's trouble held the clock (`ClockHeld.since`)."""
    attendance: Attendance = Attendance()
    """Who is in the room (its presence events)."""
    unknown: int = 0
    """Events of kinds this version does not know, passed over."""

    @property
    def people(self) -> tuple[str, ...]:
        """The room's people in the order of their seats: the creator, then the joiner."""
        if self.made is None:
            return ()
        return (self.made.creator,) if self.joiner is None else (self.made.creator, self.joiner)

    @property
    def by_colour(self) -> tuple[str, ...]:
        """The people in the order of the colours they took (the first mover's first),
        before any swap: the second person moves first if they chose to."""
        people = self.people
        made = self.made
        second = made is not None and SECOND in (made.colour, self.drawn)
        return people[::-1] if (self.side == 0 or second) and len(people) == 2 else people

    def position(self) -> Game:
        """The game after the moves, by the rules; raises the rules' errors if the
        events do not make a game (they were not this version's)."""
        made = self.made
        if made is None:
            raise ValueError("a room's events start with the room being made")
        komi = made.komi if made.komi is not None else self.komi
        game = new_game(made.game, made.size, made.variant, komi)
        for name in self.moves:
            game.play(name)
        return game


def step(state: RoomState, stamped: Stamped) -> RoomState:
    """The room after one more event (an event older than the state is passed over, so
    that an event told twice changes nothing)."""
    if stamped.version <= state.version:
        return state
    state = replace(state, version=stamped.version)
    match stamped.event:
        case Made() as made:
            return replace(state, made=made)
        case Joined(name, drawn):
            offers = _without(state.offers, "takeback")
            return replace(state, joiner=name, drawn=drawn, offers=offers)
        case KomiSet(_, komi):
            return replace(state, komi=komi, offers=_without(state.offers, "takeback"))
        case SideChosen(_, colour, _):
            return replace(state, side=colour, offers=_without(state.offers, "takeback"))
        case MovePlayed(by, colour, move, _, left):
            sides = list(state.left)
            if left is not None and colour in (0, 1):
                sides[colour] = left
            return replace(
                state,
                moves=(*state.moves, move),
                left=(sides[0], sides[1]),
                offers=_moved(state.offers, by),
            )
        case Swapped(by):
            return replace(state, moves=(*state.moves, SWAP_NAME), offers=_moved(state.offers, by))
        case TakenBack(_, moves, _):
            kept = state.moves[: len(state.moves) - len(moves)]
            offers = _without(_without(state.offers, "takeback"), "draw")
            return replace(state, moves=kept, offers=offers)
        case OfferMade(kind, by, _):
            return replace(state, offers=(*_without(state.offers, kind), (kind, by)))
        case OfferDeclined(kind, _):
            return replace(state, offers=_without(state.offers, kind))
        case RematchMade(_, room):
            return replace(state, rematch=room or None, offers=_without(state.offers, "rematch"))
        case ChatSaid() as line:
            return replace(state, chat=(*state.chat, line)[-CHAT_KEPT:])
        case Ended() as ended:
            offers = _without(_without(state.offers, "takeback"), "draw")
            return replace(state, ended=ended, offers=offers)
        case Rated() as rated:
            return replace(state, rated=rated)
        case ClockHeld(since):
            return replace(state, held=since)
        case Arrived() | Left() | Back() | Watching():
            return replace(state, attendance=attend(state.attendance, stamped.event))
        case Unknown():
            return replace(state, unknown=state.unknown + 1)
    return state


def fold(events: Iterable[Stamped], state: RoomState | None = None) -> RoomState:
    """The room after `events`, from `state` (None: from nothing)."""
    state = state if state is not None else RoomState()
    for stamped in events:
        state = step(state, stamped)
    return state


def _without(offers: tuple[tuple[str, str], ...], kind: str) -> tuple[tuple[str, str], ...]:
    return tuple(offer for offer in offers if offer[0] != kind)


def _moved(offers: tuple[tuple[str, str], ...], by: str) -> tuple[tuple[str, str], ...]:
    """The offers left after `by` moved: no take-back, and a draw only if `by` offered it
    (it stands until the other player moves)."""
    return tuple(
        (kind, who) for kind, who in offers if kind != "takeback" and (kind != "draw" or who == by)
    )
