"""The help screen: the rules of one game (or all five), the notation and the keys."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from ...rules import GAMES
from ..rules_text import NOTATION, RULES
from ..widgets.key_bar import KeyBar

_HEAD = re.compile(r"^([A-Z][\w ()]*:)")
"""A section head at the start of a paragraph, e.g. `Aim:` or `Pie rule (standard game):`."""


@dataclass(frozen=True)
class Block:
    """A paragraph or a list item of a rules text, with its lines joined."""

    text: str
    item: bool = False


def blocks(text: str) -> list[Block]:
    """Split a rules text into paragraphs and list items so the screen can rewrap them.

    A line starting with `- ` opens a list item and indented lines continue it; a blank
    line, or an unindented line after an item, opens a new paragraph.
    """
    found: list[Block] = []
    lines: list[str] = []
    item = False

    def close() -> None:
        if lines:
            found.append(Block(" ".join(lines), item))
            lines.clear()

    for line in text.splitlines():
        if not line.strip():
            close()
        elif line.startswith("- "):
            close()
            item = True
            lines.append(line[2:].strip())
        elif line.startswith("  ") and item and lines:
            lines.append(line.strip())
        else:
            if item:
                close()
                item = False
            lines.append(line.strip())
    close()
    return found


def styled(text: str) -> Content:
    """The text with its section head, if any, in bold."""
    match = _HEAD.match(text)
    if match is None:
        return Content(text)
    return Content.assemble((match.group(1), "bold"), text[match.end() :])


def rules_widgets(text: str) -> list[Widget]:
    """One widget per paragraph or list item (items get a hanging bullet)."""
    widgets: list[Widget] = []
    for block in blocks(text):
        if block.item:
            widgets.append(
                Horizontal(
                    Static("-", classes="help-bullet"),
                    Static(styled(block.text), classes="help-item-text"),
                    classes="help-item",
                )
            )
        else:
            widgets.append(Static(styled(block.text), classes="help-para"))
    return widgets


def keys_table(keys: list[tuple[str, str]]) -> Table:
    """A two-column table of keys and what they do."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, description in keys:
        table.add_row(Text(key), Text(description))  # `[` is a key, not markup
    return table


class HelpScreen(ModalScreen[None]):
    """The rules of `game` (all five games when it is None) and a table of `keys`.

    `keys` are (key, description) pairs that the caller builds from its own bindings,
    so the help always matches the footer. Escape, `q` or `?` closes it.
    """

    CSS_PATH = "help.tcss"
    BINDINGS = [
        Binding("up,k", "scroll(-1)", "Scroll", key_display="↑/k", id="help.up", show=False),
        Binding("down,j", "scroll(1)", "Scroll", key_display="↑↓/jk", id="help.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="help.page_up"),
        Binding("pagedown,space", "page(1)", "Page", key_display="PgUp/PgDn", id="help.page"),
        Binding("escape,q,question_mark", "close", "Close", key_display="esc/q/?", id="help.close"),
    ]

    def __init__(self, game: str | None, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.game = game
        self.keys = list(keys)

    def compose(self) -> ComposeResult:
        names = list(GAMES) if self.game is None else [self.game]
        with Vertical(id="help-box") as box:
            box.border_title = (
                "Help: the five games"
                if self.game is None
                else f"Help: {GAMES[self.game].info.title}"
            )
            with VerticalScroll(id="help-scroll"):
                for name in names:
                    yield Static(GAMES[name].info.title, classes="help-title")
                    yield from rules_widgets(RULES[name])
                yield Static("Notation", classes="help-title")
                yield from rules_widgets(NOTATION)
                yield Static("Keys", classes="help-title")
                yield Static(keys_table(self.keys), id="help-keys")
        yield KeyBar()

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        scroll = self.query_one("#help-scroll", VerticalScroll)
        if pages < 0:
            scroll.scroll_page_up(animate=False)
        else:
            scroll.scroll_page_down(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
