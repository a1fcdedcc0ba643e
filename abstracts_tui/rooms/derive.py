"""The events a command made: a pure function of the command, who made it, and the room's
session before and after it (the gateway has both: the copy it checked the command on,
and the copy it saves). Every command makes at least one event, and the facts each
screen says are read here once, at the commit, from the position they were made in.
"""

from __future__ import annotations

from ..clock import first_move_seconds, format_duration
from ..commands import (
    Abort,
    ChooseSide,
    Claim,
    Command,
    Draw,
    Flag,
    Hold,
    Join,
    Play,
    Rematch,
    Resign,
    Say,
    SetKomi,
    Takeback,
)
from ..records.results import How
from ..rules import SWAP, RulesError
from ..session import Phase, Session
from ..words import colour, move_words, score_words
from .claims import draw_words as claim_draw_words
from .draws import DRAW
from .events import (
    ChatSaid,
    ClockHeld,
    Ended,
    Event,
    Joined,
    KomiSet,
    Made,
    MovePlayed,
    OfferDeclined,
    OfferMade,
    RematchMade,
    SideChosen,
    Swapped,
    TakenBack,
)
from .play import REMATCH, TAKEBACK, opponent, takeback_by
from .room import Room, ending


def made_event(room: Room) -> Made:
    """The room's first event: who made it, its game (`Pilo 8x8, komi 3.5`), whether it
    is rated or an open challenge, its clock."""
    setup = room.setup
    title = room.game_text()
    if setup.komi is not None:
        title = f"{title}, komi {setup.komi:g}"
    return Made(
        room.creator,
        setup.game,
        setup.size,
        setup.variant,
        setup.komi,
        room.rated,
        room.open,
        setup.clock or "",
        title,
        room.colour,
        room.rating_range,
    )


def events_of(command: Command, by: str | None, before: Session, after: Session) -> list[Event]:
    """What `command`, made by `by` (None: the clock or the store), did to the room whose
    session was `before` and is `after` (both at the commit's moment)."""
    who = by or ""
    match command:
        case Join(drawn):
            return [Joined(who, drawn)]
        case SetKomi(komi):
            return [KomiSet(who, komi)]
        case ChooseSide(side):
            return [SideChosen(who, side, colour(after.game, side))]
        case Play(move, kept):
            return [_move(move, who, before, after, kept), *ended_events(before, after)]
        case Flag():
            return ended_events(before, after)
        case Claim(draw) if draw and after.over and not before.over:
            loser = opponent(before, who)
            text = f"The game is over: {claim_draw_words(before, who)}."
            return [Ended(Ended.CLAIMED, None, loser, text, by=by)]
        case Resign() | Abort() | Claim():
            return ended_events(before, after, by)
        case Hold(since):
            return [ClockHeld(since)]
        case Takeback(Takeback.OFFER):
            return [OfferMade(TAKEBACK, who, tuple(takeback_by(after, who)))]
        case Takeback(Takeback.ACCEPT):  # asked by the other player
            moves = tuple(takeback_by(before, opponent(before, who)))
            return [TakenBack(who, moves, after.turn_text())]
        case Takeback(_):
            return [OfferDeclined(TAKEBACK, who)]
        case Rematch(Rematch.OFFER):
            return [OfferMade(REMATCH, who)]
        case Rematch(Rematch.ACCEPT, room):
            return [RematchMade(who, room)]
        case Rematch(_):
            return [OfferDeclined(REMATCH, who)]
        case Say(text):
            return [ChatSaid(who, text, watcher=who not in before.people)]
        case Draw(Draw.DECLINE):
            return [OfferDeclined(DRAW, who)]
        case Draw(_) if after.over:  # accepted (an offer meeting the other's too)
            return ended_events(before, after, by)
        case Draw(_):
            return [OfferMade(DRAW, who)]
    raise AssertionError(f"no events for {command!r}")  # every command is matched above


def _move(
    name: str, by: str, before: Session, after: Session, kept: bool = False
) -> MovePlayed | Swapped:
    game = before.game
    mover = game.turn
    person = before.person(mover) if before.phase is Phase.PLAY else by
    try:
        move = game.parse_move(name)
        words = move_words(game, after.game, move, person)
    except RulesError:  # a position set up apart: the name alone
        move, words = None, f"{person} plays {name}."
    if kept:  # a reply kept ready (`conditional`), played by the server
        words = f"{person}'s move, kept ready: {name}. {words}"
    if move == SWAP:
        return Swapped(person, words)
    time_left = after.node.time_left
    left = (time_left.seconds, time_left.periods) if time_left is not None else None
    return MovePlayed(person, mover, name, words, left)


def ended_events(before: Session, after: Session, by: str | None = None) -> list[Event]:
    """The game's end, if `after` has it and `before` had not (the command, by `by`,
    ended it): how, who won, and the words for it."""
    if before.over or not after.over:
        return []
    finish = ending(after)
    found = after.ended()
    if found is not None and found.how is How.AGREED:
        return [Ended(Ended.AGREED, None, None, f"The game is over: {after.turn_text()}.", by=by)]
    if found is not None and found.winner is None:
        text = "The game is aborted: no result, unrated."
        clock = before.clock
        if by is None and clock is not None and before.phase is Phase.PLAY:  # the clock's
            late = before.person(before.game.turn)
            within = format_duration(first_move_seconds(clock.control))
            text = (
                f"The game is aborted: {late} made no first move within {within}: "
                "no result, unrated."
            )
        return [Ended(Ended.ABORTED, None, None, text, by=by)]
    winner = finish.winner if finish is not None else None
    loser = next((p for p in after.people if winner is not None and p != winner), None)
    if found is not None:
        how = {How.TIME: Ended.TIME, How.FORFEIT: Ended.CLAIMED}.get(found.how, Ended.RESIGNED)
        return [Ended(how, winner, loser, f"The game is over: {after.turn_text()}.", by=by)]
    score = tuple(score_words(after.game))
    return [Ended(Ended.BOARD, winner, loser, f"The game is over. {after.turn_text()}.", score)]
