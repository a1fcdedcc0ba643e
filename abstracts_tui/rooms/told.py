"""What a room's events say to a person who sees them: a player of the room or a watcher.

Line mode says each event as it comes (`told`), in the words it has always used: the
moves as `words.move_words` says them, the end with its explanation, an offer to whom it
is for, and the sender's own answers as the sender is told them (`Take-back asked:
waiting for bob's answer.`). A screen that comes back to a room (from the lobby, after a
reconnect) says once what happened while it was away (`missed`): one short paragraph,
the moves beyond a few counted rather than listed. A rated game's rating change reads
the same everywhere (`rated_text`). `came_back` asks a room's client what a screen
coming back missed; nothing here knows of a store, a terminal or Textual.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..rules import RulesError
from .draws import DRAW, declined_words, offer_words
from .events import (
    Arrived,
    Back,
    ChatSaid,
    ClockHeld,
    Ended,
    Event,
    Joined,
    KomiSet,
    Left,
    Made,
    MovePlayed,
    OfferDeclined,
    OfferMade,
    Rated,
    RatingChange,
    RematchMade,
    SideChosen,
    Stamped,
    Swapped,
    TakenBack,
    Unknown,
    Watching,
)
from .pairing import drawn_words
from .play import TAKEBACK
from .rows import OPEN_SEAT

if TYPE_CHECKING:
    from .client import RoomClient, Shown

log = logging.getLogger(__name__)

MISSED_MOVES = 3
"""The most moves in a row that `missed` names one by one: more are counted (`bob and you
played 12 moves`), so that coming back to a long game is one short paragraph."""

UNKNOWN = "Something happened that this version does not know how to say."
"""What an event of a newer version's kind is said as."""


def rating_words(change: RatingChange) -> str:
    """`ann 1662? -> 1720`, or `ann 1500? (first rating)` for somebody who had none."""
    if not change.before:
        return f"{change.name} {change.after} (first rating)"
    return f"{change.name} {change.before} -> {change.after}"


def rated_text(event: Rated) -> str:
    """`Ratings: ann 1662? -> 1720, bob 1540 -> 1490.`: every screen says it so."""
    return f"Ratings: {', '.join(rating_words(change) for change in event.changes)}."


def _other(people: Sequence[str], name: str) -> str:
    """The other player of `name` (a player of `people`)."""
    others = [person for person in people if person != name]
    return others[0] if others else "the other player"


def _offer_told(event: OfferMade, viewer: str, people: Sequence[str]) -> str:
    if event.kind == DRAW:
        return offer_words(event, viewer, _other(people, event.by))
    if event.kind == TAKEBACK:
        if event.by == viewer:
            return f"Take-back asked: waiting for {_other(people, viewer)}'s answer."
        if viewer not in people:
            return f"{event.by} asks to take back."
        moves = event.moves
        what = f"their move {moves[0]}" if moves else "their last move"
        if len(moves) > 1:
            what += f" and your reply {moves[1]}"
        return f"{event.by} asks to take back {what}: type takeback to accept, or decline."
    if event.by == viewer:
        return f"Rematch offered: waiting for {_other(people, viewer)}'s answer."
    if viewer not in people:
        return f"{event.by} offers a rematch."
    return f"{event.by} offers a rematch, the colours reversed: type rematch to accept, or decline."


def _declined_told(event: OfferDeclined, viewer: str) -> str:
    if event.kind == DRAW:
        return declined_words(event, viewer)
    if event.kind == TAKEBACK:
        if event.by == viewer:
            return "Take-back declined: play on."
        return f"{event.by} declined the take-back: play on."
    return "Rematch declined." if event.by == viewer else f"{event.by} declined the rematch."


def watching_text(count: int) -> str:
    """`2 watching.`, `Nobody watching.`"""
    return f"{count} watching." if count else "Nobody watching."


def told(event: Event, viewer: str, people: Sequence[str], *, over: bool = False) -> list[str]:
    """The lines `viewer` is told of `event` as it happens, in line mode's words (none for
    what is not said as it happens: the room made, a clock held, a player's arrival,
    which their joining said, and the viewer's own coming and going); `people`: the
    room's players (a viewer who is not one watches); `over`: the game is over (a seat
    is kept while it is not). A chat line is one line, unwrapped."""
    match event:
        case Left(name) if name != viewer:
            kept = "" if over else "; their seat is kept"
            return [f"{name} has left the room{kept}."]
        case Back(name) if name != viewer:
            return [f"{name} is back in the room."]
        case Watching(count):
            return [watching_text(count)]
        case Arrived() | Left() | Back():
            return []
        case Joined(name, drawn):
            joined = f"{name} joined the room: the game begins."
            return [f"{joined} {drawn_words(_other(people, name), drawn)}" if drawn else joined]
        case KomiSet(by, komi):
            return [f"{by} sets komi {komi:g}."]
        case SideChosen(by, _, colour_name):
            return [f"{by} takes {colour_name}."]
        case MovePlayed(words=words) | Swapped(words=words):
            return [words]
        case TakenBack(by, _, turn):
            if by == viewer:
                return [f"Taken back. {turn}."]
            return [f"{by} accepted the take-back. {turn}."]
        case OfferMade():
            return [_offer_told(event, viewer, people)]
        case OfferDeclined():
            return [_declined_told(event, viewer)]
        case RematchMade(_, room):
            if viewer in people:
                return [f"The rematch is agreed: on to room {room}."]
            return [f"The players play again in room {room}."]
        case ChatSaid(by, text, watcher):
            return [f"{by}, watching, says: {text}" if watcher else f"{by} says: {text}"]
        case Ended(how, result=result, score=score):
            flagged = ["Time is up."] if how == Ended.TIME else []
            return [*flagged, result, *score]
        case Rated():
            return [rated_text(event)]
        case Unknown():
            return [UNKNOWN]
        case Made() | ClockHeld():
            return []
    return []  # every kind is matched above


def unarrived(events: Sequence[Stamped]) -> set[str]:
    """The players of a room's `events` (from its first) who made or joined it and did
    nothing in it since (a rematch's, whose seats are both taken when it is made): their
    first arrival is their joining, not a coming back."""
    waiting: set[str] = set()
    for stamped in events:
        event = stamped.event
        if isinstance(event, Made | Joined):
            waiting.add(event.creator if isinstance(event, Made) else event.name)
        elif isinstance(event, Arrived | Back):
            waiting.discard(event.name)
        else:
            waiting.discard(getattr(event, "by", None) or "")
    return waiting


def _name(name: str, viewer: str) -> str:
    return "you" if name == viewer else name


def _end_words(event: Ended, viewer: str) -> str:
    """`bob resigned: you win`, `the game ended: ann wins`, `the game was aborted`."""
    if event.how == Ended.ABORTED:
        return "the game was aborted: no result"
    if event.how == Ended.AGREED:
        return "a draw was agreed"
    if event.how == Ended.CLAIMED and event.winner is None and event.loser and event.by:
        claims = "you claim" if event.by == viewer else f"{event.by} claims"
        return f"{_name(event.loser, viewer)} left the game: {claims} a draw"
    wins = "a draw"
    if event.winner is not None:
        wins = "you win" if event.winner == viewer else f"{event.winner} wins"
    if event.loser is not None and event.how in (Ended.RESIGNED, Ended.TIME, Ended.CLAIMED):
        what = {Ended.RESIGNED: "resigned", Ended.TIME: "lost on time"}.get(
            event.how, "left the game"
        )
        return f"{_name(event.loser, viewer)} {what}: {wins}"
    return f"the game ended: {wins}"


def _said_in_passing(event: Event, viewer: str) -> str | None:
    """One event as a clause of `missed`'s paragraph; None for one it leaves out."""
    match event:
        case Joined(name, drawn):
            joiner = _name(name, viewer)
            plays = "play" if name == viewer else "plays"
            other = "first" if drawn == "second" else "second"
            colours = f" (colours drawn at random: {joiner} {plays} {other})" if drawn else ""
            return f"{joiner} joined{colours}"
        case KomiSet(by, komi):
            return f"{_name(by, viewer)} set komi {komi:g}"
        case SideChosen(by, _, colour_name):
            return f"{_name(by, viewer)} took {colour_name}"
        case MovePlayed(by, _, move):
            return f"{_name(by, viewer)} played {move}"
        case Swapped(by):
            return f"{_name(by, viewer)} swapped"
        case TakenBack(by, moves):
            taken = " and ".join(moves) or "a move"
            return f"{_name(by, viewer)} accepted the take-back of {taken}"
        case OfferMade(kind, by):
            asked = {TAKEBACK: "asked to take back", DRAW: "offered a draw"}.get(
                kind, "offered a rematch"
            )
            return f"{_name(by, viewer)} {asked}"
        case OfferDeclined(kind, by):
            what = {TAKEBACK: "the take-back", DRAW: "the draw"}.get(kind, "the rematch")
            return f"{_name(by, viewer)} declined {what}"
        case RematchMade(by, room):
            return f"{_name(by, viewer)} accepted the rematch, in room {room}"
        case Ended():
            return _end_words(event, viewer)
        case Left(name) if name != viewer:
            return f"{name} left the room"
        case Back(name) if name != viewer:
            return f"{name} came back"
        case Unknown():
            return "something happened that this version does not know how to say"
    return None  # the room made, a clock held, chat, ratings and watchers: said apart


def _movers(events: list[Event], viewer: str) -> str:
    """`bob and you`, `ann`: who made a run of moves, in the order they first moved."""
    names: list[str] = []
    for event in events:
        assert isinstance(event, MovePlayed | Swapped)
        if event.by not in names:
            names.append(event.by)
    return " and ".join(_name(name, viewer) for name in names)


def missed(events: Sequence[Stamped], viewer: str) -> str | None:
    """What `viewer` is told once on coming back to a room whose `events` they did not
    see: `While you were away: bob played d4; bob resigned: you win. Ratings: ann 1662 ->
    1720, bob 1540 -> 1490.`; None when nothing they would be told happened."""
    clauses: list[str] = []
    run: list[Event] = []
    chat = 0
    rated: list[str] = []
    watching: int | None = None

    def end_run() -> None:
        if len(run) > MISSED_MOVES:
            clauses.append(f"{_movers(run, viewer)} played {len(run)} moves")
        else:
            clauses.extend(filter(None, (_said_in_passing(move, viewer) for move in run)))
        run.clear()

    for stamped in events:
        event = stamped.event
        if isinstance(event, MovePlayed | Swapped):
            run.append(event)
            continue
        end_run()
        if isinstance(event, ChatSaid):
            chat += 1
        elif isinstance(event, Watching):
            watching = event.count
        elif isinstance(event, Rated):
            rated.append(rated_text(event))
        else:
            clause = _said_in_passing(event, viewer)
            if clause is not None:
                clauses.append(clause)
    end_run()
    if chat:
        clauses.append(
            "a line was said in the chat" if chat == 1 else f"{chat} lines were said in the chat"
        )
    if watching is not None:
        clauses.append(f"{watching} watching now" if watching else "nobody watches now")
    if not clauses and not rated:
        return None
    text = f"While you were away: {'; '.join(clauses)}." if clauses else "While you were away:"
    return " ".join([text, *rated])


async def came_back(client: RoomClient, shown: Shown) -> tuple[str | None, frozenset[str]]:
    """What the client's person missed of the room `shown` since a screen of theirs last
    showed it (`missed`; None: nothing, or never shown to them), and the players who
    joined it and did not come to it since (`unarrived`). Neither is said when the store
    cannot be read now (the room is shown all the same)."""
    user, people = client.user, shown.session.people
    said: str | None = None
    try:
        seen = await client.seen(shown.code)
        if seen is not None and seen < shown.version:
            events = await shown.since(seen)
            said = missed([e for e in events if e.version <= shown.version], user)
        away = set(people) - {user, OPEN_SEAT} - shown.connected
        if not away or shown.session.over:
            return said, frozenset()
        return said, frozenset(unarrived(await shown.since(0)) & away)
    except RulesError as error:  # the store's trouble, said where the room is shown
        log.warning("room %s: what %s missed cannot be read: %s", shown.code, user, error)
        return said, frozenset()
