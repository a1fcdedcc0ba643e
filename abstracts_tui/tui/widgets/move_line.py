"""The move line (`:`): a move typed, checked at each character beside the text, and
handed to the screen (`MoveLine.Typed`) once it is a legal move."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.validation import Validator
from textual.widgets import Input, Static

from ...session import Session
from ..textual_internals import SteadyInput
from ..typed_move import typed_check
from .steady_text import show_text


class MoveLine(Horizontal):
    """The line where a move is typed, and what it says of the text so far."""

    class Typed(Message):
        """A legal move was typed and Enter pressed (`text`: as it was typed)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, session: Session, check: Validator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.check = check

    def compose(self) -> ComposeResult:
        # Checked here at each character rather than by the input, whose classes for
        # valid and invalid text change nothing on this line but cost a restyling; what
        # the check says is beside the text, on the line the status line gives up.
        yield SteadyInput(
            id="move-line", placeholder="move", validators=[self.check], validate_on=["submitted"]
        )
        yield Static(id="move-check", markup=False)

    def start(self) -> None:
        """An empty line, with the keys (at once: keys typed right after `:` belong to it)."""
        line = self.query_one("#move-line", Input)
        line.value = ""
        self.say(typed_check(self.session.game, ""))
        self.screen.set_focus(line)

    def say(self, sentence: str) -> None:
        """What the line says of its text; the status line keeps what it said."""
        show_text(self.query_one("#move-check", Static), sentence)

    @on(Input.Changed, "#move-line")
    def changed(self, event: Input.Changed) -> None:
        event.stop()
        self.say(typed_check(self.session.game, event.value))

    @on(Input.Submitted, "#move-line")
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        result = event.validation_result
        if result is not None and not result.is_valid:
            # Beside the text, which stays to be corrected: the status line is hidden.
            self.say("Not played: " + "; ".join(result.failure_descriptions))
            self.app.bell()
            return
        self.post_message(self.Typed(event.value))
