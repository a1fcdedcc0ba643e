"""The lobby's notices screen (`n`): how the person is told of their games while away
(the same as `ssh -T host notify`): the setting now, and a field that takes what
`notify` takes (a URL, `mailto:ADDRESS`, `off`, `quiet 22-7 +2`, `quiet off`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from ...rooms.live import Refused
from ...store import StoreError
from ..textual_internals import SteadyScreen
from ..widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from ...rooms.client import RoomClient

NOTICES_CSS = """
NoticesScreen #notices-title {
    width: 100%;
    height: 1;
    padding: 0 1;
    text-style: bold;
    background: $primary;
    color: $text;
}
NoticesScreen #notices-now, NoticesScreen #notices-help, NoticesScreen #notices-said {
    height: auto;
    padding: 1 1 0 1;
}
NoticesScreen #notices-help {
    color: $text-muted;
}
NoticesScreen #notices-field {
    margin: 1 1 0 1;
}
"""

HELP = (
    "Your move in a game you are not connected to, a challenge of yours accepted and a "
    "game's end are sent there. Type an http(s) URL (ntfy's, or a Gotify server's "
    "/message?token=...), mailto:ADDRESS, off, quiet 22-7 (hours in UTC, or quiet 22-7 +2 "
    "for UTC+2) or quiet off, then Enter."
)
UNREAD = "The notice settings cannot be read now; try again later."
TARGET_LIMIT = 320
"""The most characters the field takes (the server refuses a target over 300)."""


class NoticesScreen(SteadyScreen[None]):
    """Shows and changes the person's notice setting through the rooms' client."""

    DEFAULT_CSS = NOTICES_CSS
    AUTO_FOCUS = "#notices-field"
    BINDINGS = [
        Binding("escape", "leave", "Back to the lobby", key_display="esc", id="notices.back"),
    ]

    def __init__(self, rooms: RoomClient) -> None:
        super().__init__()
        self.rooms = rooms
        """The setting is read and kept through it, on the server's loop."""

    def compose(self) -> ComposeResult:
        yield Static("Notices while you are away", id="notices-title", markup=False)
        yield Static("", id="notices-now", markup=False)
        yield Static(HELP, id="notices-help", markup=False)
        yield Input(
            placeholder="https://ntfy.sh/your-topic",
            max_length=TARGET_LIMIT,
            id="notices-field",
        )
        yield Static("", id="notices-said", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.ask(())

    @work(exclusive=True, group="notify")
    async def ask(self, words: tuple[str, ...]) -> None:
        """Send `notify WORDS` (none: read the setting) and show what it says."""
        try:
            said, taken = await self.rooms.notify(words)
            now = said if not words else (await self.rooms.notify(()))[0]
        except (StoreError, Refused):
            self.query_one("#notices-said", Static).update(UNREAD)
            return
        except ConnectionError:
            return  # the session ended meanwhile: the app is ending too
        self.query_one("#notices-now", Static).update(now)
        if words:
            self.query_one("#notices-said", Static).update(said)
            if taken:
                self.query_one("#notices-field", Input).value = ""

    @on(Input.Submitted, "#notices-field")
    def submitted(self, event: Input.Submitted) -> None:
        words = tuple(event.value.split())
        if words:
            self.ask(words)

    def action_leave(self) -> None:
        self.dismiss(None)
