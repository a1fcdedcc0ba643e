"""The keys of analysis mode on the play screen: stepping, variations, the main line,
comments, going to a move, the game review and its mistakes, setting up a position.

What each does to the record is `abstracts_tui.play`'s (`Analysis`, `Reviews`, `SetUp`);
here are the dialogs that ask first and the sentences said after. The screen routes its
`study(...)` action here (`play_keys.py` binds them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rich.text import Text
from textual.app import App

from ..engine.review import Review
from ..play.analysis import MAIN_LINE_ALREADY, ONLY_VARIATIONS, Analysis
from ..play.review import NO_MISTAKE, Reviews
from ..play.setup import CANCELLED, SetUp, position_check
from ..records import RecordNode
from ..session import Session
from .computer import Kind, Searches
from .dialogs.confirm import ConfirmDialog
from .dialogs.position import PositionDialog
from .dialogs.text import TextDialog
from .review_view import mistake_line, progress_text, review_text
from .widgets.analysis_panel import AnalysisPanel
from .widgets.review_list import ReviewList


class StudyHost(Protocol):
    """The screen whose keys these are."""

    app: App[object]
    session: Session
    searches: Searches

    def say(self, message: str) -> None: ...

    def refuse(self, reason: str | None) -> None: ...

    def key(self, binding_id: str) -> str: ...

    def draw_analysis(self) -> None: ...

    def refresh_bindings(self) -> None: ...

    analysis_panel: AnalysisPanel


class StudyKeys:
    """Analysis mode's commands for one screen (`host`) on its session."""

    def __init__(self, host: StudyHost, session: Session) -> None:
        self.host = host
        self.analysis = Analysis(session)
        self.reviews = Reviews(session)
        self.setting_up = SetUp(session)

    def run(self, command: str, *arguments: Any) -> None:
        """Do `command` (`back`, `promote`, `mistake`...) with its `arguments`."""
        simple: dict[str, Callable[..., str]] = {
            "back": self.analysis.back,
            "forward": self.analysis.forward,
            "leap": self.analysis.leap,
            "to_start": self.analysis.to_start,
            "to_end": self.analysis.to_end,
            "variation": self.analysis.variation,
        }
        if command in simple:
            self.host.say(simple[command](*arguments))
        else:
            getattr(self, command)(*arguments)

    def graph(self) -> None:
        """The graph shows the first colour's expected lead in points, or its chance."""
        host = self.host
        lead = host.analysis_panel.toggle_graph()
        what = "the expected lead in points" if lead else "the chance"
        other = "the chance" if lead else "the lead in points"
        host.draw_analysis()
        host.say(f"The graph shows {what} ({host.key('study.graph')} again: {other}).")

    def jump(self, number: int | None = None) -> None:
        """To move `number` of the line, or to the number asked for."""
        analysis, host = self.analysis, self.host
        if number is not None:
            host.say(analysis.jump(number))
            return

        def chosen(text: str | None) -> None:
            move = analysis.move_number(text) if text is not None else None
            if move is not None:
                host.say(analysis.jump(move))

        prompt = f"Move number (0 to {analysis.last}):"
        host.app.push_screen(TextDialog("Go to a move", prompt, "", analysis.jump_check), chosen)

    def main_line(self) -> None:
        """Back to where the line shown left the main line (the record stays as it is)."""
        self.host.say(self.analysis.main_line(self.host.key("study.promote")))

    def promote(self) -> None:
        """Make the line shown the main line; asks first, since a save then keeps this line
        as the game."""
        question = self.analysis.promote_question(self.host.key("study.main_line"))
        self.confirm(question, self.analysis.promote, MAIN_LINE_ALREADY)

    def delete_variation(self) -> None:
        self.confirm(self.analysis.delete_question(), self.analysis.delete, ONLY_VARIATIONS)

    def confirm(self, question: str | None, do: Callable[[], str | None], refusal: str) -> None:
        """Ask `question` (None: say `refusal`), and if yes, `do` it and say what it says."""
        host = self.host
        if question is None:
            host.say(refusal)
            return

        def chosen(yes: bool | None) -> None:
            if yes and (news := do()) is not None:
                host.say(news)

        host.app.push_screen(ConfirmDialog(question), chosen)

    def comment(self) -> None:
        host = self.host

        def chosen(text: str | None) -> None:
            if text is not None:
                host.say(self.analysis.comment(text))

        prompt, comment = self.analysis.comment_prompt(), host.session.node.comment
        host.app.push_screen(TextDialog("Comment", prompt, comment), chosen)

    # -- the review ------------------------------------------------------------------------

    def review(self) -> None:
        """Review every move of the line shown in the background (again: stop it)."""
        host = self.host
        if host.searches.hurry(Kind.REVIEW):
            host.say("Stopping the review...")
            return
        job = host.searches.review(self.reviews.line())
        stop = f"{host.key('study.review')} or {host.key('play.cancel')}"
        host.say(f"Reviewing the {job.progress[1] - 1} moves of this line... ({stop} stops)")
        host.draw_analysis()

    def review_done(self, nodes: tuple[RecordNode, ...], review: Review) -> None:
        """Keep the review, and its win rates as the graph's."""
        host = self.host
        host.say(self.reviews.done(nodes, review))
        host.draw_analysis()
        if self.reviews.review is review:
            host.refresh_bindings()  # the biggest mistake's key
            self.scroll_to_review(None)

    def shown(self) -> Text | str | None:
        """The review's progress while it runs, then its mistakes; None before any."""
        job = self.host.searches.jobs.get(Kind.REVIEW)
        if job is not None:
            return progress_text(*job.progress)
        review = self.reviews.review
        if review is None:
            return None
        colours = self.host.session.game.info.colours
        return review_text(review, self.reviews.names(), colours, self.reviews.shown_mistake())

    def scroll_to_review(self, number: int | None) -> None:
        """Bring the review's list into the panel's view, at mistake `number` if given."""
        review = self.reviews.review
        if review is not None:
            line = mistake_line(review, number) if number is not None else None
            self.host.analysis_panel.query_one(ReviewList).bring_into_view(line)

    def mistake(self, step: int) -> None:
        """The next (or previous) mistake of the review, in the order of the game."""
        if self.reviews.review is None:
            self.host.say(f"No review yet: {self.host.key('study.review')} reviews the line.")
            return
        self.to_mistake(self.reviews.next_mistake(step))

    def biggest_mistake(self) -> None:
        """The review's biggest mistake; from one of its mistakes, the next biggest."""
        if self.reviews.review is not None:
            self.to_mistake(self.reviews.biggest())

    def to_mistake(self, number: int | None) -> None:
        if number is None:
            self.host.say(NO_MISTAKE)
        else:
            self.go_to_mistake(number)

    def go_to_mistake(self, number: int) -> None:
        """Show the position in which the review's move `number` was played."""
        news = self.reviews.go_to(number)
        if news is not None:
            self.host.say(news)
            self.host.draw_analysis()
            self.scroll_to_review(number)

    # -- setting up ------------------------------------------------------------------------

    def may_set_up(self) -> bool:
        """Whether a position can be set up now (if not, it says why)."""
        refusal = self.setting_up.refusal()
        if refusal is not None:
            self.host.say(refusal)
        return refusal is None

    def set_up(self, cursor: int, ascii: bool, then: Callable[[], None]) -> None:
        """Set up a position on a screen of its own (its cursor at `cursor`); `then` once
        it is set up or cancelled."""
        from .screens.setup import SetupScreen

        self.host.searches.cancel(Kind.ANALYSIS)

        def done(position: str | None) -> None:
            if position is None:
                self.host.say(CANCELLED)
            else:
                self.said(self.setting_up.set_up(position))
            then()

        screen = SetupScreen(self.host.session.game, ascii=ascii, cursor=cursor)
        self.host.app.push_screen(screen, done)

    def position(self, shared: bool) -> None:
        """Show the position string (copied to the clipboard where the terminal allows)
        and take a pasted or typed one in its place (not in a `shared` game)."""
        game = self.host.session.game
        text = game.position()
        self.host.app.copy_to_clipboard(text)

        def chosen(value: str | None) -> None:
            if value is not None:
                self.said(self.setting_up.from_string(value, shared=shared))

        dialog = PositionDialog(text, lambda value: position_check(game, value))
        self.host.app.push_screen(dialog, chosen)

    def said(self, result: tuple[str, bool] | None) -> None:
        """Say what became of a position set up (refused: with the bell)."""
        if result is None:
            return
        news, done = result
        if done:
            self.host.say(news)
        else:
            self.host.refuse(news)
