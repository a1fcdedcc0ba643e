"""The help screen: the rules of one game (or all five), the notation and the keys."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
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


SIDEWAYS = {"scroll_left", "scroll_right", "page_left", "page_right"}
"""Textual's sideways scrolling keys, which do nothing where a widget is not wider than
its room (the help leaves them out there)."""
FOCUS = {"app.focus_next", "app.focus_previous", "focus_next", "focus_previous"}
"""Textual's Tab and shift+Tab, which do nothing where one widget or none takes the focus."""


DESCRIBED = {"command_palette": "Palette: themes, ASCII, the keys in force, settings"}
"""Textual's own bindings described as the app's help names them (`palette`, said plainly)."""


def screen_keys(app: App[Any], screen: Screen[object], left_out: set[str]) -> dict[str, list[str]]:
    """The keys that act on `screen` now, by what they do (but `left_out`'s actions):
    each key once, as the footer names it (`?`, `F1`), not those that would do nothing
    there (Tab with one place for the focus, sideways scrolling of what is not wider)."""
    grouped: dict[str, list[str]] = {}
    focusable = len(screen.focus_chain)
    ahead = priority_bindings(app, screen)
    for key, active in screen.active_bindings.items():
        binding, node = ahead.get(key, (active.binding, active.node))
        if not binding.description or binding.action in left_out:
            continue
        if binding.action in FOCUS and focusable < 2:
            continue
        if binding.action in SIDEWAYS and isinstance(node, Widget) and node.max_scroll_x == 0:
            continue
        display = app.get_key_display(binding)
        plain = app.get_key_display(Binding(key, ""))
        plain = plain.upper() if re.fullmatch(r"f\d+", plain) else plain  # F1, as the footer
        # A key_display names the binding's first keys; a further key (F1 beside ?) its own.
        name = display if plain.lower() in display.lower().split("/") else plain
        described = DESCRIBED.get(binding.action, binding.description)
        shown = grouped.setdefault(described, [])
        if not any(name in already.split("/") or name == already for already in shown) and not any(
            plain in already.split("/") for already in shown
        ):
            shown.append(name)
    return {description: shown for description, shown in grouped.items() if shown}


def priority_bindings(app: App[Any], screen: Screen[object]) -> dict[str, tuple[Binding, DOMNode]]:
    """The priority bindings of `screen` and `app` that act now, by key (with the keymap's
    keys): they run before the focused widget's binding of the same key (`s` swaps at the
    pie rule's question out of sight, where the board's `s` is Down)."""
    from ..keymaps import bindings_of, keys_of

    keymap: dict[str, str] = getattr(getattr(app, "settings", None), "keymap", {})
    found: dict[str, tuple[Binding, DOMNode]] = {}
    for node in (app, screen):  # the screen's ahead of the app's, as Textual runs them
        for binding in bindings_of(type(node), own=True):
            if not binding.priority:
                continue
            action = binding.action.partition("(")[0]
            if node.check_action(action, ()) is not True:
                continue
            keys = keymap.get(binding.id or "", binding.key)
            for key in keys_of(Binding(keys, "")):
                found[key] = (binding, node)
    return found


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
