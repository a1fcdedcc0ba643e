"""The analysis panel: the evaluation bar, the candidates, the comment, a game review and
the graph, or in play the computer's thinking and a hint. The words come from
`tui/analysis_view.py` and `tui/review_view.py`."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ...chances import Hint
from ...engine.search import Search
from ...records import RecordNode
from ...rules import Game
from ...session import Session
from ..analysis_view import (
    candidates_text,
    eval_bar,
    first_colour,
    hint_text,
    lead_text,
    lead_values,
    live_rate,
    proven_text,
    shown_candidates,
)
from ..computer import Kind, Searches
from .review_list import ReviewList
from .steady_text import show_text
from .win_rate_graph import WinRateGraph


class AnalysisPanel(Vertical):
    """Figures of a search; hidden while there are none."""

    DEFAULT_CSS = """
    AnalysisPanel {
        height: auto;
        margin-top: 1;
    }
    AnalysisPanel.-empty { display: none; }
    AnalysisPanel #graph, AnalysisPanel #review-box { margin-top: 1; }
    AnalysisPanel #review-box { height: auto; max-height: 30vh; }
    AnalysisPanel .-hidden { display: none; }
    """

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self.ascii = ascii
        self.showing_lead = False
        """Whether the graph shows the first colour's expected lead rather than its chance."""
        self.leads: list[float | None] = []
        """The first colour's expected score at each position of the line shown."""

    def toggle_graph(self) -> bool:
        """Show the lead in points instead of the chance, or back; whether the lead now."""
        self.showing_lead = not self.showing_lead
        return self.showing_lead

    def compose(self) -> ComposeResult:
        yield Static(id="analysis", markup=False)
        yield WinRateGraph(id="graph", classes="-hidden")
        yield ReviewList(id="review-box", classes="-hidden")

    def show(self, text: str, graph: bool = False, review: Text | str | None = None) -> None:
        """Show `text` (nothing: the panel hides), the review or its progress, and the
        win-rate graph (`graph`: its figures are given to the graph itself)."""
        show_text(self.query_one("#analysis", Static), text)
        self.query_one(ReviewList).show(review)
        self.query_one("#graph").set_class(not graph, "-hidden")
        self.set_class(not text and not graph and review is None, "-empty")

    def draw(
        self,
        session: Session,
        searches: Searches,
        *,
        analysing: bool,
        hint: Hint | None,
        review: Callable[[], Text | str | None],
    ) -> None:
        """In play the computer's thinking or a hint; in analysis the figures of the
        position shown, the graph of its line and the `review` (or its progress)."""
        game = session.game
        if not analysing:
            thinking = searches.search(Kind.TURN) if searches.busy(Kind.TURN) else None
            self.show_play(game, hint, thinking)
            return
        nodes = [session.record.root, *session.line_nodes()]
        line = [node.evaluation for node in nodes]
        self.leads = [node.score for node in nodes]
        self.show_analysis(
            game,
            session.node,
            searches.search(Kind.ANALYSIS),
            running=searches.busy(Kind.ANALYSIS),
            line=line,
            current=session.move_number(),
            review=review(),
        )

    def show_play(self, game: Game, hint: Hint | None, thinking: Search | None) -> None:
        """In play: the hint, else the computer's search while it thinks (`thinking`)."""
        if hint is not None:
            text = hint_text(game, hint)
        elif thinking is not None:
            speed = live_rate(thinking)
            per_second = f" ({speed:,.0f}/s)" if speed else ""
            text = f"Thinking: {thinking.playouts:,} playouts{per_second}"
        else:
            text = ""
        self.show(text)

    def show_analysis(
        self,
        game: Game,
        node: RecordNode,
        search: Search | None,
        *,
        running: bool,
        line: list[float | None],
        current: int,
        review: Text | str | None,
    ) -> None:
        """In analysis: the evaluation of `node` (the position shown, of `game`), the
        `search` of it (its speed while `running`), its comment, the graph of the
        evaluations of the `line` (at move `current`) and the review."""
        lines = []
        found = shown_candidates(search.candidates()) if search is not None else []
        if node.evaluation is not None:
            # The expected score of the search's best move, the side to move's, beside it.
            score = found[0].shown_score if found else None
            lines.append(eval_bar(node.evaluation, game, ascii=self.ascii, score=score))
        if search is not None:
            if search.proven is not None:
                lines.append(proven_text(game, search.proven))
            # The speed while it searches (a finished search's would vary from run to run).
            rate = live_rate(search) if running else None
            lines.append(candidates_text(game, found, search.playouts, rate))
        elif game.is_over():
            lines.append("The game is over here.")
        if node.comment:
            lines.append(f"Comment: {node.comment}")
        graph = self.query_one(WinRateGraph)
        if self.showing_lead:
            title = f"{first_colour(game)}'s lead in points, by move:"
            figures = [lead_text(score) for score in self.leads]
            graph.show(title, lead_values(self.leads), current, ascii=self.ascii, figures=figures)
        else:
            title = f"{first_colour(game)}'s chance, by move:"
            graph.show(title, line, current, ascii=self.ascii)
        self.show("\n".join(lines), True, review)
