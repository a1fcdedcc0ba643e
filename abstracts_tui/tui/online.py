"""What a room's play screen adds for online play, held by the screen by composition:
resign (or abort, before each side has moved), ask to take back and answer the other's
request, offer and accept a rematch, open the room's chat.

Each command goes to the room (`send`: the room's gateway, which commits it before the
game changes, or refuses it with one sentence); the screen says it was sent, and what
became of it. What the others did comes as the room's events (`heard`), said in the words
of `rooms.told`: when the other player offers something (`OfferMade`), this player is
asked in a dialog (Escape puts it off: the offer stays, and the status line says so); a
watcher is told. No store here, and nothing of the screen's own layout.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from textual.app import App

from ..commands import Abort, Command, Draw, Rematch, Takeback
from ..play.offers import REMATCH_ACCEPTED, Act, RoomOffers, Step, sent_text
from ..play.offers import sentence as sentence  # the rooms' screens say refusals so too
from ..rooms.chat import Chat
from ..rooms.claims import draw_words as claim_draw_words
from ..rooms.draws import DRAW, draw_offer
from ..rooms.events import (
    Ended,
    Event,
    OfferDeclined,
    OfferMade,
    Rated,
    RematchMade,
    Stamped,
    TakenBack,
)
from ..rooms.play import (
    REMATCH,
    TAKEBACK,
    clocks_held,
    done_text,
    offer,
    opponent,
    takeback_moves,
)
from ..rooms.room import RoomError
from ..rooms.terms import Offer, RoomTerms
from ..rooms.told import rated_text, told
from ..rules import RulesError
from ..session import Session
from .chat_mute import ChatMutes, Moderate
from .dialogs.online import AbortDialog, OfferDialog, ResignDialog

Send = Callable[[Command], Awaitable[None]]
"""Sends a command to the room: returns once it is committed and applied; raises a
RulesError with one sentence, nothing changed, if it is refused."""
NewRoom = Callable[[], Awaitable[object]]
"""Makes the rematch's room (the colours reversed) and names it in this one (whose
screens then go there); raises RoomError or a RulesError with one sentence."""
ChatSend = Callable[[str], Awaitable[str | None]]
"""Says a line in the room's chat: the refusal's sentence, or None once said."""
Heard = Callable[[list[Stamped]], None]
"""Told the room's new events, in order, once the game shown has their change."""
Listen = Callable[[Heard], Callable[[], None]]
"""Calls its argument with each change's events until the callable it returns is called
(`rooms.client.Shown.listen`)."""


def no_events(heard: Heard) -> Callable[[], None]:
    """A room that tells no events (its game is changed here only)."""
    return lambda: None


class Host(Protocol):
    """The screen that shows the room's game."""

    app: App[object]

    def say(self, message: str) -> None: ...

    def refuse(self, reason: str | None) -> None: ...


@dataclass(frozen=True)
class RoomSeat:
    """What a room's play screen knows of the room beyond its game: its code, whether it
    is rated, who sits here, its chat, and the room's ways to say a line, to make the
    rematch's room and to go there."""

    code: str
    user: str
    rated: bool
    chat: Chat
    say: ChatSend
    rematch_room: NewRoom
    go_to: Callable[[str], None]
    """Show room `code` (the rematch's) to this player."""
    players: Callable[[], tuple[str, ...]]
    """The room's players now (the watchers are the others connected)."""
    listen: Listen = no_events
    """How the screen hears the room's events (`OnlinePlay.heard`)."""
    terms: RoomTerms = field(default_factory=RoomTerms)
    """The room's terms beside its game (offers, rematch, keeper), kept up to date with it
    (`rooms.client.Shown.terms`)."""
    replies: Callable[[tuple[str, ...]], Awaitable[tuple[str, ...]]] | None = None
    """The answer to `if MOVE then REPLY`, `ifs`, `if clear` (`kept_ready`); None: none."""
    moderate: Moderate | None = None
    """The server's answer to `mute NAME`, `unmute NAME` (`/mute` in the chat line,
    `chat_mute`); None: no muting here."""


class OnlinePlay:
    """Online play for the person at `host` (a player or a watcher) of `room`'s game
    `session`, whose commands go to the room by `send`."""

    def __init__(self, host: Host, session: Session, room: RoomSeat, send: Send) -> None:
        self.host = host
        self.session = session
        self.room = room
        self.terms = room.terms
        self.user = room.user
        self.code = room.code
        self.rated = room.rated
        self.send = send
        self.chat = room.chat
        self.chat_send = room.say
        self.rematch_room = room.rematch_room
        self.offers = RoomOffers(session, self.terms, self.user, rated=self.rated)
        """What this player may offer or answer now (the same in line mode)."""
        self.asked: set[tuple[str, Offer]] = set()
        """The offers this player was asked about already (one dialog for each)."""
        self.gone = False
        """Whether this screen went on to the rematch's room."""
        self.mutes = ChatMutes(room.moderate) if room.moderate is not None else None
        """Whom this person muted from the chat here (`/mute NAME`), hidden at once."""
        self.end_text = ""
        """The game's end as said when its words are the event's, not the record's (a
        draw claimed: `Game over: bob left the game: ann claims a draw.`)."""

    @property
    def player(self) -> bool:
        return self.user in self.session.people

    def saving(self) -> tuple[str | None, str | None]:
        """Why the room's game is not being kept now (None while it is), and where it is
        kept, as its keeper last said."""
        return self.terms.trouble, self.terms.location

    def clocks_held(self) -> bool:
        """Whether the room's running clock is held while its game is not being kept."""
        return clocks_held(self.session, self.terms)

    # -- the keys --------------------------------------------------------------------------

    def resign(self) -> None:
        """Resign (confirmed), or abort before each side has moved (confirmed): the one
        key that ends a game (`RoomOffers.end`)."""
        self.do(self.offers.end())

    def abort(self) -> None:
        """Abort before each side has moved (confirmed)."""
        self.do(self.offers.abort())

    def takeback(self) -> None:
        """Answer the other player's request to take back if there is one; else ask."""
        self.do(self.offers.takeback())

    def rematch(self) -> None:
        """Accept the other player's rematch if offered; else offer one."""
        self.do(self.offers.rematch())

    def decline(self) -> None:
        """Refuse the other player's take-back request, or else their rematch."""
        self.do(self.offers.decline())

    def draw(self) -> None:
        """Accept the other player's draw offer if one stands; else offer a draw."""
        self.do(self.offers.draw())

    def claim(self) -> None:
        """Claim the game from the other player, who left it."""
        self.do(self.offers.claim())

    def claim_draw(self) -> None:
        """Claim a draw from the other player, who left a game that can end equal."""
        self.do(self.offers.claim_draw())

    def do(self, step: Step) -> None:
        """What a key leads to now (`play.offers`): refused, sent, asked first (a dialog),
        or the other player's offer answered."""
        match step.act:
            case Act.REFUSE:
                self.host.refuse(step.text)
            case Act.SEND:
                assert step.command is not None
                self.dispatch(step.command, step.text)
            case Act.CONFIRM:
                self._confirm(step)
            case Act.ANSWER:
                assert step.waiting is not None
                self.answer_takeback(step.waiting)
            case Act.REMATCH:
                self.accept_rematch()

    def _confirm(self, step: Step) -> None:
        other = opponent(self.session, self.user)
        aborting = isinstance(step.command, Abort)
        dialog = AbortDialog(other, self.rated) if aborting else ResignDialog(other, self.rated)

        def answered(yes: bool | None) -> None:
            said = self.offers.confirmed(step, bool(yes))
            if yes and step.command is not None:
                self.dispatch(step.command, said)
            else:
                self.host.say(said)

        self.host.app.push_screen(dialog, answered)

    def open_chat(self) -> None:
        from .screens.chat import ChatScreen

        self.host.app.push_screen(
            ChatScreen(self.code, self.chat, self.chat_send, player=self.player, mutes=self.mutes)
        )

    # -- offers ------------------------------------------------------------------------------

    def answer_takeback(self, waiting: Offer) -> None:
        self.asked.add((TAKEBACK, waiting))
        dialog = OfferDialog.takeback(waiting.by, takeback_moves(self.session, self.terms))

        def answered(accept: bool | None) -> None:
            if accept is None:
                self.host.say(f"{waiting.by} asks to take back: u answers.")
            elif offer(self.session, self.terms, TAKEBACK) != waiting:
                self.host.refuse("The take-back asked is no longer open.")
            else:
                answer = Takeback.ACCEPT if accept else Takeback.DECLINE
                self.dispatch(Takeback(answer), sent_text("answer"))

        self.host.app.push_screen(dialog, answered)

    def accept_rematch(self) -> None:
        async def accept() -> None:
            try:
                await self.rematch_room()  # the room made, and named in this one
            except (RulesError, RoomError) as error:
                self.host.refuse(sentence(error))

        self.host.say(REMATCH_ACCEPTED)
        self.host.app.run_worker(accept(), group="online")

    def ask_rematch(self, waiting: Offer) -> None:
        self.asked.add((REMATCH, waiting))
        dialog = OfferDialog.rematch(waiting.by, game_text(self.session))

        def answered(accept: bool | None) -> None:
            if accept is None:
                self.host.say(f"{waiting.by} offers a rematch: m accepts.")
            elif offer(self.session, self.terms, REMATCH) != waiting:
                self.host.refuse("The rematch offered is no longer open.")
            elif accept:
                self.accept_rematch()
            else:
                self.dispatch(Rematch(Rematch.DECLINE), sent_text("answer"))

        self.host.app.push_screen(dialog, answered)

    def ask_draw(self, waiting: Offer) -> None:
        self.asked.add((DRAW, waiting))

        def answered(accept: bool | None) -> None:
            if accept is None:
                self.host.say(f"{waiting.by} offers a draw: = accepts.")
            elif draw_offer(self.session, self.terms) != waiting:
                self.host.refuse("The draw offered is no longer open.")
            else:
                answer = Draw.ACCEPT if accept else Draw.DECLINE
                self.dispatch(Draw(answer), sent_text("answer"))

        self.host.app.push_screen(OfferDialog.draw(waiting.by), answered)

    def heard(self, event: Event) -> None:
        """What the screen says and asks of one of the room's events (its game has the
        change already): the others' offers, answers and rematch, and the game's end."""
        session, user = self.session, self.user
        match event:
            case Ended(how=Ended.BOARD):
                return  # said with the move that ended it
            case Ended(how=Ended.TIME):
                self.host.say(f"Time is up. {session.turn_text()}.")
            case Ended(how=Ended.ABORTED, by=None):  # a first move not made in time
                self.host.say(event.result)
            case Ended(how=Ended.CLAIMED, winner=None, by=str(by)):  # a draw claimed
                self.end_text = f"Game over: {claim_draw_words(session, by)}."
                self.host.say(self.end_text)
            case Ended():
                self.host.say(f"Game over: {session.turn_text()}.")
            case Rated():
                over = self.end_text or f"Game over: {session.turn_text()}."
                self.host.say(f"{over} {rated_text(event)}")
            case RematchMade(room=room):  # watchers are taken along, to watch it
                if not self.player:
                    for line in told(event, user, session.people):
                        self.host.say(line)
                if not self.gone:
                    self.gone = True
                    self.room.go_to(room)
            case OfferMade(kind, by) if by != user and self.player:
                terms = self.terms
                waiting = (
                    draw_offer(session, terms) if kind == DRAW else offer(session, terms, kind)
                )
                if waiting is not None and (kind, waiting) not in self.asked:
                    asks = {TAKEBACK: self.answer_takeback, DRAW: self.ask_draw}
                    asks.get(kind, self.ask_rematch)(waiting)
            case RematchMade() | OfferMade() | OfferDeclined() | TakenBack():
                if getattr(event, "by", None) != user:  # one's own: said once committed
                    for line in told(event, user, session.people):
                        self.host.say(line)

    # -- sending -----------------------------------------------------------------------------

    def dispatch(self, command: Command, said: str) -> None:
        """Send `command`; say it is sent (`said`), then what became of it."""
        self.host.say(said)

        async def sent() -> None:
            try:
                await self.send(command)
            except RulesError as error:
                self.host.refuse(sentence(error))
                return
            self.host.say(done_text(self.session, command, self.user))

        self.host.app.run_worker(sent(), group="online")


def game_text(session: Session) -> str:
    """`Pilo 8x8`, `Partitions side 6`."""
    game = session.game
    info = game.info
    size = f"side {game.size}" if info.geometry == "hex" else f"{game.size}x{game.size}"
    return f"{info.title} {size}"
