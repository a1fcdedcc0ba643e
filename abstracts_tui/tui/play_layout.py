"""How the play screen fits a terminal: the full layout (the board and the side panel),
or the compact view (the board alone, with what room is left), or a note that the
terminal is too small. Plain functions of sizes, and `Layout`, which turns them into the
screen's CSS classes (`play.tcss`) and fits the board to what is left."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from ..session import Session
from .widgets.board import BoardView
from .widgets.board_view import EDGES
from .widgets.pie_question import PieQuestion
from .widgets.summary_line import SummaryLine

PANEL_WIDTH = 30
"""Columns the side panel needs at least (its border included)."""
CHROME_LINES = 2
"""Lines below the board: the status (or move) line and the footer."""
COMPACT_DROPS = ("top", "keys", "message", "bottom")
"""What the compact view leaves out, in this order, while the terminal is too short for
it: the coordinates above the board, the footer, the status line, the coordinates below
the board. The board's rows and the summary line stay."""


@dataclass(frozen=True)
class Fit:
    """What a terminal has room for: the full layout, or the compact view keeping `kept`
    (of `COMPACT_DROPS`)."""

    compact: bool
    kept: frozenset[str]

    @property
    def chrome(self) -> int:
        """Lines the board leaves for what is below it."""
        if not self.compact:
            return CHROME_LINES + 1
        return 1 + ("message" in self.kept) + ("keys" in self.kept)

    @property
    def classes(self) -> dict[str, bool]:
        """The screen's classes for this fit (`play.tcss` styles them)."""
        compact = self.compact
        return {
            "-compact": compact,
            "-no-keys": compact and "keys" not in self.kept,
            "-no-message": compact and "message" not in self.kept,
        }


def fit(size: tuple[int, int], board: tuple[int, int]) -> Fit:
    """How a terminal of `size` holds a board that needs `board` with its coordinates."""
    width, height = size
    board_height = board[1]
    full_width, full_height = full_size(board)
    full = width >= full_width and height >= full_height
    kept = set(COMPACT_DROPS)
    if not full:
        need = board_height + 3  # the summary, the status line and the footer
        for part in COMPACT_DROPS:
            if height >= need:
                break
            kept.discard(part)
            need -= 1
    return Fit(not full, frozenset(kept))


def least_size(bare: tuple[int, int]) -> tuple[int, int]:
    """The least terminal the game can be played in, for a board that needs `bare`
    without its coordinates: the compact view's, the board's rows and the summary line."""
    return bare[0] + 2, bare[1] + 1


def full_size(board: tuple[int, int]) -> tuple[int, int]:
    """The least terminal for the full layout, for a board that needs `board` with its
    coordinates: the board and the side panel."""
    return board[0] + PANEL_WIDTH, max(board[1], 12) + CHROME_LINES


def too_small_text(
    size: tuple[int, int], bare: tuple[int, int], board: tuple[int, int]
) -> str | None:
    """What a terminal of `size` is told where it is too small for the board (which needs
    `bare` without its coordinates, `board` with them); None where it is not."""
    least, full = least_size(bare), full_size(board)
    if size[0] >= least[0] and size[1] >= least[1]:
        return None
    return (
        f"The terminal is too small for this board.\n\n"
        f"It needs {least[0]} x {least[1]} characters for the board alone "
        f"({full[0]} x {full[1]} with the side panel); this one is "
        f"{size[0]} x {size[1]}.\n\n"
        f"Enlarge the window (or choose a smaller board with n).\n"
        f"The game is kept: nothing is lost."
    )


class LayoutHost(Protocol):
    """The play screen, as its layout sees it."""

    session: Session
    board: BoardView
    summary: SummaryLine
    too_small: Static
    pie: PieQuestion

    @property
    def size(self) -> Size: ...

    @property
    def analysing(self) -> bool: ...

    def set_class(self, add: bool, *class_names: str, update: bool = True) -> Any: ...

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...

    def refresh_bindings(self) -> None: ...

    def refuse(self, reason: str | None) -> None: ...

    def say_pie(self) -> None: ...


class Layout:
    """The layout of one play screen (`host`) in its terminal."""

    def __init__(self, host: LayoutHost) -> None:
        self.host = host
        self.compact = False
        """Whether the terminal is too small for the side panel beside the board: the
        board alone, with a summary line."""
        self.kept: frozenset[str] = frozenset()
        """What the compact view has room for (of `COMPACT_DROPS`)."""
        self.panel_wanted = False
        """Whether the side panel is asked for in the compact view (`i`)."""

    def lay_out(self) -> None:
        """The full layout (the board and the side panel) where it fits; else the compact
        view, the board alone with what room is left, and the side panel beside it when
        asked for (`i`) and there is room; else a note. All of it classes of the screen."""
        host = self.host
        board, (width, height) = host.board, host.size
        fitted = fit((width, height), board.size_needed(1, EDGES))
        self.kept = fitted.kept
        if fitted.compact != self.compact:
            self.compact = fitted.compact
            host.refresh_bindings()  # `i` is the compact view's
        panel = self.panel_shown
        bare, edged = board.size_needed(1, frozenset()), board.size_needed(1, EDGES)
        small = too_small_text((width, height), bare, edged)
        classes = {**fitted.classes, "-with-panel": panel, "-too-small": small is not None}
        for name, on in classes.items():
            host.set_class(on, name)
        if small is not None:
            host.too_small.update(small)
        if host.pie.asked:  # its keys go with it, or to the screen where it is hidden
            host.set_focus(host.pie if panel else board)
            host.say_pie()
        # The board as large as fits; beside the panel, the panel takes the rest.
        room = width - (PANEL_WIDTH if panel else 0) - 2
        board.fit(room, height - fitted.chrome, frozenset(fitted.kept & EDGES))
        self.show_summary()

    def panel_width(self) -> int:
        """Columns the board and the side panel need side by side."""
        return self.host.board.size_needed(1, self.host.board.edges)[0] + PANEL_WIDTH

    @property
    def panel_shown(self) -> bool:
        """Whether the side panel is shown (always in the full layout)."""
        room = self.host.size.width >= self.panel_width()
        return not self.compact or (self.panel_wanted and room)

    def toggle_panel(self) -> None:
        """The side panel beside the board in the compact view, or not, where it fits."""
        if self.host.size.width < self.panel_width():
            self.host.refuse(f"No room for the panel: it needs {self.panel_width()} columns.")
            return
        self.panel_wanted = not self.panel_wanted
        self.lay_out()

    def show_summary(self) -> None:
        """The compact view's summary line, as the game stands."""
        if self.compact:
            host = self.host
            # Without the column letters, the cursor's cell is how a cell is named.
            lettered = "bottom" in self.kept or "top" in self.kept
            host.summary.show(
                host.session, host.board.cursor, analysing=host.analysing, cursor_first=not lettered
            )
