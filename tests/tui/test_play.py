"""Whole games played by keys in the real app, the pie rule, komi, autosave, small terminals."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rules import Game, new_game
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.waiting import pie_asked, until

Scenario = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


def run(app: AbstractsApp, scenario: Scenario, size: tuple[int, int] = (100, 30)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def text(app: AbstractsApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def play_screen(app: AbstractsApp) -> PlayScreen:
    screen = app.screen
    assert isinstance(screen, PlayScreen), type(screen)
    return screen


async def type_move(pilot: Pilot[None], move: str) -> None:
    await pilot.press("colon", *move, "enter")


async def finish_randomly(app: AbstractsApp, pilot: Pilot[None], seed: int) -> Game:
    """Random legal moves until the game ends, through the session (typing moves is tested
    elsewhere), the last one typed; returns the library's own copy."""
    rng = random.Random(seed)
    session = play_screen(app).session
    shadow = session.game.copy()
    while not shadow.is_over():
        move = rng.choice(shadow.legal_moves())
        shadow.play(move)
        if shadow.is_over():
            await type_move(pilot, shadow.move_name(move))
            await pilot.pause()
        else:
            session.play(move)
        assert session.game.position() == shadow.position()
    return shadow


async def enter_path(app: AbstractsApp, pilot: Pilot[None], path: Path) -> None:
    """Put `path` in the path field of the dialog to save (ctrl+s) or open (ctrl+o) a
    record and press Enter there (typing in the fields is tested in test_dialogs.py and
    test_open_record.py)."""
    field = app.screen.query_one("#text, #path", Input)
    field.focus()
    field.value = str(path)
    await pilot.pause()
    await pilot.press("enter")


def assert_result_shown(app: AbstractsApp, game: Game) -> None:
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason in text(app, "#score")
    turn = text(app, "#turn")
    if outcome.winner is None:
        assert turn == "Draw"
    else:
        assert turn.startswith(f"{game.colour_name(outcome.winner).capitalize()} (")
        assert turn.endswith(") wins")


def test_petrify_with_a_swap_played_to_the_end(tmp_path: Path) -> None:
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert text(app, "#turn") == "Blue to move (Ann)"
        await type_move(pilot, "c3")
        await pilot.pause()
        assert pie_asked(app)
        await pilot.press("s")
        await pilot.pause()
        session = play_screen(app).session
        assert [session.game.move_name(m) for m in session.game.moves] == ["c3", "swap"]
        # Ann made the first move as Blue; after the swap she plays Orange and moves.
        assert text(app, "#turn") == "Orange to move (Ann)"
        assert text(app, "#status") == (
            "Orange (Bob) swaps: Bob now plays Blue. Orange to move (Ann)."
        )
        game = await finish_randomly(app, pilot, seed=3)
        assert_result_shown(app, game)

    run(app, scenario)


def test_pilo_played_on_without_swap(tmp_path: Path) -> None:
    app = build_app(Setup("pilo", 6, first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "d4")
        await pilot.pause()
        await pilot.press("p")  # play on
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen)
        assert text(app, "#turn") == "Orange to move (Bob)"
        game = await finish_randomly(app, pilot, seed=5)
        assert_result_shown(app, game)

    run(app, scenario)


def test_linage_komi_then_side_then_passes(tmp_path: Path) -> None:
    app = build_app(Setup("linage", 5, first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert type(app.screen).__name__ == "KomiDialog"
        await pilot.press("ctrl+a", "ctrl+k", *"2.3", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "KomiDialog"  # 2.3 is refused
        await pilot.press("backspace", "5", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "SideDialog"
        await pilot.press("2")  # Bob, the second player, takes Horizontal
        await pilot.pause()
        session = play_screen(app).session
        assert session.game.options.komi == 2.5
        assert text(app, "#turn") == "Vertical to move (Ann)"
        await type_move(pilot, "c3")
        await pilot.press("p")
        await pilot.press("p")
        game = session.game
        assert game.is_over()
        assert_result_shown(app, game)
        # Capitalised as every other game's result is (Blue 12, Orange 8).
        assert "Vertical 0, Horizontal 2.5" in text(app, "#score")
        assert session.flush() and session.autosave_path is not None
        assert session.autosave_path.parent == tmp_path / "games"
        record = Record.load(session.autosave_path)
        assert record.players == ("Ann", "Bob")
        assert record.options.komi == 2.5

    run(app, scenario)


def test_egotzi_squared_the_second_player_takes_black(tmp_path: Path) -> None:
    app = build_app(Setup("egotzi", 5, variant="squared", first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k", *"-4", "enter")
        await pilot.pause()
        await pilot.press("1")  # Bob takes Black and moves first
        await pilot.pause()
        assert text(app, "#turn") == "Black to move (Bob)"
        game = await finish_randomly(app, pilot, seed=11)
        assert game.options.komi == -4
        assert_result_shown(app, game)

    run(app, scenario)


def test_partitions_whole_game(tmp_path: Path) -> None:
    app = build_app(Setup("partitions", 5), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert text(app, "#turn") == "White to move (Player 1)"
        game = await finish_randomly(app, pilot, seed=2)
        assert_result_shown(app, game)

    run(app, scenario)


def test_a_wrong_move_is_refused_with_the_reason(tmp_path: Path) -> None:
    app = build_app(Setup("partitions", 5), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await type_move(pilot, "c3")  # occupied: refused, the move line stays open
        assert "Not played: c3 is occupied" in text(app, "#move-check")
        await pilot.press("escape")
        # No passing in Partitions: the footer does not offer it and p does nothing.
        assert "pass_turn" not in {b.binding.action for b in app.screen.active_bindings.values()}
        await pilot.press("p")
        game = play_screen(app).session.game
        assert [game.move_name(m) for m in game.moves] == ["c3"]

    run(app, scenario)


def test_keys_typed_in_one_burst_after_the_colon_reach_the_move_line(tmp_path: Path) -> None:
    """A paste, or fast typing over SSH, sends ':a1' and Enter before any is handled."""
    app = build_app(Setup("partitions", 5), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for key, character in (("colon", ":"), ("a", "a"), ("1", "1"), ("enter", "\r")):
            app.post_message(events.Key(key, character))
        await pilot.pause(0.2)
        await pilot.pause()
        game = play_screen(app).session.game
        assert [game.move_name(m) for m in game.moves] == ["a1"]

    run(app, scenario)


def test_brackets_in_names_and_comments_are_shown_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_PLAYOUTS", "100")  # analysis mode's search: short
    app = build_app(Setup("petrify", 6, first="Ann [x]", second="[b]Bob[/b]"), data=tmp_path)

    def drawn(widget: Widget) -> str:
        return "".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert "Blue to move (Ann [x])" in drawn(app.screen.query_one("#turn"))
        await type_move(pilot, "c3")
        await pilot.pause()
        assert "the first move. [b]Bob[/b]" in drawn(app.screen.query_one("#pie"))
        await pilot.press("p")
        await pilot.pause()
        assert "Blue (Ann [x]) plays c3" in drawn(app.screen.query_one("#status"))
        await pilot.press("x", "semicolon", *"[red]sharp[/red]", "enter")
        await pilot.pause()
        assert "Comment: [red]sharp[/red]" in drawn(app.screen.query_one("#analysis"))

    run(app, scenario)


def test_undo_and_redo(tmp_path: Path) -> None:
    app = build_app(Setup("partitions", 5), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for move in ("a1", "b2", "c3"):
            await type_move(pilot, move)
        game = play_screen(app).session.game
        await pilot.press("u", "u")
        assert [game.move_name(m) for m in game.moves] == ["a1"]
        await pilot.press("r")
        assert [game.move_name(m) for m in game.moves] == ["a1", "b2"]
        await type_move(pilot, "e5")  # a new move after an undo starts the main line
        assert [game.move_name(m) for m in game.moves] == ["a1", "b2", "e5"]
        assert "3. White" in text(app, "#moves")

    run(app, scenario)


def test_autosave_restores_a_game_stopped_mid_game(tmp_path: Path) -> None:
    first = build_app(Setup("pilo", 6, first="Ann", second="Bob"), data=tmp_path)

    async def moves(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "a1")
        await pilot.press("p")  # no swap
        await type_move(pilot, "f6")
        await type_move(pilot, "c3")

    run(first, moves)
    expected = new_game("pilo", 6)
    for move in ("a1", "f6", "c3"):
        expected.play(move)

    second = build_app(data=tmp_path)

    async def resume(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert type(app.screen).__name__ == "ResumeDialog"
        await pilot.press("y")
        await pilot.pause()
        session = play_screen(app).session
        assert session.game.position() == expected.position()
        assert session.people == ("Ann", "Bob")
        assert text(app, "#turn") == "Orange to move (Bob)"

    run(second, resume)


def test_the_offer_of_games_in_progress_does_not_cover_a_game_started_before_it(
    tmp_path: Path,
) -> None:
    # The offer comes after the home screen's first frame; on a loaded machine (a browser
    # page's app under load) Enter could start a game first, whose autosave the offer
    # then listed over it: the next keys went to the offer, Enter resumed the new game.
    app = build_app(data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("enter")  # Petrify, the first game
        await pilot.pause()
        screen = play_screen(app)
        await pilot.press("right", "enter")  # e5: a game with a move is kept
        await until(pilot, lambda: pie_asked(app))
        screen.session.flush(5)
        assert [game.path for game in app.saved_games.read()[0]]  # its autosave is there
        app.offer_resume()  # as the first frame's callback, come late
        await pilot.pause()
        assert app.screen is screen and pie_asked(app)
        assert [screen.game.move_name(m) for m in screen.game.moves] == ["e5"]

    run(app, scenario)


def test_a_tiny_terminal_is_told_and_recovers(tmp_path: Path) -> None:
    app = build_app(Setup("linage", 19, komi=0.5), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("1")  # the side dialog (komi was agreed)
        await pilot.pause()
        screen = play_screen(app)
        assert screen.has_class("-too-small")
        assert "too small" in text(app, "#too-small")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.has_class("-too-small")

    run(app, scenario, size=(50, 15))


def test_help_lists_the_keys(tmp_path: Path) -> None:
    app = build_app(Setup("petrify", 8), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen)

    run(app, scenario)


@pytest.mark.parametrize(
    "setup",
    [
        Setup("petrify", 10),
        Setup("pilo", 10),
        Setup("egotzi", 9, variant="squared", komi=0),
        Setup("linage", 19, komi=0.5),
        Setup("partitions", 10),
    ],
    ids=lambda setup: setup.game,
)
def test_every_largest_board_fits_80_by_24(tmp_path: Path, setup: Setup) -> None:
    app = build_app(setup, data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        if not isinstance(app.screen, PlayScreen):
            await pilot.press("1")  # the side dialog
            await pilot.pause()
        screen = play_screen(app)
        assert not screen.has_class("-too-small")
        board = screen.board.region
        assert board.right <= 80 - 28 and board.bottom <= 24 - 2, board

    run(app, scenario, size=(80, 24))


def test_save_and_load_a_record(tmp_path: Path) -> None:
    app = build_app(Setup("egotzi", 5, first="Ann", second="Bob"), data=tmp_path)
    path = tmp_path / "study.sgf"

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await pilot.press("p")  # play on
        await type_move(pilot, "b2")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert type(app.screen).__name__ == "SaveRecordDialog"
        await enter_path(app, pilot, path)
        await pilot.pause()
        assert "Saved to" in text(app, "#status")
        assert Record.load(path).players == ("Ann", "Bob")
        await type_move(pilot, "e5")
        await pilot.press("ctrl+o")
        await pilot.pause()
        await enter_path(app, pilot, tmp_path / "missing.sgf")
        await pilot.pause()
        assert type(app.screen).__name__ == "OpenRecordDialog"  # no such file: refused
        await enter_path(app, pilot, path)
        await pilot.pause()
        game = play_screen(app).session.game
        assert [game.move_name(m) for m in game.moves] == ["c3", "b2"]
        assert text(app, "#turn") == "Black to move (Ann)"

    run(app, scenario)


def test_a_malformed_record_on_the_command_line_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1000]GA[linage]SZ[5]\n;V[c3]\n;H[c3])")
    app = build_app(load=str(bad), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        from abstracts_tui.tui.dialogs.reading import ReadingDialog

        await until(pilot, lambda: isinstance(app.screen, ReadingDialog))  # a box that stays
        said = str(app.screen.query_one("#reading-text", Static).content)
        assert "line 3: the move H[c3]: c3 is" in said, said
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ == "SelectScreen")

    run(app, scenario)


def test_new_game_goes_back_to_the_selection_screen_and_keeps_the_game(tmp_path: Path) -> None:
    app = build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ == "SelectScreen"
        assert any("Esc comes back to it" in note for note in app.notices)
        await pilot.press("escape")  # straight back to the game left
        await pilot.pause()
        assert [play_screen(app).game.move_name(m) for m in play_screen(app).game.moves] == ["c3"]
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+r")  # or through the games in progress
        await pilot.pause()
        assert type(app.screen).__name__ == "ResumeDialog"
        await pilot.press("enter")
        await pilot.pause()
        assert [play_screen(app).game.move_name(m) for m in play_screen(app).game.moves] == ["c3"]
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("up", "enter")  # Linage, the game above Partitions
        await pilot.pause()
        assert type(app.screen).__name__ == "KomiDialog"

    run(app, scenario)


def test_the_move_list_names_the_mover_after_a_swap_when_it_is_built_again(
    tmp_path: Path,
) -> None:
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        session = play_screen(app).session
        for move in ("c3", "swap", "d4", "e5"):
            session.play(move)
        await pilot.pause()
        appended = text(app, "#moves")
        await pilot.press("u")  # another line shown: the list is built from the record
        await pilot.pause()
        rebuilt = text(app, "#moves")
        assert rebuilt.splitlines() == appended.splitlines()[:3]
        assert [line.split()[1:] for line in rebuilt.splitlines()] == [
            ["Blue", "c3"],
            ["Orange", "swap"],
            ["Orange", "d4"],  # the colour that swapped moves again
        ]

    run(app, scenario)
