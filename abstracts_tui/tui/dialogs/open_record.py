"""Opening a record (ctrl+o): the records opened lately, a tree of the folders and their
records, and a path typed with completion."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.suggester import Suggester
from textual.widgets import Button, DirectoryTree, Input, OptionList, Static
from textual.widgets.option_list import Option

from .base import Dialog, KeyButton
from .path import path_error

RECORD_SUFFIXES = (".sgf",)
"""The files the app reads as records (`Record.load`)."""


def is_record(path: Path) -> bool:
    return path.suffix.lower() in RECORD_SUFFIXES


def is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a folder not to be looked into: not listed
        return False


def shown_path(path: Path, here: Path) -> str:
    """`path` as the player reads it: from the current folder `here` when inside it,
    else as `folder_text` gives it."""
    try:
        return str(path.relative_to(here))
    except ValueError:
        return folder_text(path)


def folder_text(path: Path) -> str:
    """`~/games/a.sgf` inside the home folder, else the whole path."""
    try:
        inside = path.relative_to(Path.home())
    except ValueError:
        return str(path)
    return "~" if inside == Path() else f"~/{inside}"


class RecordTree(DirectoryTree):
    """The folders and the records in them (no other files, nothing hidden)."""

    ICON_NODE_EXPANDED = "▾ "
    ICON_NODE = "▸ "
    ICON_FILE = "  "

    def __init__(self, path: Path, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(path, id=id)
        if ascii:
            self.ICON_NODE_EXPANDED, self.ICON_NODE = "- ", "+ "

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [
            path
            for path in paths
            if not path.name.startswith(".") and (is_record(path) or is_folder(path))
        ]


class PathSuggester(Suggester):
    """Completes the last part of a typed path from the folder it is in: the first folder
    or record whose name goes on from what is typed (a folder with its `/`)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)  # the folders change

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        typed = Path(os.path.expanduser(value))
        folder, start = (typed, "") if value.endswith("/") else (typed.parent, typed.name)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return None
        for name in names:
            if not name.startswith(start) or name == start:
                continue
            if name.startswith(".") and not start.startswith("."):
                continue
            path = folder / name
            if is_folder(path):
                return value + name[len(start) :] + "/"
            if is_record(path):
                return value + name[len(start) :]
        return None


class OpenRecordDialog(Dialog[str | None]):
    """Choose a record to open: Enter on a recent one or on one in the tree opens it, or
    type its path (→ completes it) and Enter. Dismissed with the path (`~` expanded), or
    None on Escape. The tree starts in `folder`; a folder typed (ending in `/`) shows it."""

    CSS_PATH = ["dialogs.tcss", "open_record.tcss"]
    BINDINGS = [
        Binding("tab", "app.focus_next", "Next part", id="open.next_part"),
        Binding("escape", "cancel", "Cancel", id="open.cancel"),
    ]

    def __init__(self, recent: list[Path], folder: Path, *, ascii: bool = False) -> None:
        super().__init__("Open a game record")
        self.recent = recent
        self.folder = folder
        self.ascii = ascii

    def compose_body(self) -> ComposeResult:
        recent = OptionList(
            *(Option(shown_path(path, self.folder)) for path in self.recent), id="recent"
        )
        recent.border_title = "Opened lately"
        recent.display = bool(self.recent)
        yield recent
        tree = RecordTree(self.folder, ascii=self.ascii, id="tree")
        tree.border_title = f"Records in {folder_text(self.folder)}"
        yield tree
        yield Input(
            placeholder="or type a path (→ completes it)",
            suggester=PathSuggester(),
            compact=True,
            id="path",
        )
        yield Static("", classes="dialog-error", id="path-note", markup=False)
        yield self.button_row(
            KeyButton("Open (enter)", variant="primary", id="accept"),
            KeyButton("Cancel (esc)", id="cancel"),
        )

    def on_mount(self) -> None:
        self.query_one("#recent" if self.recent else "#tree").focus()

    def open(self, path: Path | str) -> None:
        """Open `path` if it names a file, else say why not and stay."""
        text = str(path)
        error = path_error(text, must_exist=True)
        if error is not None:
            self.query_one("#path-note", Static).update(f"{error}.")
            self.app.bell()
            return
        self.dismiss(str(Path(text.strip()).expanduser()))

    @on(OptionList.OptionSelected, "#recent")
    def _recent_chosen(self, event: OptionList.OptionSelected) -> None:
        self.open(self.recent[event.option_index])

    @on(DirectoryTree.FileSelected, "#tree")
    def _file_chosen(self, event: DirectoryTree.FileSelected) -> None:
        self.open(event.path)

    @on(Input.Submitted, "#path")
    def _path_typed(self, event: Input.Submitted) -> None:
        self.open(event.value)

    @on(Input.Changed, "#path")
    def _path_changed(self, event: Input.Changed) -> None:
        self.query_one("#path-note", Static).update("")
        typed = Path(os.path.expanduser(event.value))
        if event.value.endswith("/") and typed.is_dir():
            tree = self.query_one("#tree", RecordTree)
            tree.path = typed
            tree.border_title = f"Records in {folder_text(typed.absolute())}"

    def action_accept(self) -> None:
        self.open(self.query_one("#path", Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self.action_accept()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
