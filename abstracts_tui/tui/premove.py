"""A premove in a room's full-screen game: one move entered on the other player's turn,
held on this screen only (the room never hears of it), and sent the moment the turn comes
if the rules allow it then, or dropped with a sentence.

The play screen holds one `Premove`; its `Turns` hands it a move refused for being the
other's turn (`Turns.hold`), the screen tells it of each change of the game
(`turn_came`), and Escape clears it (`clear`).
"""

from __future__ import annotations

from typing import Protocol

from ..play.turns import Turns
from ..rules import RulesError
from ..session import Phase, Session
from .online import OnlinePlay

CLEARED = "Premove cleared."


def held_text(move: str) -> str:
    """`Premove: d4 (played when your turn comes; Esc clears it).`"""
    return f"Premove: {move} (played when your turn comes; Esc clears it)."


class PremoveHost(Protocol):
    """The play screen, as a premove sees it."""

    session: Session
    turns: Turns
    online: OnlinePlay | None

    def say(self, message: str) -> None: ...

    def refuse(self, reason: str | None) -> None: ...


class Premove:
    """The premove of the player at `host`, if one is held."""

    def __init__(self, host: PremoveHost) -> None:
        self.host = host
        self.held: str | None = None
        """The move held, as typed or chosen on the board (None: none)."""

    def _others_turn(self) -> bool:
        """Whether this screen's player waits for the other player's move in a room."""
        host = self.host
        online, session = host.online, host.session
        if online is None or not online.player or host.turns.analysing:
            return False
        if session.phase is not Phase.PLAY or session.over:
            return False
        waiting = session.waiting_for()
        return waiting is not None and waiting != online.user

    def hold(self, move: str, reason: str) -> str | None:
        """Hold `move` if it is the other player's turn (replacing one held), saying so;
        else `reason`, the refusal. A move the game cannot read is refused at once."""
        if not self._others_turn():
            return reason
        try:
            self.host.session.game.parse_move(move)
        except RulesError as error:
            return f"Not held: {error}."
        self.held = move
        self.host.say(held_text(move))
        return None

    def turn_came(self) -> None:
        """After a change of the game: the move held is sent if it is this player's turn
        now and the rules allow it (dropped, with why, if not); dropped once the game is
        over."""
        move = self.held
        host = self.host
        online, session = host.online, host.session
        if move is None or online is None:
            return
        if session.over:
            self.held = None
            host.say(f"Premove {move} dropped: the game is over.")
            return
        if session.phase is not Phase.PLAY or session.waiting_for() != online.user:
            return
        self.held = None
        game = session.game
        try:
            reason = game.illegal_reason(game.parse_move(move))
        except RulesError as error:
            reason = str(error)
        if reason is not None:
            host.refuse(f"Premove {move} dropped: {reason}.")
            return
        host.refuse(host.turns.play(move))

    def clear(self) -> bool:
        """Clear the move held (Escape), saying so; whether one was."""
        if self.held is None:
            return False
        self.held = None
        self.host.say(CLEARED)
        return True
