"""Whose turn it is, and the steps around a move: komi, sides, the pie rule, the
computer's decisions, and the move itself (a mixin of the play screen: `PlayScreen`
builds on it and sets the attributes declared here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from ...rules import SWAP, Move, RulesError, format_number
from ...session import Phase
from ..dialogs.komi import KomiDialog
from ..dialogs.pie import PieDialog
from ..dialogs.side import SideDialog
from .setup_mode import SetupScreen


class TurnsScreen(SetupScreen):
    """Komi, sides, the pie rule, the computer's turns and moves, for `PlayScreen`."""

    local_people: frozenset[str] | None
    asking: bool
    show_score: bool

    def is_local(self, name: str | None) -> bool:
        """Whether `name` plays at this screen."""
        return name is not None and (self.local_people is None or name in self.local_people)

    def next_step(self) -> None:
        """Ask whoever the session waits for here: komi, a side, or the pie decision."""
        session = self.session
        waiting = session.waiting_for()
        if self.asking or self.analysing or not self.is_local(waiting):
            return
        assert waiting is not None
        level = session.level(waiting)
        if level is not None:
            self.computer_turn(waiting, level)
            return
        info = self.game.info
        if session.phase is Phase.KOMI:
            self.ask(KomiDialog(info, session.chooser), self.komi_chosen)
        elif session.phase is Phase.SIDE:
            self.ask(SideDialog(info, session.chooser, self.game.options.komi), self.side_chosen)
        elif self.swap_offered():
            colours = tuple(c.capitalize() for c in info.colours)
            dialog = PieDialog((colours[0], colours[1]), session.person(0), session.person(1))
            self.ask(dialog, self.swap_chosen)

    def ask(self, dialog: Screen[Any], callback: Callable[[Any], None]) -> None:
        def answered(value: Any) -> None:
            self.asking = False
            callback(value)

        self.asking = True
        self.app.push_screen(dialog, answered)

    def swap_offered(self) -> bool:
        """Whether the pie rule's offer is open: one move played, on the main line's end."""
        game = self.game
        return (
            len(game.moves) == 1
            and self.session.node_is_last()
            and game.illegal_reason(SWAP) is None
        )

    def computer_turn(self, name: str, level: str) -> None:
        """Let the computer decide what the session waits for, in a worker thread."""
        if self.searches.busy("turn"):
            return
        what = {Phase.KOMI: "komi", Phase.SIDE: "a side"}.get(self.session.phase, "its move")
        self.say(f"{name} ({level}) is choosing {what}... (Esc: decide now)")
        self.searches.computer_turn(level, self.computer_decided)

    def computer_decided(self, decision: Any) -> None:
        session = self.session
        name = session.waiting_for()
        if session.phase is Phase.KOMI:
            komi = session.set_komi(decision)
            self.say(f"{name} set komi to {format_number(komi)}.")
        elif session.phase is Phase.SIDE:
            session.choose_side(decision)
            colour = self.game.colour_name(decision).capitalize()
            self.say(f"{name} takes {colour}. {session.turn_text()}.")
        else:
            self.make_move(decision, by=name)

    def komi_chosen(self, komi: str | None) -> None:
        if komi is not None and self.session.phase is Phase.KOMI:
            self.session.set_komi(komi)

    def side_chosen(self, colour: int | None) -> None:
        if colour is not None and self.session.phase is Phase.SIDE:
            self.session.choose_side(colour)
            self.say(f"{self.session.turn_text()}.")

    def swap_chosen(self, swap: bool | None) -> None:
        if swap and self.swap_offered():
            self.play(SWAP)
            self.say(
                f"Swapped: {self.session.person(1)} now plays "
                f"{self.game.colour_name(1).capitalize()} and moves."
            )

    def play(self, move: Move | str) -> bool:
        """Play a move for the side to move; a refused move is explained and changes nothing."""
        reason = self.not_yours()
        if reason is not None:
            self.say(reason)
            self.app.bell()
            return False
        return self.make_move(move)

    def make_move(self, move: Move | str, by: str | None = None) -> bool:
        """Play `move` in the session (a branch in analysis) and say what happened."""
        try:
            code = self.session.play(move, branch=self.analysing)
        except RulesError as error:
            self.say(f"Not played: {error}")
            self.app.bell()
            return False
        self.selected = None
        game = self.game
        played = f"{by} played {game.move_name(code)}" if by else f"{game.move_name(code)} played"
        if game.is_over():
            self.show_score = True
            outcome = game.outcome()
            assert outcome is not None
            self.say(f"{played}. Game over. {self.session.turn_text()}: {outcome.reason}")
        else:
            self.say(f"{played}. {self.session.turn_text()}.")
        return True

    def not_yours(self) -> str | None:
        """Why no move may be made at this screen now; None if one may."""
        waiting = self.session.waiting_for()
        if waiting is None or self.session.phase is not Phase.PLAY or self.analysing:
            return None  # the rules or the session give the reason
        if self.session.level(waiting):
            return f"Not played: {waiting} (the computer) is to move."
        if not self.is_local(waiting):
            return f"Not played: it is {waiting}'s turn."
        return None

    def computer_waits(self) -> bool:
        """Whether a computer is to move while a person also plays in this game."""
        session = self.session
        waiting = session.waiting_for()
        people = any(session.level(name) is None for name in session.people)
        return people and waiting is not None and session.level(waiting) is not None
