"""The play screen's questions before and between moves: komi and sides (dialogs), the
pie rule (a box in the panel, or the status line where the panel is hidden), or the
computer's decision, as `Turns` says whoever the session waits for here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from ..play.sentences import choosing_words
from ..play.turns import Ask
from .computer import Kind
from .dialogs.komi import KomiDialog
from .dialogs.seats import Levels, SeatsDialog
from .dialogs.side import SideDialog
from .play_host import PlayHost


class Asking:
    """Who is asked what, on one play screen (`host`)."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def next_step(self) -> None:
        """Ask whoever the session waits for here: komi, a side, the pie rule, or let the
        computer decide."""
        host = self.host
        if host.asking or not host.is_attached:
            return
        request = host.turns.request()
        if request is None or request.ask is not Ask.PIE:
            self.withdraw_pie()
        if request is None:
            return
        session, info = host.session, host.game.info
        if request.ask is Ask.COMPUTER:
            if host.searches.busy(Kind.TURN):
                return
            assert request.level is not None
            choosing = choosing_words(request.name, request.level, session.phase)
            now = f"({host.key('play.cancel')}: decide now)"
            host.say(f"{choosing.removesuffix('.')}... {now}")
            host.searches.computer_turn(request.level)
        elif request.ask is Ask.KOMI:
            self.ask(KomiDialog(info, session.chooser), host.turns.set_komi)
        elif request.ask is Ask.SIDE:
            dialog = SideDialog(info, session.chooser, host.game.options.komi)
            self.ask(dialog, host.turns.choose_side)
        elif request.ask is Ask.PIE:
            one, two = (c.capitalize() for c in info.colours)
            host.pie.ask((one, two), session.person(0), session.person(1))
            self.say_pie()

    def seats(self) -> None:
        """Who plays each side, changed (a side taken over from the computer, or handed to
        it): asked in a dialog, done by the model, said in the status line."""
        host = self.host
        reason = host.turns.seat_refusal()
        if reason is not None:
            host.say(reason)
            return
        session = host.session
        people = (session.person(0), session.person(1))
        levels = (session.level(people[0]), session.level(people[1]))
        colours = (host.game.info.colours[0], host.game.info.colours[1])

        def chosen(wanted: Levels) -> None:
            def give(colour: int, level: str | None) -> str:
                turns = host.turns
                return (
                    turns.take_over(colour)
                    if level is None
                    else turns.hand_to_computer(colour, level)
                )

            changed = [c for c, level in enumerate(wanted) if level != levels[c]]
            # Nothing changed: each side as it stays, in the model's words.
            said = [give(c, wanted[c]) for c in changed or (0, 1)]
            host.say(" ".join(said))

        default = getattr(getattr(host.app, "settings", None), "level", None)
        self.ask(SeatsDialog(colours, people, levels, default), chosen)

    def seats_changed(self) -> None:
        """A side changed hands: the computer's search for a side a person now plays stops
        (the next step starts one for a side it now plays)."""
        host = self.host
        waiting = host.session.waiting_for()
        if waiting is None or host.session.level(waiting) is None:
            host.searches.cancel(Kind.TURN)

    def ask(self, dialog: Screen[Any], answer: Callable[[Any], Any]) -> None:
        host = self.host

        def answered(value: Any) -> None:
            host.asking = False
            if value is not None:
                answer(value)

        host.asking = True
        host.app.push_screen(dialog, answered)

    def say_pie(self) -> None:
        """The pie rule's question in the status line, where its box is out of sight."""
        if self.host.pie_out_of_sight:
            self.host.say(f"{self.host.session.person(1)}: s swaps, p plays on (the pie rule).")

    def withdraw_pie(self) -> None:
        """Hide the pie rule's question (no longer open), the keys back to the board."""
        question = self.host.pie
        if question.asked:
            question.withdraw()
            if question.has_focus:
                self.host.board.focus()

    def pie_answered(self, swap: bool) -> None:
        self.withdraw_pie()
        if swap:
            self.host.refuse(self.host.turns.swap())
