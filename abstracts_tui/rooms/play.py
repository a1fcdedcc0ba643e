"""What the commands of online play do to a shared game: resign, abort, take-back, rematch.

Plain functions over a room's game (its `Session`) and its terms (`terms.RoomTerms`: the
offers waiting, the rematch agreed), with no store and no screen: the room's gateway
checks a command against copies of the two with `check` (a sentence when it is not
allowed now), and applies it with `apply`, to the copies, to the room's own after the
commit, and to a change read back from another process alike. As lichess players know
them:

- resign: a player, once each side has moved (before that the game is aborted instead);
  the other colour wins (`orange+R`), the clock stops, the game is rated as any other;
- abort: a player, before each side has made a move; no result (`Void`), unrated, and
  the archive says the game was aborted;
- take-back: a player offers it after a move of theirs; the other player accepts (their
  reply to it, if there is one, is taken back with it) or declines; any move, or the
  answer, clears the offer, and a game over cannot be taken back;
- rematch: once the game is over, a player offers it and the other accepts; the new room
  has the same game with the colours reversed (`rematch_setup`), made by the caller,
  which names it in the accepting command.

Chat (`Say`) changes no game: see `rooms.chat`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..commands import Abort, Claim, Command, Draw, Hold, Play, Rematch, Resign, Say, Takeback
from ..game_setup import Setup
from ..records import RecordNode
from ..rules import RulesError
from ..session import Change, Changed, Phase, Session
from ..time_odds import swapped_spec
from . import claims, draws
from .terms import Offer, RoomTerms

TAKEBACK = "takeback"
"""The kind of a take-back offer in `RoomTerms.offers`."""
REMATCH = "rematch"
"""The kind of a rematch offer in `RoomTerms.offers`."""
SWAP_NAME = "swap"
"""The pie rule's swap as a record names it (the name SGF keeps)."""


class NotAllowed(RulesError):
    """A command that may not be given now; the message is one sentence saying why (a
    rules' error: the gateway refuses it with that sentence, as any other)."""


def line_makers(session: Session, nodes: list[RecordNode]) -> list[tuple[int, str] | None]:
    """For each node of the line `nodes` (from the root's first child on, as
    `Session.movers` reads it): the colour that moved and the person who made the move
    (the pie rule's swap followed: the person who swapped holds the first colour from
    then on); None for a node without a move (a position set up)."""
    made: list[tuple[int, str] | None] = []
    swapped = False
    for node, colour in zip(nodes, session.movers(nodes), strict=True):
        if colour is None:
            made.append(None)
            continue
        made.append((colour, session.people[colour ^ swapped]))
        swapped = swapped or node.move == SWAP_NAME
    return made


def move_makers(session: Session) -> list[str]:
    """Who made each move of the game's line so far (`line_makers`)."""
    return [made[1] for made in line_makers(session, session.node.line()) if made is not None]


def both_moved(session: Session) -> bool:
    """Whether each side has made a move (from then on a game is resigned, not aborted)."""
    return set(session.people) <= set(move_makers(session))


def opponent(session: Session, name: str) -> str:
    """The other player of `name`, a player."""
    first, second = session.people
    return second if name == first else first


def offer(session: Session, terms: RoomTerms, kind: str) -> Offer | None:
    """The offer of `kind` waiting for an answer, if one is (an offer made before the
    last move is void)."""
    found = terms.offers.get(kind)
    if found is None or found.moves != session.move_number():
        return None
    return found


def takeback_moves(session: Session, terms: RoomTerms) -> list[str]:
    """The moves the take-back asked would take back, the first first: the offerer's
    last move, and the reply to it if there is one (none when nobody asks)."""
    waiting = offer(session, terms, TAKEBACK)
    return [] if waiting is None else takeback_by(session, waiting.by)


def takeback_by(session: Session, asker: str) -> list[str]:
    """The moves a take-back asked by `asker` takes back, the first first: their last
    move, and the reply to it if there is one (none when they have made no move)."""
    makers = move_makers(session)
    if asker not in makers:
        return []
    count = next(i for i, name in enumerate(reversed(makers), 1) if name == asker)
    return [str(node.move) for node in session.node.line()[-count:]]


def check(session: Session, terms: RoomTerms, command: Command, by: str) -> str | None:
    """Why `by` may not give `command` now, in one sentence; None when they may."""
    if by not in session.people:
        return "Only the players can do that; watchers can chat."
    match command:
        case Resign():
            return _why_not_resign(session)
        case Abort():
            return _why_not_abort(session)
        case Takeback(answer):
            return _why_not_takeback(session, terms, answer, by)
        case Rematch(answer):
            return _why_not_rematch(session, terms, answer, by)
        case Draw(answer):
            return draws.why_not(session, terms, answer, by)
        case Claim(draw):
            return claims.why_not(session, by, both_moved(session), draw)
    return f"{type(command).__name__} is not a command of play."


def _in_play(session: Session) -> str | None:
    if session.over:
        return f"The game is over: {session.turn_text()}."
    if session.phase is not Phase.PLAY:
        return "Komi and sides are being chosen: the game can only be aborted now."
    return None


def _why_not_resign(session: Session) -> str | None:
    problem = _in_play(session)
    if problem is None and not both_moved(session):
        return "Each side has not moved yet: abort the game instead (no result, unrated)."
    return problem


def _why_not_abort(session: Session) -> str | None:
    if session.over:
        return f"The game is over: {session.turn_text()}."
    if both_moved(session):
        return "Each side has moved: the game can be resigned, no longer aborted."
    return None


def _why_not_takeback(session: Session, terms: RoomTerms, answer: str, by: str) -> str | None:
    problem = _in_play(session)
    if problem is not None:
        return problem
    waiting = offer(session, terms, TAKEBACK)
    if answer == Takeback.OFFER:
        if waiting is not None and waiting.by == by:
            return "You have asked to take back already; waiting for the answer."
        if waiting is not None:
            return f"{waiting.by} asks to take back: answer that first."
        if by not in move_makers(session):
            return "You have made no move to take back."
        return None
    if waiting is None:
        return "Nobody asks to take back now."
    if waiting.by == by:
        return "The other player answers your own request."
    return None


def _why_not_rematch(session: Session, terms: RoomTerms, answer: str, by: str) -> str | None:
    if not session.over:
        return "A rematch is offered once the game is over."
    waiting = offer(session, terms, REMATCH)
    if answer == Rematch.OFFER:
        if terms.rematch is not None:
            return f"The rematch is agreed already: room {terms.rematch}."
        if waiting is not None and waiting.by == by:
            return "You have offered a rematch already; waiting for the answer."
        return None
    if terms.rematch is not None:
        return f"The rematch is agreed already: room {terms.rematch}."
    if waiting is None or waiting.by == by:
        return "Nobody offers you a rematch now."
    return None


def apply(
    session: Session, terms: RoomTerms, command: Command, by: str, at: float | None = None
) -> None:
    """Give `command` as `by` at `at` (the store's time; `now` if None): raises
    NotAllowed, changing nothing, when `check` refuses it. Every screen showing the
    session is told (an offer or its answer as `Change.OFFER`)."""
    problem = check(session, terms, command, by)
    if problem is not None:
        raise NotAllowed(problem)
    match command:
        case Resign():
            colours = [c for c in (0, 1) if session.person(c) == by]
            _clearing(terms, lambda: session.resign(colours[0], at))
        case Abort():
            _clearing(terms, lambda: session.abort(at, by))
        case Claim(draw) if draw:  # truthy as `commands.encode` keeps it
            _clearing(terms, lambda: session.agree_draw(at, by))
        case Claim():
            mine = [c for c in (0, 1) if session.person(c) == by]
            _clearing(terms, lambda: session.forfeit(mine[0], at, by))
        case Takeback(Takeback.OFFER):
            _offer(session, terms, TAKEBACK, by)
        case Takeback(Takeback.ACCEPT):
            count = len(takeback_moves(session, terms))
            _clearing(terms, lambda: session.take_back(count, at))
            session.notify(Changed(Change.OFFER, by=by))
        case Takeback(Takeback.DECLINE):
            terms.offers.pop(TAKEBACK, None)
            session.notify(Changed(Change.OFFER, by=by))
        case Rematch(Rematch.OFFER):
            _offer(session, terms, REMATCH, by)
        case Rematch(Rematch.ACCEPT, room):
            terms.offers.pop(REMATCH, None)
            terms.rematch = room or None
            session.notify(Changed(Change.OFFER, by=by))
        case Rematch(Rematch.DECLINE):
            terms.offers.pop(REMATCH, None)
            session.notify(Changed(Change.OFFER, by=by))


def _clearing(terms: RoomTerms, change: Callable[[], object]) -> None:
    """Make `change` (an end, a take-back) with no offer left waiting, as its screens are
    told of it; the offers stay if it raises."""
    waiting, terms.offers = terms.offers, {}
    try:
        change()
    except BaseException:
        terms.offers = waiting
        raise


def _offer(session: Session, terms: RoomTerms, kind: str, by: str) -> None:
    terms.offers[kind] = Offer(by, session.move_number())
    session.notify(Changed(Change.OFFER, by=by))


def restore_offers(session: Session, terms: RoomTerms, commands: list[tuple[Command, str]]) -> None:
    """Give `terms` of the room whose game is `session`, read whole from its record
    (which keeps no offer), the offers waiting and the rematch agreed, from the room's
    last `commands` (each with who gave it), the oldest first, up to the one that made
    the session: an offer counts if no move, take-back or end came after it and nobody
    answered it."""
    waiting: dict[str, str] = {}
    for command, by in commands:
        match command:
            case Takeback(Takeback.OFFER):
                waiting[TAKEBACK] = by
            case Rematch(Rematch.OFFER):
                waiting[REMATCH] = by
            case Rematch(Rematch.ACCEPT, room):
                waiting.pop(REMATCH, None)
                terms.rematch = room or terms.rematch
            case Rematch(Rematch.DECLINE):
                waiting.pop(REMATCH, None)
            case Say() | Hold():
                pass  # chat changes no game; a clock held changes no offer
            case Draw(Draw.OFFER) if waiting.get(draws.DRAW, by) == by:
                waiting[draws.DRAW] = by
            case Draw(_):  # answered, or an offer meeting the other's: accepted
                waiting.pop(draws.DRAW, None)
            case Play() if waiting.get(draws.DRAW) == by:  # it stands through one's move
                waiting.pop(TAKEBACK, None)
            case _:  # a move, an answer to a take-back, komi, side, the end
                waiting.pop(TAKEBACK, None)
                waiting.pop(draws.DRAW, None)
    moves = session.move_number()
    terms.offers = {kind: Offer(by, moves) for kind, by in waiting.items()}


def done_text(session: Session, command: Command, user: str) -> str:
    """What the sender is told once their command is committed."""
    match command:
        case Claim(draw) if draw:
            return f"Game over: {claims.draw_words(session, user)}."
        case Resign() | Abort() | Claim():
            return f"Game over: {session.turn_text()}."
        case Takeback(Takeback.OFFER):
            return f"Take-back asked: waiting for {opponent(session, user)}'s answer."
        case Takeback(Takeback.ACCEPT):
            return f"Taken back. {session.turn_text()}."
        case Takeback(Takeback.DECLINE):
            return "Take-back declined: play on."
        case Rematch(Rematch.OFFER):
            return f"Rematch offered: waiting for {opponent(session, user)}'s answer."
        case Rematch(Rematch.DECLINE):
            return "Rematch declined."
        case Draw():
            return draws.done_text(session, command, user, opponent(session, user))
    return "Done."


def offer_text(session: Session, terms: RoomTerms, name: str) -> str | None:
    """What `name` (a player or a watcher) is told of the offers waiting: `bob asks to
    take back.`; None when none waits."""
    lines = []
    for kind, mine, theirs in (
        (TAKEBACK, "You ask to take back.", "asks to take back."),
        (REMATCH, "You offer a rematch.", "offers a rematch."),
    ):
        waiting = offer(session, terms, kind)
        if waiting is not None:
            lines.append(mine if waiting.by == name else f"{waiting.by} {theirs}")
    drawn = draws.draw_offer(session, terms)
    if drawn is not None:
        lines.append("You offer a draw." if drawn.by == name else f"{drawn.by} offers a draw.")
    return " ".join(lines) or None


def rematch_setup(setup: Setup, joiner: str) -> Setup:
    """The setup of the rematch of a room made with `setup` (its creator first) and
    joined by `joiner`: the same game, options and clock, the colours reversed (and time
    odds, each player keeping their own time control). The
    joiner makes the new room: moves first, or with komi to choose, sets it (and the
    old room's creator chooses the side)."""
    return replace(
        setup,
        first=joiner,
        second=setup.first,
        first_level=None,
        second_level=None,
        clock=swapped_spec(setup.clock),
    )


NOT_KEPT = "Not being saved"
"""How every screen of a room starts to say that its game is not being saved."""
HELD = "The clocks are held meanwhile."
"""Said with it in a room whose clock runs: it is held while nothing is kept (see
`clock.Clock.hold`)."""
KEPT_AGAIN = "The game is being saved again."
RUN_ON = "The clocks run on from where they were held."


def clocks_held(session: Session, terms: RoomTerms | None) -> bool:
    """Whether the session is the game of a room (of `terms`; None: a local game) that a
    keeper keeps and whose clock runs: every screen of it says that the clock is held
    while its store keeps no change, and runs on after (the moment it runs on, the first
    change kept, may come before or after a screen is told)."""
    clock = session.clock
    kept = terms is not None and terms.keeper is not None
    if not kept or clock is None:
        return False
    # A first move due (no clock runs yet) waits as a running clock would.
    return clock.running is not None or (session.first_move_due >= 0 and not session.over)


def not_kept_text(problem: str, held: bool) -> str:
    """What a game's screens say once when it stops being saved: `Not being saved: the
    disk is full: moves wait until the games can be saved again. The clocks are held
    meanwhile.` (`problem` says itself what becomes of moves; `held`: `clocks_held`)."""
    text = f"{NOT_KEPT}: {problem.rstrip('.')}."
    return f"{text} {HELD}" if held else text


def kept_again_text(held: bool) -> str:
    """What they say once when it is saved again (a clock held runs on with the first
    change kept, charged nothing for the time it was held)."""
    return f"{KEPT_AGAIN} {RUN_ON}" if held else KEPT_AGAIN


def watchers(connected: frozenset[str], players: tuple[str, ...]) -> int:
    """How many people watch a room: those connected to it (through any process) who do
    not play in it."""
    return len(connected - set(players))


def watchers_text(count: int) -> str:
    """`1 watching`, `3 watching`, or `nobody watching`."""
    return f"{count} watching" if count else "nobody watching"
