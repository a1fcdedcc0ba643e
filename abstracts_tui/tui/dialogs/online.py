"""The questions of online play: resign (confirmed), and the answer to the other
player's offer (a take-back, a rematch).

Enter never resigns: a key meant for the board, pressed as the dialog opens, plays on.
An offer's dialog may be put off (Escape): the offer stays, and the room's screen says
so until it is answered or void.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Button, Static

from .base import Dialog, KeyButton


class ResignDialog(Dialog[bool]):
    """Resign the game (or abort it, before each side has moved)? Dismissed with True for
    `y` only; `n`, Escape and Enter play on."""

    BINDINGS = [
        Binding("y", "answer(True)", "Resign", id="resign.yes"),
        Binding("n,escape,enter", "answer(False)", "Play on", key_display="n/esc", id="resign.no"),
    ]

    abort = False

    def __init__(self, opponent: str, rated: bool) -> None:
        super().__init__("Abort?" if self.abort else "Resign?")
        self.opponent = opponent
        self.rated = rated

    def question(self) -> str:
        if self.abort:
            return "Abort this game? It ends with no result and changes no rating."
        counts = " The game is rated: it counts as a loss." if self.rated else ""
        return f"Resign this game? {self.opponent} wins.{counts}"

    def compose_body(self) -> ComposeResult:
        yield Static(self.question(), classes="dialog-text", markup=False)
        verb = "Abort" if self.abort else "Resign"
        yield self.button_row(
            KeyButton(Content(f"{verb} (y)"), variant="error", id="yes"),
            KeyButton(Content("Play on (n)"), variant="primary", id="no"),
        )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class AbortDialog(ResignDialog):
    """Abort the game (before each side has moved)? As `ResignDialog`: `y` only aborts."""

    BINDINGS = [Binding("y", "answer(True)", "Abort", id="abort.yes")]
    abort = True


class OfferDialog(Dialog[bool | None]):
    """The other player's offer: dismissed with True (`y`, accept), False (`n`,
    decline) or None (Escape: answer later; the offer stays)."""

    BINDINGS = [
        Binding("y", "answer(True)", "Accept", id="offer.accept"),
        Binding("n", "answer(False)", "Decline", id="offer.decline"),
        Binding("escape", "later", "Later", key_display="esc", id="offer.later"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(title)
        self.text = text

    @classmethod
    def takeback(cls, offerer: str, moves: list[str]) -> OfferDialog:
        """`offerer` asks to take back `moves` (theirs, and your reply if you made one)."""
        taken = " and ".join(moves)
        which = "their last move and your reply" if len(moves) > 1 else "their last move"
        return cls(
            "Take-back asked",
            f"{offerer} asks to take back {which} ({taken}). "
            f"Accept to play from before {moves[0]}; decline to play on.",
        )

    @classmethod
    def rematch(cls, offerer: str, game: str) -> OfferDialog:
        """`offerer` offers to play `game` again, the colours reversed."""
        return cls(
            "Rematch offered",
            f"{offerer} offers a rematch: {game} again, the colours reversed, "
            "in a new room. Accept to go there now.",
        )

    @classmethod
    def draw(cls, offerer: str) -> OfferDialog:
        """`offerer` offers a draw."""
        return cls(
            "Draw offered",
            f"{offerer} offers a draw. Accept to end the game drawn; decline to play on.",
        )

    def compose_body(self) -> ComposeResult:
        yield Static(self.text, classes="dialog-text", markup=False)
        yield self.button_row(
            KeyButton(Content("Accept (y)"), variant="primary", id="accept"),
            KeyButton(Content("Decline (n)"), id="decline"),
            KeyButton(Content("Later (esc)"), id="later"),
        )

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)

    def action_later(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        answers = {"accept": True, "decline": False}
        self.dismiss(answers.get(event.button.id or ""))
