"""The game-selection screen, driven in the app as `abstracts-tui` builds it: the game,
options and names chosen are those of the game the app then starts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.rules.catalogue import CATALOGUE
from abstracts_tui.session import Phase
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.screens.select import SelectScreen
from abstracts_tui.tui.settings import Settings
from abstracts_tui.tui.widgets.key_bar import KeyBar
from tests.tui.waiting import until

Steps = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


def started(app: AbstractsApp) -> list[Setup]:
    """The games the app started, oldest first, as what was chosen for each: the game and
    its options, the people and the computer's levels, the clock."""
    games = []
    for screen in app.screen_stack:
        if not isinstance(screen, PlayScreen):
            continue
        session = screen.session
        record = session.record
        first, second = session.people
        options = record.options
        agreed = CATALOGUE[record.game].takes_komi(options.variant) and (
            session.phase is not Phase.KOMI  # left for the first person to set
        )
        games.append(
            Setup(
                record.game,
                options.size,
                variant=options.variant or None,
                komi=options.komi if agreed else None,
                first=first,
                second=second,
                first_level=record.computers.get(first),
                second_level=record.computers.get(second),
                clock=record.clock.spec if record.clock is not None else None,
            )
        )
    return games


@dataclass
class Run:
    app: AbstractsApp
    started: list[Setup]
    """The games started, as `started` saw them once the steps were done."""


def run(steps: Steps, tmp_path: Path, game: Setup | None = None) -> Run:
    """Run the app (its home screen, or `game` started) through `steps`."""
    app = build_app(game, data=tmp_path, settings=Settings())
    games: list[Setup] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await steps(app, pilot)
            await pilot.pause()
            games.extend(started(app))

    asyncio.run(main())
    return Run(app, games)


def keys(*names: str) -> Steps:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press(*names)

    return steps


def screen(app: AbstractsApp) -> SelectScreen:
    assert isinstance(app.screen, SelectScreen), type(app.screen)
    return app.screen


def shown(app: AbstractsApp, selector: str) -> bool:
    """Whether the widget and all its containers are displayed."""
    widget = screen(app).query_one(selector)
    return all(node.display for node in widget.ancestors_with_self if node is not app)


def test_enter_starts_the_highlighted_game_with_its_defaults(tmp_path: Path) -> None:
    done = run(keys("enter"), tmp_path)
    assert done.started == [Setup("petrify", size=8, first="Player 1", second="Player 2")]


def test_egotzi_squared_with_komi_and_names(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("down", "down")  # Petrify -> Pilo -> Egotzi
        await pilot.press("tab", "tab")  # the board size, then the variant
        assert screen(app).focused is screen(app).query_one("#variant")
        assert not shown(app, "#komi")  # standard Egotzi: pie rule, no komi
        await pilot.press("right")  # squared
        assert shown(app, "#komi")
        await pilot.press("tab", *"-4")
        await pilot.press("tab", *"Ann", "tab", "tab", *"Bob")
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert done.started == [
        Setup("egotzi", size=7, variant="squared", komi=-4.0, first="Ann", second="Bob")
    ]


def test_the_computer_takes_a_seat_at_a_level_with_its_own_name(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "tab", *"Ann", "tab")  # size, first name, first player
        assert screen(app).focused is screen(app).query_one("#first-player")
        # Second player: the first step lands on the settings' level (hard), then medium.
        await pilot.press("tab", "tab", "right", "left")
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert done.started == [
        Setup("petrify", size=8, first="Ann", second="Computer", second_level="medium")
    ]


def test_two_computers_get_two_names(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "tab", "tab", "right")  # first player: the settings' level
        await pilot.press("tab", "tab", "right")  # second player: the same
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert done.started == [
        Setup(
            "petrify",
            size=8,
            first="Computer",
            second="Computer 2",
            first_level="hard",
            second_level="hard",
        )
    ]


def test_size_changes_with_left_and_right_within_the_game_sizes(tmp_path: Path) -> None:
    # Pilo's sizes are 6 to 10: three steps right from 8 stop at 10.
    done = run(keys("j", "tab", "right", "right", "right", "enter"), tmp_path / "up")
    assert done.started == [Setup("pilo", size=10)]
    done = run(keys("j", "tab", "left", "h", "left", "enter"), tmp_path / "down")
    assert done.started == [Setup("pilo", size=6)]


def test_komi_field_only_for_games_with_komi(tmp_path: Path) -> None:
    seen: dict[str, bool] = {}

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for name in ("petrify", "pilo", "egotzi", "linage", "partitions"):
            assert screen(app).info.name == name
            seen[name] = shown(app, "#komi")
            await pilot.press("j")

    run(steps, tmp_path)
    assert seen == {
        "petrify": False,
        "pilo": False,
        "egotzi": False,
        "linage": True,
        "partitions": False,
    }


def test_variant_field_only_for_egotzi(tmp_path: Path) -> None:
    seen: list[bool] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for _ in range(5):
            seen.append(shown(app, "#variant"))
            await pilot.press("down")

    run(steps, tmp_path)
    assert seen == [False, False, True, False, False]


def test_up_wraps_round_to_the_last_game(tmp_path: Path) -> None:
    done = run(keys("up", "enter"), tmp_path / "up")
    assert done.started == [Setup("partitions", size=6)]
    done = run(keys("k", "k", "enter"), tmp_path / "k")
    assert [game.game for game in done.started] == ["linage"]


def test_blank_komi_lets_the_first_player_set_it_later(tmp_path: Path) -> None:
    notes: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("up", "up")  # Linage
        note = screen(app).query_one("#komi-note", Static)
        notes.append(str(note.content) if note.display else "")
        notes.append(str(screen(app).query_one("#explanation", Static).content))
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert done.started == [Setup("linage", size=11, komi=None)]
    assert notes[0] == ""  # the note is hidden while the field is blank
    assert "Player 1 sets komi at the start" in notes[1]
    assert "Player 2 chooses a side" in notes[1]


def test_invalid_komi_refused_with_the_reason(tmp_path: Path) -> None:
    notes: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("up", "up", "tab", "tab")  # Linage, its size, then komi
        assert screen(app).focused is screen(app).query_one("#komi")
        await pilot.press(*"6.25", "enter")
        await pilot.pause()
        notes.append(str(screen(app).query_one("#komi-note", Static).content))
        assert started(app) == []  # still choosing
        assert screen(app).focused is screen(app).query_one("#komi")
        await pilot.press("backspace", "backspace", "5", "enter")  # 6.25 -> 6.5

    done = run(steps, tmp_path)
    assert "Komi must be a whole or half number, not 6.25" in notes[0]
    assert done.started == [Setup("linage", size=11, komi=6.5)]


def test_odd_komi_refused_for_egotzi_squared(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("j", "j", "tab", "tab", "right", "tab", "3", "enter")
        await pilot.pause()
        note = str(screen(app).query_one("#komi-note", Static).content)
        assert "even whole number" in note
        await pilot.click("#start")
        await pilot.pause()
        assert started(app) == []
        await pilot.press("backspace", "2", "enter")

    done = run(steps, tmp_path)
    assert done.started == [Setup("egotzi", size=7, variant="squared", komi=2.0)]


def test_komi_is_dropped_when_switching_to_a_variant_without_it(tmp_path: Path) -> None:
    # An invalid komi typed for squared does not block standard Egotzi.
    done = run(
        keys("j", "j", "tab", "tab", "right", "tab", "3", "shift+tab", "left", "enter"), tmp_path
    )
    assert done.started == [Setup("egotzi", size=7, variant="standard")]


def test_each_game_keeps_its_choices_while_looking_at_others(tmp_path: Path) -> None:
    done = run(keys("tab", "right", "down", "up", "enter"), tmp_path)
    assert done.started == [Setup("petrify", size=9)]


def test_blank_names_fall_back_to_the_defaults(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        first = screen(app).query_one("#first", Input)
        first.focus()
        await pilot.press("end", "ctrl+u", "tab", "tab", *"Bea", "enter")

    done = run(steps, tmp_path)
    assert done.started == [Setup("petrify", size=8, first="Player 1", second="Bea")]


def test_labels_and_explanation_follow_the_game(tmp_path: Path) -> None:
    texts: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for selector in ("#first-label", "#second-label", "#explanation"):
            texts.append(str(screen(app).query_one(selector, Static).content))
        await pilot.press("k")  # Partitions: no pie rule, no komi
        texts.append(str(screen(app).query_one("#explanation", Static).content))

    run(steps, tmp_path)
    assert texts[0:2] == ["Blue", "Orange"]
    assert "Player 1 plays Blue and moves first" in texts[2]
    assert "swap" in texts[2]
    assert "Player 1 plays White and moves first" in texts[3]
    assert "swap" not in texts[3]


async def new_game_from_the_game(app: AbstractsApp, pilot: Pilot[None]) -> None:
    """From the game in progress (past the choice of sides), `n`, then Enter: a new game
    in place of the one left, started from the choices the selection screen showed."""
    if type(app.screen).__name__ == "SideDialog":  # komi agreed: a side is chosen
        await pilot.press("1")
        await pilot.pause()
    left = app.screen
    assert isinstance(left, PlayScreen)
    await pilot.press("n")
    await pilot.pause()
    assert isinstance(app.screen, SelectScreen)
    await pilot.press("enter")
    await pilot.pause()
    games = [screen for screen in app.screen_stack if isinstance(screen, PlayScreen)]
    assert len(games) == 1 and games[0].session is not left.session  # a new game


def test_default_setup_is_preselected(tmp_path: Path) -> None:
    # Over a game, the selection screen starts from that game's choices.
    default = Setup("linage", size=9, komi=2.5, first="Ann", second="Bob")
    done = run(new_game_from_the_game, tmp_path / "linage", default)
    assert done.started == [default]
    default = Setup("egotzi", size=5, variant="squared", komi=2.0, first="Cy", second="Di")
    done = run(new_game_from_the_game, tmp_path / "egotzi", default)
    assert done.started == [default]


def test_start_button(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("down")
        await pilot.click("#start")

    done = run(steps, tmp_path)
    assert done.started == [Setup("pilo", size=8)]


def test_escape_and_q_over_a_game_go_back_to_it(tmp_path: Path) -> None:
    game = Setup("pilo", size=6, first="Ann", second="Bob")
    for key in ("escape", "q"):

        async def steps(app: AbstractsApp, pilot: Pilot[None], key: str = key) -> None:
            left = app.screen
            assert isinstance(left, PlayScreen)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, SelectScreen)
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is left and app.is_running  # back to it, no new game

        done = run(steps, tmp_path / key, game)
        assert done.started == [game]


def test_q_on_the_home_screen_quits_the_app(tmp_path: Path) -> None:
    app = build_app(data=tmp_path)

    async def main() -> None:
        async with app.run_test() as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(main())  # returns only once the app has exited
    assert app.return_code == 0


def test_escape_on_the_home_screen_does_not_quit(tmp_path: Path) -> None:
    app = build_app(data=tmp_path)

    async def main() -> None:
        async with app.run_test() as pilot:
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen) is SelectScreen and app.is_running

    asyncio.run(main())


def test_q_typed_in_a_name_is_a_letter(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen(app).query_one("#first", Input).focus()
        await pilot.press(*"Quentin q", "enter")

    done = run(steps, tmp_path)
    assert done.app.return_code is None
    assert done.started == [Setup("petrify", size=8, first="Quentin q")]


def burst(app: AbstractsApp, *keys: str) -> None:
    """Post every key at once, as fast typing or a paste over SSH arrives: none is
    handled before the last is sent."""
    characters = {"tab": "\t", "shift+tab": None, "enter": "\r"}
    for key in keys:
        app.post_message(events.Key(key, characters.get(key, key)))


def test_keys_typed_in_one_burst_after_tab_reach_the_next_field(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        screen(app).query_one("#first", Input).focus()
        await pilot.pause()
        # Tab to the first seat's player, Tab to the second name, and its new text.
        burst(app, "tab", "tab", *"Zoe")
        second = screen(app).query_one("#second", Input)
        await until(pilot, lambda: second.value == "Zoe")
        assert screen(app).focused is second
        # And back: shift+Tab twice to the first name, typed at once.
        burst(app, "shift+tab", "shift+tab", *"Ida", "enter")
        await until(pilot, lambda: bool(started(app)))  # a loaded machine takes its time

    done = run(steps, tmp_path)
    assert done.started == [Setup("petrify", size=8, first="Ida", second="Zoe")]


def test_game_keys_typed_in_one_burst_each_move_the_list(tmp_path: Path) -> None:
    # The app as the command builds it (the list's keys are the home screen's).
    app = build_app(data=tmp_path, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ("j", "j"):  # at once, as a fast typist or SSH sends them
                app.post_message(events.Key(key, key))
            games = app.screen.query_one("#games", OptionList)
            await until(pilot, lambda: games.highlighted == 2)  # both keys, not one
            assert app.screen.query_one("#setup").border_title == "Egotzi"

    asyncio.run(main())


def test_a_click_on_either_half_of_a_value_steps_it(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        size = screen(app).query_one("#size")
        await pilot.click("#size", offset=(2, 0))  # the label: the field takes the focus
        assert screen(app).focused is size
        await pilot.click("#size", offset=(19, 0))  # "< 8 x 8 >" from column 12: its right
        await pilot.click("#size", offset=(19, 0))
        await pilot.click("#size", offset=(13, 0))  # and its left
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert done.started == [Setup("petrify", size=9)]


def test_the_key_bar_shows_the_keys_and_a_click_presses_one(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        bar = screen(app).query_one(KeyBar)
        line = bar.render_lines(bar.region.reset_offset)[0].text
        assert line.startswith(" ↑/k ↓/j Game  ⏎ Start  tab Next field  ^r Resume  ? Help  q Quit ")
        assert screen(app).focused is screen(app).query_one("#games")
        await pilot.click(KeyBar, offset=(line.index("tab"), 0))
        assert screen(app).focused is screen(app).query_one("#size")
        await pilot.pause()
        line = bar.render_lines(bar.region.reset_offset)[0].text  # keys in the field's order
        assert " ⏎ Start " in line and " tab Next field " in line
        await pilot.click(KeyBar, offset=(line.index("Start"), 0))
        await pilot.pause()

    done = run(steps, tmp_path)
    assert done.started == [Setup("petrify", size=8)]


def test_a_clock_past_its_bounds_is_refused_with_the_bound(tmp_path: Path) -> None:
    notes: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        clock = screen(app).query_one("#clock", Input)
        clock.focus()
        await pilot.press(*"1m+99999999999999999999s", "enter")  # 10^20 s, in the field's 24
        await pilot.pause()
        notes.append(str(screen(app).query_one("#clock-note", Static).content))
        assert started(app) == []  # still choosing
        assert screen(app).focused is clock
        await pilot.press(*["backspace"] * 21, "3", "s", "enter")  # 1m+3s

    done = run(steps, tmp_path)
    assert notes == ["Clock: the increment is at most 1 day (1d)"]
    assert [game.clock for game in done.started] == ["1m+3s"]


def size_note(app: AbstractsApp) -> str:
    note = screen(app).query_one("#size-note", Static)
    return str(note.content) if shown(app, "#size-note") else ""


def test_the_board_size_can_be_typed(tmp_path: Path) -> None:
    notes: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("k", "k", "tab")  # Linage (5 to 19), its size
        await pilot.press("1")  # 1 begins 10 to 19: it waits for the next digit
        notes.append(size_note(app))
        await pilot.press("3")
        notes.append(size_note(app))
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert notes == ["Typed 1: one more digit.", ""]
    assert done.started == [Setup("linage", size=13)]


def test_a_typed_size_the_game_has_not_is_refused_in_one_sentence(tmp_path: Path) -> None:
    notes: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "1", "3")  # Petrify: 6 to 10
        notes.append(size_note(app))
        assert screen(app).query_one("#size-note").has_class("-error")
        await pilot.press("5")
        notes.append(size_note(app))
        await pilot.press("7")  # the next number goes in
        notes.append(size_note(app))
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert notes == [
        "Petrify is played on sizes 6 to 10, not 13.",
        "Petrify is played on sizes 6 to 10, not 5.",
        "",
    ]
    assert done.started == [Setup("petrify", size=7)]


def test_a_computer_seat_shows_the_computers_name(tmp_path: Path) -> None:
    names: list[tuple[str, str]] = []

    def fields(app: AbstractsApp) -> tuple[str, str]:
        first, second = (screen(app).query_one(f"#{seat}", Input) for seat in ("first", "second"))
        return first.value, second.value

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "tab", "tab", "right")  # the first seat: the computer
        names.append(fields(app))
        assert "Computer plays Blue" in str(screen(app).query_one("#explanation", Static).content)
        await pilot.press("tab", "tab", "right")  # and the second
        names.append(fields(app))
        await pilot.press("left", "left", "left")  # the second back to a person (from hard)
        names.append(fields(app))
        await pilot.press("shift+tab", *"Ann", "tab", "right")  # a name typed (over the old) stays
        names.append(fields(app))
        await pilot.press("enter")

    done = run(steps, tmp_path)
    assert names == [
        ("Computer", "Player 2"),
        ("Computer", "Computer 2"),
        ("Computer", "Player 2"),
        ("Computer", "Ann"),
    ]
    assert done.started[0].second_level == "hard"


def test_the_komi_placeholder_is_whole_at_80_columns(tmp_path: Path) -> None:
    drawn: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press("k", "k")  # Linage
        komi = screen(app).query_one("#komi", Input)
        drawn.append(komi.render_lines(komi.region.reset_offset)[0].text.strip())

    run(steps, tmp_path)
    assert drawn == ["blank: set at start"]


def seat_levels(app: AbstractsApp) -> tuple[str | None, str | None]:
    """The levels the home screen's seats show now (None: a person)."""
    return screen(app).player_levels()


def test_a_seat_handed_to_the_computer_starts_at_the_settings_level(tmp_path: Path) -> None:
    seen: list[tuple[str | None, str | None]] = []
    app = build_app(data=tmp_path, settings=Settings(level="medium"))

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("tab", "tab", "tab", "right")  # the first seat: the computer
            seen.append(seat_levels(app))
            await pilot.press("left", "left")  # medium -> easy -> a person
            seen.append(seat_levels(app))
            await pilot.press("right", "right")  # the settings' level again, then hard
            seen.append(seat_levels(app))

    asyncio.run(main())
    assert seen == [("medium", None), (None, None), ("hard", None)]


def test_a_level_chosen_in_the_settings_is_where_the_next_seat_starts(tmp_path: Path) -> None:
    seen: list[tuple[str | None, str | None]] = []
    path = tmp_path / "settings.toml"
    app = build_app(data=tmp_path, settings=Settings(level="easy", path=path))

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("f2")
            await until(pilot, lambda: not isinstance(app.screen, SelectScreen))
            await pilot.press("down", "right", "right")  # the level: easy -> medium -> hard
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, SelectScreen))
            await pilot.press("tab", "tab", "tab", "tab", "tab", "right")  # the second seat
            seen.append(seat_levels(app))

    asyncio.run(main())
    assert app.settings.level == "hard"
    assert seen == [(None, "hard")]
    assert 'level = "hard"' in path.read_text(encoding="utf-8")


def test_the_home_screen_names_recent_games_settings_and_puzzles_at_80_columns(
    tmp_path: Path,
) -> None:
    # The key bar has no room for them at 80 columns: the line under the games names them.
    lines: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        bar = screen(app).query_one(KeyBar)
        lines.append(bar.render_lines(bar.region.reset_offset)[0].text)
        more = screen(app).query_one("#more-keys", Static)
        lines.append(" ".join(str(more.render()).split()))
        rows = str(more.render()).splitlines()
        assert all(row.rstrip() == row.rstrip()[: more.content_region.width] for row in rows)
        assert more.region.bottom <= bar.region.y  # in sight, above the key bar
        await pilot.press("ctrl+g")  # no game has finished: it says so
        await until(pilot, lambda: bool(app.notices))
        lines.extend(app.notices)
        await pilot.press("f2")
        await until(pilot, lambda: not isinstance(app.screen, SelectScreen))
        lines.append(type(app.screen).__name__)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SelectScreen))
        await pilot.press("f3")
        await until(pilot, lambda: not isinstance(app.screen, SelectScreen))
        lines.append(type(app.screen).__name__)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SelectScreen))

    run(steps, tmp_path)
    assert "Recent" not in lines[0] and "Settings" not in lines[0]
    assert lines[1:] == [
        "ctrl+g recent games F2 settings F3 puzzles",
        "No game has finished here yet.",
        "SettingsDialog",
        "PuzzleScreen",
    ]


def test_the_line_of_keys_wraps_between_two_keys_never_inside_one(tmp_path: Path) -> None:
    rows: list[str] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        rows.extend(str(screen(app).query_one("#more-keys", Static).render()).splitlines())

    run(steps, tmp_path)
    assert [row.strip() for row in rows] == [
        "ctrl+g recent games   F2 settings",
        "F3 puzzles",
    ]


def test_the_line_of_keys_follows_the_keymap(tmp_path: Path) -> None:
    said: list[str] = []

    async def main() -> None:
        settings = Settings(keymap={"select.recent": "ctrl+e"}, path=tmp_path / "s.toml")
        app = build_app(data=tmp_path, settings=settings)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            said.append(" ".join(str(screen(app).query_one("#more-keys", Static).render()).split()))

    asyncio.run(main())
    assert said == ["ctrl+e recent games F2 settings F3 puzzles"]
