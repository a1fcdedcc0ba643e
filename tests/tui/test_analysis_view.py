"""The analysis panel's words: evaluation bar, candidates and the win-rate graph."""

from __future__ import annotations

from abstracts_tui.engine.search import Candidate
from abstracts_tui.rules import new_game
from abstracts_tui.tui.analysis_view import BAR_WIDTH, candidates_text, eval_bar, graph_text


def test_the_bar_gives_the_first_colour_its_share() -> None:
    game = new_game("partitions", size=5)
    bar, words = eval_bar(0.75, game).splitlines()
    assert bar == "█" * 20 + "░" * 6 and len(bar) == BAR_WIDTH
    assert words.startswith("White 75%") and words.endswith("25% Black")
    assert eval_bar(0.5, game, ascii=True).splitlines()[0] == "#" * 13 + "-" * 13


def test_candidates_show_moves_win_rates_visits_and_the_line() -> None:
    game = new_game("partitions", size=5)
    a1, b2 = game.geometry.parse("a1"), game.geometry.parse("b2")
    found = [Candidate(a1, 1200, 0.625, (a1, b2)), Candidate(b2, 300, 0.5, (b2,))]
    lines = candidates_text(game, found, 1500).splitlines()
    assert lines[0] == "1,500 playouts:"
    assert lines[1].split() == ["a1", "62%", "1,200"]
    assert lines[2].split() == ["b2", "50%", "300"]
    assert lines[3] == "Best line: a1 b2"


def test_the_graph_marks_the_position_shown_and_scrolls_to_it() -> None:
    values = [0.5, 1.0, None, 0.0]
    assert graph_text(values, 1, 26, ascii=False) == ("▄█·▁", 1)
    long = [0.5] * 100
    bars, column = graph_text(long, 90, 26, ascii=True)
    assert len(bars) == 26 and column == 90 - (100 - 26)
    assert graph_text(long, 0, 26, ascii=True)[1] == 0
