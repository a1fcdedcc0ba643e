"""Opening a record with ctrl+o in the app `abstracts-tui` builds: a tree of the folders
and the records in them, the records opened lately first, and a path typed with
completion."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DirectoryTree, Input, OptionList, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.recent import RecentRecords
from abstracts_tui.records import Record
from abstracts_tui.rules import new_game
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.open_record import OpenRecordDialog
from abstracts_tui.tui.factory import build_app
from tests.tui.test_play import play_screen, run
from tests.tui.waiting import until

PETRIFY = Setup("petrify", 6, first="Ann", second="Bob")


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder, the current one, with a Pilo record (`pilo.sgf`, two moves), a Linage one
    in a subfolder (`more/linage.sgf`), a file that is no record, and a hidden folder."""
    folder = tmp_path / "records"
    (folder / "more").mkdir(parents=True)
    (folder / ".cache").mkdir()
    pilo = new_game("pilo", 6)
    pilo.play("a1")
    pilo.play("f6")  # past the pie rule's offer: the game opens on its board
    Record.from_game(pilo, ("Cy", "Di")).save(folder / "pilo.sgf")
    Record.from_game(new_game("linage", 9), ("Ed", "Flo")).save(folder / "more" / "linage.sgf")
    (folder / "notes.txt").write_text("not a record")
    monkeypatch.chdir(folder)
    return folder


def dialog(app: AbstractsApp) -> OpenRecordDialog:
    screen = app.screen
    assert isinstance(screen, OpenRecordDialog), type(screen)
    return screen


def tree_labels(app: AbstractsApp) -> list[str]:
    """The names under the tree's root, as listed."""
    tree = dialog(app).query_one(DirectoryTree)
    return [str(node.label) for node in tree.root.children]


async def open_picker(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+o")
    await until(pilot, lambda: isinstance(app.screen, OpenRecordDialog))
    tree = dialog(app).query_one(DirectoryTree)
    await until(pilot, lambda: bool(tree.root.children))


def moves(app: AbstractsApp) -> tuple[str, list[str]]:
    game = play_screen(app).session.game
    return game.info.name, [game.move_name(move) for move in game.moves]


def test_the_tree_lists_folders_and_records_and_enter_opens_one(
    records: Path, tmp_path: Path
) -> None:
    seen: list[object] = []

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_picker(app, pilot)
        seen.append(tree_labels(app))
        assert not dialog(app).query_one("#recent").display  # nothing opened yet
        assert app.focused is dialog(app).query_one(DirectoryTree)
        await pilot.press("down", "down", "enter")  # the root, more/, pilo.sgf
        await until(pilot, lambda: not isinstance(app.screen, OpenRecordDialog))
        seen.append(moves(app))

    run(build_app(PETRIFY, data=tmp_path / "data"), scenario)
    assert seen == [["more", "pilo.sgf"], ("pilo", ["a1", "f6"])]


def opening(*paths: str) -> Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]:
    """Open each of `paths` in turn by typing it."""

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for path in paths:
            await open_picker(app, pilot)
            field = dialog(app).query_one("#path", Input)
            field.focus()
            await pilot.press(*path, "enter")
            await until(pilot, lambda: not isinstance(app.screen, OpenRecordDialog))

    return scenario


def test_the_records_opened_lately_come_first_in_the_next_run(
    records: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    seen: list[object] = []
    (records / "gone.sgf").write_text((records / "pilo.sgf").read_text())

    async def again(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_picker(app, pilot)
        recent = dialog(app).query_one("#recent", OptionList)
        seen.append([str(recent.get_option_at_index(i).prompt) for i in range(recent.option_count)])
        assert app.focused is recent
        await pilot.press("down", "enter")  # the one before: Linage
        await until(pilot, lambda: not isinstance(app.screen, OpenRecordDialog))
        seen.append(moves(app))

    run(build_app(PETRIFY, data=data), opening("gone.sgf", "more/linage.sgf", "pilo.sgf"))
    (records / "gone.sgf").unlink()  # not offered once it has gone
    run(build_app(PETRIFY, data=data), opening("more/linage.sgf", "pilo.sgf"))  # not twice
    run(build_app(PETRIFY, data=data), again)
    assert seen == [["pilo.sgf", "more/linage.sgf"], ("linage", [])]


async def complete(pilot: Pilot[None], field: Input, completed: str) -> None:
    """Press → until the completion, found in the background, is taken."""
    for _ in range(100):
        await pilot.press("right")
        if field.value == completed:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"{field.value!r} not completed to {completed!r}")


def test_a_typed_path_is_completed_and_a_wrong_one_refused(records: Path, tmp_path: Path) -> None:
    seen: list[str] = []

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_picker(app, pilot)
        field = dialog(app).query_one("#path", Input)
        await pilot.press("tab")  # from the tree to the path
        assert app.focused is field
        await pilot.press("m")
        await complete(pilot, field, "more/")
        # The folder typed is the tree's now.
        await until(pilot, lambda: tree_labels(app) == ["linage.sgf"])
        await pilot.press(*"nope.sgf", "enter")
        await pilot.pause()
        seen.append(str(dialog(app).query_one("#path-note", Static).content))
        for _ in "nope.sgf":
            await pilot.press("backspace")
        await pilot.press("l")
        await complete(pilot, field, "more/linage.sgf")
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, OpenRecordDialog))
        seen.append(moves(app)[0])

    run(build_app(PETRIFY, data=tmp_path / "data"), scenario)
    assert seen == ["There is no file more/nope.sgf.", "linage"]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_picker_snapshot(
    snap_compare: Callable[..., bool],
    records: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
) -> None:
    """The record opened lately above the tree of the current folder, shown from the
    home folder (`~/records`), and the path field."""
    monkeypatch.setenv("HOME", str(tmp_path))
    data = tmp_path / "data"
    RecentRecords(data).add(records / "more" / "linage.sgf")

    async def steps(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, AbstractsApp)
        await open_picker(app, pilot)
        dialog(app).query_one("#path", Input).cursor_blink = False

    assert snap_compare(build_app(PETRIFY, data=data), run_before=steps, terminal_size=size)


def test_a_record_that_cannot_be_read_is_told_in_a_box_that_stays(
    records: Path, tmp_path: Path
) -> None:
    """The reason stays on the screen until it is closed (a notice went before it was read),
    and the game shown before goes on."""
    from abstracts_tui.tui.dialogs.reading import ReadingDialog

    (records / "broken.sgf").write_text("(;FF[4]GM[1000]GA[petrify]SZ[6];B[zz9])")
    app = build_app(PETRIFY, data=tmp_path / "data")

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await open_picker(app, pilot)
        field = dialog(app).query_one("#path", Input)
        field.focus()
        field.value = "broken.sgf"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReadingDialog))
        said = str(app.screen.query_one("#reading-text", Static).content)
        assert said.startswith("Could not load broken.sgf: "), said
        assert "zz9" in said
        await pilot.pause(0.5)
        assert isinstance(app.screen, ReadingDialog)  # until it is closed
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ReadingDialog))
        assert moves(app) == ("petrify", [])

    run(app, scenario)
