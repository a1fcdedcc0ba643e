"""The command palette's commands (ctrl+p): the themes, the colour-blind palette, ASCII
drawing and the keymap in force. A choice applies at once, and is kept in the settings
file where the app has one of its own (not over SSH or in a browser: the server's file is
not the player's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from textual.app import SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen

from .policy import Policy
from .settings import Settings, save_setting, settings_path
from .themes import theme_names

COLOUR_BLIND = "colour-blind"


class Host(Protocol):
    """What the palette's commands use of the app (`app.AbstractsApp`)."""

    theme: str
    ascii: bool
    settings: Settings
    policy: Policy

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    def set_class(self, add: bool, *class_names: str) -> object: ...

    def push_screen(self, screen: Screen[Any]) -> object: ...

    def action_settings(self) -> None: ...

    def notify(
        self, message: str, *, severity: SeverityLevel = ..., markup: bool = ...
    ) -> None: ...


def commands(app: Host, screen: Screen[object]) -> Iterator[SystemCommand]:
    """The palette's commands for `app`, opened over `screen`."""
    for name in theme_names():
        if name == COLOUR_BLIND:
            title = "Theme: colour-blind palette (Okabe-Ito colours)"
            help = "Colours that stay apart for the common kinds of colour blindness"
        else:
            title, help = f"Theme: {name}", "Colours of the screens and the board"
        if name == app.theme:
            help += " (in use)"
        yield SystemCommand(title, help, partial(choose_theme, app, name))
    ascii = "off" if app.ascii else "on"
    yield SystemCommand(
        f"ASCII drawing {ascii}",
        "Boards and keys drawn with ASCII characters only" + (" (in use)" if app.ascii else ""),
        partial(set_ascii, app, not app.ascii),
    )
    yield SystemCommand(
        "Keymap: the keys in force",
        "Every key of this screen by binding id, the ids of the settings file's keymap table",
        partial(show_keymap, app, screen),
    )
    yield SystemCommand(
        "Settings (F2)",
        "Theme, each key, the computer's level, ASCII drawing and line mode",
        app.action_settings,
    )
    yield SystemCommand(
        "Puzzles",
        "Positions where one move alone wins, as the solver proves: find it",
        partial(open_puzzles, app),
    )


def open_puzzles(app: Host) -> None:
    """The puzzle screen with every shipped puzzle (`tui/screens/puzzle.py`)."""
    from ..puzzles.shipped import load_all
    from .screens.puzzle import PuzzleScreen

    app.push_screen(PuzzleScreen(load_all(), ascii=app.ascii))


def choose_theme(app: Host, name: str) -> str:
    """Draw with theme `name` at once and keep it; the sentence said."""
    app.theme = name
    app.settings = replace(app.settings, theme=name)
    return keep(app, "theme", name, f"Theme {name}")


def set_ascii(app: Host, on: bool) -> str:
    """Draw every board and the footers' keys in ASCII (or not), at once; the sentence
    said."""
    from .widgets.board_view import BoardView

    app.ascii = on
    app.set_class(on, "-ascii")
    app.settings = replace(app.settings, ascii=on)
    for screen in app.screen_stack:
        board = getattr(screen, "board", None)
        if isinstance(board, BoardView):
            board.set_ascii(on)
        if hasattr(screen, "ascii"):
            screen.ascii = on
        draw = getattr(screen, "draw", None)
        if callable(draw):
            draw()  # the analysis panel's bar and graph
        screen.refresh_bindings()  # the footer's key names
    return keep(app, "ascii", on, f"ASCII drawing {'on' if on else 'off'}")


def keep(app: Host, key: str, value: str | bool, done: str) -> str:
    """Save `key = value` in the settings file and say so, or say why not; the
    sentence said."""
    return kept(app, partial(save_setting, key=key, value=value), done)


def kept(app: Host, save: Callable[[Path], None], done: str) -> str:
    """Run `save` on the settings file's path and say in one sentence that `done` is
    kept there, or why it is for this session only (the app goes on with it); the
    sentence said."""
    if not app.policy.files:
        said = f"{done} for this session (the server keeps no settings of yours)."
        app.notify(said, markup=False)
        return said
    path = app.settings.path or settings_path()
    try:
        save(path)
    except OSError as error:
        from ..files import describe

        said = f"{done} for this session; not kept in {path}: {describe(error)}."
        app.notify(said, severity="warning", markup=False)
        return said
    said = f"{done}; kept in {path}."
    app.notify(said, markup=False)
    return said


def keymap_text(app: Host, screen: Screen[object]) -> str:
    """The keys in force on `screen` now, one line a binding id: its keys and what it does."""
    found: dict[str, tuple[list[str], str]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.id:
            continue
        keys, _ = found.setdefault(binding.id, ([], binding.description or binding.action))
        if key not in keys:
            keys.append(key)
    width = max((len(name) for name in found), default=0)
    keys_width = max((len(",".join(keys)) for keys, _ in found.values()), default=0)
    lines = [
        f"{name:<{width}}  {','.join(keys):<{keys_width}}  {what}"
        + ("  (settings file)" if name in app.settings.keymap else "")
        for name, (keys, what) in sorted(found.items())
    ]
    lines += [
        "",
        "F2 (Settings) gives a binding other keys; the settings file's [keymap] table",
        'holds them by these ids, e.g. "play.hint" = "h".',
    ]
    return "\n".join(lines)


def show_keymap(app: Host, screen: Screen[object]) -> None:
    from .dialogs.reading import ReadingDialog

    app.push_screen(ReadingDialog("Keys in force", keymap_text(app, screen)))
