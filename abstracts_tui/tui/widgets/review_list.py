"""The game review's list in the analysis panel: its progress while it runs, then each
person's accuracy and biggest mistakes (words from `tui/review_view.py`)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

from .steady_text import show_text


class ReviewList(VerticalScroll):
    """The review or its progress; a long one scrolls rather than push the move list out
    of the panel."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, can_focus=False)

    def compose(self) -> ComposeResult:
        yield Static(id="review", markup=False)

    def show(self, review: Text | str | None) -> None:
        """Show `review` (None: hide the list)."""
        self.set_class(review is None, "-hidden")
        if review is not None:
            show_text(self.query_one("#review", Static), review)

    def bring_into_view(self, line: int | None) -> None:
        """Bring the list into view in the nearest container that scrolls (the panel of a
        small terminal shows only part of it), at `line` of it if given."""

        def scroll() -> None:
            if line is not None:  # within the list, where it is cut short; three lines,
                # as a narrow panel wraps a line or two above it
                self.scroll_to_region(Region(0, line, 1, 3), animate=False, immediate=True)
            scrolling = (a for a in self.ancestors if a.styles.overflow_y in ("auto", "scroll"))
            container = next(scrolling, None)
            if isinstance(container, Widget):
                container.scroll_to_widget(self, animate=False, immediate=True)

        self.screen.call_after_refresh(scroll)
