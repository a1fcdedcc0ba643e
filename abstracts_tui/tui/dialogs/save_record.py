"""Saving a record (ctrl+s): the folders and the records in them as Open shows them, the
folder chosen, and the file's name, suggested."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, DirectoryTree, Input, Static

from .base import Dialog, KeyButton
from .open_record import PathSuggester, RecordTree, folder_text
from .path import path_error


class SaveRecordDialog(Dialog[str | None]):
    """Choose where to save a record: Enter on a folder in the tree makes it the folder,
    on a record takes its name (to replace it); the name field holds `name` to start with
    (→ completes a path typed). Enter in the field saves; dismissed with the path (`~`
    expanded), or None on Escape."""

    CSS_PATH = ["dialogs.tcss", "open_record.tcss"]
    BINDINGS = [
        Binding("tab", "app.focus_next", "Next part", id="save.next_part"),
        Binding("escape", "cancel", "Cancel", id="save.cancel"),
    ]

    def __init__(self, folder: Path, name: str, *, ascii: bool = False) -> None:
        super().__init__("Save the game record")
        self.folder = folder
        self.suggested = name
        self.ascii = ascii

    def compose_body(self) -> ComposeResult:
        tree = RecordTree(self.folder, ascii=self.ascii, id="tree")
        tree.border_title = f"Folders and records in {folder_text(self.folder)}"
        yield tree
        yield Static(self.folder_line(), id="save-folder", markup=False)
        yield Input(self.suggested, suggester=PathSuggester(), compact=True, id="path")
        yield Static("", classes="dialog-error", id="path-note", markup=False)
        yield self.button_row(
            KeyButton("Save (enter)", variant="primary", id="accept"),
            KeyButton("Cancel (esc)", id="cancel"),
        )

    def folder_line(self) -> str:
        return f"Save in {folder_text(self.folder)} as (a path of its own also does):"

    def on_mount(self) -> None:
        field = self.query_one("#path", Input)
        field.focus()
        field.cursor_position = len(Path(self.suggested).stem)  # before `.sgf`: the name to change

    def target(self) -> Path:
        typed = Path(self.query_one("#path", Input).value.strip()).expanduser()
        return typed if typed.is_absolute() else self.folder / typed

    def save(self) -> None:
        """Save to the name typed, in the folder chosen, if it can be; else say why."""
        path = self.target()
        error = path_error(str(path), must_exist=False)
        if not self.query_one("#path", Input).value.strip():
            error = "Type a file name"
        if error is not None:
            self.query_one("#path-note", Static).update(f"{error}.")
            self.app.bell()
            return
        self.dismiss(str(path))

    @on(DirectoryTree.DirectorySelected, "#tree")
    def _folder_chosen(self, event: DirectoryTree.DirectorySelected) -> None:
        self.folder = event.path.absolute()
        self.query_one("#save-folder", Static).update(self.folder_line())

    @on(DirectoryTree.FileSelected, "#tree")
    def _file_chosen(self, event: DirectoryTree.FileSelected) -> None:
        self.folder = event.path.parent.absolute()
        self.query_one("#save-folder", Static).update(self.folder_line())
        self.query_one("#path", Input).value = event.path.name
        self.query_one("#path", Input).focus()

    @on(Input.Changed, "#path")
    def _path_changed(self) -> None:
        exists = self.target().is_file()
        note = "The file exists and will be replaced." if exists else ""
        self.query_one("#path-note", Static).update(note)

    @on(Input.Submitted, "#path")
    def _path_typed(self) -> None:
        self.save()

    def action_accept(self) -> None:
        self.save()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self.save()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
