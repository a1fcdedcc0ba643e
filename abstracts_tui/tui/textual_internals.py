"""The few parts of Textual used that are not its public API, in one place (pyproject.toml
bounds Textual's version for them)."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer


def compose_frame(screen: Screen[object]) -> None:
    """Compose the whole screen as a frame would be (the app's speed bench times it)."""
    screen._compositor.render_update(full=True)


class SteadyFooter(Footer):
    """Textual's footer, built again only when the keys it shows change.

    Textual's footer mounts all its keys afresh whenever the screen's bindings may have
    changed (every focus change, every `refresh_bindings`); over SSH, with dozens of
    screens on one loop, that restyling was most of what a move cost the server.
    """

    _shown: tuple[tuple[Binding, bool, str], ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            shown = tuple(
                (binding, enabled, tooltip)
                for _, binding, enabled, tooltip in screen.active_bindings.values()
                if binding.show
            )
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)
