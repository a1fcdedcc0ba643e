"""What a person (or the clock) may do to a shared game, as typed values.

A room's game changes only by commands: each is checked against a copy of the room,
committed to the store as one change (`kind`, `value`, who made it, when), and only then
applied to the game every screen shows. A change read back from a store is decoded to
the same command, so a process that made a change and one that reads it apply one thing.
No user-interface code and no store here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeAlias

CHAT_LIMIT = 300
"""The longest chat line, in characters."""


class CommandError(ValueError):
    """A stored change that is not a command of this version (the message says why)."""


@dataclass(frozen=True)
class Join:
    """The person making it takes the open seat; `drawn`: the creator's colour as the
    server drew it for a room that left it to chance (`first`, `second`; "": none drawn)."""

    drawn: str = ""


@dataclass(frozen=True)
class SetKomi:
    """The first person's komi (the KOMI phase)."""

    komi: float


@dataclass(frozen=True)
class ChooseSide:
    """The second person's colour (0 moves first; the SIDE phase)."""

    colour: int


@dataclass(frozen=True)
class Play:
    """A move, by its name in the game's notation (`e5`, `pass`, `swap`); `kept`: a
    reply the player kept ready, played by the server (`rooms.conditional`)."""

    move: str
    kept: bool = False


@dataclass(frozen=True)
class Flag:
    """The side to move's time ran out (nobody's command: the clock's)."""


@dataclass(frozen=True)
class Resign:
    """The person making it gives up the game."""


@dataclass(frozen=True)
class Abort:
    """The game is called off, unrated, before each side has made a move."""


@dataclass(frozen=True)
class Takeback:
    """A take-back: `offer` (the last move of the person making it, and the reply to it
    if there is one), `accept` or `decline` (by the other player)."""

    answer: str

    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"


@dataclass(frozen=True)
class Rematch:
    """`offer` a rematch with colours reversed, `accept` one (then `room` names the new
    room, made by the accepting command) or `decline` it."""

    answer: str
    room: str = ""

    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"


@dataclass(frozen=True)
class Claim:
    """The person making it claims the game from the other player, who left it (their
    connection gone for a set time: see `rooms.claims`); a win, rated as any other, or
    with `draw` a draw (in a game that can end equal), rated as a draw."""

    draw: bool = False


@dataclass(frozen=True)
class Draw:
    """A draw: `offer` one (in a game that can end equal), `accept` or `decline` the
    other player's."""

    answer: str

    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"


@dataclass(frozen=True)
class Hold:
    """The room's store kept no change from `since` (the store's time, in seconds since
    the epoch) until this one: the running clock is charged nothing for that time, and
    runs again from this change (nobody's command: the store's, once it is back)."""

    since: float


@dataclass(frozen=True)
class Say:
    """A line of chat in the room, by a player or a watcher."""

    text: str


Command: TypeAlias = (
    Join
    | SetKomi
    | ChooseSide
    | Play
    | Flag
    | Hold
    | Resign
    | Abort
    | Takeback
    | Rematch
    | Say
    | Draw
    | Claim
)


def encode(command: Command) -> tuple[str, str]:
    """The command as a stored change's `kind` and `value`."""
    match command:
        case Join(drawn):
            return "join", f"drawn {drawn}" if drawn else ""
        case SetKomi(komi):
            return "komi", repr(komi)
        case ChooseSide(colour):
            return "side", str(colour)
        case Play(move, kept):
            return "move", f"kept {move}" if kept else move
        case Flag():
            return "flag", ""
        case Hold(since):
            return "hold", repr(since)
        case Resign():
            return "resign", ""
        case Abort():
            return "abort", ""
        case Takeback(answer):
            return "takeback", answer
        case Rematch(answer, room):
            return "rematch", f"{answer} {room}".strip()
        case Say(text):
            return "chat", text
        case Draw(answer):
            return "draw", answer
        case Claim(draw):
            return "claim", "draw" if draw else ""


def decode(kind: str, value: str) -> Command:
    """The command of a stored change; raises CommandError if it is none."""
    try:
        match kind:
            case "join":  # an earlier version's value named the joiner
                drawn = value.removeprefix("drawn ") if value.startswith("drawn ") else ""
                if drawn not in ("", "first", "second"):
                    raise CommandError(f"join {value!r} is not a colour drawn")
                return Join(drawn)
            case "komi":
                return SetKomi(float(value))
            case "side":
                if value not in ("0", "1"):
                    raise CommandError(f"side {value!r} is not 0 or 1")
                return ChooseSide(int(value))
            case "move":
                if value.startswith("kept "):
                    return Play(value.removeprefix("kept "), kept=True)
                return Play(value)
            case "flag":
                return Flag()
            case "hold":
                since = float(value)
                if not math.isfinite(since):
                    raise CommandError(f"hold {value!r} is not a moment")
                return Hold(since)
            case "resign":
                return Resign()
            case "abort":
                return Abort()
            case "takeback":
                if value not in (Takeback.OFFER, Takeback.ACCEPT, Takeback.DECLINE):
                    raise CommandError(f"take-back {value!r} is not an offer or an answer")
                return Takeback(value)
            case "rematch":
                answer, _, room = value.partition(" ")
                if answer not in (Rematch.OFFER, Rematch.ACCEPT, Rematch.DECLINE):
                    raise CommandError(f"rematch {value!r} is not an offer or an answer")
                return Rematch(answer, room)
            case "chat":
                return Say(value[:CHAT_LIMIT])
            case "draw":
                if value not in (Draw.OFFER, Draw.ACCEPT, Draw.DECLINE):
                    raise CommandError(f"draw {value!r} is not an offer or an answer")
                return Draw(value)
            case "claim":  # an earlier version's value was always empty: a win
                if value not in ("", "draw"):
                    raise CommandError(f"claim {value!r} is not a win or a draw")
                return Claim(draw=value == "draw")
    except ValueError as error:
        raise CommandError(f"{kind} {value!r}: {error}") from None
    raise CommandError(f"{kind!r} is not a kind of change")
