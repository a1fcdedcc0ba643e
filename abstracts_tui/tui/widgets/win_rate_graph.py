"""The graph of analysis mode: the first colour's win rate (or, toggled, its expected
lead in points) at each position of the line shown, the position shown in reverse video,
the move numbers below; a click on a column goes to that move, and the mouse over one
names its move and figure."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..analysis_view import graph_start, graph_text, percent, scale_text

NARROWEST = 10
"""Columns the graph keeps at least (a panel narrower than that scrolls)."""


class WinRateGraph(Widget):
    """A title, one column per position (as many as fit), and the move numbers."""

    DEFAULT_CSS = """
    WinRateGraph { height: 3; }
    """

    class Chosen(Message):
        """A column was clicked: show the position after move `number` of the line."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.title = ""
        self.values: list[float | None] = []
        self.current = 0
        self.ascii = False
        self.figures: list[str] = []
        """Each position's figure in words, for the tooltip (the win rate's by default)."""

    def show(
        self,
        title: str,
        values: Sequence[float | None],
        current: int,
        *,
        ascii: bool,
        figures: Sequence[str] | None = None,
    ) -> None:
        """`values` (0 to 1) from the start (position 0) on, the position `current`
        marked; `figures` says each in words (else as a percentage)."""
        said = (
            list(figures)
            if figures is not None
            else ["not evaluated yet" if value is None else percent(value) for value in values]
        )
        shown = (title, list(values), current, ascii, said)
        if shown != (self.title, self.values, self.current, self.ascii, self.figures):
            self.title, self.values, self.current, self.ascii, self.figures = shown
            self.refresh()

    @property
    def columns(self) -> int:
        return max(NARROWEST, self.size.width)

    def start(self) -> int:
        """The position in the first column."""
        return graph_start(len(self.values), self.current, self.columns)

    def render(self) -> Text:
        bars, column = graph_text(self.values, self.current, self.columns, ascii=self.ascii)
        text = Text(f"{self.title}\n")
        text.append(bars)
        if column >= 0:  # the position shown, in reverse video
            at = len(text) - len(bars) + column
            text.stylize("reverse", at, at + 1)
        text.append("\n" + scale_text(self.start(), len(bars)), style="dim")
        return text

    def number_at(self, x: int) -> int | None:
        """The move number of column `x`; None past the last position."""
        number = self.start() + x
        return number if x >= 0 and number < len(self.values) else None

    def on_click(self, event: events.Click) -> None:
        number = self.number_at(event.x)
        if number is not None:
            self.post_message(self.Chosen(number))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        number = self.number_at(event.x)
        if number is None:
            self.tooltip = None
            return
        self.tooltip = f"Move {number}: {self.figures[number]}. A click goes there."
