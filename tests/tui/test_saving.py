"""Games in progress are kept: a failing disk never stops a game, and starting, loading or
leaving a game never replaces another one in progress (the real app, by keys)."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.records import Record
from abstracts_tui.rules import new_game
from abstracts_tui.saved_games import SavedGames, played_text
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.resume import ResumeDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.disks import full_disk, read_only
from tests.tui.test_play import enter_path, run, text, type_move


def play_screen(app: AbstractsApp) -> PlayScreen:
    """The play screen, under any dialog it has open."""
    screens = [s for s in app.screen_stack if isinstance(s, PlayScreen)]
    assert screens, app.screen_stack
    return screens[-1]


def shown(app: AbstractsApp, selector: str) -> str:
    return str(play_screen(app).query_one(selector, Static).content)


def moves_of(app: AbstractsApp) -> list[str]:
    game = play_screen(app).session.game
    return [game.move_name(m) for m in game.moves]


async def saved(app: AbstractsApp, pilot: Pilot[None]) -> None:
    """Wait until the autosave has written (or failed) and the screen has heard of it."""
    assert play_screen(app).session.flush()
    await pilot.pause()


def shows_saving_problem(app: AbstractsApp, problem: str) -> None:
    panel = shown(app, "#saving")
    assert panel.startswith(f"Not being saved: {problem}"), panel
    assert play_screen(app).query_one("#saving", Static).display
    assert f"Not being saved: {problem}." in shown(app, "#status")


def test_a_data_folder_that_is_a_file_does_not_stop_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "abstracts-tui"
    blocker.write_text("not a folder")
    app = build_app(Setup("petrify", 6, first="Ann", second="Bob"), data=blocker)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await saved(app, pilot)
        assert moves_of(app) == ["c3"]
        shows_saving_problem(app, "a part of the path is a file, not a folder")
        await pilot.press("p")  # the pie rule's offer: play on
        await type_move(pilot, "d4")
        await saved(app, pilot)
        assert moves_of(app) == ["c3", "d4"]
        assert text(app, "#turn") == "Blue to move (Ann)"

    run(app, scenario)
    assert not app.return_code  # no crash
    assert blocker.read_text() == "not a folder"


def test_a_full_disk_is_told_and_saving_resumes_when_there_is_room(tmp_path: Path) -> None:
    with full_disk(tmp_path / "data") as data:
        app = build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=data)

        async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
            await type_move(pilot, "c3")
            await saved(app, pilot)
            shows_saving_problem(app, "the disk is full")
            (data / ".filler").unlink()
            await type_move(pilot, "a1")
            await saved(app, pilot)
            assert not play_screen(app).query_one("#saving", Static).display
            assert text(app, "#status") == "The game is being saved again."
            path = play_screen(app).session.autosave_path
            assert path is not None
            assert [n.move for n in Record.load(path).root.mainline()] == ["c3", "a1"]

        run(app, scenario)


def test_a_read_only_data_folder_does_not_stop_the_game(tmp_path: Path) -> None:
    with read_only(tmp_path / "data") as data:
        app = build_app(Setup("egotzi", 5, first="Ann", second="Bob"), data=data)

        async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
            await type_move(pilot, "c3")
            await saved(app, pilot)
            problem = "the disk is read-only" if os.geteuid() == 0 else "permission denied"
            shows_saving_problem(app, problem)
            assert moves_of(app) == ["c3"]

        run(app, scenario)


def partitions_game(data: Path, *moves: str) -> AbstractsApp:
    """Play `moves` of a Partitions 5 game in the app and leave it unfinished."""
    app = build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=data)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for move in moves:
            await type_move(pilot, move)
        await saved(app, pilot)

    run(app, scenario)
    return app


def test_starting_a_game_never_replaces_one_in_progress(tmp_path: Path) -> None:
    partitions_game(tmp_path, "c3", "a1")
    os.utime(SavedGames(tmp_path).files()[0], (1, 1))  # older than the next
    partitions_game(tmp_path, "e5")
    assert len(SavedGames(tmp_path).files()) == 2

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ResumeDialog)
        assert "2 games are in progress" in str(dialog.query_one("#question", Static).content)
        assert [g.describe() for g in dialog.games] == [
            "Partitions side 5, Ann - Bob, 1 move, Black to move (Bob)",
            "Partitions side 5, Ann - Bob, 2 moves, White to move (Ann)",
        ]
        await pilot.press("d")  # delete the newest, after a confirmation
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert len(dialog.games) == 1
        await pilot.press("enter")
        await pilot.pause()
        assert moves_of(app) == ["c3", "a1"]

    run(build_app(data=tmp_path), scenario)
    assert len(SavedGames(tmp_path).files()) == 1


def test_the_games_in_progress_say_when_they_were_last_played(tmp_path: Path) -> None:
    partitions_game(tmp_path, "c3", "a1")
    [older] = SavedGames(tmp_path).files()
    partitions_game(tmp_path, "e5")
    [newer] = [path for path in SavedGames(tmp_path).files() if path != older]
    now = datetime.datetime.now()
    last_year = now.replace(year=now.year - 1, month=3, day=4, hour=10, minute=30)
    today = now.replace(hour=0, minute=1)
    for path, when in ((older, last_year), (newer, today)):
        os.utime(path, (when.timestamp(), when.timestamp()))
    lines: list[str] = []

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ResumeDialog)
        options = dialog.query_one(OptionList)
        lines.extend(str(options.get_option_at_index(i).prompt) for i in range(2))

    run(build_app(data=tmp_path), scenario)
    year = datetime.date.today().year - 1
    # Each also says when it started, from its file's name (both started today here).
    started = [
        datetime.datetime.strptime(path.name[:17], "%Y-%m-%d-%H%M%S").strftime("%H:%M")
        for path in (newer, older)
    ]
    assert lines == [
        "today 00:01  Partitions side 5, Ann - Bob, 1 move, Black to move (Bob), "
        f"started today {started[0]}",
        f"4 Mar {year}  Partitions side 5, Ann - Bob, 2 moves, White to move (Ann), "
        f"started today {started[1]}",
    ]


def test_new_game_from_the_command_line_keeps_the_unfinished_one(tmp_path: Path) -> None:
    partitions_game(tmp_path, "c3")
    app = build_app(Setup("linage", 5, komi=0.5), data=tmp_path)

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("1")  # the side dialog
        await type_move(pilot, "c3")
        await saved(app, pilot)

    run(app, scenario)
    games, problems = SavedGames(tmp_path).read()
    assert sorted(g.record.game for g in games) == ["linage", "partitions"]
    assert problems == []


def test_loading_a_record_keeps_the_game_in_progress(tmp_path: Path) -> None:
    game = new_game("pilo", 6)
    game.play("a1")
    record_path = tmp_path / "record.sgf"
    Record.from_game(game, ("Cy", "Di")).save(record_path)
    data = tmp_path / "data"
    partitions_game(data, "c3")

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")  # no resume: the selection screen
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        await enter_path(app, pilot, record_path)
        await pilot.pause()
        await pilot.press("p")  # the pie rule's offer: play on
        assert moves_of(app) == ["a1"]
        await saved(app, pilot)

    run(build_app(data=data), scenario)
    games, _ = SavedGames(data).read()
    assert sorted(g.record.game for g in games) == ["partitions", "pilo"]
    assert record_path.read_text() == Record.from_game(game, ("Cy", "Di")).to_sgf()


def test_the_old_single_autosave_is_offered_too(tmp_path: Path) -> None:
    game = new_game("egotzi", 5)
    game.play("c3")
    game.play("b2")
    Record.from_game(game, ("Ann", "Bob")).save(tmp_path / "autosave.sgf")

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        await pilot.press("y")
        await pilot.pause()
        assert moves_of(app) == ["c3", "b2"]

    run(build_app(data=tmp_path), scenario)


def test_an_unreadable_game_file_is_named_and_left_as_it_is(tmp_path: Path) -> None:
    partitions_game(tmp_path, "c3")
    broken = tmp_path / "games" / "2020-01-01-000000-pilo.sgf"
    broken.write_text("(;GM[1000]GA[pilo]\n;B[z9])", encoding="utf-8")

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        notes = list(app.notices)
        assert any(str(broken) in n and "line 2" in n for n in notes), notes
        assert isinstance(app.screen, ResumeDialog)  # the readable game is still offered
        assert len(app.screen.games) == 1

    run(build_app(data=tmp_path), scenario)
    assert broken.read_text() == "(;GM[1000]GA[pilo]\n;B[z9])"


def test_a_finished_game_is_removed_when_the_next_starts(tmp_path: Path) -> None:
    app = build_app(Setup("linage", 5, komi=0.5), data=tmp_path)

    async def finish(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("1")
        await pilot.press("p")
        await pilot.press("p")
        assert play_screen(app).game.is_over()
        await saved(app, pilot)

    run(app, finish)
    assert len(SavedGames(tmp_path).files()) == 1
    partitions_game(tmp_path, "c3")
    [left] = SavedGames(tmp_path).files()
    assert Record.load(left).game == "partitions"


def test_ctrl_r_with_no_game_in_progress_says_so(tmp_path: Path) -> None:
    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert type(app.screen).__name__ == "SelectScreen"
        assert list(app.notices) == ["No game is in progress."]

    run(build_app(data=tmp_path), scenario)


def test_a_game_left_without_a_move_is_not_a_game_in_progress(tmp_path: Path) -> None:
    """Starting a game and leaving it (or taking back its only move) leaves nothing to
    resume: the next start does not offer it."""
    app = build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=tmp_path)

    async def nothing_played(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await saved(app, pilot)

    run(app, nothing_played)
    assert SavedGames(tmp_path).files() == []
    app = build_app(Setup("pilo", 6, first="Ann", second="Bob"), data=tmp_path)

    async def taken_back(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await type_move(pilot, "c3")
        await saved(app, pilot)
        assert len(SavedGames(tmp_path).files()) == 1
        await pilot.press("u")
        await pilot.pause()
        assert moves_of(app) == []
        await saved(app, pilot)

    run(app, taken_back)
    assert SavedGames(tmp_path).files() == []

    async def offered(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert not isinstance(app.screen, ResumeDialog)

    run(build_app(data=tmp_path), offered)


def test_the_same_record_opened_twice_is_one_game_in_progress(tmp_path: Path) -> None:
    game = new_game("pilo", 6)
    game.play("a1")
    game.play("b2")
    record_path = tmp_path / "record.sgf"
    Record.from_game(game, ("Cy", "Di")).save(record_path)
    data = tmp_path / "data"

    async def open_twice(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for _ in range(2):
            await pilot.press("ctrl+o")
            await pilot.pause()
            await enter_path(app, pilot, record_path)
            await pilot.pause()
            assert moves_of(app) == ["a1", "b2"]
            await saved(app, pilot)

    # From a game just started (which, with no move, is not kept either).
    run(build_app(Setup("partitions", 5, first="Ann", second="Bob"), data=data), open_twice)
    games, problems = SavedGames(data).read()
    assert [g.describe() for g in games] == ["Pilo 6x6, Cy - Di, 2 moves, Blue to move (Cy)"]
    assert problems == []
    assert len(SavedGames(data).files()) == 1  # the copy is gone from the folder too


def test_a_game_from_a_set_up_position_is_listed_as_such(tmp_path: Path) -> None:
    """Two games of the same people at the same move read differently: one set up, and
    each says when it started."""
    game = new_game("pilo", 6)
    game.play("a1")
    game.play("b2")
    record = Record.from_game(new_game("pilo", 6), ("Ann", "Bob"))
    record.root.setup = game.position()
    folder = tmp_path / "games"
    folder.mkdir()
    record.save(folder / "2026-11-20-091500-pilo.sgf")
    record.root.add("c3")
    record.save(folder / "2026-11-21-101500-pilo.sgf")
    plain = new_game("pilo", 6)
    plain.play("c3")
    Record.from_game(plain, ("Ann", "Bob")).save(folder / "2026-11-22-111500-pilo.sgf")
    for order, name in enumerate(sorted(folder.iterdir())):  # the newest played last
        os.utime(name, (1_000_000 + order, 1_000_000 + order))
    lines: list[str] = []

    async def scenario(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ResumeDialog)
        options = dialog.query_one(OptionList)
        lines.extend(str(options.get_option_at_index(i).prompt) for i in range(3))

    run(build_app(data=tmp_path), scenario, size=(160, 40))

    def when(day: int, hour: int) -> str:  # as the list says a date (another year's too)
        return played_text(datetime.datetime(2026, 11, day, hour, 15).timestamp())

    played = played_text(1_000_000)
    assert lines == [
        f"{played}  Pilo 6x6, Ann - Bob, 1 move, Orange to move (Bob), started {when(22, 11)}",
        f"{played}  Pilo 6x6, Ann - Bob, set up, 1 move since, Orange to move (Bob), "
        f"started {when(21, 10)}",
        f"{played}  Pilo 6x6, Ann - Bob, set up, no move since, Blue to move (Ann), "
        f"started {when(20, 9)}",
    ]
