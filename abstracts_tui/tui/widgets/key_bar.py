"""The screen's keys on one line, as Textual's footer shows them, drawn by one widget."""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import NamedTuple

from rich.cells import cell_len
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.style import Style
from textual.widget import Widget


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

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.call_after_refresh(self.bindings_changed, self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            return
        keys = [
            (binding, enabled)
            for _, binding, enabled, _ in screen.active_bindings.values()
            if binding.show
        ]
        if keys != self._keys:
            self._keys = keys
            self.refresh()

    def render(self) -> Content:
        key_style = self.get_visual_style("key-bar--key")
        text_style = self.get_visual_style("key-bar--description")
        dim = Style(dim=True)
        parts: list[str | tuple[str, Style]] = []
        self._shown = []
        column = 0

        def add(text: str, style: Style | None = None, enabled: bool = True) -> None:
            nonlocal column
            parts.append(text if style is None else (text, style if enabled else style + dim))
            column += cell_len(text)

        def add_key(binding: Binding, enabled: bool, description: str = "") -> None:
            """A key, and its description if it has one: a click on either presses it."""
            start = column
            if description:
                add(f" {self.app.get_key_display(binding)} ", key_style, enabled)
                add(f"{description} ", text_style, enabled)
            else:
                add(self.app.get_key_display(binding), key_style, enabled)
            self._shown.append(Shown(start, column, binding.key, enabled))

        by_action: defaultdict[str, list[tuple[Binding, bool]]] = defaultdict(list)
        for binding, enabled in self._keys:
            by_action[binding.action].append((binding, enabled))
        for group, actions in groupby(by_action.values(), lambda keys: keys[0][0].group):
            same = [keys[0] for keys in actions]
            if group is not None and len(same) > 1:
                # As the footer's key groups: the keys between single spaces, then the
                # group's name.
                add(" ")
                for binding, enabled in same:
                    add_key(binding, enabled)
                    add(" ")
                add(group.description, text_style)
                add(" ")
            else:
                for binding, enabled in same:
                    add_key(binding, enabled, binding.description)
        return Content.assemble(*parts)

    def on_click(self, event: events.Click) -> None:
        for shown in self._shown:
            if shown.start <= event.x < shown.end:
                if shown.enabled:
                    self.app.simulate_key(shown.key)
                else:
                    self.app.bell()
                return
