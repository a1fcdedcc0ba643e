"""The board widget's base class: cursor, keys, mouse, and the lines drawn from a canvas.

Each geometry (`square_board.py`, `point_board.py`, `hex_board.py`) says where its cells
go (a `BoardLayout`, `board_layout.py`) and how the cursor steps; `board_paint.py` draws
the cells of a position onto the canvas; everything else is shared here. Styles are
component classes (`board--cursor`, `board--blue`, ...) so that themes and app CSS can
change them; the defaults below keep the two sides apart in 16 colours, and glyphs and
markers keep them apart with no colour at all.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import ClassVar, Self

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...rules import Game, Piece
from ..textual_internals import component_styling
from .board_layout import BoardLayout
from .board_paint import CellPainter, Marks
from .canvas import Canvas, StyleKey
from .glyphs import ASCII, UNICODE, Glyphs

DIRECTIONS = (
    "left",
    "right",
    "up",
    "down",
    "up_left",
    "up_right",
    "down_left",
    "down_right",
)
"""Where `move_cursor` can go; square boards take the diagonals too."""

WOODEN = frozenset({"black", "white"})
"""Colours drawn on a wooden board rather than a dark one."""

MOVE = Binding.Group("Move", compact=True)

ZOOMS = (1, 2, 3)
"""How large a board may be drawn: 1 is the smallest, which fits 80x24 at every size."""

EDGES = frozenset({"top", "bottom"})
"""The lines of coordinates above and below a board: all of them by default; the play
screen's compact view leaves out the top one, then the bottom one, on a short terminal."""


class BoardView(Widget, can_focus=True):
    """Draws a game's board with a cursor; one subclass per geometry.

    Create one with `board_for(game)`, redraw it with `show(...)` after every change, and
    handle `BoardView.Activated` to act on the cell the player chose.
    """

    geometry_kind: ClassVar[str] = ""
    """The `GameInfo.geometry` this class draws."""

    empty_class: ClassVar[str] = "board--empty"
    """The style of an empty cell."""
    territory_lines: ClassVar[bool] = False
    max_zoom: ClassVar[int] = max(ZOOMS)
    """The largest zoom that still reads well for this geometry."""
    """Whether territory marks are Linage's (`↕` / `↔`) rather than small pieces."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,a", "cursor('left')", "Left", id="board.left", group=MOVE, show=False),
        Binding("right,l,d", "cursor('right')", "Right", id="board.right", group=MOVE, show=False),
        Binding("up,k,w", "cursor('up')", "Up", id="board.up", group=MOVE, show=False),
        Binding("down,j,s", "cursor('down')", "Down", id="board.down", group=MOVE, show=False),
        Binding("enter,space", "activate", "Choose", id="board.activate", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--label",
        "board--grid",
        "board--empty",
        "board--block",
        "board--stone",
        "board--blue",
        "board--orange",
        "board--black",
        "board--white",
        "board--vertical",
        "board--horizontal",
        "board--own0",
        "board--own1",
        "board--cancelled",
        "board--fragment",
        "board--free",
        "board--last",
        "board--target",
        "board--selected",
        "board--cursor",
        "board--shade",
    }

    DEFAULT_CSS = """
    BoardView {
        width: auto;
        height: auto;
        background: #1e2430;
        color: #9aa0aa;
    }
    BoardView > .board--label { color: #8a8f99; }
    BoardView > .board--grid { color: #5c6370; }
    BoardView > .board--empty { color: #5c6370; }
    BoardView > .board--block { color: #9aa0aa; }
    BoardView > .board--stone { color: #101010; text-style: bold; }
    BoardView > .board--blue { color: #4da3ff; text-style: bold; }
    BoardView > .board--orange { color: #ffb000; text-style: bold; }
    BoardView > .board--black { color: #101010; text-style: bold; }
    BoardView > .board--white { color: #ffffff; text-style: bold; }
    BoardView > .board--vertical { color: #0a2a5a; text-style: bold; }
    BoardView > .board--horizontal { color: #5a0a0a; text-style: bold; }
    BoardView > .board--own0 { background: #10308a; }
    BoardView > .board--own1 { background: #705000; }
    BoardView > .board--cancelled { background: #3c3c3c; text-style: dim; }
    BoardView > .board--fragment { background: #c0504d; }
    BoardView > .board--free { background: #c9a24a; }
    BoardView > .board--last { background: #3c5a28; text-style: bold underline; }
    BoardView > .board--target { background: #8b2020; text-style: bold; }
    BoardView > .board--selected { background: #1f7a1f; text-style: bold; }
    BoardView > .board--cursor { text-style: bold reverse; }
    BoardView > .board--shade { background: #283040; }

    BoardView.-wood { background: #b8862b; color: #3a2a10; }
    BoardView.-wood > .board--label { color: #3a2a10; }
    BoardView.-wood > .board--grid { color: #5a3e12; }
    BoardView.-wood > .board--empty { color: #6b4e1f; }
    BoardView.-wood > .board--own0 { background: #4aa0b0; }
    BoardView.-wood > .board--own1 { background: #c87060; }
    BoardView.-wood > .board--cancelled { background: #8a7a60; }
    BoardView.-wood > .board--last { background: #d8b860; }
    BoardView.-wood > .board--shade { background: #a87a26; }
    """

    cursor: reactive[int] = reactive(0, repaint=False)
    """The dense cell index under the cursor (see `rules/geometry.py`)."""

    class Activated(Message):
        """The player chose `cell`: Enter or Space on the cursor, or a click."""

        def __init__(self, board: BoardView, cell: int) -> None:
            super().__init__()
            self.board = board
            self.cell = cell

        @property
        def control(self) -> BoardView:
            """The board the cell belongs to (lets `@on` match a board's id)."""
            return self.board

    def __init__(
        self,
        game: Game,
        *,
        ascii: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.ascii = ascii
        self.choosing = True
        """Whether Enter, Space and clicks choose cells (not for a watcher)."""
        self.glyphs: Glyphs = ASCII if ascii else UNICODE
        self._check(game)
        self._game = game
        self._zoom = 1
        self._edges = EDGES
        self._layout = self._layout_for(game, 1)
        self._pieces: list[Piece | None] = []
        self._marks = Marks()
        self._painted: Canvas | None = None
        """The cells as shown, without the cursor."""
        self._canvas: Canvas | None = None
        """The same with the cursor: what the lines are drawn from."""
        self._lines: dict[int, Strip] = {}
        self._styles: dict[StyleKey, Style] = {}
        self._styled: tuple[object, ...] = ()
        """The component styles `_lines` and `_styles` were made with."""
        self._read(game)
        self._set_game_classes(game)
        self.set_reactive(BoardView.cursor, self._centre())

    # -- what subclasses provide ---------------------------------------------------------

    @abstractmethod
    def _make_layout(self, game: Game, zoom: int = 1) -> BoardLayout:
        """Where the cells of `game`'s board go, each `zoom` times as large as the least."""

    @abstractmethod
    def _neighbour(self, cell: int, direction: str) -> int | None:
        """The cell one step from `cell` in `direction`, None off the board."""

    @abstractmethod
    def _centre(self) -> int:
        """Where the cursor starts."""

    def _empty_text(self, cell: int) -> str:
        """What an empty cell shows."""
        return self.glyphs.empty

    # -- public interface ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game last shown."""
        return self._game

    def show(
        self,
        game: Game,
        *,
        selected: int | None = None,
        targets: frozenset[int] = frozenset(),
        last: frozenset[int] = frozenset(),
        overlay: Mapping[int, str] | None = None,
        pieces: Sequence[Piece | None] | None = None,
    ) -> None:
        """Redraw for this position: `selected` piece, its legal `targets`, the cells of the
        last move, and an optional score overlay (cell -> mark). `pieces` replaces the
        game's own (a position being set up, which may not be legal yet)."""
        self._check(game)
        old = self._game
        self._game = game
        if (type(old), old.size) != (type(game), game.size):
            self._layout = self._layout_for(game, self._zoom)
            self._set_game_classes(game)
            self.set_reactive(BoardView.cursor, min(self.cursor, game.geometry.cell_count - 1))
            self.refresh(layout=True)
        self._marks = Marks(selected, targets, last, overlay or {})
        shown = self._canvas
        self._read(game)
        if pieces is not None:
            self._pieces = list(pieces)
        self._refresh_changed(shown)

    def set_ascii(self, ascii: bool) -> None:
        """Draw with ASCII characters only (or not) from now on."""
        if ascii == self.ascii:
            return
        self.ascii = ascii
        self.glyphs = ASCII if ascii else UNICODE
        self._layout = self._make_layout(self._game, self._zoom)
        self._painted = self._canvas = None
        self._lines.clear()
        self.refresh(layout=True)

    def move_cursor(self, direction: str) -> None:
        """Move the cursor one cell: "left", "right", "up", "down" and, on hex boards,
        "up_left", "up_right", "down_left", "down_right". It stops at the edge."""
        if direction not in DIRECTIONS:
            raise ValueError(f"unknown direction '{direction}'; use one of {DIRECTIONS}")
        cell = self._neighbour(self.cursor, direction)
        if cell is not None:
            self.cursor = cell

    def size_needed(self, zoom: int = 1, edges: frozenset[str] | None = None) -> tuple[int, int]:
        """(width, height) in terminal cells, coordinates included, at `zoom` (the
        least size by default) with the lines of coordinates `edges` (those drawn now
        by default)."""
        if edges is None:
            edges = self._edges
        if (zoom, edges) == (self._zoom, self._edges):
            return self._layout.size
        return self._layout_for(self._game, zoom, edges).size

    @property
    def edges(self) -> frozenset[str]:
        """The lines of coordinates drawn above and below the board (see `EDGES`)."""
        return self._edges

    def _layout_for(
        self, game: Game, zoom: int, edges: frozenset[str] | None = None
    ) -> BoardLayout:
        return self._make_layout(game, zoom).cropped(self._edges if edges is None else edges)

    @staticmethod
    def _fits(size: tuple[int, int], width: int, height: int) -> bool:
        return size[0] <= width and size[1] <= height

    @property
    def zoom(self) -> int:
        return self._zoom

    def fit(self, width: int, height: int, edges: frozenset[str] = EDGES) -> None:
        """Draw the board as large as fits in `width` x `height` (never below zoom 1),
        with the lines of coordinates `edges`."""
        fitting = [
            z
            for z in ZOOMS
            if z <= self.max_zoom and self._fits(self.size_needed(z, edges), width, height)
        ]
        zoom = max(fitting, default=1)
        if (zoom, edges) != (self._zoom, self._edges):
            self._zoom = zoom
            self._edges = edges
            self._layout = self._layout_for(self._game, zoom)
            self._painted = None
            self._canvas = None
            self._lines.clear()
            self.refresh(layout=True)

    # -- actions and events ---------------------------------------------------------------

    def action_cursor(self, direction: str) -> None:
        """Move the cursor (the keys' action)."""
        self.move_cursor(direction)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No choosing a cell for somebody who only watches."""
        return self.choosing or action != "activate"

    def action_activate(self) -> None:
        """Choose the cell under the cursor."""
        self.post_message(self.Activated(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        """Move the cursor to the clicked cell and choose it."""
        offset = event.get_content_offset(self)
        if offset is None or not self.choosing:
            return
        cell = self._layout.hits.get((offset.x, offset.y))
        if cell is None:
            return
        event.stop()
        self.cursor = cell
        self.post_message(self.Activated(self, cell))

    def validate_cursor(self, cell: int) -> int:
        return max(0, min(cell, self._game.geometry.cell_count - 1))

    # -- sizing and drawing --------------------------------------------------------------

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._layout.size[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._layout.size[1]

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        """Refresh the widget; a full repaint (no `regions`) also forgets cached lines
        when the styles changed since they were drawn (a theme, a class)."""
        if not regions and hasattr(self, "_lines") and self._styled != component_styling(self):
            self._forget_lines()
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._forget_lines()
        super().notify_style_update()

    def watch_has_focus(self, focused: bool) -> None:
        """Nothing: the board looks the same with the focus or without (its cursor shows
        where keys go), and restyling it for `:focus`, with its many component classes,
        was much of what opening and closing the move line cost."""

    def _forget_lines(self) -> None:
        self._lines.clear()
        self._styles.clear()
        self._styled = component_styling(self)

    def _refresh_changed(self, shown: Canvas | None) -> None:
        """Repaint the lines that differ from `shown`, the canvas last drawn (None: all):
        a move changes a few cells, and every screen showing the game draws it."""
        if shown is None or self._layout.size != (shown.width, shown.height):
            self._lines.clear()
            self.refresh()
            return
        canvas = self._draw()
        width = max(self.size.width, canvas.width)
        for y in range(canvas.height):
            if canvas.chars[y] != shown.chars[y] or canvas.keys[y] != shown.keys[y]:
                self._lines.pop(y, None)
                self.refresh(Region(0, y, width, 1))

    def watch_cursor(self, old: int, new: int) -> None:
        self._canvas = None
        layout = self._layout
        for cell in (old, new):
            if 0 <= cell < len(layout.cells):
                if layout.tiles:
                    _, top, _, rows = layout.tiles[cell]
                else:
                    top, rows = layout.cells[cell][1], 1
                for y in range(top, top + rows):
                    self._lines.pop(y, None)
                self.refresh(Region(0, top, self.size.width, rows))

    def render_line(self, y: int) -> Strip:
        """One line of the board (the Line API: a key press redraws only the lines the
        cursor left and entered)."""
        strip = self._lines.get(y)
        if strip is None:
            strip = self._line_strip(y)
            self._lines[y] = strip
        return strip

    def _line_strip(self, y: int) -> Strip:
        canvas = self._draw()
        if not 0 <= y < canvas.height:
            return Strip.blank(canvas.width, self.rich_style)
        chars = canvas.chars[y]
        keys = canvas.keys[y]
        segments = []
        start = 0
        for x in range(1, canvas.width + 1):
            if x == canvas.width or keys[x] != keys[start]:
                segments.append(Segment("".join(chars[start:x]), self._style(keys[start])))
                start = x
        return Strip(segments, canvas.width)

    def _style(self, key: StyleKey) -> Style:
        """The widget's style with the component classes of `key` over it, in order."""
        style = self._styles.get(key)
        if style is None:
            style = self.rich_style
            for name in key:
                style += self.get_component_rich_style(name, partial=True)
            self._styles[key] = style
        return style

    def _draw(self) -> Canvas:
        """The canvas of the current position with the cursor."""
        if self._canvas is None:
            painter = self._painter()
            if self._painted is None:
                painted = self._layout.canvas.copy()
                painter.paint_all(painted, self._pieces, self._marks)
                self._painted = painted
            canvas = self._painted.copy()
            cursor = self.cursor
            painter.paint(canvas, self._pieces[cursor], cursor, self._marks, cursor=True)
            self._canvas = canvas
        return self._canvas

    def _painter(self) -> CellPainter:
        """What paints the cells as the board is drawn now."""
        return CellPainter(
            self._layout,
            self.glyphs,
            self._game.info.colours,
            self._empty_text,
            self.empty_class,
            self.territory_lines,
        )

    # -- helpers -------------------------------------------------------------------------------

    def _read(self, game: Game) -> None:
        self._pieces = [game.piece_at(cell) for cell in range(game.geometry.cell_count)]
        self._painted = None
        self._canvas = None

    def _check(self, game: Game) -> None:
        if game.info.geometry != self.geometry_kind:
            raise ValueError(
                f"{type(self).__name__} draws {self.geometry_kind} boards, not "
                f"{game.info.title}'s {game.info.geometry}: use board_for(game)"
            )

    def _set_game_classes(self, game: Game) -> None:
        for name in list(self.classes):
            if name.startswith("-game-"):
                self.remove_class(name)
        wooden = bool(WOODEN & set(game.info.colours)) or game.info.geometry == "points"
        self.set_class(wooden, "-wood")
        self.add_class(f"-game-{game.info.name}")
