"""What a player of a room may offer or answer now, and what each leads to: a take-back
asked or answered, a rematch offered or accepted, a resignation or an abort confirmed.

A plain class over a room's game (its `Session`) and terms (`rooms.terms.RoomTerms`),
with no Textual and no terminal in it: the full-screen app and line mode both ask it
what a key or a word does now (`Step`) and say its sentences, so that an offer behaves
the same in both. Whether a command is allowed is the room's own check
(`rooms.play.check`), which the room's gateway applies too; the sentences of what then
happened are the room's events' (`rooms.told`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..commands import Abort, Claim, Command, Draw, Rematch, Resign, Takeback
from ..rooms.draws import DRAW, draw_offer
from ..rooms.play import REMATCH, TAKEBACK, check, offer, opponent, takeback_moves
from ..rooms.terms import Offer, RoomTerms
from ..session import Session


class Act(Enum):
    """What a front end does with a `Step`."""

    REFUSE = "refuse"
    """Say `text`: why not, in one sentence; nothing is sent."""
    SEND = "send"
    """Send `command` to the room, saying `text` as it goes."""
    CONFIRM = "confirm"
    """Ask `text` first; only a yes sends `command`."""
    ANSWER = "answer"
    """The other player's offer `waiting` is open: accepting sends `command`, declining
    sends `declining` (a front end may ask which first)."""
    REMATCH = "rematch"
    """The other player's rematch is accepted: say `text` and make the rematch's room."""


@dataclass(frozen=True)
class Step:
    """What a player's key or word leads to now."""

    act: Act
    text: str = ""
    command: Command | None = None
    waiting: Offer | None = None
    declining: Command | None = None


NOBODY_ASKS = "Nobody asks you to take back or offers you a rematch now."
ABORT_QUESTION = "Abort this game? It ends with no result and changes no rating."
PLAY_ON = "Play on."
REMATCH_ACCEPTED = "Rematch accepted: making its room."


def sent_text(what: str) -> str:
    """`Sent: take-back request, waiting for the server.`: what a command sent says."""
    return f"Sent: {what}, waiting for the server."


def sentence(error: Exception) -> str:
    """A refusal as one sentence: capitalised, with its full stop."""
    text = str(error).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def resign_question(other: str, rated: bool) -> str:
    """`Resign this game? ann wins. The game is rated: it counts as a loss.`"""
    counts = " The game is rated: it counts as a loss." if rated else ""
    return f"Resign this game? {other} wins.{counts}"


class RoomOffers:
    """The offers of `user` (a player or a watcher) in a room's game `session`, whose
    terms are `terms`; `rated`: whether the game is rated (said when resigning)."""

    def __init__(self, session: Session, terms: RoomTerms, user: str, *, rated: bool) -> None:
        self.session = session
        self.terms = terms
        self.user = user
        self.rated = rated

    @property
    def player(self) -> bool:
        return self.user in self.session.people

    def waiting(self, kind: str) -> Offer | None:
        """The other player's offer of `kind` (`takeback`, `rematch`) waiting for this
        player's answer, if one is."""
        session, terms = self.session, self.terms
        found = draw_offer(session, terms) if kind == DRAW else offer(session, terms, kind)
        if found is None or found.by == self.user or not self.player:
            return None
        return found

    def _checked(self, command: Command, step: Step) -> Step:
        problem = check(self.session, self.terms, command, self.user)
        return Step(Act.REFUSE, problem) if problem is not None else step

    # -- what each key or word does now ---------------------------------------------------

    def takeback(self) -> Step:
        """Answer the other player's take-back request if there is one; else ask for one."""
        waiting = self.waiting(TAKEBACK)
        if waiting is not None:
            accept, decline = Takeback(Takeback.ACCEPT), Takeback(Takeback.DECLINE)
            return Step(Act.ANSWER, sent_text("answer"), accept, waiting, decline)
        command = Takeback(Takeback.OFFER)
        return self._checked(command, Step(Act.SEND, sent_text("take-back request"), command))

    def rematch(self) -> Step:
        """Accept the other player's rematch if one is offered; else offer one."""
        waiting = self.waiting(REMATCH)
        if waiting is not None:
            return Step(Act.REMATCH, REMATCH_ACCEPTED, waiting=waiting)
        command = Rematch(Rematch.OFFER)
        return self._checked(command, Step(Act.SEND, sent_text("rematch offer"), command))

    def decline(self) -> Step:
        """Refuse the other player's take-back request, or else their rematch."""
        for kind, command in (
            (TAKEBACK, Takeback(Takeback.DECLINE)),
            (DRAW, Draw(Draw.DECLINE)),
            (REMATCH, Rematch(Rematch.DECLINE)),
        ):
            if self.waiting(kind) is not None:
                return Step(Act.SEND, sent_text("answer"), command)
        return Step(Act.REFUSE, NOBODY_ASKS)

    def draw(self) -> Step:
        """Accept the other player's draw offer if one stands; else offer a draw."""
        if self.waiting(DRAW) is not None:
            return Step(Act.SEND, sent_text("answer"), Draw(Draw.ACCEPT))
        command = Draw(Draw.OFFER)
        return self._checked(command, Step(Act.SEND, sent_text("draw offer"), command))

    def claim(self) -> Step:
        """Claim the game from the other player, who left it (`rooms.claims`: whether
        they have been gone long enough, the server says)."""
        return self._checked(Claim(), Step(Act.SEND, sent_text("claim"), Claim()))

    def claim_draw(self) -> Step:
        """Claim a draw instead, in a game that can end equal, from the other player,
        who left it."""
        command = Claim(draw=True)
        return self._checked(command, Step(Act.SEND, sent_text("draw claim"), command))

    def may_claim(self, here: frozenset[str], draw: bool = False) -> bool:
        """Whether claiming (a win, or with `draw` a draw) is offered now (a key shown):
        the game allows it and the other player is not in the room (`here`: who is)."""
        command = Claim(draw=draw)
        if not self.player or check(self.session, self.terms, command, self.user) is not None:
            return False
        return opponent(self.session, self.user) not in here

    def resign(self) -> Step:
        """Resign, asked first (only once each side has moved)."""
        other = opponent(self.session, self.user) if self.player else ""
        question = resign_question(other, self.rated)
        return self._checked(Resign(), Step(Act.CONFIRM, question, Resign()))

    def abort(self) -> Step:
        """Abort, asked first (only before each side has moved)."""
        return self._checked(Abort(), Step(Act.CONFIRM, ABORT_QUESTION, Abort()))

    def end(self) -> Step:
        """The one key that ends a game: abort before each side has moved, else resign."""
        if check(self.session, self.terms, Abort(), self.user) is None:
            return self.abort()
        return self.resign()

    def confirmed(self, step: Step, yes: bool) -> str:
        """What is said of the answer to a `CONFIRM` step: the sentence as it is sent on
        a yes, `Play on.` otherwise."""
        if not yes:
            return PLAY_ON
        return sent_text("abort" if isinstance(step.command, Abort) else "resignation")

    def takeback_moves(self) -> list[str]:
        """The moves the take-back asked would take back (see `rooms.play`)."""
        return takeback_moves(self.session, self.terms)
