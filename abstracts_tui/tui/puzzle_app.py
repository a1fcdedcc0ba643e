"""The app of `abstracts-tui puzzles play`: the puzzle screen alone, which Esc leaves."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App

from ..puzzles.puzzle import Puzzle
from .screens.puzzle import PuzzleScreen


class PuzzleApp(App[None]):
    """Puzzles full screen, until Esc."""

    TITLE = "abstracts-tui puzzles"

    def __init__(self, puzzles: Sequence[Puzzle], *, ascii: bool = False) -> None:
        super().__init__()
        self.puzzles = list(puzzles)
        self.ascii = ascii

    def on_mount(self) -> None:
        self.push_screen(PuzzleScreen(self.puzzles, ascii=self.ascii), lambda _: self.exit())
