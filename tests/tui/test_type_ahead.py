"""Keys typed in one burst (fast typing, a paste, one SSH packet) each reach the screen
they were typed for, also when the key before them opens that screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import events
from textual.screen import Screen
from textual.widgets import Input, Static

from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from tests.tui.waiting import pie_asked, until

CHARACTERS = {"enter": "\r", "colon": ":"}


def test_a_move_typed_right_after_enter_starts_the_game_is_played(tmp_path: Path) -> None:
    app = build_app(data=tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            # All at once, as the terminal sends them: Enter starts Petrify 8x8 on the
            # home screen; `:d4` Enter is typed before the game's screen is built.
            for key in ("enter", "colon", "d", "4", "enter"):
                app.post_message(events.Key(key, CHARACTERS.get(key, key)))
            await until(pilot, lambda: any(isinstance(s, PlayScreen) for s in app.screen_stack))
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            await until(pilot, lambda: len(screen.session.game.moves) == 1, seconds=10)
            assert screen.session.game.move_name(screen.session.game.moves[0]) == "d4"
            # and the pie rule is offered to the second player, as after any first move
            await until(pilot, lambda: pie_asked(app))

    asyncio.run(main())


class Opener(Static, can_focus=True):
    """A widget whose `o` takes a while (as any key may on a loaded machine: its handler
    waits for `gate`) and then opens a screen to type into."""

    def __init__(self, gate: asyncio.Event) -> None:
        super().__init__("o opens a screen")
        self.gate = gate

    async def on_key(self, event: events.Key) -> None:
        if event.key == "o":
            event.stop()
            await self.gate.wait()
            self.app.push_screen(TypeInto())


class TypeInto(Screen[None]):
    AUTO_FOCUS = "#typed"

    def compose(self):  # type: ignore[no-untyped-def]
        yield Input(id="typed")


def test_keys_typed_while_the_key_before_is_handled_reach_the_screen_it_opens(
    tmp_path: Path,
) -> None:
    """The key before is still being handled (no message waiting anywhere: the widget is
    in its handler) when the next keys come: they wait for it, and for the screen it
    opens, instead of going to the widget that was focused when they came."""
    app = build_app(data=tmp_path)
    gate = asyncio.Event()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            opener = Opener(gate)
            await app.screen.mount(opener)
            app.screen.set_focus(opener)
            await pilot.pause()
            for key in ("o", "a", "b"):
                app.post_message(events.Key(key, key))
            await pilot.pause(0.6)  # `a` and `b` have come; `o` is in its handler
            assert not isinstance(app.screen, TypeInto)
            gate.set()
            await until(pilot, lambda: isinstance(app.screen, TypeInto))
            typed = app.screen.query_one("#typed", Input)
            await until(pilot, lambda: typed.value == "ab", seconds=10)

    asyncio.run(main())
