"""The app of a plain install in a real terminal, as a new player meets it: the board
drawn whole at both sizes the README's screenshots show, a game left and resumed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.installed.conftest import Product
from tests.tmux import Tmux, needs_tmux

pytestmark = [pytest.mark.installed, pytest.mark.quick, needs_tmux]


def board_drawn_whole(screen: str) -> bool:
    """Whether the screen shows an 8x8 board's letters a to h and its rows 8 and 1."""
    letters = any(
        re.search(r"\ba\s+b\s+c\s+d\s+e\s+f\s+g\s+h\b", line) for line in screen.splitlines()
    )
    rows = [re.match(r"\s*(\d)\s", line) for line in screen.splitlines()]
    numbers = {match.group(1) for match in rows if match}
    return letters and {"1", "8"} <= numbers


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_board_is_drawn_whole_and_a_game_is_resumed(
    product: Product, user: dict[str, str], size: tuple[int, int], tmp_path: Path
) -> None:
    play = f"{product.command} play pilo --first Ann --second Bob; echo EXIT=$?; sleep 60"
    with Tmux(play, *size, env=user, cwd=product.outside) as terminal:
        terminal.wait_for("Blue to move (Ann)")
        terminal.keys(":")
        terminal.wait_for("Enter plays")
        terminal.keys("d4", "Enter")
        terminal.wait_for("Pie rule")
        terminal.keys("p")
        screen = terminal.wait_for(lambda screen: "Orange to move (Bob)" in screen)
        assert board_drawn_whole(screen), screen
        terminal.keys("C-q")
        assert "EXIT=0" in terminal.wait_for("EXIT=")
    again = f"{product.command}; echo EXIT=$?; sleep 60"
    with Tmux(again, *size, env=user, cwd=product.outside) as terminal:
        terminal.wait_for("Resume (y)")
        terminal.keys("y")
        terminal.wait_for("Pie rule")  # playing on is no move: the choice is offered again
        terminal.keys("p")
        screen = terminal.wait_for(lambda screen: "Cursor" in screen and "d4" in screen)
        assert board_drawn_whole(screen), screen
        assert "Orange to move (Bob)" in screen
        terminal.keys("C-q")
        assert "EXIT=0" in terminal.wait_for("EXIT=")


def test_without_a_terminal_it_says_what_to_run_instead(
    product: Product, user: dict[str, str]
) -> None:
    done = product.run(env=user, timeout=10)
    assert done.returncode == 2
    assert "abstracts-tui engine" in done.stderr and len(done.stderr.splitlines()) == 1
