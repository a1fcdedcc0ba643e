"""The pie rule's question, asked in the play screen's panel rather than in a dialog over
the board: the second player decides to swap while seeing the first move, and the play
screen's other keys (undo, help, the score, analysis) go on working while it is asked.

It holds the focus while it is shown, so that `s`, `p` and Enter answer it; a click on
the board, or a move played there, answers it too (a move is playing on).
"""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static


def pie_text(colours: tuple[str, str], first: str, second: str) -> str:
    """What the choice means, with the people's names and colours (capitalised)."""
    one, two = colours
    return (
        f"{first} ({one}) has made the first move. {second} ({two}) may now swap "
        f"instead of moving:\n"
        f"s  Swap: {second} takes over {one} and its position as it stands; "
        f"{first} plays {two} and moves next.\n"
        f"p  Play on (or Enter): {second} keeps {two} and makes a move."
    )


class PieQuestion(Static, can_focus=True):
    """The question, hidden until `ask` shows it; `Answered` says what was chosen."""

    DEFAULT_CSS = """
    PieQuestion {
        height: auto;
        border: round $accent;
        border-title-style: bold;
        border-title-color: $accent;
        padding: 0 1;
        margin-bottom: 1;
        display: none;
    }
    PieQuestion.-asked { display: block; }
    PieQuestion:focus { border: round $primary; border-title-color: $primary; }
    """

    # Named in the question itself: the footer keeps the play screen's keys (help, quit).
    BINDINGS = [
        Binding("s", "answer(True)", "Swap", id="pie.swap", show=False),
        Binding("p,enter", "answer(False)", "Play on", id="pie.play_on", show=False),
    ]

    class Answered(Message):
        """The second player chose: `swap`, or play on."""

        def __init__(self, swap: bool) -> None:
            super().__init__()
            self.swap = swap

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.border_title = "Pie rule: swap?"

    @property
    def asked(self) -> bool:
        return self.has_class("-asked")

    def ask(self, colours: tuple[str, str], first: str, second: str) -> None:
        """Show the question to `second` about `first`'s move, and take the keys."""
        self.update(pie_text(colours, first, second))
        self.add_class("-asked")
        self.screen.set_focus(self)  # at once: `p` typed as soon as it shows answers it

    def withdraw(self) -> None:
        """Hide the question (answered, or no longer open: a move taken back or played);
        the screen gives the keys back to the board."""
        self.remove_class("-asked")

    def action_answer(self, swap: bool) -> None:
        self.post_message(self.Answered(swap))
