"""A cell chosen on the play screen's board (a click, or Enter on the cursor): a move
played there, or, in a game of captures, a piece chosen and then its target."""

from __future__ import annotations

from ..session import Phase
from .play_host import PlayHost


class Selection:
    """The board's choices on one play screen (`host`, whose `selected` is the piece
    chosen)."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def targets(self) -> frozenset[int]:
        """The cells the chosen piece can move to."""
        host = self.host
        if host.selected is None:
            return frozenset()
        moves = (host.game.move_cells(move) for move in host.game.legal_moves())
        return frozenset(to for frm, to in moves if frm == host.selected and to is not None)

    def activated(self, cell: int) -> None:
        """Play at `cell`, choose the piece there, or move the chosen piece there."""
        host = self.host
        game, turns = host.game, host.turns
        if host.session.phase is not Phase.PLAY:
            host.next_step()
            return
        if turns.watching:
            host.refuse(turns.refusal())
            return
        name = game.geometry.name(cell)
        if host.selected is not None:
            if cell in self.targets():
                host.refuse(turns.play(f"{game.geometry.name(host.selected)}-{name}"))
                return
            if cell == host.selected:
                self.cancel()
                return
        piece = game.piece_at(cell)
        if game.info.captures and piece is not None and piece.colour == game.turn:
            host.selected = cell
            if self.targets():
                cancel = host.key("play.cancel")
                host.say(f"{name} selected: choose a marked target ({cancel} cancels).")
            else:
                host.selected = None
                host.say(f"The {piece.kind} on {name} has no capture now.")
            host.draw_board()
            return
        host.refuse(turns.play(cell))  # the rules check it once, and say why not

    def cancel(self) -> None:
        """Put the chosen piece back (nothing chosen: nothing said)."""
        host = self.host
        if host.selected is not None:
            host.selected = None
            host.say("Selection cancelled.")
            host.draw_board()
