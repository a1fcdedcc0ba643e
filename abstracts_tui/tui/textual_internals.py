"""Every part of Textual used that is not its public API, in one place, each with a
fallback to Textual's public behaviour when the part is missing or has changed (a new
release may move any of them). pyproject.toml bounds Textual's version for them, and
`.ci/newest-textual` runs the app's tests against Textual's newest release, so that the
bound is widened the day they pass.

- `RowCompositor`: the compositor that asks widgets for the changed rows only, and that
  compares a layout with the last one laid out (fallback: Textual's own compositor,
  which asks for more, and which can leave a widget hidden just after a scroll on the
  terminal);
- `component_styling`: what tells one styling of a widget from the next (fallback: a new
  value every time, so that cached lines are always drawn again);
- `compose_frame`: a whole frame composed, for the speed bench (no fallback: the bench
  says so);
- `terminal_parser`: Textual's parser of what a terminal sends, for the SSH driver and
  the terminal app's input (fallback: `PlainKeys`, keys without the mouse);
- `set_driver_output`: the file Textual's Linux driver writes a frame to, replaced by one
  that gives up on a closed terminal (fallback: Textual's own output);
- `read_terminal`: Textual's input loop, ending on a closed terminal (it reads the keys
  with `terminal_parser`);
- `keep_tasks_lazy`: an app's loop kept as asyncio makes it, although Textual changes its
  task factory when an app starts (asyncio's public API: nothing to fall back from);
- `bound_idle_waits`: for the tests, the pilot's waits for an idle process made shorter
  (fallback: Textual's waits as they are);
- `call_later`: a callback posted with its parameters counted, which Textual otherwise
  reads from its signature at every call with arguments (fallback: Textual counts them);
- `lazy_strip_caches`: each line's (`Strip`'s) seven caches made when first used rather
  than with the line (fallback: Textual's strips as they are).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import selectors
from codecs import getincrementaldecoder
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual import events
from textual.containers import VerticalScroll
from textual.geometry import Region, Size
from textual.message import Message
from textual.message_pump import MessagePump
from textual.reactive import Reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input, Static

if TYPE_CHECKING:
    from textual.drivers.linux_driver import LinuxDriver  # not on Windows

try:
    from textual._compositor import Compositor
except ImportError:  # pragma: no cover - a Textual without it
    Compositor = None  # type: ignore[assignment,misc]

COMPOSITOR_PARTS = (
    "render_partial_update",
    "_get_renders",
    "visible_widgets",
    "render_update",
    "reflow",
    "reflow_visible",
    "clear",
)
COMPOSITOR_FIELDS = ("_full_map", "_visible_map", "_dirty_regions")
"""Fields of a compositor that `RowCompositor` reads (made by its `__init__`)."""
ROWS_BY_WIDGET = Compositor is not None and all(
    hasattr(Compositor, part) for part in COMPOSITOR_PARTS
)
"""Whether Textual's compositor has the parts `RowCompositor` builds on."""


def compose_frame(screen: Screen[object]) -> None:
    """Compose the whole screen as a frame would be (the app's speed bench times it)."""
    compositor = getattr(screen, "_compositor", None)
    if compositor is None or not hasattr(compositor, "render_update"):
        raise RuntimeError("this Textual has no compositor to time (textual_internals.py)")
    compositor.render_update(full=True)


def component_styling(widget: Widget) -> tuple[object, ...]:
    """What tells one styling of `widget`'s component classes from the next: Textual makes
    new component styles whenever it styles the widget again. Without them, a value that
    differs from every other: the caller draws its lines again each time."""
    styles = getattr(widget, "_component_styles", None)
    if not isinstance(styles, dict):
        return (object(),)
    return tuple(map(id, styles.values()))


if ROWS_BY_WIDGET:

    class RowCompositor(Compositor):
        """Textual's compositor, asking each widget for only the rows an update changes.

        For an update of part of the screen, Textual's compositor asks every widget whose
        clip overlaps the rectangle around all the changed areas for all its lines (from
        its cache of lines, each put through the app's line filters again) and then keeps
        the changed rows: a clock face's tick, two characters, had the board, the panel and
        each of the panel's parts go over all their lines, once a second on every screen
        of a room. Here only the widgets that show part of a changed area are asked, for
        the rows of those areas, and not those whose every changed part lies within one
        widget in front of them (the compositor keeps the front-most cell: a face's tick
        asks the face, not the panel and the screen behind it). A whole-screen update is
        Textual's own.
        """

        _changed: list[Region] | None = None
        _laid_out: dict[Widget, Any] | None = None
        """Where the last layout put each widget: what the terminal shows."""

        def reflow(self, parent: Widget, size: Size) -> Any:
            # A layout marks as changed the places of the widgets that moved, compared
            # with Textual's map of every widget. But that map is built again whenever a
            # widget's place is asked for after a change (a widget's refresh asks), and
            # so can show a change not yet laid out or drawn: hidden at once after a scroll,
            # the pie rule's box was then in neither map, its place never drawn again,
            # and it stayed on the player's terminal. The layout is compared with the
            # last one instead, and with what a scroll drew since.
            laid_out = self._laid_out
            if laid_out is not None:
                self._full_map = laid_out
            result = super().reflow(parent, size)
            self._laid_out = getattr(self, "_full_map", None)
            return result

        def reflow_visible(self, parent: Widget, size: Size) -> Any:
            exposed = super().reflow_visible(parent, size)
            visible = getattr(self, "_visible_map", None)
            if self._laid_out is not None and visible:
                self._laid_out = {**self._laid_out, **visible}
            return exposed

        def clear(self) -> None:
            self._laid_out = None
            super().clear()

        def render_partial_update(self) -> Any:
            dirty = getattr(self, "_dirty_regions", None)
            self._changed = list(dirty) if dirty is not None else None
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


def use_row_compositor(screen: Screen[Any]) -> bool:
    """Give `screen` a `RowCompositor` in place of Textual's, where Textual's is the one
    it builds on; whether it did."""
    textual = getattr(screen, "_compositor", None)
    if not ROWS_BY_WIDGET or type(textual) is not Compositor:
        return False
    if not all(hasattr(textual, field) for field in COMPOSITOR_FIELDS):
        return False
    screen._compositor = RowCompositor()
    return True


ResultT = TypeVar("ResultT")


class SteadyScreen(Screen[ResultT]):
    """A screen whose small changes are drawn as small ones (every full screen of the app
    is one: its games, the lobby, the archive, setting up a position...).

    - Textual's `Screen.focused` repaints every line of the screen when the focus moves,
      which over SSH sends the whole screen to the client (Tab from one part of the lobby
      to the next; ':' and Enter of a typed move); here the widgets it concerns repaint
      themselves as their `:focus` styles change.
    - A part of the screen drawn again asks each widget for the changed rows only
      (`RowCompositor`).
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self) -> None:
        super().__init__()
        self.rows_by_widget = use_row_compositor(self)
        """Whether its partial frames are drawn by `RowCompositor`."""


class SteadyInput(Input):
    """An input line whose typing repaints the line without laying the screen out again.

    Textual's input sets its virtual size (the text's width, for scrolling) at every
    character, and that reactive lays the whole screen out; the line's own size never
    changes with its text, and its scrolling reads the virtual size when it scrolls.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def watch_has_focus(self, focused: bool) -> None:
        """Styled again for `:focus` as Textual does, except when the line loses the keys
        hidden (the move line closed by Enter or Escape): its many rules cost a typed
        move a restyling that nobody sees, and it is styled again as it gets the keys."""
        if focused or all(node.display for node in self.ancestors_with_self):
            super().watch_has_focus(focused)


class SteadyStatic(Static):
    """A text whose new size, once laid out, does not lay the screen out a second time.

    Textual's `virtual_size` reactive asks for another layout whenever a layout changes
    it: the status line shown again after the move line, and the move list one line
    longer, cost every typed move two layouts of the whole screen. The text's height is
    laid out when it changes (`show_text`), in the same layout.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


class SteadyScroll(VerticalScroll):
    """A scrolling list whose longer content, once laid out, does not lay the screen out
    a second time (see `SteadyStatic`); a scroll bar that comes or goes still does (its
    own reactive asks for it), and the bar's size and the scroll follow the new length."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


def call_later(node: MessagePump, callback: Callable[..., object], *args: object) -> bool:
    """`node.call_later(callback, *args)`, without Textual reading the callback's signature
    each time: it counts a callback's parameters once per callable (`_param_count`), but
    the callable it makes of a callback and its arguments is new at every call, and the
    signature was read again for every marker of every key (`type_ahead.py`). Fallback:
    a Textual that no longer reads the count works as its own `call_later`."""
    later = partial(callback, *args)
    later._param_count = 0  # type: ignore[attr-defined]
    return node.post_message(events.Callback(callback=cast("Callable[[], None]", later)))


# -- the terminal app's driver -----------------------------------------------------------


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
    closed terminal gives. The keys are read by `terminal_parser()`'s parser."""
    fileno = driver.fileno
    parser = terminal_parser()
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
        # The parser's end of input: the terminal has gone, whatever its parser says.
        with contextlib.suppress(Exception):
            for _event in parser.feed(""):
                pass


# -- what a terminal sends ---------------------------------------------------------------


class PlainKeys:
    """What a terminal sends, as key events, without Textual's parser: characters, Enter,
    Tab, Backspace, Escape, the arrows and the keys above them, and ctrl+letter (no mouse,
    no bracketed paste, no terminal's answers). A lone Escape waits for `tick`, since it
    may begin a sequence."""

    SEQUENCES = {
        "\x1b[A": "up",
        "\x1b[B": "down",
        "\x1b[C": "right",
        "\x1b[D": "left",
        "\x1b[H": "home",
        "\x1b[F": "end",
        "\x1b[Z": "shift+tab",
        "\x1bOA": "up",
        "\x1bOB": "down",
        "\x1bOC": "right",
        "\x1bOD": "left",
        "\x1bOH": "home",
        "\x1bOF": "end",
        "\x1b[1~": "home",
        "\x1b[2~": "insert",
        "\x1b[3~": "delete",
        "\x1b[4~": "end",
        "\x1b[5~": "pageup",
        "\x1b[6~": "pagedown",
    }
    CONTROLS = {"\r": "enter", "\n": "enter", "\t": "tab", "\x7f": "backspace", "\x08": "backspace"}

    def __init__(self) -> None:
        self.pending = ""

    def feed(self, text: str) -> Iterator[Message]:
        data = self.pending + text
        self.pending = ""
        while data:
            if data[0] == "\x1b":
                if data == "\x1b" or any(
                    sequence.startswith(data) and sequence != data for sequence in self.SEQUENCES
                ):
                    self.pending = data  # maybe the start of a sequence: wait for more
                    return
                sequence = next((s for s in self.SEQUENCES if data.startswith(s)), None)
                if sequence is not None:
                    yield events.Key(self.SEQUENCES[sequence], None)
                    data = data[len(sequence) :]
                    continue
                yield events.Key("escape", "\x1b")
                data = data[1:]
                continue
            yield self.key(data[0])
            data = data[1:]

    def key(self, char: str) -> events.Key:
        if char in self.CONTROLS:
            return events.Key(self.CONTROLS[char], char)
        if "\x01" <= char <= "\x1a":
            return events.Key(f"ctrl+{chr(ord(char) + 96)}", None)
        if char == " ":
            return events.Key("space", " ")
        return events.Key(char, char)

    def tick(self) -> Iterator[Message]:
        if self.pending:
            pending, self.pending = self.pending, ""
            yield events.Key("escape", "\x1b")
            yield from self.feed(pending[1:])


def terminal_parser() -> Any:
    """A parser of what a terminal sends (`feed(text)` and `tick()`, each giving Textual
    messages): Textual's own (keys, mouse, paste, the terminal's answers), else
    `PlainKeys`."""
    try:
        parser = importlib.import_module("textual._xterm_parser").XTermParser()
    except (ImportError, AttributeError, TypeError):
        return PlainKeys()
    if not (callable(getattr(parser, "feed", None)) and callable(getattr(parser, "tick", None))):
        return PlainKeys()
    return parser


# -- the tests' pilot --------------------------------------------------------------------


def bound_idle_waits(seconds: float, patch: Callable[[object, str, object], None]) -> bool:
    """Make the pilot's waits for an idle process (after each key and each pause) last at
    most `seconds`, with `patch(module, name, value)` (the tests' monkeypatch). Whether
    Textual had them where this looks."""
    try:
        wait = importlib.import_module("textual._wait").wait_for_idle
    except (ImportError, AttributeError):
        return False

    async def bounded(min_sleep: float = 1 / 50, max_sleep: float = 1) -> None:
        await wait(min_sleep, min(max_sleep, seconds))

    patched = False
    for name in ("textual.app", "textual.pilot"):
        module = importlib.import_module(name)
        if hasattr(module, "wait_for_idle"):
            patch(module, "wait_for_idle", bounded)
            patched = True
    return patched


# -- lines and their caches -------------------------------------------------------------

STRIP_CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""Textual's caches of a `Strip`, by attribute, with their sizes (its `__init__` makes
them all)."""
STRIP_FIELDS = frozenset(
    {"_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count", "list"}
    | {"FIFOCache", *STRIP_CACHES}
)
"""The names `Strip.__init__` uses, in the Textual this replacement was written for."""
STRIP_SLOTS: dict[str, Any] = {name: Strip.__dict__.get(name) for name in STRIP_CACHES}
"""Each cache's slot, as Textual's `Strip` has it (where the lazy caches keep them)."""
_lazy_strips = False


def lazy_strip_caches() -> bool:
    """Make each `Strip`'s caches when first used; whether that is so now.

    Every line a widget draws is a `Strip`, and Textual gives each one seven caches
    (`FIFOCache`, an object and a dict each) when it is made; in this app about 7 in 100
    of them are ever used. The unused ones were about a sixth of the objects a screen
    keeps (6,600 of 40,000 at 80x24), which the garbage collector walks, and about 0.8
    MiB of a session's memory. Here `Strip.__init__` sets what Textual's sets but the
    caches, and each cache attribute (a slot) is read through a property that makes the
    cache on first use. Fallback: where `Strip`'s `__init__` or slots are not the ones
    this was written for, nothing changes (Textual's strips, all caches made at once)."""
    global _lazy_strips
    if _lazy_strips:
        return True
    slots = STRIP_SLOTS
    init = getattr(Strip.__init__, "__code__", None)
    if init is None or set(init.co_names) != STRIP_FIELDS:
        return False
    if not all(type(slot).__name__ == "member_descriptor" for slot in slots.values()):
        return False
    from textual.cache import FIFOCache

    def __init__(self: Strip, segments: Iterable[Any], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    def cache(name: str, slot: Any, size: int) -> property:
        def made(strip: Strip) -> Any:
            try:
                return slot.__get__(strip, Strip)
            except AttributeError:  # not used yet
                made_now = FIFOCache(size)  # type: ignore[var-annotated]
                slot.__set__(strip, made_now)
                return made_now

        return property(made, slot.__set__, doc=f"Strip.{name}, made when first used.")

    for name, size in STRIP_CACHES.items():
        setattr(Strip, name, cache(name, slots[name], size))
    Strip.__init__ = __init__  # type: ignore[method-assign]
    _lazy_strips = True
    return True


# -- the loop an app runs in -------------------------------------------------------------


def keep_tasks_lazy(loop: asyncio.AbstractEventLoop) -> None:
    """Keep the tasks of `loop` lazy, as asyncio makes them, whatever an app's start asks.

    From Python 3.12 Textual's `App.run_async` makes every task later created in the loop
    it runs in eager (`loop.set_task_factory(asyncio.eager_task_factory)`), not only its
    app's, and the app then runs its steps in another order than on Python 3.11: the
    board, fitted to a larger terminal, kept the width of its first layout (half of it
    drawn at 160x50), a screen of a mode mounted its widgets before it was on the stack,
    and in the SSH server, which runs every connection's app and asyncssh itself in one
    loop, a login after a first app's never completed. With lazy tasks every Python runs
    the app as the tests run it. Once per loop."""
    eager = getattr(asyncio, "eager_task_factory", None)
    set_task_factory = loop.set_task_factory
    if eager is None or getattr(set_task_factory, "lazy_only", False):
        return

    def lazy_only(factory: Any) -> None:
        if factory is not eager:
            set_task_factory(factory)

    lazy_only.lazy_only = True  # type: ignore[attr-defined]
    loop.set_task_factory = lazy_only  # type: ignore[method-assign]
