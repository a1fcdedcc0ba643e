"""Setting up a position: a screen of its own, pushed over the play screen.

Place and remove pieces, stacks and blocks, set the side to move; ctrl+e checks the
position against the rules' invariants and dismisses the screen with its position
string, Esc with None (the game is left as it was).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import Static

from ...rules import Game, Piece, RulesError
from ..textual_internals import SteadyScreen
from ..widgets.board import BoardView, board_for
from ..widgets.key_bar import KeyBar


def piece_name(game: Game, piece: Piece) -> str:
    if piece.colour is None:
        return piece.kind
    return f"{game.colour_name(piece.colour)} {piece.kind}"


class SetupScreen(SteadyScreen[str | None]):
    """Set up a position of `game`'s kind, starting from `game`'s."""

    CSS_PATH = "play.tcss"
    BINDINGS = [
        Binding("1", "put(0)", "Piece 1", id="setup.put1", show=False),
        Binding("2", "put(1)", "Piece 2", id="setup.put2", show=False),
        Binding("3", "put(2)", "Piece 3", id="setup.put3", show=False),
        Binding("0,backspace", "clear_cell", "Clear", id="setup.clear", key_display="0"),
        Binding(
            "plus,equals_sign",
            "height(1)",
            "Higher",
            id="setup.higher",
            key_display="+",
            show=False,
        ),
        Binding("minus", "height(-1)", "Lower", id="setup.lower", show=False),
        Binding("t", "side", "Side to move", id="setup.side"),
        Binding("ctrl+e", "done", "Done", id="setup.done"),
        Binding("escape", "cancel", "Cancel", id="setup.cancel"),
        Binding("question_mark,f1", "app.help", "Help", id="setup.help", key_display="?"),
    ]

    def __init__(self, game: Game, *, ascii: bool = False, cursor: int = 0) -> None:
        super().__init__()
        self.game = game
        self.pieces: list[Piece | None] = [
            game.piece_at(cell) for cell in range(game.geometry.cell_count)
        ]
        self.turn = game.turn
        self.board: BoardView = board_for(game, ascii=ascii, id="board")
        self.board.set_reactive(BoardView.cursor, cursor)

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="panel"):
                yield Static("Setting up a position", id="setup-title")
                yield Static(id="setup-turn", markup=False)
                yield Static(self.keys_text(), id="setup-keys", markup=False)
        yield Static(id="status", markup=False)
        yield KeyBar()

    def keys_text(self) -> str:
        kinds = self.game.placeable_pieces()
        lines = [f"{n}  {piece_name(self.game, p)}" for n, p in enumerate(kinds, start=1)]
        lines += ["0  empty", "t  side to move", "ctrl+e  done", "esc  cancel"]
        if any(p.kind == "stack" for p in kinds):
            lines.insert(len(kinds), "+ -  a stack's height")
        return "Keys:\n" + "\n".join(lines)

    def on_resize(self, event: Resize) -> None:
        self.board.fit(self.size.width - 32, self.size.height - 3)

    def on_mount(self) -> None:
        self.board.focus()
        self.draw()
        self.say("Set up the position; ctrl+e continues from it, Esc leaves the game as it was.")

    def say(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def draw(self) -> None:
        self.board.show(self.game, pieces=self.pieces)
        colour = self.game.info.colours[self.turn].capitalize()
        self.query_one("#setup-turn", Static).update(f"{colour} to move")

    def put(self, cell: int, piece: Piece | None) -> None:
        self.pieces[cell] = piece
        self.draw()

    def action_put(self, index: int) -> None:
        kinds = self.game.placeable_pieces()
        if index >= len(kinds):
            return
        cell = self.board.cursor
        piece = kinds[index]
        old = self.pieces[cell]
        if piece.kind == "stack" and old == Piece(
            piece.kind, piece.colour, old.height if old else 1
        ):
            assert old is not None
            piece = Piece(old.kind, old.colour, old.height + 1)  # again on a stack: higher
        self.put(cell, piece)

    def action_clear_cell(self) -> None:
        self.put(self.board.cursor, None)

    def action_height(self, step: int) -> None:
        cell = self.board.cursor
        old = self.pieces[cell]
        if old is None or old.kind != "stack":
            self.say("Only a stack has a height.")
            return
        self.put(cell, Piece(old.kind, old.colour, max(1, old.height + step)))

    @on(BoardView.Activated)
    def cycle_cell(self, event: BoardView.Activated) -> None:
        """Enter, Space or a click: the next kind of piece on the cell."""
        kinds: list[Piece | None] = [None, *self.game.placeable_pieces()]
        old = self.pieces[event.cell]
        plain = None if old is None else Piece(old.kind, old.colour)
        index = kinds.index(plain) if plain in kinds else 0
        self.put(event.cell, kinds[(index + 1) % len(kinds)])

    def action_side(self) -> None:
        self.turn = 1 - self.turn
        self.draw()

    def action_done(self) -> None:
        """Dismiss with the position if the rules accept it; else say why and stay."""
        text = self.game.setup_position(self.pieces, self.turn)
        try:
            type(self.game).from_position(text)
        except RulesError as error:
            self.say(f"Not a position of this game: {error}. Fix it, or Esc to cancel.")
            self.app.bell()
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
