"""The few parts of Textual used that are not its public API, in one place (pyproject.toml
bounds Textual's version for them)."""

from __future__ import annotations

import contextlib
import os
import selectors
from codecs import getincrementaldecoder
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.drivers.linux_driver import LinuxDriver  # not on Windows


def compose_frame(screen: Screen[object]) -> None:
    """Compose the whole screen as a frame would be (the app's speed bench times it)."""
    screen._compositor.render_update(full=True)


def component_styling(widget: Widget) -> tuple[int, ...]:
    """What tells one styling of `widget`'s component classes from the next: Textual makes
    new component styles whenever it styles the widget again."""
    return tuple(map(id, widget._component_styles.values()))


class RowCompositor(Compositor):
    """Textual's compositor, asking each widget for only the rows an update changes.

    For an update of part of the screen, Textual's compositor asks every widget whose
    clip overlaps the rectangle around all the changed areas for all its lines (from its
    cache of lines, each put through the app's line filters again) and then keeps the
    changed rows: a clock face's tick, two characters, had the board, the panel and each
    of the panel's parts go over all their lines, once a second on every screen of a room.
    Here only the widgets that show part of a changed area are asked, for the rows of
    those areas, and not those whose every changed part lies within one widget in front of
    them (the compositor keeps the front-most cell: a face's tick asks the face, not the
    panel and the screen behind it). A whole-screen update is Textual's own.
    """

    _changed: list[Region] | None = None

    def render_partial_update(self) -> ChopsUpdate | None:
        self._changed = list(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._changed = None

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        changed = self._changed
        if changed is None:
            yield from super()._get_renders(crop)
            return
        drawn: list[Region] = []
        for widget, (region, clip) in self.visible_widgets.items():  # front to back
            shown = region.intersection(clip)
            parts = [shown.intersection(area) for area in changed if shown.overlaps(area)]
            if not parts or all(
                any(front.contains_region(part) for front in drawn) for part in parts
            ):
                continue  # nothing changed here, or all of it is under widgets in front
            drawn.append(shown)
            top = min(part.y for part in parts)
            bottom = max(part.bottom for part in parts)
            rows = Region(shown.x, top, shown.width, bottom - top)
            # `rows` as the clip: the compositor places the lines within it.
            yield region, rows, widget.render_lines(rows.translate(-region.offset))


class SteadyScreen(Screen[None]):
    """A screen whose small changes are drawn as small ones.

    - Textual's `Screen.focused` repaints every line of the screen when the focus moves,
      which over SSH sends the whole screen to the client (':' and Enter of a typed move
      each move the focus); here the widgets it concerns repaint themselves as their
      `:focus` styles change.
    - A part of the screen drawn again asks each widget for the changed rows only
      (`RowCompositor`).
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self) -> None:
        super().__init__()
        self._compositor = RowCompositor()


class SteadyInput(Input):
    """An input line whose typing repaints the line without laying the screen out again.

    Textual's input sets its virtual size (the text's width, for scrolling) at every
    character, and that reactive lays the whole screen out; the line's own size never
    changes with its text, and its scrolling reads the virtual size when it scrolls.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


def set_driver_output(driver: LinuxDriver, output: Any) -> bool:
    """Have `driver`'s writer thread write to `output` (a file) instead of the terminal's
    stream: Textual's Linux driver keeps the file its writer thread is given in `_file`.
    False (and Textual's own output) where that attribute is missing or is no longer a
    file; called before the driver starts."""
    if not callable(getattr(getattr(driver, "_file", None), "write", None)):
        return False
    driver._file = output
    return True


def read_terminal(driver: LinuxDriver, ended: Callable[[], object]) -> None:
    """Textual's input loop of its Linux driver (`LinuxDriver.run_input_thread`: read the
    terminal, parse the keys, post them) until the driver's input is disabled, except that
    the end of input or a read error calls `ended()` and stops the loop: Textual's own goes
    round an end of input for ever (a busy loop) and panics on an error, which is what a
    closed terminal gives. Textual's own loop, its errors calling `ended()`, where its
    parser is not where it was."""
    try:
        from textual._parser import ParseError
        from textual._xterm_parser import XTermParser
    except ImportError:
        from textual.drivers.linux_driver import LinuxDriver

        try:
            LinuxDriver.run_input_thread(driver)
        except OSError:
            ended()
        return
    fileno = driver.fileno
    parser = XTermParser()
    decode = getincrementaldecoder("utf-8")().decode
    selector = selectors.SelectSelector()  # as Textual's: any terminal's descriptor works
    selector.register(fileno, selectors.EVENT_READ)
    try:
        while not driver.exit_event.is_set():
            if selector.select(0.1):
                try:
                    data = os.read(fileno, 1024 * 4)
                except BlockingIOError:  # a descriptor shared in non-blocking mode
                    data = None
                except OSError:
                    ended()
                    return
                if data == b"":
                    ended()
                    return
                for event in parser.feed(decode(data or b"")):
                    driver.process_message(event)
            for event in parser.tick():  # a lone Escape becomes the key after a moment
                driver.process_message(event)
    finally:
        selector.close()
        with contextlib.suppress(EOFError, ParseError):
            for _event in parser.feed(""):
                pass
