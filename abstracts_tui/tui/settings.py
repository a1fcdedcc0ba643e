"""The user's settings: a TOML file in the platform's config folder.

```toml
# ~/.config/abstracts-tui/settings.toml on Linux
theme = "colour-blind"     # any Textual theme, or colour-blind
ascii = false              # draw with ASCII characters only
lines = false              # line mode for a screen reader, as --lines
level = "medium"           # the computer's strength when a seat is set to the computer
[sizes]                    # board size chosen first on the selection screen, by game
petrify = 10
[keymap]                   # other keys, by binding id (see the help screen's ids)
"play.hint" = "o"
"board.left" = "left,a"
```

A file that cannot be read or holds a wrong value never stops the app: it starts with
the defaults for what is wrong, and says why in one sentence.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.levels import DEFAULT_LEVEL, LEVELS
from ..files import write_atomic
from ..rules.catalogue import CATALOGUE
from .themes import theme_names

CONFIG_VARIABLE = "ABSTRACTS_TUI_CONFIG"
"""A settings file to read instead of the one in the config folder (tests, trials)."""


def settings_path() -> Path:
    """Where the settings are read from: `ABSTRACTS_TUI_CONFIG`, else the config folder."""
    named = os.environ.get(CONFIG_VARIABLE)
    if named:
        return Path(named)
    from platformdirs import user_config_dir

    return Path(user_config_dir("abstracts-tui", appauthor=False)) / "settings.toml"


@dataclass(frozen=True)
class Settings:
    theme: str = "textual-dark"
    ascii: bool = False
    level: str = DEFAULT_LEVEL
    sizes: dict[str, int] = field(default_factory=dict)
    keymap: dict[str, str] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    """What was wrong in the file, one sentence each naming the setting (the defaults
    were used instead)."""
    path: Path | None = None
    """The file the settings were read from (None: the defaults, no file read)."""
    lines: bool = False
    """Line mode for every start (`--lines`): plain lines for a screen reader."""


def shown_value(value: object) -> str:
    """A value as it is written in TOML: `"pink"`, `true`, `3`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def problems_report(settings: Settings) -> str:
    """Every problem of the settings file in one text: the file, then one line a setting."""
    where = f"the settings file {settings.path}" if settings.path else "the settings file"
    lines = [f"The app started with the defaults for what is wrong in {where}:", ""]
    lines += [f"- {problem}" for problem in settings.problems]
    lines += [
        "",
        "Mend the file and start the app again to use your settings; ctrl+p chooses a "
        "theme or ASCII drawing now, and keeps the choice in the file.",
    ]
    return "\n".join(lines)


def load_settings(path: Path | None = None) -> Settings:
    """The settings in `path` (by default `settings_path()`); none if there is no file."""
    path = path or settings_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError) as error:
        return Settings(problems=(f"The file could not be read: {error}.",), path=path)
    except tomllib.TOMLDecodeError as error:
        return Settings(problems=(f"The file is not TOML: {error}.",), path=path)
    return read(data, path)


def read(data: dict[str, Any], path: Path) -> Settings:
    """Settings from parsed TOML; wrong values are left out and named in `problems`."""
    problems: list[str] = []

    def wrong(key: str, allowed: str) -> None:
        table, _, name = key.partition(".")
        value = data.get(table)
        if name:
            value = value.get(name) if isinstance(value, dict) else None
        problems.append(f"{key} = {shown_value(value)}: must be {allowed}; the default is used.")

    theme = data.get("theme", Settings.theme)
    if theme not in theme_names():
        wrong("theme", "one of " + ", ".join(theme_names()))
        theme = Settings.theme
    ascii = data.get("ascii", False)
    if not isinstance(ascii, bool):
        wrong("ascii", "true or false")
        ascii = False
    lines = data.get("lines", False)
    if not isinstance(lines, bool):
        wrong("lines", "true or false")
        lines = False
    level = data.get("level", DEFAULT_LEVEL)
    if level not in LEVELS:
        wrong("level", "one of " + ", ".join(LEVELS))
        level = DEFAULT_LEVEL
    sizes: dict[str, int] = {}
    for game, size in dict(data.get("sizes", {})).items():
        info = CATALOGUE.get(game)
        if info is None or size not in info.sizes:
            where = f"{min(info.sizes)} to {max(info.sizes)}" if info else "a game's name"
            wrong(f"sizes.{game}", where)
        else:
            sizes[game] = size
    keymap: dict[str, str] = {}
    for binding, keys in dict(data.get("keymap", {})).items():
        if isinstance(keys, str) and keys.strip():
            keymap[str(binding)] = keys
        else:
            wrong(f"keymap.{binding}", 'keys such as "h" or "left,a"')
    known = ("theme", "ascii", "lines", "level", "sizes", "keymap")
    for key in sorted(set(data) - set(known)):
        problems.append(f"{key}: not a setting ({', '.join(known)}); ignored.")
    return Settings(theme, ascii, level, sizes, keymap, tuple(problems), path, lines)


def save_setting(path: Path, key: str, value: str | bool) -> None:
    """Write `key = value` at the top level of the settings file at `path`, keeping the
    rest of it (comments, tables) as it is; the file and its folder are made if missing.
    The file is replaced whole, never left half written. Raises OSError."""
    lines = read_lines(path)
    line = f"{key} = {shown_value(value)}"
    tables = next((i for i, old in enumerate(lines) if old.lstrip().startswith("[")), len(lines))
    pattern = re.compile(rf"\s*{re.escape(key)}\s*=")
    found = next((i for i in range(tables) if pattern.match(lines[i])), None)
    if found is None:
        lines.insert(tables, line)
    else:
        lines[found] = line
    write_atomic(path, "\n".join(lines) + "\n")


def save_keymap(path: Path, keymap: dict[str, str]) -> None:
    """Write `keymap` as the settings file's `[keymap]` table, whole (an entry left out
    is a binding back to its default keys), keeping the rest of the file as it is; the
    file and its folder are made if missing. Replaced whole, never left half written.
    Raises OSError."""
    lines = read_lines(path)
    entry = re.compile(r"\s*(\"[^\"]*\"|[\w.-]+)\s*=")
    start = next((i for i, line in enumerate(lines) if line.strip() == "[keymap]"), None)
    if start is None:
        # An inline `keymap = {...}` at the top level would be a second keymap.
        tables = next((i for i, line in enumerate(lines) if line.lstrip().startswith("[")), None)
        top = len(lines) if tables is None else tables
        lines = [
            line for i, line in enumerate(lines) if i >= top or not re.match(r"\s*keymap\s*=", line)
        ]
        if not keymap:
            write_atomic(path, "\n".join(lines) + "\n")
            return
        if lines and lines[-1].strip():
            lines.append("")
        lines.append("[keymap]")
        start = len(lines) - 1
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines)
    )
    kept = [line for line in lines[start + 1 : end] if not entry.match(line)]
    written = [f"{shown_value(name)} = {shown_value(keys)}" for name, keys in keymap.items()]
    lines[start + 1 : end] = written + kept
    write_atomic(path, "\n".join(lines) + "\n")


def read_lines(path: Path) -> list[str]:
    """The settings file's lines; none if there is no file yet. Raises OSError."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
