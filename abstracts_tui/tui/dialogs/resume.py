"""The games in progress, to resume one, delete one, or start a new game."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from .base import Dialog, KeyButton
from .confirm import ConfirmDialog

if TYPE_CHECKING:
    from ...saved_games import SavedGame


def sentence(game: SavedGame) -> str:
    """`Petrify 8x8, Ann - Bob, 12 moves, Orange to move (Bob), started today 14:02,
    played today 14:05`."""
    return f"{game.describe()}{game.started_words()}, played {game.played()}"


def line(game: SavedGame) -> Content:
    """The game's line in the list, when it was played first: `today 14:05  Petrify ...,
    started today 14:02`."""
    return Content.assemble((game.played(), "bold"), "  ", game.describe() + game.started_words())


class ResumeDialog(Dialog["SavedGame | None"]):
    """Every unfinished game, newest first: Enter (or `y`) resumes the highlighted one,
    `d` deletes it (after asking), `n` or Escape starts a new game and keeps them all.

    `delete(game)` removes a game's file and returns None, or a sentence saying why it
    could not; the dialog closes itself (with None) once no game is left.
    """

    BINDINGS = [
        Binding("y,enter", "resume", "Resume", key_display="y/enter", id="resume.resume"),
        Binding("d,delete", "delete", "Delete", key_display="d", id="resume.delete"),
        Binding("n,escape", "new", "New game", key_display="n/esc", id="resume.new"),
    ]

    def __init__(self, games: list[SavedGame], delete: Callable[[SavedGame], str | None]) -> None:
        super().__init__("Games in progress")
        self.games = list(games)
        self.delete_file = delete

    def compose_body(self) -> ComposeResult:
        yield Static(self.question(), classes="dialog-text", id="question", markup=False)
        yield OptionList(*self.options(), id="saved-games", classes="-hidden" * self.single)
        yield Static("", classes="dialog-error", id="resume-error", markup=False)
        yield self.button_row(
            KeyButton(Content("Resume (y)"), variant="primary", id="resume"),
            KeyButton(Content("Delete (d)"), id="delete"),
            KeyButton(Content("New game (n)"), id="new"),
        )

    @property
    def single(self) -> bool:
        return len(self.games) == 1

    def question(self) -> str:
        if self.single:
            return f"Resume the game in progress?\n{sentence(self.games[0])}."
        return f"{len(self.games)} games are in progress. Resume one?"

    def options(self) -> list[Option]:
        return [Option(line(game)) for game in self.games]

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def highlighted(self) -> SavedGame | None:
        index = self.query_one(OptionList).highlighted
        return self.games[index] if index is not None and index < len(self.games) else None

    def action_resume(self) -> None:
        self.dismiss(self.highlighted())

    def action_new(self) -> None:
        self.dismiss(None)

    def action_delete(self) -> None:
        game = self.highlighted()
        if game is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.delete(game)

        question = f"Delete this game? It cannot be brought back.\n{sentence(game)}."
        self.app.push_screen(ConfirmDialog(question), answered)

    def delete(self, game: SavedGame) -> None:
        problem = self.delete_file(game)
        if problem is not None:
            self.query_one("#resume-error", Static).update(problem)
            return
        self.games.remove(game)
        if not self.games:
            self.dismiss(None)
            return
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self.options())
        options.highlighted = 0
        options.set_class(self.single, "-hidden")
        self.query_one("#question", Static).update(self.question())
        self.query_one("#resume-error", Static).update("")

    @on(OptionList.OptionSelected)
    def _selected(self) -> None:
        self.action_resume()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        {"resume": self.action_resume, "delete": self.action_delete, "new": self.action_new}[
            event.button.id or "new"
        ]()
