"""Whose turn it is at one screen, and the steps around a move: komi, sides, the pie rule,
the computer's turns, moves, undo and redo.

A plain class over the session, with no Textual in it, so that it can be tested without
an app: the play screen asks it what to ask next (`request`) and hands it the answers;
what the session then says changed is what the screen redraws.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..commands import ChooseSide, Command, Play, SetKomi
from ..rules import PASS, SWAP, Game, Move, RulesError
from ..rules.catalogue import parse_komi
from ..session import Phase, Session

Send = Callable[[Command], Awaitable[None]]
"""How a room's screen sends a command: committed by the room's gateway, then applied to
the session (raises a RulesError with one sentence if it is refused)."""
Told = Callable[[str, bool], None]
"""What a screen is told of a command sent: the sentence, and whether it was refused."""


class Ask(Enum):
    """What a screen must ask of whoever the session waits for."""

    KOMI = "komi"
    SIDE = "side"
    PIE = "pie"
    COMPUTER = "computer"
    """The computer decides (komi, a side or a move): a search in a worker."""


@dataclass(frozen=True)
class Request:
    """Ask `name` (at `level` if the computer) for `ask`."""

    ask: Ask
    name: str
    level: str | None = None


class Turns:
    """The turns of one screen on a session, which may be shared with other screens.

    `local_people` are the people who play at this screen: None for everyone (hot-seat),
    an empty set for somebody who watches. `shared` is a game others see too (over SSH):
    moves cannot be taken back there. With `send` (a room's), a move, komi or a side is
    sent to the room's gateway instead of played here: `told` says `Sent: ...` at once,
    and `Not played: ...` if it is refused; once it is committed the session changes.
    """

    def __init__(
        self,
        session: Session,
        *,
        local_people: frozenset[str] | None = None,
        shared: bool = False,
        send: Send | None = None,
        told: Told | None = None,
    ) -> None:
        self.session = session
        self.local_people = local_people
        self.shared = shared
        self.send = send
        self.told = told
        self.sending: asyncio.Task[None] | None = None
        """The command sent and not yet committed or refused."""
        self.analysing = False
        """Analysis mode: moves start variations, and nobody is asked anything."""
        self.hold: Callable[[str, str], str | None] | None = None
        """Given a move that may not be played now and why not, holds it for later (the
        full-screen room's premove) or says why not; None: it is refused."""

    @property
    def watching(self) -> bool:
        """Whether nobody plays at this screen (a watcher of a room)."""
        return self.local_people is not None and not (self.local_people & set(self.session.people))

    def is_local(self, name: str | None) -> bool:
        """Whether `name` plays at this screen."""
        return name is not None and (self.local_people is None or name in self.local_people)

    # -- what to ask --------------------------------------------------------------------

    def request(self) -> Request | None:
        """What this screen must ask now, if anything: komi, a side, the pie rule's swap,
        or the computer's decision. Nothing in analysis mode or for somebody elsewhere."""
        session = self.session
        waiting = session.waiting_for()
        if self.analysing or waiting is None or not self.is_local(waiting) or self.sending:
            return None
        level = session.level(waiting)
        if level is not None:
            return Request(Ask.COMPUTER, waiting, level)
        if session.phase is Phase.KOMI:
            return Request(Ask.KOMI, waiting)
        if session.phase is Phase.SIDE:
            return Request(Ask.SIDE, waiting)
        if self.swap_offered():
            return Request(Ask.PIE, waiting)
        return None

    def swap_offered(self) -> bool:
        """Whether the pie rule's offer is open: one move played and the swap legal (also
        after the swap or the reply was taken back)."""
        game = self.session.game
        return (
            self.session.phase is Phase.PLAY
            and len(game.moves) == 1
            and game.illegal_reason(SWAP) is None
        )

    def can_pass(self) -> bool:
        """Whether passing is a legal move now (the footer offers `p` only then)."""
        session = self.session
        return session.phase is Phase.PLAY and session.game.illegal_reason(PASS) is None

    # -- answers --------------------------------------------------------------------------

    def set_komi(self, komi: str | float) -> None:
        if self.session.phase is not Phase.KOMI:
            return
        if self.send is None:
            self.session.set_komi(komi)
            return
        try:
            value = parse_komi(komi, self.session.game.info.komi_step)
        except RulesError as error:
            self._tell(f"Not set: {error}", refused=True)
            return
        self._send(SetKomi(value), f"komi {value:g}", "Not set")

    def choose_side(self, colour: int) -> None:
        if self.session.phase is not Phase.SIDE:
            return
        if self.send is None:
            self.session.choose_side(colour)
            return
        name = self.session.game.colour_name(colour).capitalize()
        self._send(ChooseSide(colour), name, "Not chosen")

    def _send(self, command: Command, what: str, not_done: str) -> None:
        """Send `command` to the room; say it is sent, and later if it was refused."""
        send = self.send
        assert send is not None

        async def sent() -> None:
            try:
                await send(command)
            except RulesError as error:
                self.sending = None
                self._tell(f"{not_done}: {error}.", refused=True)
            finally:
                self.sending = None

        self.sending = asyncio.get_running_loop().create_task(sent())
        self._tell(f"Sent: {what}, waiting for the server.", refused=False)

    def _tell(self, text: str, *, refused: bool) -> None:
        if self.told is not None:
            self.told(text, refused)

    def time_up(self) -> None:
        """A clock face shows no time left: the game ends on time here (a room's own
        timer sends that to the room: nothing here)."""
        if self.send is None:
            self.session.check_flag()

    def swap(self) -> str | None:
        """Play the pie rule's swap; None, or why not."""
        if not self.swap_offered():
            return "Not swapped: the swap is only the second move of the game."
        return self.play(SWAP)

    def decided(self, decision: Any) -> None:
        """The computer's decision for what the session waits for: komi, side or move."""
        session = self.session
        if session.check_flag() or session.over:
            return  # the computer's time ran out while it thought
        if session.phase is Phase.KOMI:
            session.set_komi(decision)
        elif session.phase is Phase.SIDE:
            session.choose_side(decision)
        else:
            session.play(decision, branch=self.analysing)

    # -- moves ------------------------------------------------------------------------

    def refusal(self) -> str | None:
        """Why no move may be made at this screen now; None if one may."""
        session = self.session
        waiting = session.waiting_for()
        if self.watching:
            names = " and ".join(session.people)
            return f"You are watching: {names} make the moves."
        if waiting is None or session.phase is not Phase.PLAY or self.analysing:
            return None  # the rules or the session give the reason
        if session.level(waiting):
            return f"Not played: {waiting} (the computer) is to move."
        if not self.is_local(waiting):
            return f"Not played: it is {waiting}'s turn."
        return None

    def play(self, move: Move | str) -> str | None:
        """Play `move` for the side to move (a variation in analysis); None, or why not.
        The session tells its listeners what was played."""
        reason = self.refusal()
        if reason is not None and self.hold is not None:
            return self.hold(
                move if isinstance(move, str) else self.session.game.move_name(move), reason
            )
        if reason is not None:
            return reason
        if self.send is not None and not self.analysing:
            if self.sending is not None:
                return "Not played: your last command is still on its way to the server."
            name = move if isinstance(move, str) else self.session.game.move_name(move)
            self._send(Play(name), name, "Not played")
            return None
        try:
            self.session.play(move, branch=self.analysing)
        except RulesError as error:
            return f"Not played: {error}"
        return None

    def computer_waits(self) -> bool:
        """Whether a computer is to move while a person also plays in this game."""
        session = self.session
        waiting = session.waiting_for()
        people = any(session.level(name) is None for name in session.people)
        return people and waiting is not None and session.level(waiting) is not None

    def undo(self) -> str:
        """Take back a move (against the computer, its reply too); what happened."""
        session = self.session
        if self.shared:
            return "Taking back a move is not possible in a shared game."
        if session.time_winner() is not None:
            return "A game lost on time cannot be taken back (x: analysis steps through it)."
        if not session.undo():
            return "Nothing to take back."
        taken = 1
        while self.computer_waits() and session.undo():
            taken += 1  # against the computer, its reply goes too: back to a person's turn
        return f"Took back {moves(taken)}. {session.turn_text()}."

    def redo(self) -> str:
        """Play again the move last taken back (and the computer's reply); what happened."""
        session = self.session
        if self.shared:
            return "Replaying a move is not possible in a shared game."
        if not session.redo():
            return "Nothing to replay."
        replayed = 1
        while self.computer_waits() and session.redo():
            replayed += 1
        return f"Replayed {moves(replayed)}. {session.turn_text()}."

    # -- seats ----------------------------------------------------------------------------

    def seat_refusal(self) -> str | None:
        """Why no side may change hands at this screen now; None if one may."""
        session = self.session
        if self.shared or self.send is not None:
            return "The sides of a shared game are its players': the computer cannot take one."
        if session.phase is not Phase.PLAY:
            return "A side changes hands once play begins, after komi and sides are chosen."
        if session.over:
            return "The game is over: no side is left to play."
        return None

    def hand_to_computer(self, colour: int, level: str) -> str:
        """The computer plays `colour` from now on, at `level`; what happened (or why not).
        If it is that side's turn, the screen's next request is the computer's move."""
        reason = self.seat_refusal()
        if reason is not None:
            return reason
        session = self.session
        name = session.person(colour)
        side = f"{session.game.colour_name(colour).capitalize()} ({name})"
        if session.level(name) == level:
            return f"{side} is already played by the computer ({level})."
        session.set_level(name, level)
        return f"The computer ({level}) plays {side} now."

    def take_over(self, colour: int) -> str:
        """A person at this screen plays `colour` from now on instead of the computer
        (whose search for it, if any, the screen stops); what happened (or why not)."""
        reason = self.seat_refusal()
        if reason is not None:
            return reason
        session = self.session
        name = session.person(colour)
        side = f"{session.game.colour_name(colour).capitalize()} ({name})"
        if session.level(name) is None:
            return f"{side} is already played here."
        session.set_level(name, None)
        return f"You play {side} now, instead of the computer."

    def computer_sides(self) -> list[int]:
        """The colours the computer plays now."""
        session = self.session
        return [c for c in (0, 1) if session.level(session.person(c)) is not None]


def side_named(game: Game, text: str) -> int | None:
    """The colour `text` names: its colour's name (`orange`), `first`/`second` or `1`/`2`;
    None for anything else."""
    names = {"first": 0, "1": 0, game.colour_name(0).lower(): 0}
    names.update({"second": 1, "2": 1, game.colour_name(1).lower(): 1})
    return names.get(text.strip().lower())


def moves(count: int) -> str:
    """`1 move`, `2 moves`."""
    return f"{count} move{'s' * (count != 1)}"
