"""The few parts of Textual used that are not its public API, in one place (pyproject.toml
bounds Textual's version for them)."""

from __future__ import annotations

from textual.screen import Screen


def compose_frame(screen: Screen[object]) -> None:
    """Compose the whole screen as a frame would be (the app's speed bench times it)."""
    screen._compositor.render_update(full=True)
