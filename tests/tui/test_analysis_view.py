"""The analysis panel's words: evaluation bar, candidates and the win-rate graph."""

from __future__ import annotations

from abstracts_tui.chances import Hint, candidate_chance, chance_words, percent
from abstracts_tui.engine.calibration import calibrated
from abstracts_tui.engine.review import MoveReview, Review
from abstracts_tui.engine.search import Candidate
from abstracts_tui.play.review import next_mistake
from abstracts_tui.rules import new_game
from abstracts_tui.tui.analysis_view import (
    BAR_WIDTH,
    candidates_text,
    eval_bar,
    graph_text,
    hint_text,
    proven_text,
    scale_text,
    shown_candidates,
)
from abstracts_tui.tui.review_view import review_text


def as_shown(raw: float) -> str:
    """A raw win rate of Partitions 5 as the panel shows it (calibrated)."""
    return percent(calibrated("partitions", 5, raw))


def test_the_bar_gives_the_side_to_move_its_share_and_names_its_chance() -> None:
    game = new_game("partitions", size=5)
    bar, words = eval_bar(0.75, game).splitlines()
    assert bar == "█" * 20 + "░" * 6 and len(bar) == BAR_WIDTH
    assert words == "White's chance 75%"
    assert eval_bar(0.5, game, ascii=True).splitlines()[0] == "#" * 13 + "-" * 13
    game.play("a1")  # Black to move: the record's 75% for White is Black's 25%
    bar, words = eval_bar(0.75, game).splitlines()
    assert bar == "█" * 6 + "░" * 20 and words == "Black's chance 25%"


def test_candidates_show_moves_win_rates_visits_and_the_line() -> None:
    game = new_game("partitions", size=5)
    a1, b2 = game.geometry.parse("a1"), game.geometry.parse("b2")
    found = [Candidate(a1, 1200, 0.625, (a1, b2)), Candidate(b2, 300, 0.5, (b2,))]
    lines = candidates_text(game, found, 1500).splitlines()
    assert lines[0] == "1,500 playouts"
    assert lines[1].split() == ["move", "White's", "chance", "visits"]
    assert lines[2].split() == ["a1", as_shown(0.625), "1,200"]
    assert lines[3].split() == ["b2", as_shown(0.5), "300"]
    assert lines[4] == "Best line: a1 b2"


def test_the_graph_marks_the_position_shown_and_scrolls_to_it() -> None:
    values = [0.5, 1.0, None, 0.0]
    assert graph_text(values, 1, 26, ascii=False) == ("▄█·▁", 1)
    long = [0.5] * 100
    bars, column = graph_text(long, 90, 26, ascii=True)
    assert len(bars) == 26 and column == 90 - (100 - 26)
    assert graph_text(long, 0, 26, ascii=True)[1] == 0


def test_candidates_are_listed_by_visits_as_the_side_to_moves_chance_with_doubt_marked() -> None:
    game = new_game("partitions", size=5)
    game.play("a1")  # Black to move: the search's win rates are Black's, shown as such
    b2, c3, d4 = (game.geometry.parse(name) for name in ("b2", "c3", "d4"))
    # The search ranks by a lower bound: a well-visited move may come second.
    ranked = [Candidate(b2, 300, 0.75, (b2,)), Candidate(c3, 1200, 0.61, (c3,))]
    ranked.append(Candidate(d4, 12, 0.91, (d4,)))
    shown = shown_candidates(ranked)
    assert [c.move for c in shown] == [c3, b2, d4]
    lines = candidates_text(game, shown, 1512).splitlines()
    assert lines[1].split() == ["move", "Black's", "chance", "visits"]
    assert lines[2].split() == ["c3", as_shown(0.61), "1,200"]
    assert lines[3].split() == ["b2", as_shown(0.75), "300"]
    assert lines[4].split() == ["d4", as_shown(0.91) + "?", "12"]  # 12 visits: uncertain
    assert lines[5] == "  ? fewer than 100 visits"
    # Columns line up under their headers: the figures end where the header's name ends.
    assert {line.index("%") for line in lines[2:5]} == {lines[1].index("chance") + 5}
    assert {len(line) for line in lines[1:5]} == {len(lines[1])}
    # A hint of the same candidate gives the same figure, in the same words.
    assert hint_text(game, Hint.best_of(shown)) == (  # type: ignore[arg-type]
        f"Hint: c3 - Black's chance {as_shown(0.61)} (best of 3 moves tried)\nLine: c3"
    )


def test_columns_line_up_under_a_long_colour_name() -> None:
    game = new_game("linage", size=5)
    a1 = game.geometry.parse("a1")
    lines = candidates_text(game, [Candidate(a1, 250, 0.5, (a1,))], 250).splitlines()
    assert lines[1].split() == ["move", "Vertical's", "chance", "visits"]
    assert lines[2].index("%") == lines[1].index("chance") + 5
    assert len(lines[1]) == len(lines[2])


def test_a_proven_result_is_marked_and_the_mark_said_in_words() -> None:
    game = new_game("partitions", size=5)
    game.play("a1")  # Black to move: the figures are Black's
    b2, c3 = game.geometry.parse("b2"), game.geometry.parse("c3")
    found = [Candidate(b2, 900, 1.0, (b2,), proven="win"), Candidate(c3, 500, 0.4, (c3,))]
    lines = candidates_text(game, found, 1400, 52_000.0).splitlines()
    assert lines[0] == "1,400 playouts (52,000/s)"
    assert lines[2].split() == ["b2", "100%!", "900"]  # a sure win for Black
    assert "  ! proven: won or lost by force" in lines
    assert proven_text(game, "win") == "Proven: Black wins"
    assert proven_text(game, "loss") == "Proven: White wins"
    assert proven_text(game, "draw") == "Proven: a draw"


def test_only_a_proof_reads_100_or_0_and_a_move_barely_searched_shows_no_figure() -> None:
    """A search that stops once its root is proven leaves other moves with a handful of
    visits at 1.000 or 0.000: shown as figures, they read like proofs."""
    game = new_game("partitions", size=5)
    game.play("a1")
    b2, c3, d4 = (game.geometry.parse(name) for name in ("b2", "c3", "d4"))
    found = [
        Candidate(b2, 900, 0.9996, (b2,)),  # unproven, however close to sure
        Candidate(c3, 3, 0.0, (c3,)),  # three visits: no figure at all
        Candidate(d4, 400, 0.0, (d4,), proven="loss"),
    ]
    lines = candidates_text(game, found, 1303).splitlines()
    assert lines[2].split() == ["b2", "99%", "900"]
    assert lines[3].split() == ["c3", "-?", "3"]
    assert lines[4].split() == ["d4", "0%!", "400"]
    assert "  - too few playouts to judge" in lines
    assert chance_words(game, 0.9996) == "Black's chance 99%"
    assert chance_words(game, 1.0, "win") == "Black wins by force"
    assert chance_words(game, 0.0, "loss") == "Black loses by force"
    assert candidate_chance(game, found[1]).startswith("c3: too few playouts to judge, 3 playouts")


def test_the_review_lists_mistakes_by_person_and_steps_through_them_in_game_order() -> None:
    def move(number: int, person: int, before: float, after: float) -> MoveReview:
        return MoveReview(number, 0, f"m{number}", person, person, before, after, "b9")

    moves = (
        move(1, 0, 0.5, 0.5),
        move(2, 1, 0.5, 0.3),
        move(3, 0, 0.7, 0.4),
        move(4, 1, 0.6, 0.55),
    )
    review = Review((0.5,) * 5, moves, 1000)
    text = review_text(review, ["Ann", "Bob"], ["white", "black"]).plain.splitlines()
    assert text[0] == "Review (chance the mover lost)"
    assert text[1].startswith("Ann (White) accuracy ")
    assert text[2] == "    3. m3     -30.0% b9"  # move 1 lost nothing: not a mistake
    assert text[3].startswith("Bob (Black) accuracy ")
    assert text[4:6] == ["    2. m2     -20.0% b9", "    4. m4      -5.0% b9"]
    assert [next_mistake(review, here, 1) for here in (-1, 0, 1, 2, 3)] == [2, 2, 3, 4, 2]
    assert [next_mistake(review, here, -1) for here in (-1, 0, 1, 2, 4)] == [4, 4, 4, 2, 4]
    assert next_mistake(Review((0.5, 0.5), (move(1, 0, 0.5, 0.6),), 10), 0, 1) is None


def test_the_scale_numbers_moves_under_their_own_columns() -> None:
    # Every fifth from its column, and the last one ending under the last column.
    assert scale_text(0, 26) == "0    5    10   15   20  25"
    assert scale_text(0, 15) == "0    5    10 14"
    assert scale_text(0, 13) == "0    5    10"  # 12 would touch 10
    assert scale_text(0, 5) == "0   4"
    assert scale_text(98, 26) == "  100  105  110  115  120"
    assert scale_text(3, 4) == "  5"
    # Four-digit numbers still leave a space between them.
    assert scale_text(995, 16) == "995  1000 1005"
