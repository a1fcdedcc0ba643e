"""The compact view's one line about the game: whose turn, the clocks, the last move, the
score and the cursor's cell, as many of them as the width holds, in that order.

It stands in for the side panel when the terminal is too small for it. While a clock
runs it is drawn again twice a second (only in the compact view: the panel's clock faces
do it otherwise).
"""

from __future__ import annotations

from textual.content import Content
from textual.timer import Timer
from textual.widget import Widget

from ...rules import format_number
from ...session import Phase, Session

SEPARATOR = " · "
CLOCK_EVERY = 0.5
"""Seconds between two redraws while a clock runs (a face shows seconds, or tenths)."""


Part = tuple[str, ...]
"""One thing the line tells, in its long form and shorter ones."""


def summary_parts(
    session: Session, cursor: int, *, analysing: bool, cursor_first: bool = False
) -> list[Part]:
    """The line's parts, most wanted first: `Orange to move (Bob)`, `Blue 4:51 Orange
    3:02`, `last c3`, `Blue 3 Orange 2`, `cursor e5`, each with shorter forms; with
    `cursor_first` (no column letters on the screen) the cursor's cell comes second."""
    game = session.game
    colours = [c.capitalize() for c in game.info.colours]
    initials = [c[0] for c in colours]  # the two colours of a game differ by their first
    if session.phase is not Phase.PLAY:
        turn: Part = ("Choosing komi and sides",)
    elif session.over or game.is_over():
        turn = (session.turn_text(),)
    else:
        turn = (session.turn_text(), f"{colours[game.turn]} to move")
    if analysing:
        turn = tuple(f"Analysis, move {session.move_number()}: {t}" for t in turn)
    parts = [turn]
    where: Part = (f"cursor {game.geometry.name(cursor)}",)
    if cursor_first:
        parts.append(where)
    clock = session.clock
    if clock is not None:
        now = session.now()
        # The faces are the people's; a swap gives a person the other colour.
        faces = {side ^ session.swapped: clock.face(side, now) for side in (0, 1)}
        parts.append(
            (
                f"{colours[0]} {faces[0]} {colours[1]} {faces[1]}",
                f"{initials[0]} {faces[0]} {initials[1]} {faces[1]}",
            )
        )
    last = game.last_move
    if last is not None:
        parts.append((f"last {game.move_name(last)}",))
    points = [format_number(p) for p in game.score().points]
    parts.append(
        (
            f"{colours[0]} {points[0]} {colours[1]} {points[1]}",
            f"{initials[0]} {points[0]} {initials[1]} {points[1]}",
        )
    )
    if not cursor_first:
        parts.append(where)
    return parts


def fitted(parts: list[Part], width: int) -> str:
    """The parts in `width` columns: in their shorter forms, from the least wanted up,
    while they do not fit; then without the least wanted; the first one cut at worst."""
    forms = [0] * len(parts)
    count = len(parts)

    def text() -> str:
        return SEPARATOR.join(parts[i][forms[i]] for i in range(count))

    while count > 1 and len(text()) > width:
        shorter = [i for i in reversed(range(count)) if forms[i] + 1 < len(parts[i])]
        if shorter:
            forms[shorter[0]] += 1
        else:
            count -= 1
    return text()[:width]


class SummaryLine(Widget):
    """One line: the game as the side panel would tell it (see the module)."""

    DEFAULT_CSS = """
    SummaryLine {
        height: 1;
        padding: 0 1;
        background: $boost;
        text-style: bold;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts: list[Part] = []
        self.session: Session | None = None
        self.clock_timer: Timer | None = None
        self.cursor = 0
        """The cell the parts name."""
        self.analysing = False
        self.cursor_first = False

    def show(
        self, session: Session, cursor: int, *, analysing: bool, cursor_first: bool = False
    ) -> None:
        """The game as it stands; with a running clock, kept up to date while shown."""
        self.session = session
        self.cursor = cursor
        self.analysing = analysing
        self.cursor_first = cursor_first
        parts = summary_parts(session, cursor, analysing=analysing, cursor_first=cursor_first)
        if parts != self.parts:
            self.parts = parts
            self.refresh()
        running = session.clock is not None and session.clock.running is not None
        if running and self.clock_timer is None:
            self.clock_timer = self.set_interval(CLOCK_EVERY, self.tick)
        elif not running and self.clock_timer is not None:
            self.clock_timer.stop()
            self.clock_timer = None

    def show_cursor(self, cursor: int) -> None:
        """Only the cursor moved (a key press): its part alone is made again, not the
        score's."""
        session = self.session
        if session is None or cursor == self.cursor:
            return
        old = f"cursor {session.game.geometry.name(self.cursor)}"
        new = f"cursor {session.game.geometry.name(cursor)}"
        self.parts = [(new,) if part == (old,) else part for part in self.parts]
        self.cursor = cursor
        self.refresh()

    def tick(self) -> None:
        if self.session is not None and self.display:
            self.show(
                self.session, self.cursor, analysing=self.analysing, cursor_first=self.cursor_first
            )

    def render(self) -> Content:
        return Content(fitted(self.parts, self.content_size.width))
