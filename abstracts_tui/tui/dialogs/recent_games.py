"""The recent games: the games finished on this machine, newest first, to open one again
(to look at it, analyse it or save it as a record)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from .base import Dialog, KeyButton

if TYPE_CHECKING:
    from ...saved_games import SavedGame


def line(game: SavedGame) -> Content:
    """The game's line in the list, when it was last played first: `today 14:05  Linage
    5x5, Ann - Bob, 31 moves, Ann wins by 3 points`."""
    return Content.assemble((game.played(), "bold"), "  ", game.describe())


class RecentGamesDialog(Dialog["SavedGame | None"]):
    """The finished games, newest first: Enter opens the highlighted one, Escape closes."""

    DEFAULT_CSS = """
    RecentGamesDialog #recent-games { height: auto; max-height: 12; }
    """
    WIDTH = 78
    """As wide as the games in progress' box: a game's line fits on one line."""

    BINDINGS = [
        Binding("enter,o", "open", "Open", key_display="enter", id="recent.open"),
        Binding("escape", "close", "Close", key_display="esc", id="recent.close"),
    ]

    def __init__(self, games: list[SavedGame]) -> None:
        super().__init__("Recent games")
        self.games = games

    def compose_body(self) -> ComposeResult:
        count = len(self.games)
        text = f"{count} finished game{'s' * (count != 1)}, newest first. Open one to look "
        text += "at it again, analyse it (x) or save it (ctrl+s)."
        yield Static(text, classes="dialog-text", markup=False)
        yield OptionList(*(Option(line(game)) for game in self.games), id="recent-games")
        yield self.button_row(
            KeyButton(Content("Open (enter)"), variant="primary", id="open"),
            KeyButton(Content("Close (esc)"), id="close"),
        )

    def on_mount(self) -> None:
        # Over the dialogs' shared width (their style sheet outranks a default style).
        self.query_one(".dialog-box").styles.width = self.WIDTH
        self.query_one(OptionList).highlighted = 0

    def action_open(self) -> None:
        index = self.query_one(OptionList).highlighted
        self.dismiss(self.games[index] if index is not None else None)

    def action_close(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _selected(self) -> None:
        self.action_open()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        (self.action_open if event.button.id == "open" else self.action_close)()
