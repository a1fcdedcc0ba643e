"""The modal dialogs answer with the right value for their keys and buttons."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from abstracts_tui.records import Record
from abstracts_tui.rules import GAMES, new_game
from abstracts_tui.saved_games import SavedGame
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.confirm import ConfirmDialog
from abstracts_tui.tui.dialogs.komi import KomiDialog
from abstracts_tui.tui.dialogs.path import PathDialog
from abstracts_tui.tui.dialogs.resume import ResumeDialog
from abstracts_tui.tui.dialogs.side import SideDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.settings import Settings

EGOTZI = GAMES["egotzi"].info
LINAGE = GAMES["linage"].info


class Shown:
    """A dialog shown over the app's home screen, in the app `abstracts-tui` builds, and
    what it answers."""

    def __init__(self, app: AbstractsApp, dialog: Screen[Any]) -> None:
        self.app = app
        self.dialog = dialog
        self.answers: list[object] = []

    @property
    def screen(self) -> Screen[Any]:
        return self.app.screen


Steps = Callable[[Shown, Pilot[None]], Awaitable[None]]


def answers(dialog: Screen[Any], steps: Steps) -> list[object]:
    """Run `steps` against `dialog` at 80x24; the dialog's answers (at most one)."""
    return answers_each((dialog, steps))[0]


def answers_each(*cases: tuple[Screen[Any], Steps]) -> list[list[object]]:
    """Each dialog shown in turn in one run of the app, `steps` run against it; the
    answers of each (a dialog left unanswered is closed before the next)."""
    shown: list[Shown] = []
    with tempfile.TemporaryDirectory(prefix="dialogs-") as data:
        app = build_app(data=Path(data), settings=Settings())

        async def main() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                home = app.screen
                for dialog, steps in cases:
                    host = Shown(app, dialog)
                    shown.append(host)
                    app.push_screen(dialog, host.answers.append)
                    await pilot.pause()
                    await steps(host, pilot)
                    await pilot.pause()
                    while app.screen is not home:
                        app.pop_screen()
                        await pilot.pause()

        asyncio.run(main())
    return [host.answers for host in shown]


def keys(*names: str) -> Steps:
    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await pilot.press(*names)

    return steps


def click(selector: str) -> Steps:
    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await pilot.click(selector)

    return steps


def text(host: Shown, selector: str) -> str:
    return str(host.screen.query_one(selector, Static).content)


async def retype(pilot: Pilot[None], value: str) -> None:
    """Replace the text of the focused input: all but its end set at once, the end typed
    (a long temporary folder's name typed key by key only makes the test slow)."""
    field = pilot.app.screen.focused
    assert isinstance(field, Input)
    await pilot.press("end", "ctrl+u")
    field.insert_text_at_cursor(value[:-12])
    await pilot.press(*value[-12:])


# -- ConfirmDialog ----------------------------------------------------------------------


def test_confirm_keys() -> None:
    question = "Abandon this game?"
    cases = [(ConfirmDialog(question), keys(key)) for key in ("y", "enter", "n", "escape")]
    assert answers_each(*cases) == [[True], [True], [False], [False]]


def test_confirm_buttons_carry_the_given_words() -> None:
    def dialog() -> ConfirmDialog:
        return ConfirmDialog("Resume the game in progress?", yes="Resume", no="New game")

    seen: list[str] = []

    async def look(host: Shown, pilot: Pilot[None]) -> None:
        seen.append(text(host, ".dialog-text"))
        seen.extend(str(button.label) for button in host.screen.query(Button))
        await pilot.click("#no")

    assert answers(dialog(), look) == [False]
    assert seen[0] == "Resume the game in progress?"
    assert "Resume" in seen[1] and "New game" in seen[2]
    assert answers(dialog(), click("#yes")) == [True]


def saved_games(*lines: tuple[str, ...]) -> list[SavedGame]:
    """Unfinished Partitions games with the given moves, as the resume offer lists them."""
    games = []
    for number, moves in enumerate(lines):
        game = new_game("partitions", 5)
        for move in moves:
            game.play(move)
        record = Record.from_game(game, ("Ann", "Bob"))
        games.append(SavedGame(Path(f"/nowhere/{number}.sgf"), record, 0.0))
    return games


def test_the_resume_footer_names_the_answers_as_the_buttons_do() -> None:
    shown: list[str] = []

    async def look(host: Shown, pilot: Pilot[None]) -> None:
        shown.extend(b.binding.description for b in host.screen.active_bindings.values())
        await pilot.press("n")

    dialog = ResumeDialog(saved_games(("c3",)), lambda game: None)
    assert answers(dialog, look) == [None]
    assert "Resume" in shown and "Delete" in shown and "New game" in shown and "Yes" not in shown


def test_resume_picks_the_highlighted_game() -> None:
    games = saved_games(("c3",), ("c3", "a1"))
    cases = [
        (ResumeDialog(games, lambda game: None), keys(*k)) for k in (("down", "enter"), ("y",))
    ]
    assert answers_each(*cases) == [[games[1]], [games[0]]]


def test_a_game_that_cannot_be_deleted_stays_listed_with_the_reason() -> None:
    games = saved_games(("c3",), ("c3", "a1"))
    seen: list[str] = []

    async def delete(host: Shown, pilot: Pilot[None]) -> None:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        seen.append(text(host, "#resume-error"))
        await pilot.press("escape")

    dialog = ResumeDialog(games, lambda game: "Could not delete it: the disk is read-only.")
    assert answers(dialog, delete) == [None]
    assert seen == ["Could not delete it: the disk is read-only."]
    assert len(dialog.games) == 2


def test_deleting_the_last_game_closes_the_offer() -> None:
    deleted: list[SavedGame] = []
    games = saved_games(("c3",))

    def delete(game: SavedGame) -> None:
        deleted.append(game)

    assert answers(ResumeDialog(games, delete), keys("d", "y")) == [None]
    assert deleted == games


def test_confirm_ignores_other_keys() -> None:
    assert answers(ConfirmDialog("Abandon this game?"), keys("x", "s", "space")) == []


# -- KomiDialog ---------------------------------------------------------------------------


def test_komi_default_is_accepted_with_enter() -> None:
    cases = [(KomiDialog(LINAGE, "Ann", default=6.5), keys("enter"))]
    cases.append((KomiDialog(EGOTZI, "Ann"), keys("enter")))
    assert answers_each(*cases) == [["6.5"], ["0"]]


def test_komi_typed_and_normalised() -> None:
    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await retype(pilot, " -6.50 ")
        await pilot.press("enter")

    assert answers(KomiDialog(LINAGE, "Ann"), steps) == ["-6.5"]


def test_odd_komi_refused_for_egotzi_squared_with_the_reason() -> None:
    shown: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await retype(pilot, "3")
        await pilot.press("enter")
        await pilot.pause()
        shown.append(text(host, "#komi-error"))
        assert host.screen.query_one("#accept", Button).disabled
        await pilot.click("#accept")
        await retype(pilot, "-4")
        await pilot.press("enter")

    assert answers(KomiDialog(EGOTZI, "Ann"), steps) == ["-4"]
    assert "even whole number" in shown[0]


def test_quarter_points_and_words_refused_for_linage() -> None:
    shown: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        for bad in ("6.25", "six", ""):
            await retype(pilot, bad)
            await pilot.press("enter")
            await pilot.pause()
            shown.append(text(host, "#komi-error"))
        await retype(pilot, "7")
        await pilot.click("#accept")

    assert answers(KomiDialog(LINAGE, "Ann"), steps) == ["7"]
    assert "whole or half number" in shown[0]
    assert "six" in shown[1]
    assert shown[2]  # blank: asks for a value


def test_komi_dialog_says_who_gets_komi() -> None:
    seen: list[str] = []

    async def look(host: Shown, pilot: Pilot[None]) -> None:
        seen.append(text(host, ".dialog-text"))

    answers_each((KomiDialog(LINAGE, "Ann"), look), (KomiDialog(EGOTZI, "Ann"), look))
    assert "Horizontal's score" in seen[0] and "chooses a side" in seen[0]
    assert "White's score" in seen[1] and "even whole number" in seen[1]


# -- SideDialog ---------------------------------------------------------------------------


def test_side_keys_by_number_and_initial() -> None:
    cases = [(SideDialog(LINAGE, "Bob", 6.5), keys(key)) for key in ("1", "2", "v", "h")]
    cases += [(SideDialog(EGOTZI, "Bob", 4), keys(key)) for key in ("b", "w")]
    assert answers_each(*cases) == [[0], [1], [0], [1], [0], [1]]


def test_side_buttons_are_named_by_colour_and_komi() -> None:
    labels: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        labels.extend(str(button.label) for button in host.screen.query(Button))
        await pilot.click("#colour1")

    assert answers(SideDialog(LINAGE, "Bob", 6.5), steps) == [1]
    assert labels == ["Vertical (moves first)", "Horizontal (+komi 6.5)"]
    assert answers(SideDialog(LINAGE, "Bob", 6.5), click("#colour0")) == [0]


def test_side_negative_komi_label() -> None:
    labels: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        labels.extend(str(button.label) for button in host.screen.query(Button))

    answers(SideDialog(EGOTZI, "Bob", -2), steps)
    assert labels == ["Black (moves first)", "White (komi -2)"]


def test_side_other_keys_do_nothing() -> None:
    assert answers(SideDialog(LINAGE, "Bob", 6.5), keys("3", "b", "escape")) == []


# -- PathDialog ---------------------------------------------------------------------------


def test_load_an_existing_file(tmp_path: Path) -> None:
    record = tmp_path / "game.sgf"
    record.write_text("(;)")
    assert answers(PathDialog("Load", str(record), must_exist=True), keys("enter")) == [str(record)]


def test_load_refuses_a_missing_file_then_takes_a_real_one(tmp_path: Path) -> None:
    record = tmp_path / "game.sgf"
    record.write_text("(;)")
    shown: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        shown.append(text(host, "#text-note"))
        await retype(pilot, str(tmp_path))
        await pilot.pause()
        shown.append(text(host, "#text-note"))
        await retype(pilot, str(record))
        await pilot.press("enter")

    missing = tmp_path / "missing.sgf"
    assert answers(PathDialog("Load", str(missing), must_exist=True), steps) == [str(record)]
    assert "There is no file" in shown[0]
    assert "folder" in shown[1]


def test_save_needs_an_existing_folder(tmp_path: Path) -> None:
    shown: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        shown.append(text(host, "#text-note"))
        await retype(pilot, str(tmp_path / "new.sgf"))
        await pilot.press("enter")

    nowhere = tmp_path / "no-such-folder" / "game.sgf"
    assert answers(PathDialog("Save", str(nowhere), must_exist=False), steps) == [
        str(tmp_path / "new.sgf")
    ]
    assert "does not exist" in shown[0]


def test_save_warns_before_replacing_a_file(tmp_path: Path) -> None:
    record = tmp_path / "game.sgf"
    record.write_text("(;)")
    shown: list[str] = []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        shown.append(text(host, "#text-note"))
        await pilot.click("#accept")

    assert answers(PathDialog("Save", str(record), must_exist=False), steps) == [str(record)]
    assert "will be replaced" in shown[0]


def test_path_escape_and_cancel_give_none(tmp_path: Path) -> None:
    where = str(tmp_path / "game.sgf")
    cases = [(PathDialog("Save", where, must_exist=False), keys("escape"))]
    cases.append((PathDialog("Save", where, must_exist=False), click("#cancel")))
    assert answers_each(*cases) == [[None], [None]]


def test_path_home_is_expanded() -> None:
    home = Path.home()
    assert answers(PathDialog("Load", "~", must_exist=False), keys("enter")) == []

    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await retype(pilot, "~/abstracts-test.sgf")
        await pilot.press("enter")

    if home.is_dir():
        assert answers(PathDialog("Save", "", must_exist=False), steps) == [
            str(home / "abstracts-test.sgf")
        ]


def test_typing_in_the_path_field_does_not_trigger_keys(tmp_path: Path) -> None:
    async def steps(host: Shown, pilot: Pilot[None]) -> None:
        await retype(pilot, str(tmp_path / "yes-no.sgf"))
        assert host.screen.query_one("#text", Input).value.endswith("yes-no.sgf")
        await pilot.press("enter")

    assert answers(PathDialog("Save", "", must_exist=False), steps) == [
        str(tmp_path / "yes-no.sgf")
    ]
