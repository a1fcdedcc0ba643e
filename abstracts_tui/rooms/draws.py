"""Draws agreed in a shared game: which games can end equal, a draw offered, accepted or
declined, and the words every front end says of them.

A player offers a draw on either turn of a game that can end equal (Linage with a
whole-number komi, Egotzi squared on an even board: the games whose scores can tie, see
docs/rules.md); the offer stands until the other player moves (an offer made before one's
own move stands through it, as lichess has it), and the other player accepts it (the game
ends drawn, `draw`, rated as a draw) or declines it. Plain functions over a room's game
(its `Session`) and terms (`terms.RoomTerms`), no store and no screen: `rooms.apply` applies
a `Draw` command with `apply_draw`, `play.offers.RoomOffers` asks `why_not` first.
"""

from __future__ import annotations

from ..commands import Draw
from ..rules import Game, OptionError
from ..session import Change, Changed, Phase, Session
from .events import OfferDeclined, OfferMade
from .terms import Offer, RoomTerms

DRAW = "draw"
"""The kind of a draw offer in `RoomTerms.offers` and in the events."""

NO_DRAW = "This game cannot end equal, so there is no draw to offer."


def can_end_equal(game: Game) -> bool:
    """Whether the game's scores can tie at the end of play: Linage with a whole-number
    komi, Egotzi squared on an even board (on an odd one the squares' parity rules a tie
    out). The other games break every tie."""
    options = game.options
    if game.info.name == "linage":
        return float(options.komi).is_integer()
    if game.info.name == "egotzi":
        return options.variant == "squared" and game.size % 2 == 0
    return False


def draw_offer(session: Session, terms: RoomTerms) -> Offer | None:
    """The draw offered and standing now, if one is: made in this position, or before the
    offerer's own move since (void once the other player has moved)."""
    found = terms.offers.get(DRAW)
    if found is None or session.over:
        return None
    moves = session.move_number()
    if found.moves == moves:
        return found
    if found.moves == moves - 1 and session.waiting_for() != found.by:
        return found
    return None


def why_not(session: Session, terms: RoomTerms, answer: str, by: str) -> str | None:
    """Why `by` may not give `Draw(answer)` now, in one sentence; None when they may."""
    if by not in session.people:
        return "Only the players can do that; watchers can chat."
    if session.over:
        return f"The game is over: {session.turn_text()}."
    if session.phase is not Phase.PLAY:
        return "Komi and sides are being chosen: the game can only be aborted now."
    if not can_end_equal(session.game):
        return NO_DRAW
    waiting = draw_offer(session, terms)
    if answer == Draw.OFFER:
        if waiting is not None and waiting.by == by:
            return "You have offered a draw already; waiting for the answer."
        return None  # an offer of the other's standing: accepted (`apply_draw`)
    if waiting is None or waiting.by == by:
        return "Nobody offers you a draw now."
    return None


def apply_draw(session: Session, terms: RoomTerms, command: Draw, by: str | None) -> None:
    """Offer, accept or decline a draw as `by` (the `rooms.apply` form): raises
    OptionError, changing nothing, when `why_not` refuses it. An offer made while the
    other's stands accepts it."""
    if by is None:
        raise OptionError("only a player can do that")
    problem = why_not(session, terms, command.answer, by)
    if problem is not None:
        raise OptionError(problem)
    waiting = draw_offer(session, terms)
    answer = command.answer
    if answer == Draw.OFFER and waiting is not None and waiting.by != by:
        answer = Draw.ACCEPT
    if answer == Draw.OFFER:
        terms.offers[DRAW] = Offer(by, session.move_number())
        session.notify(Changed(Change.OFFER, by=by))
    elif answer == Draw.ACCEPT:
        offers, terms.offers = terms.offers, {}
        try:
            session.agree_draw(by=by)
        except BaseException:
            terms.offers = offers
            raise
    else:
        terms.offers.pop(DRAW, None)
        session.notify(Changed(Change.OFFER, by=by))


def accepting(session: Session, terms: RoomTerms, by: str) -> bool:
    """Whether a draw command of `by` now accepts the other player's offer."""
    waiting = draw_offer(session, terms)
    return waiting is not None and waiting.by != by


def offer_words(event: OfferMade, viewer: str, other: str) -> str:
    """What `viewer` is told of a draw offered (`other`: the offerer's opponent)."""
    if event.by == viewer:
        return f"Draw offered: waiting for {other}'s answer."
    if viewer != other:
        return f"{event.by} offers a draw."
    return f"{event.by} offers a draw: type draw to accept, or decline."


def declined_words(event: OfferDeclined, viewer: str) -> str:
    """What `viewer` is told of a draw declined."""
    if event.by == viewer:
        return "Draw declined: play on."
    return f"{event.by} declined the draw: play on."


def done_text(session: Session, command: Draw, user: str, other: str) -> str:
    """What the sender of a committed draw command is told."""
    if session.over:
        return f"Game over: {session.turn_text()}."
    if command.answer == Draw.DECLINE:
        return "Draw declined: play on."
    return f"Draw offered: waiting for {other}'s answer."
