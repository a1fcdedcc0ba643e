"""Asking for a file name to save a record to or load one from."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Static

from .base import FieldDialog, KeyButton


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


class PathValidator(Validator):
    """Validates a file path as typed (see `path_error`)."""

    def __init__(self, must_exist: bool) -> None:
        super().__init__()
        self.must_exist = must_exist

    def validate(self, value: str) -> ValidationResult:
        error = path_error(value, self.must_exist)
        return self.success() if error is None else self.failure(error, value)


class PathDialog(FieldDialog[str | None]):
    """A file path for Save or Load; dismissed with the path (`~` expanded) or None on Escape.

    With `must_exist` the file must exist (loading); otherwise its folder must (saving).
    """

    BINDINGS = [
        Binding("enter", "accept", "OK", priority=True, id="path.accept"),
        Binding("escape", "cancel", "Cancel", id="path.cancel"),
    ]

    def __init__(self, title: str, default: str, must_exist: bool) -> None:
        super().__init__(title)
        self.default = default
        self.must_exist = must_exist

    def compose_body(self) -> ComposeResult:
        what = "The file to load:" if self.must_exist else "Save the record to the file:"
        yield Static(
            f"{what}\n(a relative path starts in {Path.cwd()})",
            classes="dialog-text",
            markup=False,
        )
        yield Input(self.default, validators=[PathValidator(self.must_exist)], id="path")
        yield Static("", classes="dialog-error", id="path-note", markup=False)
        yield self.button_row(
            KeyButton("OK (enter)", variant="primary", id="accept"),
            KeyButton("Cancel (esc)", id="cancel"),
        )

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()
        self._check(self.default)

    @on(Input.Changed, "#path")
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    def _check(self, text: str) -> str | None:
        error = path_error(text, self.must_exist)
        note = self.query_one("#path-note", Static)
        exists = not self.must_exist and error is None and Path(text.strip()).expanduser().exists()
        note.update(error or ("The file exists and will be replaced" if exists else ""))
        note.set_class(error is None, "-warning")
        self.set_valid(error is None)
        return error

    def action_accept(self) -> None:
        text = self.query_one("#path", Input).value
        if self._check(text) is not None:
            self.app.bell()
            return
        self.dismiss(str(Path(text.strip()).expanduser()))

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self.action_accept()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
