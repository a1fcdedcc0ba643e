"""The play screen's panel: the game, whose turn it is, the cursor's cell, the score.

Every text here is shown as it is (no markup), so that a name such as `Ann [x]` reads as
typed.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from ...rooms.play import watchers, watchers_text
from ...rules import Game, format_number
from ...session import Phase, Session
from ..legend import panel_legend
from ..overlay import overlay_for
from .clock_faces import ClockFaces
from .glyphs import Glyphs
from .notices import AwayLine, SavingNotice
from .steady_text import show_text


def title_text(game: Game) -> str:
    """`Egotzi squared  7x7  komi 4`, `Partitions  side 6`."""
    info = game.info
    title = info.title
    if info.variants:
        title += f" {game.options.variant}"
    title += f"  {game.size}x{game.size}" if info.geometry != "hex" else f"  side {game.size}"
    if info.takes_komi(game.options.variant):
        title += f"  komi {format_number(game.options.komi)}"
    return title


COUNT_KEY = "f"
"""The play screen's key for the whole count in a box (`count_text`)."""


def count_text(game: Game) -> str:
    """The whole count: the score, why it ends so, and every patch, region or group."""
    score = game.score()
    outcome = game.outcome()
    one, two = (
        f"{c.capitalize()} {format_number(p)}"
        for c, p in zip(game.info.colours, score.points, strict=True)
    )
    lines = [f"{'Final score' if outcome else 'Score now'}: {one}, {two}"]
    if outcome is not None and outcome.reason != f"{one}, {two}":
        lines.append(outcome.reason)
    if score.lines:
        lines.append("")
        lines += [f"- {line}" for line in score.lines]
    return "\n".join(lines)


def score_text(game: Game, *, shown: bool, short: bool) -> str:
    """The score as it stands (the final score and why at the end); with `shown`, the
    breakdown the board shows; `short` fits one line (analysis needs the room)."""
    score = game.score()
    colours = game.info.colours
    outcome = game.outcome()
    if short and not shown and outcome is None:
        one, two = (
            f"{c.capitalize()} {format_number(p)}"
            for c, p in zip(colours, score.points, strict=True)
        )
        return f"Score now: {one}, {two}"
    head = "Final score" if outcome else "Score now"
    if shown and score.lines:  # in the head: a small panel shows only the first lines
        head += f" ({COUNT_KEY}: in full)"
    lines = [f"{head}:"]
    lines += [f"  {colours[i].capitalize():<11}{format_number(score.points[i]):>5}" for i in (0, 1)]
    if outcome is not None:
        lines.append(outcome.reason)
    if shown:
        lines.extend(score.lines)
    else:
        lines.append("t: show it on the board")
    return "\n".join(lines)


class CursorLine(Widget):
    """One line that changes with every cursor key: repainted, never laid out again (a
    Static's update lays out the whole panel, which a key press need not pay for)."""

    DEFAULT_CSS = """
    CursorLine { height: 1; }
    """

    text: reactive[str] = reactive("", layout=False)

    def render(self) -> Content:
        return Content(self.text)

    def render_line(self, y: int) -> Strip:
        """The text as it is where it fits (the common case, drawn without Textual's text
        layout at every key); a text wider than the panel is wrapped as Textual does."""
        width = self.scrollable_content_region.width
        if len(self.text) > width or not self.text.isprintable():
            return super().render_line(y)
        style = self.rich_style
        text = "" if y else self.text
        return Strip([Segment(text, style)]).crop_extend(0, width, Style(bgcolor=style.bgcolor))


class GamePanel(Vertical):
    """Title, the autosave's trouble, the turn, who is away, the cursor and the score."""

    DEFAULT_CSS = """
    GamePanel {
        height: auto;
        max-height: 70%;
    }
    GamePanel #title { text-style: bold; color: $accent; }
    GamePanel #saving { color: $text-error; text-style: bold; margin-bottom: 1; }
    GamePanel #turn { text-style: bold; }
    GamePanel #away { color: $text-warning; text-style: bold; }
    GamePanel #cursor { margin-top: 1; }
    GamePanel #score-box { height: auto; max-height: 20; margin-top: 1; }
    GamePanel #legend { color: $text-muted; margin-top: 1; }
    GamePanel .-hidden { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="title", markup=False)
        yield SavingNotice(id="saving")
        yield Static(id="turn", markup=False)
        yield ClockFaces(id="clocks")
        yield AwayLine(id="away")
        yield Static(id="watchers", markup=False, classes="-hidden")
        yield CursorLine(id="cursor")
        yield Static(id="legend", markup=False, classes="-hidden")
        with VerticalScroll(id="score-box", can_focus=False):
            yield Static(id="score", markup=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.waiting: dict[str, tuple[str, bool]] = {}
        """Texts given before this panel's parts were mounted, by selector."""
        self.cursor_text = ""
        self.cursor_line: CursorLine | None = None
        self.parts: dict[str, Static] = {}
        """The parts found so far, by selector (looked for once, not at every move)."""

    def _set(self, selector: str, text: str, *, hide_empty: bool = False) -> None:
        # The screen may show its game before this panel's own parts are mounted (keys
        # typed in one burst as the game starts): each part takes its text when it is.
        widget = self.parts.get(selector)
        if widget is None:
            widget = next(self.query(selector).results(Static), None)
            if widget is None:
                self.waiting[selector] = (text, hide_empty)
                return
            self.parts[selector] = widget
        show_text(widget, text)
        if hide_empty:
            widget.set_class(not text, "-hidden")

    def show_game(self, game: Game, turn: str, score: str, legend: str) -> None:
        self._set("#title", title_text(game))
        self._set("#turn", turn)
        self._set("#score", score)
        self._set("#legend", legend, hide_empty=True)

    def show_session(
        self, session: Session, *, analysing: bool, score: bool, glyphs: Glyphs, monochrome: bool
    ) -> None:
        """The game of `session` as it stands: its turn (in `analysing`, with the move
        number), its score (with `score`, as the board shows it), the legend of the
        board's `glyphs`, the clocks."""
        game = session.game
        turn = session.turn_text() if session.phase is Phase.PLAY else "Choosing komi and sides"
        if analysing:
            turn = f"Analysis, move {session.move_number()}: {turn}"
        overlay = overlay_for(game) if score else None
        people = (session.person(0), session.person(1))
        legend = panel_legend(game, glyphs, overlay, people, monochrome=monochrome)
        self.show_game(game, turn, score_text(game, shown=score, short=analysing), legend)

    def show_cell(self, game: Game, cell: int) -> None:
        """What is on the cursor's `cell`: `Cursor c3: Blue stack of 2`."""
        piece = game.piece_at(cell)
        if piece is None:
            what = "empty"
        elif piece.colour is None:
            what = piece.kind
        else:
            what = f"{game.colour_name(piece.colour)} {piece.kind}"
            if piece.kind == "stack":
                what += f" of {piece.height}"
        self.show_cursor(f"Cursor {game.geometry.name(cell)}: {what}")

    def show_cursor(self, text: str) -> None:
        self.cursor_text = text
        if self.cursor_line is not None:  # none before the parts are mounted
            self.cursor_line.text = text

    def on_mount(self) -> None:
        # Found once: looked for at each key, it was most of what the panel cost a key.
        self.cursor_line = self.query_one(CursorLine)
        self.cursor_line.text = self.cursor_text
        waiting, self.waiting = self.waiting, {}
        for selector, (text, hide_empty) in waiting.items():
            self._set(selector, text, hide_empty=hide_empty)

    def show_saving(self, problem: str | None, where: object, held: bool) -> None:
        """Why the game is not being saved (None: it is), where, and whether a room's
        clocks wait meanwhile."""
        self._set("#saving", SavingNotice.words(problem, where, held), hide_empty=True)

    def show_away(self, people: Iterable[str], here: frozenset[str]) -> None:
        """Who of `people` is not connected (`here`: those who are)."""
        self._set("#away", AwayLine.words(people, here), hide_empty=True)

    def show_presence(
        self, people: Iterable[str], here: frozenset[str], players: tuple[str, ...] | None
    ) -> None:
        """Who of `people` is not connected (`here`: those who are) and, in a room (its
        `players`), how many watch."""
        if players is not None:
            self.show_watchers(watchers_text(watchers(here, players)))
        self.show_away(people, here)

    def show_watchers(self, text: str) -> None:
        """`2 watching` in a room (hidden elsewhere)."""
        self._set("#watchers", text, hide_empty=True)
