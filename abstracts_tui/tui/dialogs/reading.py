"""A text to read, whole, in a box that scrolls by keys: the count of a game, what was
wrong in the settings file. Nothing is cut however small the terminal: what does not fit
scrolls, and the footer says how."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from .base import Dialog


class ReadingDialog(Dialog[None]):
    """`text` under `title`; arrows and PgUp/PgDn scroll it, Esc or Enter closes it."""

    BINDINGS = [
        Binding("up,k", "scroll(-1)", "Scroll", key_display="↑/k", id="reading.up", show=False),
        Binding("down,j", "scroll(1)", "Scroll", key_display="↑↓", id="reading.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="reading.page_up"),
        Binding("pagedown,space", "page(1)", "Page", key_display="PgUp/PgDn", id="reading.page"),
        Binding("escape,enter,q", "close", "Close", key_display="esc/enter", id="reading.close"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(title)
        self.text = text

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="reading-scroll", can_focus=False):
            yield Static(self.text, id="reading-text", markup=False)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#reading-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        scroll = self.query_one("#reading-scroll", VerticalScroll)
        if pages < 0:
            scroll.scroll_page_up(animate=False)
        else:
            scroll.scroll_page_down(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
