"""The analysis panel: the evaluation bar, the candidates, the comment, a game review and
the graph, or in play the computer's thinking and a hint. The words come from
`tui/analysis_view.py` and `tui/review_view.py`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

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

    def compose(self) -> ComposeResult:
        yield Static(id="analysis", markup=False)
        yield WinRateGraph(id="graph", classes="-hidden")
        # A long review scrolls rather than push the move list out of the panel.
        with VerticalScroll(id="review-box", classes="-hidden", can_focus=False):
            yield Static(id="review", markup=False)

    def show(self, text: str, graph: bool = False, review: Text | str | None = None) -> None:
        """Show `text` (nothing: the panel hides), the review or its progress, and the
        win-rate graph (`graph`: its figures are given to the graph itself)."""
        show_text(self.query_one("#analysis", Static), text)
        self.query_one("#review-box").set_class(review is None, "-hidden")
        self.query_one("#graph").set_class(not graph, "-hidden")
        if review is not None:
            show_text(self.query_one("#review", Static), review)
        self.set_class(not text and not graph and review is None, "-empty")
