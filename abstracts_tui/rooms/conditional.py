"""Replies kept ready in a days-per-move room (conditional moves, as in correspondence
chess): `if d4 then e5` keeps e5 ready for the other player's d4.

On the other player's turn of a room whose clock is days per move (`clock.py`'s `3d`), a
player keeps up to `REPLIES_KEPT` replies, each checked when kept (the move named legal
now for the other player, the reply legal after it). They are secret: kept in the store
(`Replies`, `store.conditional`), never in the room's events until one is played. When
the other player's move is committed, the process that committed it takes that player's
replies (read and deleted at once, so one process alone has them): a reply for the move
is played at once as the player's move (`Play(kept=True)`, a MovePlayed said "ann's move,
kept ready: e5"); any other move leaves none. A take-back and the game's end forget
every reply of the room.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..commands import Command, Play, Takeback
from ..rules import RulesError
from ..session import Phase, Session
from .gateway import ON_BEHALF
from .holder import Holder
from .live import Refused
from .room import Room

log = logging.getLogger(__name__)

REPLIES_KEPT = 20
"""The most replies one player keeps ready in one room."""
WORDS_TAKEN = 4
"""The most words of one `if` line (`if d4 then e5`)."""
WORD_LENGTH = 16
"""The longest word of one (a move's name is shorter)."""
USAGE = "Type: if MOVE then REPLY (your reply ready for their MOVE), ifs, or if clear."


@dataclass(frozen=True)
class Reply:
    """A reply kept ready: `reply` is played if the other player plays `named` (both in
    the game's own notation)."""

    named: str
    reply: str
    moves: int = 0
    """The game's move number when it was kept: a reply counts only in that position (one
    kept while the other's move was on its way from another process is void)."""


class Replies(Protocol):
    """Where the replies are kept (`store.conditional.StoredReplies`): each raises
    Refused when the store cannot be reached."""

    async def kept(self, code: str, name: str) -> list[Reply]: ...

    async def keep(self, code: str, name: str, replies: Sequence[Reply]) -> None: ...

    async def take(self, code: str, name: str) -> list[Reply]:
        """`name`'s replies in room `code`, forgotten by the store as they are read."""
        ...

    async def clear(self, code: str) -> None: ...


def correspondence(session: Session) -> bool:
    """Whether the game's clock is days per move (both sides', with time odds)."""
    clock = session.clock
    if clock is None:
        return False
    return all(clock.control.of(side).correspondence for side in (0, 1))


def is_reply_line(text: str) -> bool:
    """Whether `text` is about replies kept ready (`if ...`, `ifs`, `conditional`), not
    a move."""
    word = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    return word in ("if", "ifs", "conditional")


def parse(text: str) -> tuple[str, str] | None:
    """The move named and the reply of `if MOVE then REPLY`, or None if it is not so."""
    words = text.split()
    if len(words) == 4 and words[0].lower() == "if" and words[2].lower() == "then":
        return words[1], words[3]
    return None


def checked(session: Session, by: str, named: str, reply: str) -> Reply:
    """The reply `by` keeps ready, both moves in their canonical names; raises RulesError
    with one sentence if it may not be kept now."""
    why = why_not(session, by)
    if why is not None:
        raise Refused(why)
    game = session.game.copy()
    other = _other(session, by)
    try:
        first = game.move_name(game.play(named))
    except RulesError as error:
        raise Refused(f"{named} is not a move {other} can play now: {error}.") from None
    if game.is_over():
        raise Refused(f"{first} ends the game: there is no reply to keep ready.")
    try:
        second = game.move_name(game.play(reply))
    except RulesError as error:
        raise Refused(f"{reply} cannot answer {first}: {error}.") from None
    return Reply(first, second, session.move_number())


def why_not(session: Session, by: str) -> str | None:
    """Why `by` may not keep replies ready now, in one sentence; None when they may."""
    if by not in session.people:
        return "Only the players keep replies ready."
    if not correspondence(session):
        return "Replies are kept ready only in games of days per move (a clock such as 3d)."
    if session.over:
        return f"The game is over: {session.turn_text()}."
    if session.phase is not Phase.PLAY:
        return "Komi and sides are being chosen: no reply can be kept ready yet."
    if session.waiting_for() != _other(session, by):
        return "It is your move: play it; replies are kept ready on the other player's turn."
    return None


def added(replies: Sequence[Reply], reply: Reply) -> list[Reply]:
    """`replies` with `reply` (a reply for the same move replaces the one before); raises
    Refused past `REPLIES_KEPT`."""
    kept = [one for one in replies if one.named != reply.named]
    if len(kept) >= REPLIES_KEPT:
        raise Refused(
            f"You keep {REPLIES_KEPT} replies ready already: clear them (if clear) first."
        )
    return [*kept, reply]


def kept_words(reply: Reply, other: str) -> str:
    """What the player is told of a reply kept."""
    return f"Kept: if {other} plays {reply.named}, {reply.reply} is played."


def listed_words(replies: Sequence[Reply], other: str) -> list[str]:
    """The replies kept, a line each, as `ifs` lists them."""
    if not replies:
        return ["No reply is kept ready. " + USAGE]
    lines = [f"Replies kept ready ({len(replies)}, secret from {other}):"]
    lines += [f"  if {one.named} then {one.reply}" for one in replies]
    return lines


def _other(session: Session, name: str) -> str:
    first, second = session.people
    return second if name == first else first


Send = Callable[[Room, Command, Holder | None], Awaitable[None]]


class Conditions:
    """The replies kept ready in every room of a server (`rooms.Rooms.conditions`):
    kept, listed and cleared by the players, played or forgotten after each command."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.replies: Replies | None = None
        """Where they are kept; None: this server keeps none (each is refused)."""

    def _store(self) -> Replies:
        if self.replies is None:
            raise Refused("This server keeps no replies ready.")
        return self.replies

    async def keep(self, room: Room, by: str, named: str, reply: str) -> str:
        """Keep `reply` ready for the other player's `named`; the sentence said, or
        Refused with one."""
        store = self._store()
        made = checked(room.session, by, named, reply)
        replies = added(_current(await store.kept(room.code, by), made.moves), made)
        await store.keep(room.code, by, replies)
        return kept_words(made, _other(room.session, by))

    async def listed(self, room: Room, by: str) -> list[str]:
        """`by`'s replies kept in `room`, in lines."""
        if by not in room.players:
            raise Refused("Only the players keep replies ready.")
        kept = _current(await self._store().kept(room.code, by), room.session.move_number())
        return listed_words(kept, _other(room.session, by))

    async def clear(self, room: Room, by: str) -> str:
        """Forget `by`'s replies in `room`."""
        if by not in room.players:
            raise Refused("Only the players keep replies ready.")
        await self._store().keep(room.code, by, [])
        return "No reply is kept ready now."

    async def answer(self, room: Room, by: str, words: Sequence[str]) -> tuple[str, ...]:
        """The lines answering `by`'s `if MOVE then REPLY`, `if clear`, `ifs` or
        `conditional` in `room`; Refused with one sentence."""
        if len(words) > WORDS_TAKEN or any(len(word) > WORD_LENGTH for word in words):
            raise Refused(USAGE)
        said = [word.lower() for word in words]
        if said in (["ifs"], ["conditional"]):
            return tuple(await self.listed(room, by))
        if said in (["if", "clear"], ["ifs", "clear"], ["conditional", "clear"]):
            return (await self.clear(room, by),)
        asked = parse(" ".join(words))
        if asked is None:
            raise Refused(USAGE)
        return (await self.keep(room, by, *asked),)

    async def after(self, room: Room, command: Command, holder: Holder | None) -> None:
        """A command committed here: play the reply kept for a move, forget the replies
        it makes void. Never raises: a reply that cannot be played is logged."""
        store = self.replies
        if store is None or not correspondence(room.session):
            return
        try:
            if room.finished or isinstance(command, Takeback):
                await store.clear(room.code)
                return
            if not isinstance(command, Play) or holder is None:
                return
            waiting = room.session.waiting_for()
            if waiting is None or waiting == holder.user or waiting not in room.players:
                return
            replies = _current(await store.take(room.code, waiting), room.session.move_number() - 1)
            move = _played(room.session)
            reply = next((one.reply for one in replies if one.named == move), None)
            if reply is None or room.session.waiting_for() != waiting:
                return
            await self.send(room, Play(reply, kept=True), Holder(ON_BEHALF, waiting))
        except Refused as refused:
            log.warning("room %s: a reply kept ready was not played: %s", room.code, refused)


def _current(replies: Sequence[Reply], moves: int) -> list[Reply]:
    """The replies kept in the position of move number `moves`."""
    return [one for one in replies if one.moves == moves]


def _played(session: Session) -> str | None:
    """The name of the last move played in `session`."""
    moves = session.game.moves
    return session.game.move_name(moves[-1]) if moves else None
