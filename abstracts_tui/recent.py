"""The records opened lately, newest first: what the file picker (ctrl+o) offers first.

A short list of paths, one a line, in `recent-records.txt` in the data folder. It is a
convenience: a list that cannot be read or written is left as it is, and a file that
has gone since is not offered.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from .files import write_atomic

FILE = "recent-records.txt"
KEPT = 8
"""How many paths are kept."""


class RecentRecords:
    """The records opened from the data folder `data`'s app, newest first."""

    def __init__(self, data: Path) -> None:
        self.path = data / FILE

    def read(self) -> list[Path]:
        """The paths kept that still name a file, newest first."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        paths = [Path(line) for line in text.splitlines() if line.strip()]
        return [path for path in paths[:KEPT] if path.is_file()]

    def add(self, path: str | Path) -> None:
        """Put `path` (made absolute) first; nothing is said if the list cannot be kept."""
        opened = Path(path).expanduser().absolute()
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        kept = [line for line in text.splitlines() if line.strip() and Path(line) != opened]
        lines = [str(opened), *kept][:KEPT]
        # Not kept, the record is open all the same: the list is only a shortcut.
        with contextlib.suppress(OSError):
            write_atomic(self.path, "".join(f"{line}\n" for line in lines), private=True)
