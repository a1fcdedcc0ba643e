"""The analysis panel: the evaluation bar, the candidates, the comment and the graph, or
in play the computer's thinking and a hint. The words come from `tui/analysis_view.py`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class AnalysisPanel(Vertical):
    """Figures of a search; hidden while there are none."""

    DEFAULT_CSS = """
    AnalysisPanel {
        height: auto;
        margin-top: 1;
    }
    AnalysisPanel.-empty { display: none; }
    AnalysisPanel #graph { margin-top: 1; }
    AnalysisPanel #graph.-hidden { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="analysis", markup=False)
        yield Static(id="graph", markup=False, classes="-hidden")

    def show(self, text: str, graph: Text | None = None) -> None:
        """Show `text` (nothing: the panel hides) and the win-rate graph, if any."""
        self.query_one("#analysis", Static).update(text)
        graph_widget = self.query_one("#graph", Static)
        graph_widget.set_class(graph is None, "-hidden")
        if graph is not None:
            graph_widget.update(graph)
        self.set_class(not text and graph is None, "-empty")
