"""Text shown in a `Static` with as little of Textual's work as the change needs.

`Static.update` lays the whole screen out again by default, which is most of what a key
costs when the play screen's status line or panel changes with it (over SSH, for every
screen on the server's one loop). The same text is not shown again, and a text that
takes as many lines as the one before is repainted in place.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


def show_text(widget: Static, text: str | Text) -> None:
    """Show `text` in `widget`; lay the screen out again only if its height changes."""
    if type(widget.content) is type(text) and widget.content == text:
        return
    size = widget.content_size
    widget.update(text, layout=False)
    widget.clear_cached_dimensions()
    if not widget.display:
        return  # shown again, it is laid out then
    if not size.width or widget.get_content_height(size, size, size.width) != size.height:
        widget.refresh(layout=True)
