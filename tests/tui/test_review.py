"""Game review in the app: the same figures as `abstracts-tui review`, progress and stop
while the game stays usable, the mistakes reached by keys and by a click; and proven
results in analysis and in the computer's play."""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from abstracts_tui.engine.core_status import built, core_name
from abstracts_tui.engine.levels import LEVELS
from abstracts_tui.engine.review import percent_text
from abstracts_tui.engine.search import Budget
from abstracts_tui.play import searching
from abstracts_tui.play.review import mistakes_in_order
from abstracts_tui.records import Record
from abstracts_tui.rules import load_position, new_game
from abstracts_tui.tui import thinking
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.test_help import visible_text
from tests.tui.test_study import shown
from tests.tui.waiting import until

Scenario = Callable[[PlayScreen, Pilot[None]], Awaitable[None]]

# Black to move; d3 is the only winning move (tests/engine/test_search.py checks it).
FORCED = "egotzi size=5,variant=standard bbbbw/ww.w./www.w/.b.bw/bbbbw black swap=no"
compiled_only = pytest.mark.skipif(
    not built() or core_name() != "compiled",
    reason="proofs come from the compiled core's solver, which is not in use here",
)


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "9")
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "300")


def record_file(folder: Path, moves: int = 14) -> Path:
    """A Partitions game of `moves` random moves between Ann and Bob, saved."""
    game = new_game("partitions", size=5)
    rng = random.Random(4)
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    path = folder / "game.sgf"
    Record.from_game(game, players=("Ann", "Bob")).save(path)
    return path


def run(app: AbstractsApp, scenario: Scenario) -> None:
    async def main() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            await scenario(screen, pilot)

    asyncio.run(main())


async def review(screen: PlayScreen, pilot: Pilot[None]) -> None:
    """Analysis mode on, the line reviewed to its end."""
    await pilot.press("x", "percent_sign")
    await until(pilot, lambda: screen.study_keys.reviews.review is not None)


def test_the_review_in_the_app_has_the_figures_of_the_command(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    command = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "review", str(path)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        check=True,
    ).stdout
    rows = re.findall(
        r"^\s+(\d+)\s+(\w+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+%)\s+\S+$", command, re.M
    )
    assert len(rows) == 14
    accuracy = dict(re.findall(r"^Accuracy of (\w+): (\S+)$", command, re.M))
    mistakes = dict(re.findall(r"^Biggest mistakes of (\w+): (.*)$", command, re.M))

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await review(screen, pilot)
        found = screen.study_keys.reviews.review
        assert found is not None
        names = ["Ann", "Bob"]
        in_app = [
            (
                str(m.number),
                names[m.person],
                m.name,
                m.best or "-",
                percent_text(m.before, m.before_proof),
                percent_text(m.after, m.after_proof),
                f"{m.loss:.1%}",
            )
            for m in found.moves
        ]
        assert in_app == rows
        for person, name in enumerate(names):
            assert f"{found.accuracy(person):.1f}" == accuracy[name]
            panel = shown(screen, "#review")
            assert f"{name} ({['White', 'Black'][person]}) accuracy" in panel
            for m in found.mistakes(person):
                assert f"{m.number}. {m.name} lost {m.loss:.1%}" in mistakes[name]
                assert f"{m.number:>3}. {m.name:<6}{-100 * m.loss:6.1f}%" in panel
        # The graph is the review's: every position of the line has its figure (but the
        # one shown, which the analysis goes on searching, as long as the review did).
        nodes = [screen.session.record.root, *screen.session.line_nodes()]
        assert [node.evaluation for node in nodes[:-1]] == list(found.evaluations[:-1])

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)


def test_the_review_shows_its_progress_and_stops_while_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ten minutes a position: far more than the test waits.
    monkeypatch.setattr(searching, "review_budget", lambda: Budget(seconds=600))
    path = record_file(tmp_path)

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("x", "percent_sign")
        await until(pilot, lambda: "Reviewing: 0 of 15 positions" in shown(screen, "#review"))
        assert screen.searches.busy("review")
        await pilot.press("left_square_bracket", "left_square_bracket")  # the game is usable
        assert screen.session.move_number() == 12
        await pilot.press("percent_sign")  # the same key stops it
        await until(pilot, lambda: not screen.searches.busy("review"))
        assert shown(screen, "#status").startswith("Review stopped before its first move")
        # Esc stops a review too, and keeps the moves reviewed.
        monkeypatch.setattr(searching, "review_budget", lambda: Budget(seconds=0.3))
        await pilot.press("percent_sign")
        job = screen.searches.jobs["review"]
        await until(pilot, lambda: job.progress[0] >= 3)
        await pilot.press("escape")
        await until(pilot, lambda: not screen.searches.busy("review"))
        assert (
            screen.study_keys.reviews.review is not None
            and 2 <= len(screen.study_keys.reviews.review.moves) < 14
        )
        assert shown(screen, "#status").startswith("Review stopped: ")
        assert shown(screen, "#review").startswith("Review (chance the mover lost)")

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)


def test_keys_and_a_click_go_to_the_review_s_mistakes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A seed whose review finds no mistake in the first move: `home` shows the position
    # before it, from which `.` goes on to the first mistake.
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "5")
    path = record_file(tmp_path)

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await review(screen, pilot)
        found = screen.study_keys.reviews.review
        assert found is not None
        mistakes = mistakes_in_order(found)
        assert len(mistakes) >= 2
        nodes = screen.study_keys.reviews.nodes
        session = screen.session
        await pilot.press("home", "full_stop")  # the first mistake: the position it was made in
        first = mistakes[0]
        assert session.node is nodes[first.number - 1]
        assert shown(screen, "#status").startswith(f"Move {first.number}: ")
        assert f"played {first.name} here and lost {first.loss:.1%}" in shown(screen, "#status")
        await pilot.press("full_stop")
        assert session.node is nodes[mistakes[1].number - 1]
        await pilot.press("comma", "comma")  # back past the first: round to the last
        assert session.node is nodes[mistakes[-1].number - 1]
        # A click on the first mistake listed for Ann (the third line of the review).
        listed = found.mistakes(0)[0]
        await pilot.press("home")
        assert await pilot.click("#review", offset=(5, 2))
        await pilot.pause()
        assert session.node is nodes[listed.number - 1]

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)


def forced_record(folder: Path, computer_level: str | None = None) -> Path:
    record = Record.from_game(load_position(FORCED), players=("Computer", "Ann"))
    if computer_level is not None:
        record.computers["Computer"] = computer_level
    path = folder / "forced.sgf"
    record.save(path)
    return path


@compiled_only
def test_analysis_says_when_the_search_has_proven_the_result(tmp_path: Path) -> None:
    path = forced_record(tmp_path)

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("x")
        await until(pilot, lambda: "Proven: Black wins" in shown(screen, "#analysis"))
        analysis = shown(screen, "#analysis")
        assert re.search(r"d3\s+100%!", analysis), analysis
        assert "! proven: won or lost by force" in analysis

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)


@compiled_only
def test_the_computer_plays_a_proven_win_without_waiting_out_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ABSTRACTS_TUI_PLAYOUTS")
    monkeypatch.setitem(LEVELS, "strongest", (600.0, None))  # ten minutes a move
    path = forced_record(tmp_path, "strongest")

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: bool(screen.game.moves), seconds=30)
        assert screen.game.move_name(screen.game.moves[0]) == "d3"

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)


def test_analysis_shows_the_live_search_s_playouts_per_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A minute, however fast the machine: the test reads the search while it runs.
    monkeypatch.setattr(thinking, "analysis_budget", lambda: Budget(seconds=60))
    path = record_file(tmp_path)

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("x")
        await until(pilot, lambda: "/s)" in shown(screen, "#analysis"))
        search = screen.searches.search("analysis")
        assert search is not None and screen.searches.busy("analysis")
        await until(pilot, lambda: search.seconds > 1)  # past the threads' start
        before = search.playouts_per_second
        screen.draw_analysis()
        after = search.playouts_per_second
        shown_rate = re.search(r"playouts \(([\d,]+)/s\)", shown(screen, "#analysis"))
        assert shown_rate is not None
        rate = int(shown_rate.group(1).replace(",", ""))
        # The figure is the search's own, read while it runs.
        assert 0.9 * min(before, after) <= rate <= 1.1 * max(before, after)

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)


def test_at_80x24_a_key_goes_to_the_biggest_mistakes_and_the_list_shows_each(
    tmp_path: Path,
) -> None:
    path = record_file(tmp_path)
    app = build_app(load=str(path), data=tmp_path / "data")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            await review(screen, pilot)
            found = screen.study_keys.reviews.review
            assert found is not None
            biggest = sorted(mistakes_in_order(found), key=lambda m: -m.loss)
            assert len(biggest) >= 3
            for m in biggest[:3]:
                await pilot.press("exclamation_mark")
                await pilot.pause(0.2)
                assert screen.session.node is screen.study_keys.reviews.nodes[m.number - 1]
                assert shown(screen, "#status").startswith(f"Move {m.number}: ")
                # The mistake's line of the list is on the screen.
                listed = f"{m.number:>3}. {m.name}"
                assert listed in visible_text(app)
            await pilot.press("question_mark")
            await pilot.pause()
            keys = dict((d, k) for k, d in app.screen.keys)  # type: ignore[attr-defined]
            assert keys["Worst move"] == "!"

    asyncio.run(main())


def test_the_graph_shows_the_expected_lead_in_points_on_a_key(tmp_path: Path) -> None:
    """`#` in analysis turns the graph from the first colour's chance to its expected
    lead in points (the review's scores), its title and each column's figure with it,
    and back."""
    from abstracts_tui.tui.analysis_view import lead_values
    from abstracts_tui.tui.widgets.win_rate_graph import WinRateGraph

    path = record_file(tmp_path)
    seen: dict[str, object] = {}

    async def scenario(screen: PlayScreen, pilot: Pilot[None]) -> None:
        await review(screen, pilot)
        found = screen.study_keys.reviews.review
        assert found is not None
        graph = screen.query_one(WinRateGraph)
        seen["chance"] = graph.title
        await pilot.press("number_sign")
        await until(pilot, lambda: "lead" in graph.title)
        seen["lead"] = graph.title
        seen["status"] = shown(screen, "#status")
        leads = screen.analysis_panel.leads  # the last one the live analysis goes on with
        assert leads[:-1] == list(found.scores[:-1])
        seen["values"], seen["scores"] = graph.values, leads
        seen["figures"] = graph.figures
        await pilot.press("number_sign")
        await until(pilot, lambda: "chance" in graph.title)

    run(build_app(load=str(path), data=tmp_path / "data"), scenario)
    assert seen["chance"] == "White's chance, by move:"
    assert seen["lead"] == "White's lead in points, by move:"
    assert seen["status"] == "The graph shows the expected lead in points (# again: the chance)."
    scores = seen["scores"]
    assert isinstance(scores, list) and any(score is not None for score in scores)
    assert seen["values"] == lead_values(scores)
    assert seen["figures"] == [
        "not evaluated yet" if s is None else f"{s:+.1f} points" for s in scores
    ]


def test_the_lead_is_drawn_level_at_the_middle_and_the_largest_at_the_edges() -> None:
    from abstracts_tui.tui.analysis_view import lead_values

    assert lead_values([0.0, 4.0, -2.0, None]) == [0.5, 1.0, 0.25, None]
    assert lead_values([0.25, -0.5]) == [0.625, 0.25]  # within a point: one point's scale
