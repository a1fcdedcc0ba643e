"""The screen's keys on one line, as Textual's footer shows them, drawn by one widget."""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import NamedTuple

from rich.cells import cell_len
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.keys import key_to_character
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

from ..textual_internals import component_styling

KEPT = {"help", "quit", "toggle_panel"}
"""The actions whose keys the bar shows however narrow it is (others are left out from
the last): how to get help, how to leave, and how to see the panel that a small
terminal's compact view hides."""
SPARED = {"settings"}
"""The actions whose keys are left out first where the bar is too narrow (the help and
the palette name them too)."""
KEPT_DRAWINGS = 4
"""How many of the bar's last drawings (one for each set of keys and width) are kept."""


class Shown(NamedTuple):
    """A key as drawn: its columns (from `start`, up to `end`), the key it stands for, and
    whether it may be pressed now."""

    start: int
    end: int
    key: str
    enabled: bool


class KeyBar(Widget):
    """Every screen's footer: the same keys, groups and colours as Textual's `Footer`,
    drawn by one widget where the footer mounts one per key (and builds them again as the
    keys change: over SSH, with dozens of screens on one loop, that was most of what a
    move cost the server, and each of them is drawn again with every frame). A click on a
    key presses it, on a disabled one rings the bell."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        text-wrap: nowrap;
        text-overflow: clip;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._keys: list[tuple[Binding, bool]] = []
        self._shown: list[Shown] = []
        self._drawn: dict[tuple[object, ...], tuple[Strip, list[Shown]]] = {}
        """The line drawn for each of the last sets of keys, with where each key is."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.call_after_refresh(self.bindings_changed, self.screen)

    def on_resize(self) -> None:
        self.refresh()  # which keys fit

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            return
        # A screen that takes typed text itself (the play screen's move line) leaves out
        # the keys of the characters it takes, as Textual does above a focused field.
        consumes = screen.check_consume_key
        keys = [
            (binding, enabled)
            for key, (_, binding, enabled, _) in screen.active_bindings.items()
            if binding.show and not consumes(key, key_to_character(key))
        ]
        if keys != self._keys:
            self._keys = keys
            self.refresh()

    def render_line(self, y: int) -> Strip:
        """The bar's line, drawn once for each set of keys it shows: the move line's `:`
        and Enter go from one set to another and back, at every typed move."""
        state = (tuple(self._keys), self.size.width, y, component_styling(self))
        drawn = self._drawn.get(state)
        if drawn is None:
            drawn = (super().render_line(y), self._shown)  # `render` finds `_shown`
            if len(self._drawn) >= KEPT_DRAWINGS:
                del self._drawn[next(iter(self._drawn))]
            self._drawn[state] = drawn
        self._shown = drawn[1]
        return drawn[0]

    def render(self) -> Content:
        key_style = self.get_visual_style("key-bar--key")
        text_style = self.get_visual_style("key-bar--description")
        dim = Style(dim=True)
        # Each shown key (or group of keys) as a piece: its texts, the keys it stands
        # for with their columns from its start, and whether it stays however narrow.
        pieces: list[tuple[list[str | tuple[str, Style]], list[Shown], int]] = []

        def piece(kept: int = 1) -> tuple[list[str | tuple[str, Style]], list[Shown]]:
            parts: list[str | tuple[str, Style]] = []
            shown: list[Shown] = []
            pieces.append((parts, shown, kept))
            return parts, shown

        def add(
            parts: list[str | tuple[str, Style]],
            text: str,
            style: Style | None = None,
            enabled: bool = True,
        ) -> None:
            parts.append(text if style is None else (text, style if enabled else style + dim))

        def add_key(binding: Binding, enabled: bool, description: str = "") -> None:
            """A key, and its description if it has one: a click on either presses it."""
            start = sum(cell_len(p if isinstance(p, str) else p[0]) for p in parts)
            if description:
                add(parts, f" {self.app.get_key_display(binding)} ", key_style, enabled)
                add(parts, f"{description} ", text_style, enabled)
            else:
                add(parts, self.app.get_key_display(binding), key_style, enabled)
            end = sum(cell_len(p if isinstance(p, str) else p[0]) for p in parts)
            shown.append(Shown(start, end, binding.key, enabled))

        by_action: defaultdict[str, list[tuple[Binding, bool]]] = defaultdict(list)
        for binding, enabled in self._keys:
            by_action[binding.action].append((binding, enabled))
        for group, actions in groupby(by_action.values(), lambda keys: keys[0][0].group):
            same = [keys[0] for keys in actions]
            if group is not None and len(same) > 1:
                # As the footer's key groups: the keys between single spaces, then the
                # group's name.
                parts, shown = piece()
                add(parts, " ")
                for binding, enabled in same:
                    add_key(binding, enabled)
                    add(parts, " ")
                add(parts, group.description, text_style)
                add(parts, " ")
            else:
                for binding, enabled in same:
                    action = binding.action.rpartition(".")[2]
                    parts, shown = piece(0 if action in KEPT else 2 if action in SPARED else 1)
                    add_key(binding, enabled, binding.description)
        return self.fitted(pieces)

    def fitted(
        self, pieces: list[tuple[list[str | tuple[str, Style]], list[Shown], int]]
    ) -> Content:
        """The pieces in order, while they are wider than the bar those `SPARED` left out
        from the last, then the others but `KEPT` (rank 2, 1 and 0: Help and Quit stay)."""

        def width(parts: list[str | tuple[str, Style]]) -> int:
            return sum(cell_len(part if isinstance(part, str) else part[0]) for part in parts)

        available = self.size.width or sum(width(parts) for parts, _, _ in pieces)
        left = list(pieces)
        while sum(width(parts) for parts, _, _ in left) > available:
            rank = max(p[2] for p in left)
            dropped = next((p for p in reversed(left) if p[2] == rank and rank), None)
            if dropped is None:
                break
            left.remove(dropped)
        self._shown = []
        assembled: list[str | tuple[str, Style]] = []
        column = 0
        for parts, shown, _ in left:
            self._shown += [s._replace(start=s.start + column, end=s.end + column) for s in shown]
            assembled += parts
            column += width(parts)
        return Content.assemble(*assembled)

    def on_click(self, event: events.Click) -> None:
        for shown in self._shown:
            if shown.start <= event.x < shown.end:
                if shown.enabled:
                    self.app.simulate_key(shown.key)
                else:
                    self.app.bell()
                return
