"""A room's game in line mode over SSH (`ssh -t host lines`), for a player or a watcher.

It follows a replica of the room's session (`rooms.client.Shown`) on the line session's
own loop, and says each of the room's events once, in order, in line mode's words
(`rooms.told`): a move and what it took, a chat line, a player joining, komi and a side,
an offer and its answer, the end with its explanation and a rated game's rating change;
then what the game waits for (whose turn it is, the komi, side and pie questions to whom
they are for). Who is in the room (a player leaving or coming back, the watchers) is
said from the room's presence events too, the first arrival of a rematch's player as
their joining, never as a coming back; the game no longer being saved (its clocks held)
and saved again is not an event: it is said as it changes. On entering a room this person
saw before, what happened since is said once (`rooms.told.missed`).

A line typed is a question (`lines.questions`), or a command sent to the room's gateway:
a move (said as sent, then as played, or `Not played: ...`), komi or a side, a chat line,
resign (confirmed), abort, take-back, rematch.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from enum import Enum

from ..commands import Abort, Command
from ..play.offers import Act, RoomOffers, Step, sentence
from ..play.turns import Ask, Turns, side_named
from ..rooms.chat import ChatLine, rows
from ..rooms.client import RoomClient, Shown
from ..rooms.draws import DRAW, draw_offer
from ..rooms.events import (
    Arrived,
    ChatSaid,
    Ended,
    Joined,
    KomiSet,
    MovePlayed,
    OfferMade,
    RematchMade,
    SideChosen,
    Stamped,
    Swapped,
    TakenBack,
    Watching,
)
from ..rooms.pairing import colour_note, drawn_notice
from ..rooms.play import (
    REMATCH,
    TAKEBACK,
    clocks_held,
    kept_again_text,
    not_kept_text,
    offer,
    takeback_moves,
    watchers,
)
from ..rooms.room import RoomError
from ..rooms.rows import OPEN_SEAT
from ..rooms.told import told, watching_text
from ..rules import RulesError
from ..session import Phase
from ..subscribers import Subscription
from ..time_odds import spec_words
from ..words import colour, komi_question, pie_question, score_words, side_question
from .play import SHORT, warning_due
from .questions import QUESTIONS, Say, seconds_words

log = logging.getLogger(__name__)

HELP = "\n".join(
    (
        "In a room (the short form in brackets):",
        "a move in the game's notation, such as d4, b3-e3, pass or swap: play it (your turn).",
        "komi N: set komi; first or second: take a side, when you are asked.",
        "board (b), row N (r N), column X (c X), cell d4 (or d4?), score (s), moves (m),"
        " legal (l), turn (t), clock (k): as in a game played here.",
        "say TEXT: a line in the room's chat, for players and watchers; chat: the last lines said.",
        "resign: give up the game (asks first); abort: call it off before each side has moved"
        " (asks first).",
        "takeback: ask to take back your last move, or accept the other player's request.",
        "rematch: offer a rematch once the game is over, or accept the one offered.",
        "draw: offer a draw in a game that can end equal, or accept the one offered.",
        "decline: refuse the other player's take-back request, draw or rematch.",
        "if MOVE then REPLY: in a game of days per move, on the other player's turn, keep"
        " REPLY ready for their MOVE, played at once if they play it (secret until then; any"
        " other move of theirs clears them); ifs: the replies kept; if clear: clear them.",
        "claim: win the game once the other player has left it for a minute (a day in a game"
        " of days per move), on their turn where a clock runs; claim draw: a draw instead, in"
        " a game that can end equal.",
        "leave: back to the lobby (the game goes on, your seat is kept). quit (q): leave the"
        " server.",
        "help (?): this list.",
    )
)
"""What `help` says, a line for each command (a screen reader reads a line at a time)."""

ROOM_COMMANDS = (
    "say", "chat", "resign", "abort", "takeback", "draw", "decline", "rematch", "leave", "komi",
    "swap", "play on", "first", "second", "help", "quit", "claim", "if", "ifs",
)  # fmt: skip
"""What Tab would complete in a room, besides the questions and the moves."""

CHAT_SHOWN = 10
"""The chat lines `chat` reads again."""
ASSUMED_COLUMNS = 80
"""The width chat is wrapped to for a client without a terminal (`ssh -T`), whose own
width the server is not told: the common one."""
TICK = 0.25
"""Seconds between two looks at the clock (for its warnings)."""


class Outcome(Enum):
    """What a line typed in a room leads to, besides its answer."""

    STAY = "stay"
    LEAVE = "leave"
    QUIT = "quit"


class LineRoom:
    """One room followed and played by lines, on the line session's loop."""

    def __init__(
        self,
        shown: Shown,
        client: RoomClient,
        say: Say,
        *,
        address: str,
        go_to: Callable[[str], None],
        columns: Callable[[], int],
        missed: str | None = None,
        unarrived: frozenset[str] = frozenset(),
    ) -> None:
        """`columns`: the terminal's width now (0: not known), which chat is wrapped to;
        `missed`: what happened since this person last saw the room, said once on entering;
        `unarrived`: the players who joined and were not in the room since (their first
        arrival is said as their joining)."""
        self.shown = shown
        self.session = shown.session
        self.client = client
        self.say = say
        self.user = client.user
        self.code = shown.code
        self.address = address
        self.go_to = go_to
        """Enter room `code` instead of this one (the rematch's)."""
        self.columns = columns
        self.missed = missed
        self.unarrived = set(unarrived)
        self.connected = shown.connected
        self.watching = watchers(shown.connected, tuple(shown.session.people))
        """The watchers' count as last said (on entering, then by the room's events)."""
        self.pie_said = False
        self.offers = RoomOffers(self.session, shown.terms, self.user, rated=shown.room.rated)
        """What this player may offer or answer now (the same on the full screen)."""
        self.turns = Turns(
            self.session,
            local_people=frozenset({self.user}),
            shared=True,
            send=shown.send,
            told=lambda text, refused: self.say(text),
        )
        """Whose turn it is and what this player is asked (the same on the full screen)."""
        self.confirming: Step | None = None
        """The step a `yes` on the next line sends (a resignation, an abort)."""
        self.warned: set[float] = set()
        self.ticking: asyncio.Task[None] | None = None
        self.saving_said: str | None = None
        """Why the game is not being saved, as last said (None: it is, or nothing said)."""
        self.closing: Callable[[], None] | None = None
        self.saving: Subscription | None = None

    @property
    def player(self) -> bool:
        return self.user in self.session.people

    @property
    def waiting_for_player(self) -> bool:
        return OPEN_SEAT in self.session.people

    # -- entering and leaving ------------------------------------------------------------------

    def start(self) -> None:
        """Say where the person is, and follow the room from now on."""
        session, room = self.session, self.shown.room
        self.saving = self.session.saving_listeners.subscribe(self.saving_changed)
        # Listening before following: what came before it is told once it follows.
        self.closing = self.shown.listen(self.heard)
        rated = ", rated" if room.rated else ""
        clock = f", clock {spec_words(room.clock)}" if room.clock else ""
        against = " against ".join(session.people)
        if self.waiting_for_player:
            note = colour_note(room.colour)
            against = f"{room.creator}{f' ({note})' if note else ''} against whoever joins"
        self.say(f"Room {self.code}: {room.game_text()}{rated}{clock}, {against}.")
        if self.waiting_for_player and self.user == room.creator:
            listed = ", listed in every lobby as an open challenge" if room.open else ""
            self.say(
                f"It waits for a player{listed}: give them the code {self.code} (ssh -t "
                f"{self.address} join {self.code}), or they type join {self.code} in their "
                "lobby. leave goes back to the lobby; the room stays open."
            )
            if link := self.client.room_link(self.code):
                self.say(f"In a browser: {link}")
        elif self.player:
            side = self.colour_text() or ": komi and sides are chosen first"
            self.say(f"You play{side}. Type help for the commands of a room.")
            moved = bool(session.record.root.children)
            if drawn := drawn_notice(room.colour, room.creator, session.people, moved):
                self.say(drawn)
        else:
            count = watchers(self.connected, tuple(session.people))
            self.say(
                f"You watch ({count} watching). say and a line chats; leave goes back to the lobby."
            )
        if self.missed is not None:
            self.say(self.missed)
        self.tell_offers()
        self.saving_changed()
        if session.phase is Phase.PLAY and session.over:
            self.say_end()
        else:
            self.turn()
        self.shown.follow(True, self.presence)
        self.ticking = asyncio.get_running_loop().create_task(self.tick())

    def colour_text(self) -> str:
        session = self.session
        if session.phase is not Phase.PLAY:
            return ""
        mine = [c for c in (0, 1) if session.person(c) == self.user]
        return f" {colour(session.game, mine[0])}" if mine else ""

    def stop(self) -> None:
        """No more is said of this room (back to the lobby, or the session ends)."""
        if self.saving is not None:
            self.saving.close()
        if self.closing is not None:
            self.closing()
            self.closing = None
        self.shown.follow(False, lambda: None)
        if self.ticking is not None:
            self.ticking.cancel()

    # -- what is said ------------------------------------------------------------------------

    def heard(self, events: list[Stamped]) -> None:
        """The room's new events: each said once, in order, then what the game waits for."""
        try:
            self.tell(events)
        except Exception:  # a line not said must not stop the replica's other listeners
            log.exception("room %s: a change of the game was not said", self.code)

    def tell(self, events: list[Stamped]) -> None:
        turn_due = False
        for stamped in events:
            event = stamped.event
            match event:
                case ChatSaid():
                    self.say_chat(ChatLine(event.by, event.text, event.watcher))
                    continue
                case RematchMade(_, room):  # watchers are taken along, to watch it
                    if self.player:
                        self.say(f"The rematch is agreed: on to room {room}.")
                    else:
                        self.say(f"The players play again in room {room}: you watch it there.")
                    self.go_to(room)
                    return  # this room is left: nothing more of it is said
                case Joined(name):
                    self.unarrived.discard(name)  # its arrival is this joining
                    turn_due = True
                case Arrived(name):
                    if name in self.unarrived and name != self.user:
                        self.say(f"{name} joined the room: the game begins.")
                    self.unarrived.discard(name)
                    continue
                case Watching(count):
                    if count != self.watching:
                        self.say(watching_text(count))
                    self.watching = count
                    continue
                case KomiSet() | SideChosen():
                    turn_due = True
                case MovePlayed() | Swapped():
                    self.warned.clear()
                    turn_due = True
                case TakenBack() | Ended():
                    self.pie_said = False
                    turn_due = False  # its words say whose move it is, or the end
            for line in told(event, self.user, self.session.people, over=self.session.over):
                self.say(line)
        if turn_due:
            self.turn()

    def turn(self) -> None:
        """Say what the game waits for now: a question, or whose turn."""
        session = self.session
        if self.waiting_for_player or session.over:
            return
        request = self.turns.request()
        asked = request.ask if request is not None else None
        if session.phase is not Phase.PLAY:
            chooser, game = session.chooser, session.game
            if asked is Ask.KOMI:
                self.say(komi_question(game, chooser))
            elif asked is Ask.SIDE:
                self.say(side_question(game, chooser))
            else:
                what = "sets komi" if session.phase is Phase.KOMI else "chooses a side"
                self.say(f"{chooser} {what} before the first move.")
            return
        self.say(f"{session.turn_text()}.")
        if asked is Ask.PIE and request is not None and not self.pie_said:
            self.pie_said = True
            self.say(pie_question(session.game, request.name))

    def say_end(self) -> None:
        """The end of a game over when the room is entered."""
        session = self.session
        found = session.ended()
        if found is not None and found.winner is None and session.record.result != DRAW:
            self.say("The game is aborted: no result, unrated.")
            return
        if found is not None:  # resigned, lost on time, or drawn by agreement
            self.say(f"The game is over: {session.turn_text()}.")
            return
        self.say(f"The game is over. {session.turn_text()}.")
        for line in score_words(session.game):
            self.say(line)

    def tell_offers(self) -> None:
        """Say the other player's offers waiting on entering (a take-back, a rematch)."""
        session = self.session
        people = session.people
        for kind in (TAKEBACK, DRAW, REMATCH):
            terms = self.shown.terms
            found = draw_offer(session, terms) if kind == DRAW else offer(session, terms, kind)
            if found is None or found.by == self.user:
                continue
            moves = tuple(takeback_moves(session, self.shown.terms)) if kind == TAKEBACK else ()
            for line in told(OfferMade(kind, found.by, moves), self.user, people):
                self.say(line)

    def say_chat(self, line: ChatLine) -> None:
        """`line` in rows the width of the terminal, each starting with its speaker: the
        terminal would wrap a longer one, and its rows after the first could read as the
        server's (`rooms.chat.rows`)."""
        for row in chat_rows(line, self.columns() or ASSUMED_COLUMNS):
            self.say(row)

    def saving_changed(self) -> None:
        """Say once when the game stops being saved, why, and that the clocks are held,
        and once when it is saved again (as the full screen's panel shows it)."""
        terms = self.shown.terms
        problem = terms.trouble
        if problem == self.saving_said:
            return
        held = clocks_held(self.session, terms)
        if problem is not None:
            self.say(not_kept_text(problem, held))
        elif self.saving_said is not None:
            self.say(kept_again_text(held))
        self.saving_said = problem

    def presence(self) -> None:
        """Who is connected to the room changed (its presence events say it: `tell`)."""
        self.connected = self.shown.connected

    async def tick(self) -> None:
        """The clock's warnings, to the player whose time runs."""
        while True:
            await asyncio.sleep(TICK)
            session = self.session
            clock = session.clock
            if clock is None or clock.running is None or session.over:
                continue
            if session.phase is not Phase.PLAY or session.waiting_for() != self.user:
                continue
            left = clock.seconds_to_flag(session.now())
            if left is None:
                continue
            due = warning_due(left, self.warned)
            if due is not None:
                self.say(f"You have {seconds_words(due)} left.")

    # -- what is typed ----------------------------------------------------------------------

    async def answer(self, line: str) -> Outcome:
        """Answer one line typed in the room."""
        text = " ".join(line.split())
        if not text:
            return Outcome.STAY
        if self.confirming is not None:
            step, self.confirming = self.confirming, None
            yes = text.lower() in ("yes", "y")
            said = self.offers.confirmed(step, yes)
            if yes and step.command is not None:
                await self.send(step.command, said)
            else:
                self.say(said)
            return Outcome.STAY
        word, _, rest = text.partition(" ")
        command = SHORT.get(word.lower(), word.lower())
        if text.endswith("?") and len(text) > 1:
            command, rest = "cell", text[:-1]
        if text.lower() == "play on":
            command = "play on"
        question = QUESTIONS.get(command)
        if question is not None:
            question(self.session, rest, self.say)
            return Outcome.STAY
        if command == "leave":
            goes_on = "" if self.session.over else "; the game goes on"
            self.say(f"You leave room {self.code}{goes_on}.")
            return Outcome.LEAVE
        if command == "quit":
            return Outcome.QUIT
        if command == "help":
            for help_line in HELP.splitlines():
                self.say(help_line)
            return Outcome.STAY
        if command == "chat":
            self.chat_lines()
            return Outcome.STAY
        if command == "say":
            await self.chat(rest)
            return Outcome.STAY
        if command == "claim" and rest.strip().lower() == "draw":
            await self.do(self.offers.claim_draw())
            return Outcome.STAY
        if command in ("if", "ifs", "conditional"):
            await self.kept_ready(text)
            return Outcome.STAY
        act = {
            "resign": self.resign,
            "abort": self.abort,
            "takeback": self.takeback,
            "decline": self.decline,
            "draw": self.draw,
            "claim": self.claim,
            "rematch": self.rematch,
            "play on": self.play_on,
        }.get(command)
        if act is not None:
            await act()
            return Outcome.STAY
        await self.typed(text)
        return Outcome.STAY

    def chat_lines(self) -> None:
        lines = list(self.shown.chat.lines)[-CHAT_SHOWN:]
        if not lines:
            self.say("Nothing said yet in this room.")
            return
        self.say(f"The last {len(lines)} lines said:" if len(lines) > 1 else "The last line said:")
        for said in lines:
            self.say_chat(said)

    async def chat(self, text: str) -> None:
        if not text:
            self.say("Type say and the line, such as say good luck.")
            return
        try:
            await self.client.say(self.code, text)
        except RulesError as refused:
            self.say(f"Not said: {sentence(refused)}")

    async def kept_ready(self, text: str) -> None:
        """`if MOVE then REPLY`, `if clear`, `ifs`: replies kept ready (`conditional`)."""
        try:
            lines = await self.client.replies(self.code, tuple(text.split()))
        except RulesError as error:
            self.say(f"Not kept: {sentence(error)}")
            return
        for kept_line in lines:
            self.say(kept_line)

    async def send(self, command: Command, sent: str | None, refused: str = "") -> bool:
        """Send `command` to the room: say it is sent, and the refusal if it is refused;
        whether it was committed (the replica has it then)."""
        if sent:
            self.say(sent)
        try:
            await self.shown.send(command)
        except RulesError as error:
            self.say(f"{refused}{sentence(error)}")
            return False
        return True

    async def resign(self) -> None:
        await self.do(self.offers.resign())

    async def abort(self) -> None:
        await self.do(self.offers.abort())

    async def takeback(self) -> None:
        await self.do(self.offers.takeback())

    async def decline(self) -> None:
        """Refuse the other player's take-back request, or else their rematch."""
        await self.do(self.offers.decline())

    async def rematch(self) -> None:
        await self.do(self.offers.rematch())

    async def draw(self) -> None:
        await self.do(self.offers.draw())

    async def claim(self) -> None:
        await self.do(self.offers.claim())

    async def do(self, step: Step) -> None:
        """What a word leads to now (`play.offers`): refused, sent, asked first (a yes on
        the next line sends it), or the other player's offer accepted (the word is the
        answer: `decline` refuses it)."""
        match step.act:
            case Act.REFUSE:
                self.say(step.text)
            case Act.SEND | Act.ANSWER:
                assert step.command is not None
                await self.send(step.command, step.text)
            case Act.CONFIRM:
                verb = "abort" if isinstance(step.command, Abort) else "resign"
                self.say(f"{step.text} Type yes to {verb}; anything else plays on.")
                self.confirming = step
            case Act.REMATCH:
                self.say(step.text)
                try:
                    await self.client.rematch(self.code)  # the replica then names it
                except (RulesError, RoomError) as error:
                    self.say(sentence(error))

    async def play_on(self) -> None:
        if not self.asked(Ask.PIE):
            self.say("There is no swap to decline now.")
        else:
            self.say(f"{self.user} plays on: type a move.")

    async def typed(self, text: str) -> None:
        """A move, komi or a side, by the phase of the game (`play.turns`)."""
        session = self.session
        if not self.player:
            self.say("You watch this game: the moves are the players'. say and a line chats.")
            return
        if self.waiting_for_player:
            self.say("Not played: the game begins once a player joins.")
            return
        if session.phase is Phase.KOMI:
            self.komi(text)
        elif session.phase is Phase.SIDE:
            self.side(text)
        else:
            self.move(text)

    def asked(self, ask: Ask) -> bool:
        request = self.turns.request()
        return request is not None and request.ask is ask

    def komi(self, text: str) -> None:
        if not self.asked(Ask.KOMI):
            self.say(f"Not set: {self.session.chooser} sets komi.")
            return
        self.turns.set_komi(text.lower().removeprefix("komi").strip())

    def side(self, text: str) -> None:
        session, game = self.session, self.session.game
        if not self.asked(Ask.SIDE):
            self.say(f"Not chosen: {session.chooser} chooses the side.")
            return
        choice = side_named(game, text)
        if choice is None:
            self.say(f"Type first for {colour(game, 0)} or second for {colour(game, 1)}.")
            return
        self.turns.choose_side(choice)

    def move(self, text: str) -> None:
        session = self.session
        game = session.game
        if session.over:
            self.say(f"The game is over: {session.turn_text()}.")
            return
        try:
            move = game.parse_move(text)
        except RulesError as error:
            self.say(f"Not understood: {error}. Type help for the commands.")
            return
        reason = self.turns.refusal()
        if reason is None and session.waiting_for() == self.user:
            reason = game.illegal_reason(move)
            reason = None if reason is None else f"Not played: {reason}."
        if reason is not None:
            self.say(reason)
            return
        refused = self.turns.play(move)
        if refused is not None:
            self.say(refused)


def chat_rows(line: ChatLine, width: int) -> list[str]:
    """`bob says: good luck`; a watcher's `carl, watching, says: ...`; wrapped to `width`
    columns, every row after the first starting `bob goes on: `."""
    who = f"{line.by}, watching," if line.watcher else line.by
    return [
        prefix + words
        for prefix, words in rows(line.text, width, f"{who} says: ", f"{line.by} goes on: ")
    ]
