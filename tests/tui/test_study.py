"""Analysis mode in the real app: stepping, variations, comments, setting up positions,
position strings, hints, continuous analysis and the win-rate graph."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rules import PASS, load_position, new_game
from abstracts_tui.tui.analysis_view import shown_candidates
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from abstracts_tui.tui.screens.setup import SetupScreen
from abstracts_tui.tui.widgets.move_list import MoveList
from abstracts_tui.tui.widgets.win_rate_graph import WinRateGraph
from tests.tui.test_play import type_move
from tests.tui.waiting import until

Scenario = Callable[[AbstractsApp, PlayScreen, Pilot[None]], Awaitable[None]]


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_SEED", "9")
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "400")


def run(setup: Setup, data: Path, scenario: Scenario) -> None:
    app = build_app(setup, data=data)

    async def main() -> None:
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            await scenario(app, screen, pilot)

    asyncio.run(main())


def shown(screen: Screen[Any], selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


PARTITIONS = Setup("partitions", 5, first="Ann", second="Bob")


def test_stepping_back_and_a_new_move_starts_a_variation(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        for move in ("a1", "b2", "c3"):
            await type_move(pilot, move)
        await pilot.press("x")
        assert screen.analysing
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert session.move_number() == 1
        assert shown(screen, "#turn").startswith("Analysis, move 1:")
        await type_move(pilot, "e5")  # Bob tries another second move
        main = [node.move for node in session.record.root.mainline()]
        assert main == ["a1", "b2", "c3"]  # the main line stays
        assert [n.move for n in session.node.parent.children] == ["b2", "e5"]  # type: ignore[union-attr]
        assert "(2/2)" in shown(screen, "#moves")
        await pilot.press("v")  # back to the main line's move
        assert session.node.move == "b2"
        await pilot.press("end")
        assert session.move_number() == 3
        await pilot.press("home")
        assert session.move_number() == 0
        await pilot.press("right_square_bracket")
        assert session.node.move == "a1"

    run(PARTITIONS, tmp_path, scenario)


def test_promote_delete_comment_and_the_record_keeps_them(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        for move in ("a1", "b2", "c3"):
            await type_move(pilot, move)
        await pilot.press("x", "left_square_bracket", "left_square_bracket")
        await type_move(pilot, "e5")
        await type_move(pilot, "d4")
        await pilot.press("semicolon", *"sharper", "enter")
        assert session.node.comment == "sharper"
        await pilot.press("M")  # the variation becomes the main line, once confirmed
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert [n.move for n in session.record.root.mainline()] == ["a1", "e5", "d4"]
        await pilot.press("left_square_bracket", "v")  # to e5, then its alternative b2
        assert session.node.move == "b2"
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")  # confirm
        await pilot.pause()
        assert session.node.move == "a1"
        assert [n.move for n in session.node.children] == ["e5"]
        # A new variation and a comment, saved: the record keeps the tree.
        await type_move(pilot, "c1")
        session.save(tmp_path / "study.sgf")
        record = Record.load(tmp_path / "study.sgf")
        first = record.root.children[0]
        assert [n.move for n in first.children] == ["e5", "c1"]
        assert first.children[0].children[0].comment == "sharper"

    run(PARTITIONS, tmp_path, scenario)


def test_m_goes_back_to_the_main_line_and_a_save_keeps_the_game(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        for move in ("a1", "b2", "c3"):
            await type_move(pilot, move)
        await pilot.press("x", "left_square_bracket", "left_square_bracket")
        await type_move(pilot, "e5")
        await type_move(pilot, "d4")
        await pilot.press("m")
        # Where the variation left the main line, which stays the game.
        assert session.node.move == "a1" and session.on_main_line()
        assert shown(screen, "#status").startswith("Back to the main line, move 1:")
        assert [n.move for n in session.record.root.mainline()] == ["a1", "b2", "c3"]
        session.save(tmp_path / "back.sgf")
        saved = Record.load(tmp_path / "back.sgf")
        assert [n.move for n in saved.root.mainline()] == ["a1", "b2", "c3"]
        await pilot.press("m")
        assert shown(screen, "#status").startswith("This is the main line already (M makes")
        # Making a line the main line asks first; No leaves the game as it was.
        await pilot.press("right_square_bracket", "v")  # b2, then its alternative e5
        assert session.node.move == "e5"
        await pilot.press("M")
        await pilot.pause()
        question = str(app.screen.query_one(".dialog-text", Static).content)
        assert question.startswith(
            "Make this line the main line? The main line's moves from move 2"
        )
        await pilot.press("n")
        await pilot.pause()
        assert [n.move for n in session.record.root.mainline()] == ["a1", "b2", "c3"]
        await pilot.press("question_mark")
        await pilot.pause()
        keys = dict((description, key) for key, description in app.screen.keys)  # type: ignore[attr-defined]
        assert keys["Back to the main line"] == "m"
        assert keys["Make this line the main line"] == "M"

    run(PARTITIONS, tmp_path, scenario)


def test_jump_to_a_move_by_number(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        for move in ("a1", "b2", "c3", "d4"):
            await type_move(pilot, move)
        await pilot.press("x", "g")
        await pilot.pause()
        for typed in ("9", "\u00b2", "9" * 5000):  # past the end, not ASCII, too many digits
            app.screen.query_one("#text", Input).value = typed
            await pilot.pause()
            note = str(app.screen.query_one("#text-note", Static).content)
            assert "from 0 (the start) to 4" in note
            await pilot.press("enter")  # refused: the dialog stays
            await pilot.pause()
            assert app.screen.query_one("#text", Input).value == typed
        app.screen.query_one("#text", Input).value = ""
        await pilot.press("2", "enter")
        await pilot.pause()
        assert screen.session.move_number() == 2
        assert screen.session.node.move == "b2"

    run(PARTITIONS, tmp_path, scenario)


def test_keys_of_analysis_wait_for_analysis_mode(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await type_move(pilot, "a1")
        await pilot.press("left_square_bracket", "home")
        assert screen.session.move_number() == 1  # play mode: [ and Home do nothing
        await pilot.press("x", "left_square_bracket")
        assert screen.session.move_number() == 0
        await pilot.press("x")
        assert not screen.analysing
        assert screen.session.move_number() == 1  # play goes on from the game's position

    run(PARTITIONS, tmp_path, scenario)


def test_setting_up_a_position_is_checked_before_play_resumes(tmp_path: Path) -> None:
    setup = Setup("egotzi", 5, first="Ann", second="Bob")

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        geometry = screen.game.geometry
        await pilot.press("ctrl+e")
        assert screen.analysing and isinstance(app.screen, SetupScreen)
        setting_up = app.screen
        setting_up.board.cursor = geometry.parse("a1")
        await pilot.press("2")  # a white stone alone, Black to move
        await pilot.press("ctrl+e")
        assert app.screen is setting_up  # refused: the counts cannot arise in play
        assert shown(setting_up, "#status").startswith("Not a position of this game:")
        assert session.node.setup is None
        setting_up.board.cursor = geometry.parse("c3")
        await pilot.press("1", "t")  # a black stone, and White to move
        assert shown(setting_up, "#setup-turn") == "White to move"
        await pilot.press("ctrl+e")
        assert app.screen is setting_up  # one stone each: Black is to move
        await pilot.press("t", "ctrl+e")
        await pilot.pause()
        assert app.screen is screen
        assert shown(screen, "#status").startswith("Position set up")
        position = load_position(session.game.position())
        assert position.piece_at(geometry.parse("a1")).colour == 1  # type: ignore[union-attr]
        assert position.piece_at(geometry.parse("c3")).colour == 0  # type: ignore[union-attr]
        assert session.game.side_to_move() == "black"
        assert session.record.root.setup == session.game.position()
        await type_move(pilot, "e5")  # play goes on from it
        assert len(session.game.moves) == 1

    run(setup, tmp_path, scenario)


def test_escape_cancels_setting_up(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        before = screen.game.position()
        await pilot.press("ctrl+e", "1", "escape")
        await pilot.pause()
        assert app.screen is screen
        assert screen.game.position() == before
        assert shown(screen, "#status").startswith("Setup cancelled")

    run(PARTITIONS, tmp_path, scenario)


def test_the_position_string_is_copied_and_a_pasted_one_is_set_up(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await type_move(pilot, "a1")
        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard == screen.game.position()
        field = app.screen.query_one("#text", Input)
        assert field.value == ""  # the string is shown above it, whole
        other = load_position(screen.game.position())
        other.play("e5")
        field.value = "garbage"
        await pilot.pause()
        assert "5 fields" in str(app.screen.query_one("#text-note", Static).content)
        field.value = other.position()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert shown(screen, "#status").startswith("Position set up"), shown(screen, "#status")
        assert screen.game.position() == other.position()
        assert screen.session.node.setup == other.position()

    run(PARTITIONS, tmp_path, scenario)


def test_a_hint_names_a_move_and_why_in_the_side_to_moves_chance(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await type_move(pilot, "a1")
        await pilot.press("b")
        await until(pilot, lambda: screen.hint is not None)
        status = shown(screen, "#status")
        # Black to move: Black's chance, named, and how many moves it was the best of.
        assert re.match(
            r"Hint: [a-j]\d+ - Black's chance \d+%(, (ahead|behind) by [\d.]+|, level)? "
            r"\(best of \d+ moves tried\); the line ",
            status,
        ), status
        assert "visits" not in status and "White" not in status
        assert status.endswith("Enter plays it.")
        assert "Black's chance" in shown(screen, "#analysis")
        hint = screen.hint
        assert hint is not None and screen.game.illegal_reason(hint.move) is None
        assert screen.board.cursor == hint.move  # a placement: the cursor is on it

    run(PARTITIONS, tmp_path, scenario)


def test_continuous_analysis_shows_candidates_bar_and_graph(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        for move in ("a1", "b2"):
            await type_move(pilot, move)
        await pilot.press("x")
        await until(pilot, lambda: "400 playouts" in shown(screen, "#analysis"))
        # The top three moves are marked on the board as the search finds them.
        search = screen.searches.search("analysis")
        assert search is not None
        top = frozenset(candidate.move for candidate in shown_candidates(search.candidates()))
        await until(pilot, lambda: screen.thinking.marks == top, seconds=5)
        analysis = shown(screen, "#analysis")
        assert "400 playouts" in analysis and "Best line: " in analysis
        await until(pilot, lambda: screen.session.node.evaluation is not None)
        await pilot.pause(0.6)  # the panel's next tick draws the bar
        # White to move: the bar names White's chance, the candidates' column too.
        assert "White's chance " in shown(screen, "#analysis")
        assert "Black" not in shown(screen, "#analysis")
        await pilot.press("percent_sign")  # review the line: every position gets a figure
        nodes = [screen.session.record.root, *screen.session.line_nodes()]
        await until(pilot, lambda: all(node.evaluation is not None for node in nodes))
        graph = screen.query_one(WinRateGraph).render().plain
        assert graph.startswith("White's chance, by move:")
        assert "·" not in graph.splitlines()[1] and len(graph.splitlines()[1]) == len(nodes)

    run(PARTITIONS, tmp_path, scenario)


def test_analysis_pauses_the_computer_and_moves_for_either_side(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("x")
        await type_move(pilot, "a1")
        await type_move(pilot, "b2")  # the computer's side, played by hand
        await pilot.pause(0.3)
        assert len(screen.game.moves) == 2  # the computer waits
        await pilot.press("x")  # back to the game's position: Ann is to move
        assert screen.game.moves == []
        await type_move(pilot, "c3")
        await until(pilot, lambda: len(screen.game.moves) == 2)
        # The variation tried in analysis stays in the record, beside the game's line.
        first_moves = [node.move for node in screen.session.record.root.children]
        assert first_moves == ["c3", "a1"]

    run(setup, tmp_path, scenario)


def test_shared_games_refuse_analysis(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        screen.seat = Seat(shared=True, files=False)
        screen.turns.shared = True
        screen.refresh_bindings()
        await pilot.press("x", "b", "ctrl+e")
        assert not screen.analysing and screen.hint is None and app.screen is screen
        # Nor are they offered in the footer.
        enabled = {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        assert "move_line" in enabled
        assert not enabled & {"toggle_analysis", "hint", "undo", "save", "load"}

    run(PARTITIONS, tmp_path, scenario)


def test_help_lists_the_keys_of_analysis_and_setup_mode_too(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        keys = dict((description, key) for key, description in app.screen.keys)  # type: ignore[attr-defined]
        assert keys["Analysis"] == "x" and keys["Hint"] == "b"
        assert keys["Back (analysis)"] == "[" and keys["Comment (analysis)"] == ";"
        # Set-up's keys do nothing here: its own screen lists them, where they work.
        assert not [name for name in keys if "setup" in name or name == "Higher"]
        await pilot.press("escape", "ctrl+e")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        keys = dict((description, key) for key, description in app.screen.keys)  # type: ignore[attr-defined]
        assert keys["Side to move"] == "t" and keys["Higher"].split()[0] == "+"

    run(PARTITIONS, tmp_path, scenario)


def test_a_hint_leaves_the_board_when_analysis_lists_its_own_candidates(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await type_move(pilot, "a1")
        await pilot.press("b")
        await until(pilot, lambda: screen.hint is not None)
        await pilot.press("x")
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        await pilot.pause(0.6)  # the next tick marks the candidates
        search = screen.searches.search("analysis")
        assert search is not None and screen.hint is None
        listed = frozenset(c.move for c in shown_candidates(search.candidates()))
        assert screen.thinking.marks == listed  # placements: a move is its cell

    run(PARTITIONS, tmp_path, scenario)


def test_the_move_list_keeps_the_position_shown_in_view_at_80x24(tmp_path: Path) -> None:
    """Stepping from the start, jumping to the end and starting a variation deep in the
    game: the `>` line is always among the lines the list shows."""
    game = new_game("egotzi", size=7)
    rng = random.Random(3)
    while len(game.moves) < 40 and not game.is_over():
        game.play(rng.choice([m for m in game.legal_moves() if m != PASS]))
    path = tmp_path / "long.sgf"
    path.write_text(Record.from_game(game, players=("Ann", "Bob")).to_sgf())
    app = build_app(data=tmp_path / "data", load=str(path))

    def in_view() -> bool:
        moves = app.screen.query_one(MoveList)
        lines = str(moves.query_one("#moves", Static).content).splitlines()
        [here] = [i for i, line in enumerate(lines) if line.startswith(">")]
        top = round(moves.scroll_y)
        return top <= here < top + moves.scrollable_content_region.height

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("x", "home", *["right_square_bracket"] * 5)
            await until(pilot, in_view)
            await pilot.press("end")
            await until(pilot, in_view)
            await pilot.press(*["left_square_bracket"] * 9)
            await type_move(pilot, other_than(app))
            await until(pilot, in_view)
            assert "(2/2)" in str(app.screen.query_one("#moves", Static).content)

    asyncio.run(main())


def other_than(app: AbstractsApp) -> str:
    """A legal move of the position shown other than the one played there next."""
    screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
    session = screen.session
    played = {child.move for child in session.node.children}
    game = session.game
    return next(
        name
        for name in map(game.move_name, game.legal_moves())
        if name not in played and name != game.move_name(PASS)
    )


PILO_CAPTURES_ONLY = (
    "pilo size=6 o1xb2b1o1x/b2o1xb2b1x/xo3xo1xx/o1b1b2xxb1/o1xxb2b2b2/o1o1xo1o1b3 "
    "orange passes=0,last=blue,swap=no"
)
"""Orange to move with captures only: a3-b3, b5-b3, e6-e5, e6-d6."""


def test_a_hint_for_a_capture_selects_its_piece_and_enter_plays_it(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        screen.session.set_up(PILO_CAPTURES_ONLY)
        await pilot.pause()
        await pilot.press("b")
        await until(pilot, lambda: screen.hint is not None)
        hint = screen.hint
        assert hint is not None
        frm, to = screen.game.move_cells(hint.move)
        assert frm is not None and to is not None
        assert screen.selected == frm and screen.board.cursor == to
        assert shown(screen, "#status").endswith("Enter plays it.")
        name = screen.game.move_name(hint.move)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.node.move == name
        assert " (Bob) moves " in shown(screen, "#status")

    run(Setup("pilo", 6, first="Ann", second="Bob"), tmp_path, scenario)


def test_leaving_analysis_comes_back_to_the_games_position(tmp_path: Path) -> None:
    """e6, x, [, x: the board shows e6 again, Orange to move; the variation tried stays."""

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await type_move(pilot, "a1")
        await pilot.press("x", "left_square_bracket")
        assert screen.session.move_number() == 0
        await type_move(pilot, "b2")  # a variation at the start
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.press("x")
        assert not screen.analysing and screen.session.move_number() == 1
        assert screen.session.node.move == "a1"
        assert shown(screen, "#status") == "Back to play. Black to move (Bob)."
        assert [node.move for node in screen.session.record.root.children] == ["a1", "b2"]
        await type_move(pilot, "c3")  # play goes on from the game's position
        assert [node.move for node in screen.session.node.line()] == ["a1", "c3"]

    run(PARTITIONS, tmp_path, scenario)


def test_leaving_analysis_keeps_the_time_used_before_it(tmp_path: Path) -> None:
    """Stepping in analysis does not give back the time the side to move had used."""
    setup = Setup("partitions", 5, first="Ann", second="Bob", clock="5m")

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        await type_move(pilot, "a1")
        await pilot.pause(1.5)  # Bob thinks
        await pilot.press("x", "left_square_bracket", "right_square_bracket", "x")
        assert session.clock is not None and session.clock.running == 1
        assert session.clock.sides[1].main < 300 - 1.0

    run(setup, tmp_path, scenario)


def test_a_move_for_the_computers_side_in_analysis_is_the_colours(tmp_path: Path) -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")

    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("x")
        await type_move(pilot, "a1")
        assert shown(screen, "#status").startswith("White plays a1.")
        await type_move(pilot, "b2")  # the computer's side, played by hand
        status = shown(screen, "#status")
        assert status.startswith("Black plays b2.") and "Computer" not in status

    run(setup, tmp_path, scenario)


def test_the_graph_numbers_its_moves_and_a_click_or_a_key_goes_to_one(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        rng = random.Random(5)
        for _ in range(14):
            session.play(rng.choice([m for m in session.game.legal_moves() if m != PASS]))
        await pilot.press("x", "home")
        # The search's figures laid out before a click (the panel above the graph grows).
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        graph = screen.query_one(WinRateGraph)
        _, bars, scale = graph.render().plain.splitlines()
        assert len(bars) == 15  # the start and fourteen moves: they fit
        assert scale == "0    5    10 14"  # each under its column, the last one ending there
        await pilot.click(WinRateGraph, offset=(10, 1))
        assert session.move_number() == 10
        assert shown(screen, "#status").startswith("Move 10. ")
        await pilot.click(WinRateGraph, offset=(20, 1))  # past the last move: nothing
        assert session.move_number() == 10
        await pilot.press("pageup")
        assert session.move_number() == 0
        await pilot.press("pagedown", "pagedown")
        assert session.move_number() == 14
        await pilot.press("pagedown")
        assert shown(screen, "#status") == "This is the end of the line."

    run(PARTITIONS, tmp_path, scenario)


def test_a_long_graph_keeps_the_move_shown_among_its_numbered_columns(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        session = screen.session
        rng = random.Random(6)
        for _ in range(48):
            if session.game.is_over():
                break
            session.play(rng.choice(session.game.legal_moves()))
        moves = len(session.game.moves)
        await pilot.press("x")
        await until(pilot, lambda: not screen.searches.busy("analysis"))
        graph = screen.query_one(WinRateGraph)
        _, bars, scale = graph.render().plain.splitlines()
        start = graph.start()
        assert start + len(bars) == moves + 1 and start > 0  # the end shown, at the right
        labels = scale.split()
        if labels[-1] == str(moves):  # the last position's number ends under it
            assert len(scale) == len(bars)
            labels.pop()
        for label in labels:  # every fifth, from its own column on
            assert scale.index(label) == int(label) - start and int(label) % 5 == 0
        assert len(labels) >= 3
        graph.scroll_visible(animate=False)  # below the candidates: the panel scrolls
        await pilot.pause()
        await pilot.click(WinRateGraph, offset=(0, 1))
        assert session.move_number() == start

    run(Setup("partitions", 7, first="Ann", second="Bob"), tmp_path, scenario)
