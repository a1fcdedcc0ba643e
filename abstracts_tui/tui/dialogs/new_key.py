"""Waiting for the key a binding is to have: the next key pressed, Esc to cancel."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widgets import Static

from .base import Dialog

NEVER_GIVEN = {"escape", "ctrl+q", "ctrl+c"}
"""Keys no binding is given here: Esc cancels, ctrl+q and ctrl+c leave the app (before
any screen sees them)."""


class NewKeyDialog(Dialog[str | None]):
    """Ask for the new key of `description` (now `keys`); dismissed with the key as
    Textual names it (`b`, `ctrl+t`, `question_mark`), or None with Esc."""

    def __init__(self, description: str, binding_id: str, keys: str) -> None:
        super().__init__("New key")
        self.description = description
        self.binding_id = binding_id
        self.keys = keys

    def compose_body(self) -> ComposeResult:
        yield Static(
            f"Press the new key for {self.description} ({self.binding_id}, now {self.keys}).\n"
            "Esc cancels.",
            classes="dialog-text",
            markup=False,
        )

    def on_key(self, event: events.Key) -> None:
        # Every key is the answer, none a binding of this screen (it has none).
        event.stop()
        event.prevent_default()
        self.dismiss(None if event.key in NEVER_GIVEN else event.key)
