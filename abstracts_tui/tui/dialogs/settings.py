"""The settings, changed in the app (F2, or ctrl+p's Settings): the theme, shown as it is
chosen; the computer's level; ASCII drawing; line mode at the next start; and each key
binding, given the next key pressed. Each change is kept in the settings file at once (as
`palette.py` keeps the palette's), and applies at once."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...engine.levels import LEVELS
from ..keymaps import (
    Entry,
    entries,
    in_force,
    keymap_problems,
    keys_now,
    rebind,
    spoken,
    swapped,
)
from ..palette import choose_theme, keep, kept, set_ascii
from ..settings import save_keymap
from ..themes import theme_names
from ..widgets.steppers import ChoiceRow, Stepper
from .base import Dialog

if TYPE_CHECKING:
    from ..palette import Host

ON_OFF = ["off", "on"]
ID_WIDTH = 24
"""Columns of a binding's id in the list of keys (the longest, `study.previous_variation`)."""
KEYS_WIDTH = 10
"""Columns of a binding's keys in the list (longer ones push its description on)."""


FIRST = ("play", "board", "study", "select", "room", "app")
"""The bindings listed first, by the part of their ids before the dot: the game's keys
ahead of the dialogs'."""


def shown_first(entry: Entry) -> tuple[int, str]:
    part = entry.id.partition(".")[0]
    return (FIRST.index(part) if part in FIRST else len(FIRST), entry.id)


def listed(names: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


class KeyList(OptionList):
    """The list of key bindings, whose Enter (the list's own) is named for what it does
    here."""

    BINDINGS = [
        Binding("enter", "select", "New key", key_display="⏎", id="settings.new_key"),
    ]


class SettingsDialog(Dialog[None]):
    """The settings: a row each for the theme, the level, ASCII and line mode (←/→
    change them), and the list of key bindings (Enter gives one a new key, Delete gives
    it back its default keys)."""

    DEFAULT_CSS = """
    SettingsDialog .dialog-box {
        width: 84;
        height: 1fr;
    }
    SettingsDialog #settings-note {
        height: auto;
        min-height: 1;
        margin: 1 0;
        color: $text-muted;
    }
    SettingsDialog #settings-note.-warning {
        color: $text-warning;
    }
    SettingsDialog #settings-keys {
        height: 1fr;
        border: round $border-blurred;
        border-title-style: bold;
        border-title-color: $foreground;
    }
    SettingsDialog #settings-keys:focus {
        border: heavy $border;
    }
    App.-ascii SettingsDialog #settings-keys {
        border: ascii $border-blurred;
    }
    """
    BINDINGS = [
        Binding("up", "row(-1)", "Setting", key_display="↑↓", show=False, id="settings.up"),
        Binding("down", "row(1)", "Setting", key_display="↑↓", id="settings.down"),
        Binding("tab", "app.focus_next", "Keys", key_display="tab", id="settings.keys"),
        Binding("shift+tab", "app.focus_previous", "Back", show=False),
        Binding("delete", "default_key", "Default key", key_display="del", id="settings.default"),
        Binding("escape", "close", "Close", key_display="esc", id="settings.close"),
    ]

    def __init__(self) -> None:
        super().__init__("Settings")

    @property
    def host(self) -> Host:
        """The app, as the palette's commands use it (the settings, ASCII drawing)."""
        return cast("Host", self.app)

    def compose_body(self) -> ComposeResult:
        settings = self.host.settings
        themes = theme_names()
        yield ChoiceRow(
            "Theme", themes, themes.index(self.app.theme), hint="shown at once", id="theme"
        )
        yield ChoiceRow(
            "Level",
            list(LEVELS),
            list(LEVELS).index(settings.level),
            hint="for seats the computer plays",
            id="level",
        )
        yield ChoiceRow("ASCII", ON_OFF, int(self.host.ascii), hint="boards and keys", id="ascii")
        yield ChoiceRow(
            "Line mode", ON_OFF, int(settings.lines), hint="from the next start", id="lines"
        )
        yield Static(
            "←/→ change a setting; it is kept in the settings file at once. In the keys: "
            "Enter, then the new key.",
            id="settings-note",
            markup=False,
        )
        keys = KeyList(*self.key_options(), id="settings-keys")
        keys.border_title = "Keys"
        yield keys

    def on_mount(self) -> None:
        self.query_one("#theme").focus()

    # -- the keys -----------------------------------------------------------------------

    def key_options(self) -> list[Option]:
        keymap = self.host.settings.keymap
        found = []
        for entry in sorted(entries(type(self.app)), key=shown_first):
            keys = " ".join(spoken(self.app, key) for key in keys_now(keymap, entry))
            mine = " (yours)" if entry.id in keymap else ""
            text = f"{entry.id:<{ID_WIDTH}} {keys:<{KEYS_WIDTH}} {entry.description}{mine}"
            found.append(Option(Content(text), id=entry.id))
        return found

    def show_keys(self) -> None:
        keys = self.query_one("#settings-keys", OptionList)
        highlighted = keys.highlighted
        keys.clear_options()
        keys.add_options(self.key_options())
        keys.highlighted = highlighted

    def chosen_entry(self) -> Entry | None:
        keys = self.query_one("#settings-keys", OptionList)
        if keys.highlighted is None:
            return None
        chosen = keys.get_option_at_index(keys.highlighted).id
        return next((entry for entry in entries(type(self.app)) if entry.id == chosen), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Delete acts on the list of keys, only while it has the focus; ↑↓ go from row
        to row."""
        if action == "default_key":
            return self.focused is self.query_one("#settings-keys")
        if action == "row":  # the list's own ↑↓ move in it
            return isinstance(self.focused, ChoiceRow)
        return True

    def action_row(self, step: int) -> None:
        if step < 0:
            self.focus_previous()
        else:
            self.focus_next()

    @on(OptionList.OptionSelected, "#settings-keys")
    def _selected(self) -> None:
        self.action_new_key()

    def action_new_key(self) -> None:
        from .new_key import NewKeyDialog

        entry = self.chosen_entry()
        if entry is None:
            return
        now = ",".join(keys_now(self.host.settings.keymap, entry))
        self.app.push_screen(
            NewKeyDialog(entry.description, entry.id, now), partial(self.key_pressed, entry)
        )

    def key_pressed(self, entry: Entry, key: str | None) -> None:
        if key is None:
            self.say(f"{entry.description} ({entry.id}) keeps its keys.")
            return
        app = type(self.app)
        keymap = self.host.settings.keymap
        change = rebind(app, keymap, entry.id, key)
        if not change.taken_by:
            self.use_keymap(change.keymap, f"{entry.id} is now {key}")
            return
        from .confirm import ConfirmDialog

        mine = spoken(self.app, keys_now(keymap, entry)[0])
        given = spoken(self.app, key)
        others = listed([f"{other.description} ({other.id})" for other in change.taken_by])
        question = (
            f"{given} is the key of {others} on the same screen. Swap: {entry.description} "
            f"gets {given}, and {others} {mine}?"
        )

        def answered(swap: bool | None) -> None:
            if swap:
                both = swapped(app, keymap, entry.id, key)
                self.use_keymap(both, f"{entry.id} is now {given}, and {others} {mine}")
            else:
                self.say(f"Not changed: {given} stays the key of {others}.")

        self.app.push_screen(ConfirmDialog(question, yes="Swap", no="Keep"), answered)

    def action_default_key(self) -> None:
        entry = self.chosen_entry()
        if entry is None:
            return
        keymap = dict(self.host.settings.keymap)
        if keymap.pop(entry.id, None) is None:
            self.say(f"{entry.id} has its default keys ({entry.keys}).")
            return
        self.use_keymap(keymap, f"{entry.id} has its default keys again")

    def use_keymap(self, keymap: dict[str, str], done: str) -> None:
        """Apply `keymap` at once and keep it, unless a key in it could not work (a key
        terminals send as another): then nothing changes and the reason is said."""
        old = self.host.settings.keymap
        changed = {name for name in {*keymap, *old} if keymap.get(name) != old.get(name)}
        problems = [s for name, s in keymap_problems(keymap, type(self.app)) if name in changed]
        if problems:
            self.app.bell()
            self.say(f"Not changed: {problems[0]}", warning=True)
            return
        self.host.settings = replace(self.host.settings, keymap=keymap)
        self.app.set_keymap(in_force(type(self.app), keymap))
        self.show_keys()
        self.say(kept(self.host, partial(save_keymap, keymap=keymap), done))

    # -- the rows -----------------------------------------------------------------------

    @on(Stepper.Changed, "#theme")
    def _theme(self, event: Stepper.Changed) -> None:
        self.say(choose_theme(self.host, theme_names()[event.index]))

    @on(Stepper.Changed, "#level")
    def _level(self, event: Stepper.Changed) -> None:
        level = list(LEVELS)[event.index]
        self.host.settings = replace(self.host.settings, level=level)
        self.say(keep(self.host, "level", level, f"Level {level}"))

    @on(Stepper.Changed, "#ascii")
    def _ascii(self, event: Stepper.Changed) -> None:
        self.say(set_ascii(self.host, bool(event.index)))

    @on(Stepper.Changed, "#lines")
    def _lines(self, event: Stepper.Changed) -> None:
        on = bool(event.index)
        self.host.settings = replace(self.host.settings, lines=on)
        done = f"Line mode {'from the next start' if on else 'off from the next start'}"
        self.say(keep(self.host, "lines", on, done))

    def say(self, text: str, *, warning: bool = False) -> None:
        note = self.query_one("#settings-note", Static)
        note.update(text)
        note.set_class(warning or "not kept" in text, "-warning")

    def action_close(self) -> None:
        self.dismiss(None)
