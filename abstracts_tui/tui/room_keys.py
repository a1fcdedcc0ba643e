"""A room's side of the play screen: which of its keys work now (resign or abort,
take-back, rematch, chat), what they do, what became of a command sent to the room, and
the chat told of in the status line while it is out of sight."""

from __future__ import annotations

from typing import Protocol

from textual.widgets import Static

from ..rooms.chat import ChatLine
from ..rooms.draws import can_end_equal
from ..rooms.play import both_moved
from .online import OnlinePlay
from .play_layout import Layout
from .play_seat import Seat
from .widgets.chat_panel import ChatPanel, status_text


class RoomHost(Protocol):
    """The play screen, as a room's keys see it."""

    online: OnlinePlay | None
    seat: Seat
    chat: ChatPanel | None
    status: Static
    fitting: Layout

    @property
    def is_attached(self) -> bool: ...

    def say(self, message: str) -> None: ...

    def refuse(self, reason: str | None) -> None: ...

    def key(self, binding_id: str) -> str: ...

    def next_step(self) -> None: ...


class RoomKeys:
    """The keys of a room's online play on one screen (`host`; without a room, no key
    works)."""

    def __init__(self, host: RoomHost) -> None:
        self.host = host

    def works(self, what: str) -> bool:
        """Which of a room's keys work now: resign or abort (whichever the game allows),
        a take-back until the game is over, a rematch once it is, the chat always; a
        watcher has the chat only."""
        online = self.host.online
        if online is None:
            return False
        if what == "chat":
            return True
        session = online.session
        if not online.player:
            return False
        if what == "rematch":
            return session.over
        if session.over:
            return False
        if what == "takeback":
            return True
        if what == "draw":
            return can_end_equal(session.game)
        if what == "claim":  # once the other player is known to be gone
            presence = self.host.seat.presence
            return presence is not None and online.offers.may_claim(presence.people())
        if what == "claim_draw":  # the same, where the game can end equal
            presence = self.host.seat.presence
            people = presence.people() if presence is not None else None
            return people is not None and online.offers.may_claim(people, draw=True)
        return both_moved(session) == (what == "resign")

    def press(self, what: str) -> None:
        """Take back, resign (or abort), ask for a rematch, or chat: the chat line beside
        the board, or the chat's own screen where the panel is hidden (a small terminal)."""
        online, chat = self.host.online, self.host.chat
        if online is None:
            return
        if what == "chat" and chat is not None and self.host.fitting.panel_shown:
            chat.query_one("#chat-input").focus()
            return
        actions = {"takeback": online.takeback, "resign": online.resign, "abort": online.abort}
        actions.update(rematch=online.rematch, chat=online.open_chat, draw=online.draw)
        actions.update(claim=online.claim, claim_draw=online.claim_draw)
        actions[what]()

    def told(self, text: str, refused: bool) -> None:
        """What became of a command sent to the room: sent, or refused (then whoever is
        asked is asked again)."""
        host = self.host
        if not host.is_attached:
            return  # the player left the game meanwhile: the lobby shows the room as it is
        if refused:
            host.refuse(text)
            host.next_step()
        else:
            host.say(text)

    def heard(self, line: ChatLine) -> None:
        """Where the chat is out of sight (the compact view), a line said by somebody else
        is told in the status line, with the key that opens the chat."""
        host, online, chat = self.host, self.host.online, self.host.chat
        if host.fitting.panel_shown or online is None or line.by == online.user:
            return
        if line.watcher and chat is not None and chat.watchers_hidden:
            return
        if online.mutes is not None and online.mutes.hides(line.by):
            return
        width = host.status.content_region.width
        host.say(status_text(line, width, f"{host.key('room.chat')} opens the chat"))
