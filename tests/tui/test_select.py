"""The game-selection screen returns the game, options and names the user chose."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.select import SelectScreen
from abstracts_tui.tui.settings import Settings


class Host(App[None]):
    """A bare app that shows the selection screen and keeps the setup it returns."""

    def __init__(self, default: Setup | None = None) -> None:
        super().__init__()
        self.default = default
        self.setups: list[Setup | None] = []

    def on_mount(self) -> None:
        self.push_screen(SelectScreen(self.default), self.setups.append)


Steps = Callable[[Host, Pilot[None]], Awaitable[None]]


def run(steps: Steps, default: Setup | None = None) -> Host:
    host = Host(default)

    async def main() -> None:
        async with host.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await steps(host, pilot)
            await pilot.pause()

    asyncio.run(main())
    return host


def keys(*names: str) -> Steps:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press(*names)

    return steps


def screen(host: Host) -> SelectScreen:
    assert isinstance(host.screen, SelectScreen), type(host.screen)
    return host.screen


def shown(host: Host, selector: str) -> bool:
    """Whether the widget and all its containers are displayed."""
    widget = screen(host).query_one(selector)
    return all(node.display for node in widget.ancestors_with_self if node is not host)


def test_enter_starts_the_highlighted_game_with_its_defaults() -> None:
    host = run(keys("enter"))
    assert host.setups == [Setup("petrify", size=8, first="Player 1", second="Player 2")]


def test_egotzi_squared_with_komi_and_names() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("down", "down")  # Petrify -> Pilo -> Egotzi
        await pilot.press("tab", "tab")  # the board size, then the variant
        assert screen(host).focused is screen(host).query_one("#variant")
        assert not shown(host, "#komi")  # standard Egotzi: pie rule, no komi
        await pilot.press("right")  # squared
        assert shown(host, "#komi")
        await pilot.press("tab", *"-4")
        await pilot.press("tab", *"Ann", "tab", "tab", *"Bob")
        await pilot.press("enter")

    host = run(steps)
    assert host.setups == [
        Setup("egotzi", size=7, variant="squared", komi=-4.0, first="Ann", second="Bob")
    ]


def test_the_computer_takes_a_seat_at_a_level_with_its_own_name() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "tab", *"Ann", "tab")  # size, first name, first player
        assert screen(host).focused is screen(host).query_one("#first-player")
        await pilot.press("tab", "tab", "right", "right")  # second player: medium
        await pilot.press("enter")

    host = run(steps)
    assert host.setups == [
        Setup("petrify", size=8, first="Ann", second="Computer", second_level="medium")
    ]


def test_two_computers_get_two_names() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("tab", "tab", "tab", "right")  # first player: easy
        await pilot.press("tab", "tab", "right")  # second player: easy
        await pilot.press("enter")

    host = run(steps)
    assert host.setups == [
        Setup(
            "petrify",
            size=8,
            first="Computer",
            second="Computer 2",
            first_level="easy",
            second_level="easy",
        )
    ]


def test_size_changes_with_left_and_right_within_the_game_sizes() -> None:
    # Pilo's sizes are 6 to 10: three steps right from 8 stop at 10.
    host = run(keys("j", "tab", "right", "right", "right", "enter"))
    assert host.setups == [Setup("pilo", size=10)]
    host = run(keys("j", "tab", "left", "h", "left", "enter"))
    assert host.setups == [Setup("pilo", size=6)]


def test_komi_field_only_for_games_with_komi() -> None:
    seen: dict[str, bool] = {}

    async def steps(host: Host, pilot: Pilot[None]) -> None:
        for name in ("petrify", "pilo", "egotzi", "linage", "partitions"):
            assert screen(host).info.name == name
            seen[name] = shown(host, "#komi")
            await pilot.press("j")

    run(steps)
    assert seen == {
        "petrify": False,
        "pilo": False,
        "egotzi": False,
        "linage": True,
        "partitions": False,
    }


def test_variant_field_only_for_egotzi() -> None:
    seen: list[bool] = []

    async def steps(host: Host, pilot: Pilot[None]) -> None:
        for _ in range(5):
            seen.append(shown(host, "#variant"))
            await pilot.press("down")

    run(steps)
    assert seen == [False, False, True, False, False]


def test_up_wraps_round_to_the_last_game() -> None:
    host = run(keys("up", "enter"))
    assert host.setups == [Setup("partitions", size=6)]
    host = run(keys("k", "k", "enter"))
    assert host.setups[0] is not None and host.setups[0].game == "linage"


def test_blank_komi_lets_the_first_player_set_it_later() -> None:
    notes: list[str] = []

    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("up", "up")  # Linage
        notes.append(str(screen(host).query_one("#komi-note", Static).content))
        notes.append(str(screen(host).query_one("#explanation", Static).content))
        await pilot.press("enter")

    host = run(steps)
    assert host.setups == [Setup("linage", size=11, komi=None)]
    assert "Player 1 sets komi at the start" in notes[0]
    assert "Player 2 chooses a side" in notes[1]


def test_invalid_komi_refused_with_the_reason() -> None:
    notes: list[str] = []

    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("up", "up", "tab", "tab")  # Linage, its size, then komi
        assert screen(host).focused is screen(host).query_one("#komi")
        await pilot.press(*"6.25", "enter")
        await pilot.pause()
        notes.append(str(screen(host).query_one("#komi-note", Static).content))
        assert host.setups == []  # still choosing
        assert screen(host).focused is screen(host).query_one("#komi")
        await pilot.press("backspace", "backspace", "5", "enter")  # 6.25 -> 6.5

    host = run(steps)
    assert "Komi must be a whole or half number, not 6.25" in notes[0]
    assert host.setups == [Setup("linage", size=11, komi=6.5)]


def test_odd_komi_refused_for_egotzi_squared() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("j", "j", "tab", "tab", "right", "tab", "3", "enter")
        await pilot.pause()
        note = str(screen(host).query_one("#komi-note", Static).content)
        assert "even whole number" in note
        await pilot.click("#start")
        await pilot.pause()
        assert host.setups == []
        await pilot.press("backspace", "2", "enter")

    host = run(steps)
    assert host.setups == [Setup("egotzi", size=7, variant="squared", komi=2.0)]


def test_komi_is_dropped_when_switching_to_a_variant_without_it() -> None:
    # An invalid komi typed for squared does not block standard Egotzi.
    host = run(keys("j", "j", "tab", "tab", "right", "tab", "3", "shift+tab", "left", "enter"))
    assert host.setups == [Setup("egotzi", size=7, variant="standard")]


def test_each_game_keeps_its_choices_while_looking_at_others() -> None:
    host = run(keys("tab", "right", "down", "up", "enter"))
    assert host.setups == [Setup("petrify", size=9)]


def test_blank_names_fall_back_to_the_defaults() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        first = screen(host).query_one("#first", Input)
        first.focus()
        await pilot.press("end", "ctrl+u", "tab", "tab", *"Bea", "enter")

    host = run(steps)
    assert host.setups == [Setup("petrify", size=8, first="Player 1", second="Bea")]


def test_labels_and_explanation_follow_the_game() -> None:
    texts: list[str] = []

    async def steps(host: Host, pilot: Pilot[None]) -> None:
        for selector in ("#first-label", "#second-label", "#explanation"):
            texts.append(str(screen(host).query_one(selector, Static).content))
        await pilot.press("k")  # Partitions: no pie rule, no komi
        texts.append(str(screen(host).query_one("#explanation", Static).content))

    run(steps)
    assert texts[0:2] == ["Blue", "Orange"]
    assert "Player 1 plays Blue and moves first" in texts[2]
    assert "swap" in texts[2]
    assert "Player 1 plays White and moves first" in texts[3]
    assert "swap" not in texts[3]


def test_default_setup_is_preselected() -> None:
    default = Setup("linage", size=9, komi=2.5, first="Ann", second="Bob")
    host = run(keys("enter"), default=default)
    assert host.setups == [default]
    default = Setup("egotzi", size=5, variant="squared", komi=None, first="Cy", second="Di")
    host = run(keys("enter"), default=default)
    assert host.setups == [default]


def test_start_button() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        await pilot.press("down")
        await pilot.click("#start")

    host = run(steps)
    assert host.setups == [Setup("pilo", size=8)]


def test_escape_and_q_over_a_game_go_back_to_it() -> None:
    host = run(keys("escape"))
    assert host.setups == [None]  # dismissed: the app goes on
    host = run(keys("q"))
    assert host.setups == [None]  # dismissed: the app goes on


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


def test_q_typed_in_a_name_is_a_letter() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        screen(host).query_one("#first", Input).focus()
        await pilot.press(*"Quentin q", "enter")

    host = run(steps)
    assert host.return_code is None
    assert host.setups == [Setup("petrify", size=8, first="Quentin q")]


def burst(host: Host, *keys: str) -> None:
    """Post every key at once, as fast typing or a paste over SSH arrives: none is
    handled before the last is sent."""
    characters = {"tab": "\t", "shift+tab": None, "enter": "\r"}
    for key in keys:
        host.post_message(events.Key(key, characters.get(key, key)))


def test_keys_typed_in_one_burst_after_tab_reach_the_next_field() -> None:
    async def steps(host: Host, pilot: Pilot[None]) -> None:
        screen(host).query_one("#first", Input).focus()
        await pilot.pause()
        # Tab to the first seat's player, Tab to the second name, and its new text.
        burst(host, "tab", "tab", *"Zoe")
        await pilot.pause(0.2)
        await pilot.pause()
        assert screen(host).focused is screen(host).query_one("#second", Input)
        # And back: shift+Tab twice to the first name, typed at once.
        burst(host, "shift+tab", "shift+tab", *"Ida", "enter")
        await pilot.pause(0.2)

    host = run(steps)
    assert host.setups == [Setup("petrify", size=8, first="Ida", second="Zoe")]


def test_game_keys_typed_in_one_burst_each_move_the_list(tmp_path: Path) -> None:
    # The app as the command builds it (the list's keys are the home screen's).
    app = build_app(data=tmp_path, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ("j", "j"):  # at once, as a fast typist or SSH sends them
                app.post_message(events.Key(key, key))
            await pilot.pause(0.2)
            assert app.screen.query_one("#games", OptionList).highlighted == 2
            assert app.screen.query_one("#setup").border_title == "Egotzi"

    asyncio.run(main())
