"""The keymap of the settings file as the app uses it: the key a binding has now (the
tips name it), and what is wrong in a keymap (ids no screen has, keys that reach another
binding), each said in one sentence.

The bindings are read from the app's own classes: every screen of `tui.screens` and
`tui.dialogs` with the widgets its module uses (the board of the play screen) and the
app's keys, so that a screen or a binding added later is checked without a list here.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget

from .settings import Settings

PACKAGE = __name__.rpartition(".")[0]
"""`abstracts_tui.tui`: whose classes' bindings the keymap may name."""

SAME_BYTE = {
    "ctrl+h": "backspace",
    "ctrl+i": "tab",
    "ctrl+m": "enter",
    "ctrl+j": "enter",
    "ctrl+left_square_bracket": "escape",
    "ctrl+space": "ctrl+at",
}
"""Keys that most terminals send as the same byte as another key: the app receives the
other one (ctrl+h arrives as Backspace)."""

SPOKEN = {
    "backspace": "Backspace",
    "enter": "Enter",
    "escape": "Esc",
    "space": "Space",
    "tab": "Tab",
    "delete": "Delete",
    "home": "Home",
    "end": "End",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}
"""Keys as a sentence names them."""


def keys_of(binding: Binding) -> list[str]:
    """The keys of `binding` (`"u,ctrl+z"`), each as Textual names it (`?` as question_mark)."""
    return [unrolled.key for unrolled in Binding.make_bindings([binding])]


def spoken(app: App[object], key: str, binding: Binding | None = None) -> str:
    """`key` as a tip names it: `Enter`, `ctrl+s`, `?`, `[` (the binding's own display
    where it has one and keeps its key)."""
    if key in SPOKEN:
        return SPOKEN[key]
    if key.startswith("ctrl+"):
        return key
    if binding is not None and binding.key_display and binding.key.split(",")[0] == key:
        return app.get_key_display(binding)
    return app.get_key_display(Binding(key, ""))


def bindings_of(owner: type[DOMNode], *, own: bool = False) -> Iterator[Binding]:
    """The bindings `owner` declares, its bases' included (with `own`, only the app's
    classes': an input field's keys, for one, reach it only while it is typed in)."""
    for cls in owner.__mro__:
        if own and not cls.__module__.startswith(PACKAGE):
            continue
        for binding in vars(cls).get("BINDINGS", ()):
            if isinstance(binding, Binding):
                yield binding


def bound(app: App[object], binding_id: str, *owners: type[DOMNode]) -> tuple[str, Binding | None]:
    """The first key bound now to `binding_id` (one of `owners`' bindings): the keymap's
    if it gives one; and the binding it has by default (None if none has that id)."""
    default = next((b for owner in owners for b in bindings_of(owner) if b.id == binding_id), None)
    keymap: Mapping[str, str] = getattr(getattr(app, "settings", None), "keymap", {})
    given = keymap.get(binding_id)
    if given is not None:
        return keys_of(Binding(given, ""))[0], None
    return (keys_of(default)[0] if default is not None else binding_id), default


def key_of(app: App[object], binding_id: str, *owners: type[DOMNode]) -> str:
    """The first key bound now to `binding_id` (one of `owners`' bindings), as a tip
    names it: the keymap's if it gives one."""
    key, default = bound(app, binding_id, *owners)
    return spoken(app, key, default)


# -- checking a keymap --------------------------------------------------------------------


def app_classes(app: type[App[Any]]) -> list[type[DOMNode]]:
    """The screens, dialogs and widgets of the app of class `app` (their modules imported):
    those of the packages every app has, and the rooms' own for an app of the rooms. Only
    those packages' classes count, whatever else happens to be imported, so that the
    bindings found are the same in every process."""
    packages = ["screens", "dialogs", "widgets"]
    if app.__module__.startswith(f"{PACKAGE}.rooms"):
        packages.append("rooms")
    prefixes = tuple(f"{PACKAGE}.{package}." for package in packages)
    for package in packages:
        module = importlib.import_module(f"{PACKAGE}.{package}")
        for info in pkgutil.iter_modules(module.__path__):
            importlib.import_module(f"{module.__name__}.{info.name}")
    found: list[type[DOMNode]] = []
    seen: set[type[DOMNode]] = set()
    todo: list[type[DOMNode]] = [DOMNode]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if sub.__module__.startswith(prefixes):
                    found.append(sub)
    return found


def scopes(classes: list[type[DOMNode]]) -> list[list[Binding]]:
    """The bindings that one key press may reach together: a screen's, those of the
    app's widgets its module uses (with their subclasses: every board), and the app's."""
    app_keys = [b for cls in classes if issubclass(cls, App) for b in bindings_of(cls, own=True)]
    widgets = [cls for cls in classes if issubclass(cls, Widget) and not issubclass(cls, Screen)]
    found = []
    for screen in (cls for cls in classes if issubclass(cls, Screen)):
        module = vars(importlib.import_module(screen.__module__)).values()
        classes_used = [n for n in module if isinstance(n, type) and issubclass(n, DOMNode)]
        used = [w for w in widgets if any(issubclass(w, n) for n in classes_used)]
        keys = [b for cls in (screen, *used) for b in bindings_of(cls, own=True)]
        found.append(keys + app_keys)
    return found


def checked_keymap(settings: Settings, app: type[App[Any]]) -> Settings:
    """`settings` with its keymap checked against the bindings of the app of class `app`:
    the entries not to be used left out (their bindings keep their default keys) and
    each named among its problems."""
    wrong = keymap_problems(settings.keymap, app)
    left_out = {name for name, _ in wrong}
    keymap = {name: keys for name, keys in settings.keymap.items() if name not in left_out}
    problems = (*settings.problems, *(sentence for _, sentence in wrong))
    return replace(settings, keymap=keymap, problems=problems)


def keymap_problems(keymap: Mapping[str, str], app: type[App[Any]]) -> list[tuple[str, str]]:
    """What is wrong in `keymap` (binding id to keys) for the app of class `app`: each
    entry not to be used, and one sentence why: an id no binding has, a key that another
    binding of the same screen takes (ctrl+h beside Backspace: terminals send ctrl+h as
    Backspace), a key that terminals send as another. The binding keeps its default keys."""
    classes: list[type[DOMNode]] = [app, *app_classes(app)]
    every = scopes(classes)
    known = {b.id for scope in every for b in scope if b.id}
    problems = []
    for binding_id in keymap:
        if binding_id not in known:
            close = difflib.get_close_matches(binding_id, sorted(known), n=1)
            guess = f" (did you mean {close[0]}?)" if close else ""
            said = f"keymap {binding_id!r} is not a binding id{guess}; it is ignored."
            problems.append((binding_id, said))
    named: set[tuple[str, str]] = set()
    for scope in every:
        problems += clashes(keymap, scope, named)
    return problems


def clashes(
    keymap: Mapping[str, str], scope: list[Binding], said: set[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The keymap's entries in `scope` whose keys reach another binding than the one they
    are given to, or may never arrive, each with its sentence (`said`: the pairs named
    already, by another screen). Bindings that share a key by default are left alone,
    whatever keys they are given: the screen offers one of them at a time (`n`, New or
    Lobby; `x`, Analysis, or Abort and Resign in a shared game)."""
    reached: dict[str, list[tuple[str, str]]] = {}  # key received -> (binding, key given)
    defaults: dict[str, set[str]] = {}  # binding -> the keys it receives by default
    for binding in scope:
        name = binding.id or binding.action
        given = keymap.get(binding.id or "")
        own = {SAME_BYTE.get(key, key) for key in keys_of(binding)}
        defaults.setdefault(name, set()).update(own)
        for key in keys_of(Binding(given, "")) if given else keys_of(binding):
            reached.setdefault(SAME_BYTE.get(key, key), []).append((name, key))
    problems = []
    for received, holders in reached.items():
        # A key the terminal sends as another first: it is the one that cannot work.
        for name, key in sorted(holders, key=lambda holder: holder[1] == received):
            others = [n for n, _ in holders if n != name and not defaults[n] & defaults[name]]
            if name not in keymap:
                continue
            if not others and key != received:
                problems.append(
                    (
                        name,
                        f"keymap {name!r} = {keymap[name]!r} may never arrive: most "
                        f"terminals send {key} as {SPOKEN.get(received, received)}; "
                        f"{name} keeps its default keys.",
                    )
                )
            if not others:
                continue
            other = others[0]
            if (name, other) in said or (other, name) in said:
                continue
            said.add((name, other))
            how = (
                f"terminals send {key} as {SPOKEN.get(received, received)}, which {other} has"
                if key != received
                else f"{other} has {key} too"
            )
            problems.append(
                (
                    name,
                    f"keymap {name!r} = {keymap[name]!r} clashes with {other}: "
                    f"{how}; {name} keeps its default keys: choose another key.",
                )
            )
    return problems


# -- changing a key -------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A binding a key may be given to: its id, what it does, its keys by default."""

    id: str
    description: str
    keys: str


@cache
def app_scopes(app: type[App[Any]]) -> tuple[tuple[Binding, ...], ...]:
    """`scopes` of the app of class `app` (worked out once: its classes do not change)."""
    return tuple(tuple(scope) for scope in scopes([app, *app_classes(app)]))


def entries(app: type[App[Any]]) -> list[Entry]:
    """Every binding of the app of class `app` that has an id, once each, by id."""
    found: dict[str, Entry] = {}
    for scope in app_scopes(app):
        for binding in scope:
            if binding.id and binding.id not in found:
                what = binding.description or binding.action.partition("(")[0].replace("_", " ")
                found[binding.id] = Entry(binding.id, what, binding.key)
    return sorted(found.values(), key=lambda entry: entry.id)


def keys_now(keymap: Mapping[str, str], entry: Entry) -> list[str]:
    """The keys `entry` has with `keymap`: its own there, else its default ones."""
    return keys_of(Binding(keymap.get(entry.id, entry.keys), ""))


@dataclass(frozen=True)
class Rebinding:
    """A key given to a binding: the keymap that results, and the bindings that have
    the key already in a screen where both work (none if the key was free)."""

    keymap: dict[str, str]
    taken_by: tuple[Entry, ...]


def rebind(app: type[App[Any]], keymap: Mapping[str, str], binding_id: str, key: str) -> Rebinding:
    """`keymap` with `key` as the first key of `binding_id` (its other keys kept, and
    the bindings offered instead of it with the same keys given the same), and the
    bindings that have `key` already in a screen where `binding_id` works."""
    every = {entry.id: entry for entry in entries(app)}
    old = keys_now(keymap, every[binding_id])
    changed = dict(keymap)
    changed[binding_id] = ",".join([key, *(k for k in old[1:] if k != key)])
    received = SAME_BYTE.get(key, key)
    taken: dict[str, Entry] = {}
    for scope in app_scopes(app):
        mine = next((b for b in scope if b.id == binding_id), None)
        if mine is None:
            continue
        own = {SAME_BYTE.get(k, k) for k in keys_of(mine)}
        for other in scope:
            if not other.id or other.id == binding_id or other.action == mine.action:
                continue
            theirs = {SAME_BYTE.get(k, k) for k in keys_now(keymap, every[other.id])}
            # Bindings that share a key by default are offered one at a time (`n`: New or
            # Lobby): neither takes a key from the other, and one with the same keys
            # (Undo, and Take back in a shared game) is given the same new keys.
            if own & {SAME_BYTE.get(k, k) for k in keys_of(other)}:
                if keys_now(keymap, every[other.id]) == old:
                    changed[other.id] = changed[binding_id]
            elif received in theirs:
                taken[other.id] = every[other.id]
    return Rebinding(tidy(changed, every), tuple(taken.values()))


def swapped(
    app: type[App[Any]], keymap: Mapping[str, str], binding_id: str, key: str
) -> dict[str, str]:
    """`keymap` with `key` given to `binding_id`, and each binding that had it given
    `binding_id`'s first key in its place."""
    every = {entry.id: entry for entry in entries(app)}
    mine = keys_now(keymap, every[binding_id])[0]
    change = rebind(app, keymap, binding_id, key)
    changed = dict(change.keymap)
    for other in change.taken_by:
        theirs = [mine if k == key else k for k in keys_now(keymap, other)]
        changed[other.id] = ",".join(dict.fromkeys(theirs))
    return tidy(changed, every)


def in_force(app: type[App[Any]], keymap: Mapping[str, str]) -> dict[str, str]:
    """`keymap` as the app is to be given it: with each binding that shares a key with
    one it gives other keys, in the same class, named with its own keys (Textual takes a
    key from every binding of a class when one of them is given other keys: `n` from
    Lobby when New is given `m`)."""
    found = dict(keymap)
    for cls in [app, *app_classes(app)]:
        own = [b for b in vars(cls).get("BINDINGS", ()) if isinstance(b, Binding) and b.id]
        for binding in own:
            if binding.id not in keymap:
                continue
            for other in own:
                if other.id not in found and set(keys_of(other)) & set(keys_of(binding)):
                    found[str(other.id)] = other.key
    return found


def tidy(keymap: dict[str, str], every: Mapping[str, Entry]) -> dict[str, str]:
    """`keymap` without the entries that give a binding its default keys."""
    return {
        name: keys
        for name, keys in keymap.items()
        if name not in every or keys_of(Binding(keys, "")) != keys_of(Binding(every[name].keys, ""))
    }
