"""A line naming a few of the screen's keys and what they open, as they are bound now:
for keys that a narrow key bar has no room for (the home screen's recent games and
settings at 80 columns)."""

from __future__ import annotations

from collections.abc import Mapping

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ..keymaps import spoken


class KeyNames(Static):
    """`ctrl+g recent games   F2 settings`: the keys of the bindings `names` gives by id,
    each with its words, in that order; hidden when the screen has none of them. It
    follows the screen's bindings, so a key given in the settings is named as given."""

    DEFAULT_CSS = """
    KeyNames {
        height: auto;
        padding: 0 1;
        color: $text-muted;
    }
    """

    def __init__(self, names: Mapping[str, str], *, id: str | None = None) -> None:
        super().__init__("", markup=False, id=id)
        self.names = dict(names)
        self.said: tuple[tuple[str, str], ...] = ()
        """The keys named now, with their words."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (self.is_attached and screen is self.screen):
            return
        keys: dict[str, str] = {}
        for active in screen.active_bindings.values():
            binding = active.binding
            if binding.id in self.names and binding.id not in keys:
                keys[binding.id] = spoken(self.app, binding.key, binding)
        said = tuple((keys[name], words) for name, words in self.names.items() if name in keys)
        if said != self.said:
            self.said = said
            self.display = bool(said)
            self.update(self.laid_out())

    def on_resize(self) -> None:
        self.update(self.laid_out())

    def laid_out(self) -> Content:
        """The keys with their words, three spaces apart, a row broken between two of
        them (never inside one) where the next would not fit the width."""
        width = self.content_region.width or 1_000
        parts: list[str | tuple[str, str]] = []
        column = 0
        for key, words in self.said:
            length = len(key) + 1 + len(words)
            if column and column + 3 + length > width:
                parts.append("\n")
                column = 0
            elif column:
                parts.append("   ")
                column += 3
            parts += [(key, "bold"), f" {words}"]
            column += length
        return Content.assemble(*parts)
