"""What keeps a session's process small beside the forkserver's warm-up: styles parsed
once for every session (`server.shared_styles`), the forkserver's free small blocks
filled before it forks (`warm.fill_free_blocks`), and a screen's garbage collected as
soon as the screen is gone (`server.screen_garbage`). Each runs where what it changes
stays its own: a process of its own, or an app of its own."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import weakref

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tests.ssh.client import TIMEOUT

SHARED_STYLES = """
from textual.css.stylesheet import Stylesheet
from abstracts_tui.server.shared_styles import PARSED, share_parsed_styles

CSS = "Static { width: 1fr; color: $text; }"
assert share_parsed_styles()

def parsed(variables):
    sheet = Stylesheet(variables=variables)
    sheet.add_source(CSS, read_from=("x.tcss", ""))
    sheet.parse()
    return sheet.rules

first = parsed({"text": "red"})
again = parsed({"text": "red"})
other = parsed({"text": "blue"})
print(len(PARSED), all(a is b for a, b in zip(first, again)), first[0] is other[0],
      str(other[0].styles.color))
"""


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_second_stylesheet_takes_the_rules_the_first_parsed() -> None:
    # A session forked from the forkserver finds the lobby's and the game's rules parsed
    # by the warm-up; a stylesheet under other variables (another theme) parses its own.
    assert run_python(SHARED_STYLES).split() == ["2", "True", "False", "Color(0,", "0,", "255)"]


FILL = """
from abstracts_tui.server import warm

made = warm.fill_free_blocks()
if warm.can_immortalize():
    free, unused = warm.small_block_stats()
    print(made > 1000, sum(free.values()) < made // 4, unused)
else:
    print(made == 0)
"""


def test_the_forkservers_free_small_blocks_are_filled_only_where_objects_are_immortal() -> None:
    # On 3.12 and 3.13 a session's new objects go to pools of its own, not to pages it
    # shares; on 3.11 nothing is filled (a session there copies those pages anyway).
    out = run_python(FILL).split()
    if out == ["True"]:
        return
    assert out[:2] == ["True", "True"], out


class Dialog(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a dialog")


class TwoScreens(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("the lobby")


def test_a_screen_taken_away_is_freed_before_the_next_is_built() -> None:
    from abstracts_tui.server.screen_garbage import collect_after_screens

    async def main() -> tuple[bool, bool]:
        app = TwoScreens()
        hooked = collect_after_screens(app)
        async with app.run_test() as pilot:
            dialog = Dialog()
            gone = weakref.ref(dialog)
            await app.push_screen(dialog)
            await pilot.pause()
            del dialog
            gc.disable()  # no collection but the one after the screen's removal
            try:
                await app.pop_screen()
                await pilot.pause()
                return hooked, gone() is None
            finally:
                gc.enable()

    assert asyncio.run(main()) == (True, True)
