"""A yes/no question, e.g. "Delete this variation?"."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Button, Static

from .base import Dialog, KeyButton


class ConfirmDialog(Dialog[bool]):
    """Ask `question`; dismissed with True for yes (`y`, Enter) or False (`n`, Escape)."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", key_display="y/enter", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", key_display="n/esc", id="confirm.no"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__("Please confirm")
        self.question = question
        self.yes = yes
        self.no = no

    def compose_body(self) -> ComposeResult:
        yield Static(self.question, classes="dialog-text", markup=False)
        yield self.button_row(
            KeyButton(Content(f"{self.yes} (y)"), variant="primary", id="yes"),
            KeyButton(Content(f"{self.no} (n)"), id="no"),
        )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
