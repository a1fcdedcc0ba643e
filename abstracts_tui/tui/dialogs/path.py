"""Asking for a file name to save a record to or load one from."""

from __future__ import annotations

from pathlib import Path

from .text import TextDialog


def path_error(text: str, must_exist: bool) -> str | None:
    """None if `text` names a file to load (`must_exist`) or a place to save one, else why not."""
    if not text.strip():
        return "Type a file name"
    path = Path(text.strip()).expanduser()
    if path.is_dir():
        return f"{path} is a folder: add a file name"
    if must_exist:
        return None if path.is_file() else f"There is no file {path}"
    parent = path.parent
    if not parent.is_dir():
        return f"The folder {parent} does not exist"
    return None


class PathDialog(TextDialog):
    """A file path for Save or Load; dismissed with the path (`~` expanded) or None on Escape.

    With `must_exist` the file must exist (loading); otherwise its folder must (saving).
    """

    def __init__(self, title: str, default: str, must_exist: bool) -> None:
        what = "The file to load:" if must_exist else "Save the record to the file:"
        super().__init__(
            title,
            f"{what}\n(a relative path starts in {Path.cwd()})",
            default,
            lambda text: path_error(text, must_exist),
        )
        self.must_exist = must_exist

    def warning(self, text: str) -> str:
        exists = not self.must_exist and Path(text.strip()).expanduser().exists()
        return "The file exists and will be replaced" if exists else ""

    def answer(self, text: str) -> str:
        return str(Path(text.strip()).expanduser())
