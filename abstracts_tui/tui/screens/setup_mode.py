"""Setup mode of the play screen: place and remove pieces, stacks and blocks, set the
side to move, and continue from the position once the rules' checks accept it.

Its keys are among the study bindings (`study.py`), which enable them in setup mode only.
"""

from __future__ import annotations

from ...rules import Piece, RulesError
from .study import StudyScreen


class SetupScreen(StudyScreen):
    """Setting up a position, for `PlayScreen`."""

    def action_setup(self) -> None:
        if self.refused_when_shared("Setting up a position"):
            return
        if not self.analysing:
            self.action_toggle_analysis()
        game = self.game
        self.searches.cancel("analysis")
        self.hint = None
        self.setting_up = [game.piece_at(cell) for cell in range(game.geometry.cell_count)]
        self.setup_turn = game.turn
        kinds = ", ".join(
            f"{number} {self.piece_name(piece)}"
            for number, piece in enumerate(game.placeable_pieces(), start=1)
        )
        self.say(f"Set up: {kinds}, 0 clear, t side to move, ctrl+e done, Esc cancel.")
        self.refresh_bindings()
        self.redraw()

    def piece_name(self, piece: Piece) -> str:
        if piece.colour is None:
            return piece.kind
        return f"{self.game.colour_name(piece.colour)} {piece.kind}"

    def put(self, cell: int, piece: Piece | None) -> None:
        assert self.setting_up is not None
        self.setting_up[cell] = piece
        self.redraw()

    def action_put(self, index: int) -> None:
        kinds = self.game.placeable_pieces()
        if self.setting_up is None or index >= len(kinds):
            return
        cell = self.board.cursor
        piece = kinds[index]
        old = self.setting_up[cell]
        if piece.kind == "stack" and old == Piece(
            piece.kind, piece.colour, old.height if old else 1
        ):
            assert old is not None
            piece = Piece(old.kind, old.colour, old.height + 1)  # again on a stack: higher
        self.put(cell, piece)

    def action_clear_cell(self) -> None:
        if self.setting_up is not None:
            self.put(self.board.cursor, None)

    def action_height(self, step: int) -> None:
        if self.setting_up is None:
            return
        cell = self.board.cursor
        old = self.setting_up[cell]
        if old is None or old.kind != "stack":
            self.say("Only a stack has a height.")
            return
        self.put(cell, Piece(old.kind, old.colour, max(1, old.height + step)))

    def cycle_cell(self, cell: int) -> None:
        """Enter, Space or a click in setup mode: the next kind of piece on `cell`."""
        assert self.setting_up is not None
        kinds: list[Piece | None] = [None, *self.game.placeable_pieces()]
        old = self.setting_up[cell]
        plain = None if old is None else Piece(old.kind, old.colour)
        index = kinds.index(plain) if plain in kinds else 0
        self.put(cell, kinds[(index + 1) % len(kinds)])

    def action_setup_side(self) -> None:
        self.setup_turn = 1 - self.setup_turn
        self.redraw()

    def action_setup_done(self) -> None:
        self.leave_setup(keep=True)

    def leave_setup(self, keep: bool) -> None:
        """Leave setup mode; with `keep` the position must pass the rules' checks first."""
        if self.setting_up is None:
            return
        if keep:
            text = self.game.setup_position(self.setting_up, self.setup_turn)
            try:
                self.session.set_up(text)
            except RulesError as error:
                self.say(f"Not a position of this game: {error}. Fix it, or Esc to cancel.")
                self.app.bell()
                return
            self.say("Position set up: play or analyse from here.")
        else:
            self.say("Setup cancelled: the position is as it was.")
        self.setting_up = None
        self.refresh_bindings()
        self.redraw()
        self.start_analysis()
