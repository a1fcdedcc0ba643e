"""What every dialog shares: a framed box in the middle of the screen and a footer."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.types import CSSPathType
from textual.widgets import Button

from ..widgets.key_bar import KeyBar

ResultT = TypeVar("ResultT")


class KeyButton(Button, can_focus=False):
    """A button worked by its key (named on it and in the footer) or by the mouse.

    Dialog buttons never take focus, so that every key means the same thing whichever
    button was last clicked: Enter is always the dialog's default answer.
    """


class Dialog(ModalScreen[ResultT]):
    """A modal box with a border title, a body from `compose_body()` and the footer."""

    CSS_PATH: ClassVar[CSSPathType] = "dialogs.tcss"

    def __init__(self, title: str) -> None:
        super().__init__()
        self.dialog_title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box") as box:
            box.border_title = self.dialog_title
            yield from self.compose_body()
        yield KeyBar()

    def compose_body(self) -> ComposeResult:
        """The widgets inside the box; subclasses yield theirs."""
        yield from ()

    @staticmethod
    def button_row(*buttons: Button) -> Horizontal:
        """The row of buttons at the bottom of the box."""
        return Horizontal(*buttons, classes="dialog-buttons")


class FieldDialog(Dialog[ResultT]):
    """A dialog with one text field whose Accept (button `#accept`, action `accept`) is
    greyed out while the field holds no valid value."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.valid = True

    def set_valid(self, valid: bool) -> None:
        """Enable or grey out Accept, on its button and in the footer."""
        self.valid = valid
        # The button may not be mounted yet (or no longer: the app quitting as it opens).
        for button in self.query("#accept").results(Button):
            button.disabled = not valid
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out Accept in the footer while the field holds no valid value."""
        return None if action == "accept" and not self.valid else True
