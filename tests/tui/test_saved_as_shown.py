"""The game saved is the game as shown (the real app, by keys): a move taken back is out
of the autosave and of ctrl+s's file, and a game left in analysis, on a variation or on a
set-up position reopens there."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record, RecordNode
from abstracts_tui.saved_games import SavedGames
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.resume import ResumeDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.setup import SetupScreen
from tests.tui.test_play import enter_path, run, type_move
from tests.tui.test_saving import moves_of, play_screen, saved, shown
from tests.tui.waiting import pie_asked

PARTITIONS = Setup("partitions", 5, first="Ann", second="Bob")


def names(nodes: list[RecordNode]) -> list[str | None]:
    return [node.move for node in nodes]


def autosave(data: Path) -> Record:
    """The one game file in `data`, read back."""
    [path] = SavedGames(data).files()
    return Record.load(path)


def play_and_quit(data: Path, setup: Setup, *keys: str) -> None:
    """Start `setup`'s game, type `keys` (`:c3` types a move), and quit with ctrl+q."""

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for key in keys:
            if key.startswith(":"):
                await type_move(pilot, key[1:])
            else:
                await pilot.press(key)
            await pilot.pause()
        await pilot.press("ctrl+q")

    run(build_app(setup, data=data), scenario)


async def resume_offered(app: AbstractsApp, pilot: Pilot[None]) -> str:
    """The resume offer's line for the one game in progress; Enter resumes it."""
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, ResumeDialog)
    [game] = dialog.games
    await pilot.press("enter")
    await pilot.pause()
    return game.describe()


def test_a_move_taken_back_is_not_resumed(tmp_path: Path) -> None:
    # As reported: c3, the pie rule declined, d4, undo, ctrl+q.
    play_and_quit(tmp_path, Setup("egotzi", 5, first="Ann", second="Bob"), ":c3", "p", ":d4", "u")
    record = autosave(tmp_path)
    assert names(list(record.root.mainline())) == ["c3"]
    assert record.shown is None  # the end of its main line

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert await resume_offered(app, pilot) == (
            "Egotzi 5x5, Ann - Bob, 1 move, White to move (Bob)"
        )
        assert moves_of(app) == ["c3"]
        assert pie_asked(app)  # Bob decides the pie rule again

    run(build_app(data=tmp_path), scenario)


def test_redo_after_undo_plays_the_move_again_and_it_is_saved(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await type_move(pilot, "a1")
        await pilot.press("u")
        await saved(app, pilot)
        assert moves_of(app) == ["c3"]
        assert names(list(autosave(tmp_path).root.mainline())) == ["c3"]
        await pilot.press("r")
        await saved(app, pilot)
        assert moves_of(app) == ["c3", "a1"]
        assert shown(app, "#status") == "Replayed 1 move. White to move (Ann)."
        assert names(list(autosave(tmp_path).root.mainline())) == ["c3", "a1"]

    run(build_app(PARTITIONS, data=tmp_path), scenario)


def test_a_new_move_after_a_takeback_keeps_the_old_one_as_a_variation(tmp_path: Path) -> None:
    play_and_quit(tmp_path, PARTITIONS, ":c3", ":a1", "u", ":e5")
    record = autosave(tmp_path)
    assert names(list(record.root.mainline())) == ["c3", "e5"]
    assert names(record.root.children[0].children) == ["e5", "a1"]
    assert record.shown is None


def test_stepping_back_in_analysis_reopens_there(tmp_path: Path) -> None:
    play_and_quit(tmp_path, PARTITIONS, ":c3", ":a1", ":e5", "x", "left_square_bracket", "[")
    record = autosave(tmp_path)
    assert names(list(record.root.mainline())) == ["c3", "a1", "e5"]  # nothing taken back

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert await resume_offered(app, pilot) == (
            "Partitions side 5, Ann - Bob, 1 move, Black to move (Bob)"
        )
        assert moves_of(app) == ["c3"]
        assert not play_screen(app).analysing  # play goes on from there
        await pilot.press("r")  # and the rest of the line is there to follow
        assert moves_of(app) == ["c3", "a1"]

    run(build_app(data=tmp_path), scenario)


def test_a_variation_made_in_analysis_reopens_there(tmp_path: Path) -> None:
    play_and_quit(tmp_path, PARTITIONS, ":c3", ":a1", "x", "[", ":e5")
    record = autosave(tmp_path)
    assert names(list(record.root.mainline())) == ["c3", "a1"]

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await resume_offered(app, pilot)
        assert moves_of(app) == ["c3", "e5"]
        assert not play_screen(app).session.on_main_line()

    run(build_app(data=tmp_path), scenario)


def test_a_position_set_up_reopens_there(tmp_path: Path) -> None:
    egotzi = Setup("egotzi", 5, first="Ann", second="Bob")

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await pilot.press("p")  # the pie rule's offer: play on
        await type_move(pilot, "d4")
        await pilot.press("x", "[", "ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+e")  # continue from the position as it is (after c3)
        await pilot.pause()
        assert play_screen(app).session.node.setup is not None
        await pilot.press("ctrl+q")

    run(build_app(egotzi, data=tmp_path), scenario)
    record = autosave(tmp_path)
    assert names(list(record.root.mainline())) == ["c3", "d4"]
    assert record.shown is not None and record.shown.setup is not None
    position = record.shown.setup

    async def resumed(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await resume_offered(app, pilot)
        session = play_screen(app).session
        assert session.node.setup == position
        assert moves_of(app) == []  # a game from the set-up position, White to move
        assert session.turn_text() == "White to move (Bob)"

    run(build_app(data=tmp_path), resumed)


def test_ctrl_s_writes_the_game_as_shown(tmp_path: Path) -> None:
    after_undo, after_step = tmp_path / "after-undo.sgf", tmp_path / "after-a-step.sgf"

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for move in ("c3", "a1", "e5"):
            await type_move(pilot, move)
        await pilot.press("u")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await enter_path(app, pilot, after_undo)
        await pilot.pause()
        await pilot.press("x", "[")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await enter_path(app, pilot, after_step)
        await pilot.pause()
        assert str(play_screen(app).query_one("#status", Static).content).startswith("Saved to")

    run(build_app(PARTITIONS, data=tmp_path / "data"), scenario)
    record = Record.load(after_undo)
    assert names(list(record.root.mainline())) == ["c3", "a1"] and record.shown is None
    record = Record.load(after_step)
    assert names(list(record.root.mainline())) == ["c3", "a1"]
    assert record.shown is not None and names(record.shown.line()) == ["c3"]


def test_opening_a_record_goes_where_it_was_saved_or_to_its_end(tmp_path: Path) -> None:
    marked, plain = tmp_path / "marked.sgf", tmp_path / "plain.sgf"
    head = "(;FF[4]GM[1000]GA[partitions]SZ[5]PW[Ann]PB[Bob]\n;W[c3]"
    marked.write_text(head + "SHOWN[]\n;B[a1]\n;W[e5])")
    plain.write_text(head + "\n;B[a1]\n;W[e5])")

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for path, moves in ((marked, ["c3"]), (plain, ["c3", "a1", "e5"])):
            await pilot.press("ctrl+o")
            await pilot.pause()
            await enter_path(app, pilot, path)
            await pilot.pause()
            assert moves_of(app) == moves

    run(build_app(PARTITIONS, data=tmp_path / "data"), scenario)
