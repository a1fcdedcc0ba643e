"""The two clock faces of the play screen's panel: one line per person, the side to move
marked `>` and highlighted, a face short of time marked too.

While a clock runs, the widget repaints itself (never laid out again), and only when
the running face's text changes: once a second, ten times a second under ten seconds,
when tenths are shown; when the time is up it says so (`TimeUp`). A stopped clock sets
no timer at all.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...session import Phase, Session
from ..textual_internals import component_styling

FACE_WIDTH = 30
"""Columns a face line takes at most: the name and the time stay close together."""
COVERED_EVERY = 10.0
"""Seconds between the faces' redraws while a dialog covers the game (see `repaint`)."""


class ClockFaces(Widget):
    """Both people's clocks, from the session's clock (hidden in a game without one)."""

    DEFAULT_CSS = """
    ClockFaces { height: 3; padding-top: 1; }
    ClockFaces.-hidden { display: none; }
    ClockFaces > .clock--turn { text-style: bold reverse; }
    ClockFaces > .clock--low { color: $text-error; text-style: bold; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"clock--turn", "clock--low"}

    class TimeUp(Message):
        """The running face shows no time left (the faces are what watches the time)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-hidden")
        self.session: Session | None = None
        self.faces: tuple[str, str] = ("", "")
        self.styles_for: tuple[object, ...] = ()
        """The component styles that `turn_style` and `low_style` were read from (Textual
        reads a component's style again after every repaint: once a second here)."""
        self.turn_style = self.low_style = Style()
        self.painted = 0.0
        """When a face was last drawn again (`time.monotonic`)."""
        self.timer: asyncio.TimerHandle | None = None
        """When the running face next changes: a plain handle on the event loop, which
        costs a fraction of a Textual timer (a task of its own for each tick)."""

    def show(self, session: Session) -> None:
        """Show `session`'s clock as it stands, and keep it running while it runs."""
        self.session = session
        self.set_class(session.clock is None, "-hidden")
        self.refresh()  # who is to move, or the game's end, may have changed
        self.tick()

    def texts(self) -> tuple[str, str]:
        session = self.session
        if session is None or session.clock is None:
            return ("", "")
        clock = session.clock
        now = session.now()
        faces = []
        for side in (0, 1):
            face = clock.face(side, now)
            if clock.low(side, now):
                face = "! " + face
            faces.append(face)
        return faces[0], faces[1]

    def tick(self) -> None:
        """Repaint if a face changed, and come back when the running one next will."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        session = self.session
        clock = session.clock if session is not None else None
        if session is None or clock is None or clock.running is None:
            self.repaint(last_seconds=True)
            return
        now = session.now()
        side = clock.running
        left = clock.left(side, now)
        self.repaint(last_seconds=left.main < 10)
        if left.out:
            self.post_message(self.TimeUp())  # the screen ends the game, and shows it
            return
        in_main = left.main > 0 or not clock.control.of(side).periods
        seconds = left.main if in_main else clock.period_left(side, now)
        step = 0.1 if seconds < 10 else (seconds % 1.0) or 1.0
        self.timer = asyncio.get_running_loop().call_later(max(0.05, step + 0.01), self.tick)

    def repaint(self, *, last_seconds: bool) -> None:
        """Draw again the characters of a face that changed (over SSH a running clock
        costs a few bytes a second, not the line): at once on the screen on top, or in
        the `last_seconds`; under a dialog every `COVERED_EVERY` seconds otherwise
        (Textual draws all of a screen under a dialog again for any change of it: a
        face's tick there cost a player a whole screen, 8 KB, every second over SSH)."""
        faces = self.texts()
        if faces == self.faces:
            return
        covered = not self.screen.is_active
        if covered and not last_seconds and time.monotonic() - self.painted < COVERED_EVERY:
            return
        for side in (0, 1):
            if faces[side] != self.faces[side]:
                width = max(len(faces[side]), len(self.faces[side]))
                right = min(self.size.width, FACE_WIDTH)
                self.refresh(Region(max(0, right - width), side, width, 1))
        self.faces = faces
        self.painted = time.monotonic()

    def on_unmount(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def render_line(self, y: int) -> Strip:
        """Line `y` of the faces (the Line API: a tick draws only the face that changed,
        with no text to lay out; over SSH every screen of a room draws it every second)."""
        base = self.visual_style.rich_style
        session = self.session
        if session is None or session.clock is None or y not in (0, 1):
            return Strip.blank(self.size.width, base)
        width = max(10, min(self.size.width, FACE_WIDTH))
        game = session.game
        side = y
        playing = session.phase is Phase.PLAY and not session.over
        colour = side ^ session.swapped
        name = f"{game.colour_name(colour).capitalize()} {session.people[side]}"
        face = self.faces[side]
        to_move = playing and session.side_to_move() == side
        mark = ">" if to_move else " "
        room = width - len(face) - 3
        name = name if len(name) <= room else name[: max(0, room - 1)] + "…"
        text = f"{mark} {name:<{room}} {face}"
        styling = component_styling(self)
        if styling != self.styles_for:
            self.turn_style = self.get_component_rich_style("clock--turn", partial=True)
            self.low_style = self.get_component_rich_style("clock--low", partial=True)
            self.styles_for = styling
        style = base + self.turn_style if to_move else base
        low = face.startswith("!") or (session.clock.running is None and face == "0:00")
        if low:
            start = len(text) - len(face)
            low_style = style + self.low_style
            segments = [Segment(text[:start], style), Segment(text[start:], low_style)]
        else:
            segments = [Segment(text, style)]
        return Strip(segments)  # Textual pads it to the width with the background
