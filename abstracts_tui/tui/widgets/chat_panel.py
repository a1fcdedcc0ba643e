"""A room's chat on screen: the lines said, the newest kept in view, and a line to type.

Every line is drawn as `rich.text.Text` built from the cleaned line (`rooms.chat`), never
as markup: `[bold]` typed is `[bold]` shown; a line wider than the panel is wrapped with
its speaker starting every row (`rooms.chat.rows`). A watcher's line is marked
`(watching)`; a player may hide the watchers' lines (ctrl+t) and show them again, none
lost. The line typed is sent by the `send` given (the room's gateway: it answers the
refusal's sentence, or None once the line is said); a refused line stays in the field,
to be sent again. With `mutes` (`tui.chat_mute`), `/mute NAME` typed hides NAME's chat
(the lines shown already at once) instead of being said, `/unmute NAME` shows it again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog, Static

from ...commands import CHAT_LIMIT
from ...rooms.chat import KEPT, Chat, ChatLine, rows
from ..chat_mute import ChatMutes

Send = Callable[[str], Awaitable[str | None]]
"""Sends a line typed: the sentence saying why it was refused, or None once said."""


def line_text(line: ChatLine, width: int) -> Text:
    """`ann: hi` with the name in bold, `carol (watching): hi` for a watcher: literal,
    wrapped to `width` cells with the speaker (dim) starting each row after the first, so
    that no row reads as another person's line."""
    text = Text()
    said = f"{line.by} (watching): " if line.watcher else f"{line.by}: "
    for number, (prefix, words) in enumerate(rows(line.text, width, said, said)):
        if number:
            text.append("\n")
            text.append(prefix, style="dim")
        else:
            text.append(prefix[: len(line.by)], style="bold")
            text.append(prefix[len(line.by) : -2], style="dim")
            text.append(prefix[-2:])
        text.append(words)
    return text


def status_text(line: ChatLine, width: int, then: str) -> str:
    """`ann: hi (; opens the chat)`, `then` in the brackets, for a status line `width`
    cells wide: the line cut to fit one row (the cut marked `…`), so that no part of it
    starts a row of its own, where it would read as the screen's own words."""
    said = f"{line.by}: "
    room = width - cell_len(said) - cell_len(then) - 3
    text = line.text
    if width > 0 and cell_len(text) > room:
        text = set_cell_size(text, max(room - 1, 0)).rstrip() + "…"
    return f"{said}{text} ({then})"


class ChatPanel(Vertical):
    """A room's chat: its lines and a field to type a line into."""

    DEFAULT_CSS = """
    ChatPanel {
        height: 1fr;
        border: round $border-blurred;
        border-title-style: bold;
    }
    ChatPanel:focus-within {
        border: round $border;
    }
    ChatPanel #chat-lines {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
    }
    ChatPanel #chat-status {
        height: auto;
        color: $text-muted;
    }
    ChatPanel #chat-status.-refused {
        color: $text-error;
    }
    ChatPanel #chat-input {
        height: 1;
    }
    """

    BINDINGS = [
        Binding("ctrl+t", "toggle_watchers", "Watchers' chat", id="chat.watchers"),
        Binding("escape", "leave", "Back to the game", key_display="esc", id="chat.leave"),
        Binding("pageup", "scroll(-1)", "Older lines", show=False, id="chat.older"),
        Binding("pagedown", "scroll(1)", "Newer lines", show=False, id="chat.newer"),
    ]

    class Left(Message):
        """The person leaves the chat line (Escape): the keys go back to the game."""

    class Heard(Message):
        """A line was said in the room (posted from whichever app said it)."""

        def __init__(self, line: ChatLine) -> None:
            super().__init__()
            self.line = line

    def __init__(
        self,
        chat: Chat,
        send: Send,
        *,
        hideable: bool,
        id: str | None = None,
        mutes: ChatMutes | None = None,
    ) -> None:
        """The chat `chat`, lines typed sent by `send`; `hideable`: a player's panel,
        which may hide the watchers' lines; `mutes`: the people muted from it."""
        super().__init__(id=id)
        self.chat = chat
        self.send = send
        self.mutes = mutes
        self.hideable = hideable
        self.watchers_hidden = False
        self.lines: deque[ChatLine] = deque(maxlen=KEPT)
        """The lines as this panel has been told them (the chat's own may be ahead, by
        lines whose messages are on their way here)."""
        self.border_title = "Chat"

    def compose(self) -> ComposeResult:
        # Wrapped to the panel's width (RichLog's default lays lines out 78 wide at least).
        yield RichLog(id="chat-lines", markup=False, wrap=True, auto_scroll=True, min_width=10)
        yield Static("", id="chat-status", markup=False)
        yield Input(
            id="chat-input",
            max_length=CHAT_LIMIT,
            compact=True,
            placeholder=f"Say something (Enter sends, at most {CHAT_LIMIT} characters)",
        )

    def on_mount(self) -> None:
        self.lines.extend(self.chat.lines)
        self.hearing = self.chat.listeners.subscribe(self._heard)
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()  # the lines wrapped again to the new width

    def on_unmount(self) -> None:
        self.hearing.close()

    def _heard(self, line: ChatLine) -> None:
        # Called by whichever app (SSH connection) said the line: post, so that this
        # panel's own app draws it.
        self.post_message(self.Heard(line))

    @staticmethod
    def _write(log: RichLog, line: ChatLine) -> None:
        # Wrapped here to the log's own width, each row with its speaker: RichLog measures
        # a line against the app's console, which need not be the terminal's width.
        # Before its size is known (0) it is drawn again once it has one (on_resize).
        width = log.scrollable_content_region.width
        log.write(line_text(line, width or log.min_width), width=width or None)

    def shown(self, line: ChatLine) -> bool:
        if self.mutes is not None and self.mutes.hides(line.by):
            return False
        return not (line.watcher and self.watchers_hidden)

    def redraw(self) -> None:
        """Every line kept, as shown now, the newest in view."""
        log = self.query_one("#chat-lines", RichLog)
        log.clear()
        for line in self.lines:
            if self.shown(line):
                self._write(log, line)
        hidden = sum(1 for line in self.lines if line.watcher)
        if self.watchers_hidden:
            self.say(f"Watchers' lines hidden ({hidden}): ctrl+t shows them.")
        elif not self.lines:
            self.say("Nothing said yet." if self.hideable else "Nothing said yet. You watch.")
        else:
            self.say("")

    @on(Heard)
    def _draw_heard(self, event: Heard) -> None:
        self.lines.append(event.line)
        if self.shown(event.line):
            self._write(self.query_one("#chat-lines", RichLog), event.line)
            if not self.watchers_hidden:
                self.say("")
        else:
            self.redraw()  # the count of hidden lines

    def say(self, text: str, refused: bool = False) -> None:
        status = self.query_one("#chat-status", Static)
        status.update(text)
        status.set_class(refused, "-refused")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.hideable if action == "toggle_watchers" else True

    def action_leave(self) -> None:
        self.post_message(self.Left())

    def action_toggle_watchers(self) -> None:
        self.watchers_hidden = not self.watchers_hidden
        self.redraw()

    def action_scroll(self, pages: int) -> None:
        log = self.query_one("#chat-lines", RichLog)
        log.scroll_page_down() if pages > 0 else log.scroll_page_up()

    @on(Input.Submitted, "#chat-input")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self._send(event.value)

    @work(group="chat-send")
    async def _send(self, text: str) -> None:
        field = self.query_one("#chat-input", Input)
        if self.mutes is not None and self.mutes.asked(text):
            said, refused = await self.mutes.answer(text)
            self.redraw()  # the lines of whoever was muted hidden, or shown again
            self.say(said, refused=refused)
            if not refused and field.value == text:
                field.value = ""
            return
        refusal = await self.send(text)
        if refusal is not None:
            self.say(refusal, refused=True)  # the line stays in the field
        elif field.value == text:
            field.value = ""
            self.say("")
