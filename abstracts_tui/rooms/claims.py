"""Claiming a game from a player who left it, as lichess lets one.

Once the other player's connection has been gone from the room for a set time
(`claim_seconds`: `CLAIM_SECONDS`, a minute, in a live game or one without a clock; a
day, `CORRESPONDENCE_CLAIM_SECONDS`, in a game of days per move), the player present may
`claim` the game: it ends as a win for them (`blue+F`, FF[4]'s forfeit), rated as any
other win, and every screen says `Orange (bob) left the game: Blue (ann) wins`.

Two checks, as for any command of play: the rule (`why_not`, on every copy of the game:
each side has moved, the game goes on, and in a game whose clock runs, the player who
left is the one to move, since their time runs out otherwise), and the presence
(`presence_refusal`, on the server, which knows who is connected and reads the room's
`Left` and `Back` events for how long they have been gone). In a game that can end
equal (`draws.can_end_equal`) the player present may claim a draw instead (`claim draw`):
the game ends drawn, rated as a draw, and every screen says `bob left the game: ann
claims a draw.` (`draw_words`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..clock import format_duration
from ..session import Phase, Session
from .draws import can_end_equal
from .events import Arrived, Back, Left, Stamped

NO_DRAW = "This game cannot end equal, so there is no draw to claim."

CLAIM_SECONDS = 60.0
"""How long the other player's connection must have been gone in a live game (or one
without a clock) before the game may be claimed."""
CORRESPONDENCE_CLAIM_SECONDS = 86_400.0
"""The same in a game of days per move."""


def claim_seconds(session: Session) -> float:
    """How long the other player must have been gone before `session` may be claimed."""
    clock = session.clock
    if clock is not None and clock.control.correspondence:
        return CORRESPONDENCE_CLAIM_SECONDS
    return CLAIM_SECONDS


def other_player(session: Session, name: str) -> str:
    first, second = session.people
    return second if name == first else first


def why_not(session: Session, by: str, moved: bool, draw: bool = False) -> str | None:
    """Why `by`, a player, may not claim the game now by its rules (`moved`: whether
    each side has moved; `draw`: a draw claimed, not a win), in one sentence; None when
    they may."""
    if session.over:
        return f"The game is over: {session.turn_text()}."
    if draw and not can_end_equal(session.game):
        return NO_DRAW
    if session.phase is not Phase.PLAY or not moved:
        return "Each side has not moved yet: abort the game instead (no result, unrated)."
    other = other_player(session, by)
    running = session.clock is not None
    if running and session.waiting_for() != other:
        return f"It is your move: a game is claimed from {other} on their turn."
    return None


def gone_since(events: Iterable[Stamped], name: str) -> float | None:
    """When `name` left the room, as its `events` say (the time of their last `Left`
    with no `Back` after it); None when they are in it, or the events do not say."""
    since = None
    for stamped in events:
        match stamped.event:
            case Left(who) if who == name:
                since = stamped.at
            case Arrived(who) | Back(who) if who == name:
                since = None
    return since


def presence_refusal(
    session: Session, by: str, connected: frozenset[str], gone: float | None, now: float
) -> str | None:
    """Why `by` may not claim the game now because the other player is not gone long
    enough (`connected`: who is in the room now; `gone`: since when the other has been
    gone, `gone_since`), in one sentence; None when they may."""
    other = other_player(session, by)
    if other in connected or gone is None:
        return f"There is nothing to claim: {other} is in the room."
    wait = claim_seconds(session)
    left = gone + wait - now
    if left > 0:
        return (
            f"Not yet: {other} left {format_duration(max(1, round(now - gone)))} ago, and the "
            f"game may be claimed once they have been gone for {format_duration(wait)} "
            f"(in {format_duration(max(1, int(left)))})."
        )
    return None


def draw_words(session: Session, by: str) -> str:
    """`bob left the game: ann claims a draw`: a draw claimed by `by`, said of the game."""
    return f"{other_player(session, by)} left the game: {by} claims a draw"
