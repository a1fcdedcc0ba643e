"""ctrl+s saves through a picker as ctrl+o opens: the folders and records, the folder
chosen and a suggested name; the part with the focus has a heavy frame (not only
another colour), in both pickers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.tui.dialogs.open_record import OpenRecordDialog, RecordTree
from abstracts_tui.tui.dialogs.save_record import SaveRecordDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.test_layout import drawn
from tests.tui.waiting import until


def corner(widget: object) -> str:
    """The top-left character of a framed widget: ╭ round, ┏ heavy."""
    return drawn(widget).splitlines()[0][0]  # type: ignore[arg-type]


def test_save_offers_a_folder_and_a_name_and_the_focus_shows_by_its_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    (here / "records").mkdir(parents=True)
    monkeypatch.chdir(here)
    app = build_app(Setup("pilo", 6, first="Ann", second="Bob"), data=tmp_path / "data")

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            await pilot.press("enter")  # a move at the cursor
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, SaveRecordDialog))
            dialog = app.screen
            field = dialog.query_one("#path", Input)
            assert field.value.startswith("pilo-") and field.value.endswith(".sgf")
            assert app.focused is field
            tree = dialog.query_one(RecordTree)
            assert corner(tree) == "╭"
            await pilot.press("tab")
            assert app.focused is tree and corner(tree) == "┏"
            await until(pilot, lambda: "records" in drawn(tree))
            while "records" not in str(tree.cursor_node.label if tree.cursor_node else ""):
                await pilot.press("down")
            await pilot.press("enter")  # the folder chosen
            folder = str(dialog.query_one("#save-folder", Static).render())
            assert "records" in folder, folder
            await pilot.press("tab")
            while app.focused is not field:
                await pilot.press("tab")
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, SaveRecordDialog))
            await pilot.press("ctrl+o")
            await until(pilot, lambda: isinstance(app.screen, OpenRecordDialog))
            assert corner(app.screen.query_one(RecordTree)) == "┏"  # focused at the start

    asyncio.run(main())
    saved = list((here / "records").glob("pilo-*.sgf"))
    assert len(saved) == 1 and Record.load(saved[0]).players == ("Ann", "Bob")
