"""The puzzle screen: a shipped puzzle on the board; the player plays the winning
line's moves (typed, or chosen on the board), the defender's replies are played, and
the status line says right or wrong and why. On a server the puzzles are rated
(`Rater`): each comes from the server near the player's puzzle rating, and the try's
result (its first wrong move or move shown loses it, the whole line found wins it) is
said with the rating's change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from ...puzzles.puzzle import Puzzle
from ...puzzles.rated import Score
from ...puzzles.trial import Answer, Trial
from ..widgets.board import BoardView, board_for

HINT = "Type the winning move (Enter plays it) or choose it on the board."
KEYS = "F5 show the move  F6 next puzzle  Tab board / move line  Esc back"


@dataclass(frozen=True)
class Offered:
    """A rated puzzle offered, and what is said of it first (its rating and the
    player's)."""

    puzzle: Puzzle
    note: str


class Rater(Protocol):
    """Where rated puzzles come from and their tries go (a server's)."""

    async def next(self) -> Offered | str:
        """The next puzzle, or why there is none (a sentence)."""
        ...

    async def tried(self, won: bool) -> str:
        """Rate the try at the puzzle offered last: the sentence that says the change."""
        ...


class PuzzleScreen(Screen[None]):
    """Puzzles one after another: F5 (or `show` typed) plays the solution's next move, F6
    (or `next`) goes to the next puzzle, Esc leaves."""

    DEFAULT_CSS = """
    PuzzleScreen { align: center top; }
    PuzzleScreen #puzzle-box { width: auto; height: auto; }
    PuzzleScreen #puzzle-task, PuzzleScreen #puzzle-status { width: 76; height: auto; }
    PuzzleScreen #puzzle-keys { width: 76; height: 1; color: $text-muted; }
    PuzzleScreen #puzzle-move { width: 40; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "show", "Show the move", key_display="F5"),
        Binding("f6", "next", "Next puzzle", key_display="F6"),
        Binding("tab", "app.focus_next", "Board / move line", show=False),
        Binding("escape", "leave", "Back", key_display="esc"),
    ]

    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        *,
        ascii: bool = False,
        rater: Rater | None = None,
        note: str = "",
    ) -> None:
        super().__init__()
        assert puzzles, "a puzzle screen needs puzzles"
        self.puzzles = list(puzzles)
        self.rater = rater
        """Rated puzzles: one at a time from the server (None: the puzzles given)."""
        self.note = note
        """What is said of the rated puzzle shown first (its rating and the player's)."""
        self.score = Score()
        self.number = 0
        self.trial = Trial(self.puzzles[0])
        self.ascii = ascii
        self.selected: int | None = None
        """The cell a move from it is being chosen on the board (captures)."""
        self.solved = 0
        self.board: BoardView = board_for(self.trial.game, ascii=ascii, id="puzzle-board")

    def compose(self) -> ComposeResult:
        with Vertical(id="puzzle-box"):
            yield Static(self._heading(), id="puzzle-task", markup=False)
            yield self.board
            yield Static(HINT, id="puzzle-status", markup=False)
            yield Input(placeholder="move, e.g. c3", id="puzzle-move")
            yield Static(KEYS, id="puzzle-keys", markup=False)

    def on_mount(self) -> None:
        self._show_board()
        self.query_one("#puzzle-move", Input).focus()

    @property
    def status(self) -> str:
        """The status line as it reads now."""
        return str(self.query_one("#puzzle-status", Static).render())

    def _heading(self) -> str:
        if self.rater is not None:
            return f"{self.note} {self.trial.task()}"
        return f"Puzzle {self.number + 1} of {len(self.puzzles)}. {self.trial.task()}"

    def _say(self, text: str) -> None:
        self.query_one("#puzzle-status", Static).update(text)

    def _show_board(self, targets: frozenset[int] = frozenset()) -> None:
        game = self.trial.game
        last: frozenset[int] = frozenset()
        if game.moves:
            before = game.copy()
            move = before.undo()
            last = frozenset(c for c in before.move_cells(move) if c is not None)
        self.board.show(game, selected=self.selected, targets=targets, last=last)

    def _answered(self, answer: Answer, shown: bool = False) -> None:
        self.selected = None
        if answer.solved and answer.right and not self.trial.helped:
            self.solved += 1
        more = " F6: the next puzzle." if answer.solved and self._has_next() else ""
        self._say(answer.said + more)
        self._show_board()
        won = self.score.after(answer, shown) if self.rater is not None else None
        if won is not None:
            self.run_worker(self._rate(won, answer.said, more), group="puzzle-rating")

    async def _rate(self, won: bool, said: str, more: str) -> None:
        """Rate the try on the server and say the rating's change after what was said."""
        assert self.rater is not None
        change = await self.rater.tried(won)
        lost = "" if won else " The try is lost."
        self._say(f"{said}{lost} {change}{more}")

    def _has_next(self) -> bool:
        return self.rater is not None or self.number + 1 < len(self.puzzles)

    @on(Input.Submitted, "#puzzle-move")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text.lower() == "show":
            self.action_show()
        elif text.lower() == "next":
            self.action_next()
        elif text:
            self._answered(self.trial.attempt(text))

    @on(BoardView.Activated, "#puzzle-board")
    def _chosen(self, event: BoardView.Activated) -> None:
        game = self.trial.game
        name = game.geometry.name(event.cell)
        names = [game.move_name(move) for move in game.legal_moves()]
        if self.selected is not None:
            start = game.geometry.name(self.selected)
            self.selected = None
            if name != start:
                self._answered(self.trial.attempt(f"{start}-{name}"))
                return
            self._show_board()
            self._say(HINT)
            return
        if name in names:
            self._answered(self.trial.attempt(name))
            return
        going = [n for n in names if n.startswith(f"{name}-")]
        if going:
            self.selected = event.cell
            targets = frozenset(
                game.move_cells(m)[1] or 0 for m in game.legal_moves() if game.move_name(m) in going
            )
            self._show_board(targets)
            self._say(f"From {name}: choose where to.")
            return
        self._say(f"No legal move at {name}.")

    def action_show(self) -> None:
        self._answered(self.trial.show(), shown=True)

    def action_next(self) -> None:
        if self.rater is not None:
            self.run_worker(self._next_rated(), group="puzzle-next", exclusive=True)
            return
        if not self._has_next():
            self._say(f"That was the last puzzle: {self.solved} of {len(self.puzzles)} solved.")
            return
        self.number += 1
        self._start()

    async def _next_rated(self) -> None:
        """The server's next puzzle, or why there is none."""
        assert self.rater is not None
        offered = await self.rater.next()
        if isinstance(offered, str):
            self._say(offered)
            return
        self.puzzles.append(offered.puzzle)
        self.number = len(self.puzzles) - 1
        self.note = offered.note
        self.score = Score()
        self._start()

    def _start(self) -> None:
        """Show the puzzle of `number` from its start."""
        self.trial = Trial(self.puzzles[self.number])
        self.selected = None
        self.query_one("#puzzle-task", Static).update(self._heading())
        self._say(HINT)
        self._show_board()

    def action_leave(self) -> None:
        self.dismiss(None)
