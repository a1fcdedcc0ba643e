"""Keys typed in one burst (fast typing, a paste, one SSH packet) each reach the screen
they were typed for, also when the key before them opens that screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import events

from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen

from .waiting import pie_asked, until

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
