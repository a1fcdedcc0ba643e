"""The position string: shown whole (wrapped, to select by hand), copied to the clipboard,
and a field to paste another position in."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.widgets import Input, Static

from .base import KeyButton
from .text import TextDialog


class PositionDialog(TextDialog):
    """`position` shown whole above an empty field; dismissed with the text typed or
    pasted there (blank: keep the position), or None on Escape."""

    def __init__(self, position: str, check: Callable[[str], str | None]) -> None:
        super().__init__(
            "Position string",
            "Copied to the clipboard where the terminal allows (in tmux: "
            "set -g set-clipboard on). Select it to copy by hand, or paste another below "
            "and press Enter.",
            "",
            lambda text: check(text) if text.strip() else None,
            placeholder="another position (blank: keep this one)",
        )
        self.position = position

    def compose_body(self) -> ComposeResult:
        yield Static(self.prompt, classes="dialog-text", markup=False)
        yield Static(self.position, id="position-text", markup=False)
        yield Input(self.default, placeholder=self.placeholder, id="text")
        yield Static("", classes="dialog-error", id="text-note", markup=False)
        yield self.button_row(
            KeyButton("OK (enter)", variant="primary", id="accept"),
            KeyButton("Cancel (esc)", id="cancel"),
        )
