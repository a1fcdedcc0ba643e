"""Records thousands of nodes deep open in the real app, as the autosave and from the
command line, and the app still answers its keys."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.rules import new_game
from abstracts_tui.saved_games import SavedGames
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.screens.play import PlayScreen

NODES = 3000


def setup_chain(path: Path) -> str:
    """A record of NODES nodes in a row: an Egotzi position with White to move set up,
    then White's move, over and over (a line goes deeper than a game is long only through
    set-up positions); returns the last position, with Black to move."""
    game = new_game("egotzi", 5)
    game.play("c3")
    one = game.position()
    game.play("b2")
    body = f"\n;SP[{one}];W[b2]" * (NODES // 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"(;FF[4]GM[1000]GA[egotzi]SZ[5]PB[Ann]PW[Bob]{body})\n")
    return game.position()


def run(app: AbstractsApp, expect_resume: bool, last: str) -> float:
    """Open the deep record, check the play screen shows its end, quit with ctrl+q;
    returns the seconds the whole run took."""
    start = time.monotonic()

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            if expect_resume:
                assert type(app.screen).__name__ == "ResumeDialog"
                await pilot.press("y")
                await pilot.pause()
            await check_and_quit(app, pilot, last)

    asyncio.run(asyncio.wait_for(main(), timeout=120))
    return time.monotonic() - start


async def check_and_quit(app: AbstractsApp, pilot: Pilot[None], last: str) -> None:
    screen = app.screen
    assert isinstance(screen, PlayScreen), type(screen)
    assert screen.session.game.position() == last
    assert screen.session.move_number() == NODES
    assert str(screen.query_one("#turn", Static).content) == "Black to move (Ann)"
    await pilot.press("ctrl+q")
    await pilot.pause()
    assert app.return_code == 0


def test_a_deep_autosave_is_offered_shown_and_quit(tmp_path: Path) -> None:
    last = setup_chain(tmp_path / "games" / "2026-01-01-120000-egotzi.sgf")
    run(AbstractsApp(data=tmp_path), expect_resume=True, last=last)


def test_a_deep_record_loads_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.sgf"
    last = setup_chain(path)
    run(AbstractsApp(load=str(path), data=tmp_path / "data"), expect_resume=False, last=last)
    [saved] = SavedGames(tmp_path / "data").files()
    assert saved.read_text().count(";SP[") == NODES // 2
