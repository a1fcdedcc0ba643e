"""A room's chat on a screen of its own: how a small terminal (80x24) shows it, where
the board leaves no room beside it. Escape goes back to the game."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ...rooms.chat import Chat
from ..chat_mute import ChatMutes
from ..textual_internals import SteadyScreen
from ..widgets.chat_panel import ChatPanel, Send
from ..widgets.key_bar import KeyBar


class ChatScreen(SteadyScreen[None]):
    """Room `code`'s chat, the field to type in focused."""

    DEFAULT_CSS = """
    ChatScreen #chat-title {
        width: 100%;
        height: 1;
        padding: 0 1;
        text-style: bold;
        background: $primary;
        color: $text;
    }
    """
    AUTO_FOCUS = "#chat-input"
    BINDINGS = [Binding("escape", "leave", "Back to the game", key_display="esc", id="chat.back")]

    def __init__(
        self, code: str, chat: Chat, send: Send, *, player: bool, mutes: ChatMutes | None = None
    ) -> None:
        super().__init__()
        self.code = code
        self.chat = chat
        self.send = send
        self.player = player
        self.mutes = mutes

    def compose(self) -> ComposeResult:
        watching = "" if self.player else " (you watch)"
        title = f"Room {self.code}: chat{watching}"
        yield Static(title, id="chat-title", markup=False)
        yield ChatPanel(self.chat, self.send, hideable=self.player, id="chat", mutes=self.mutes)
        yield KeyBar()

    def action_leave(self) -> None:
        self.dismiss(None)

    def on_chat_panel_left(self, message: ChatPanel.Left) -> None:
        self.dismiss(None)
