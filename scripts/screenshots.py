"""Make the SVG screenshots shown in the README and the docs: `python scripts/screenshots.py`.

Each picture is the real app (built by the same factory as the command) driven by keys in
a headless terminal of 100x30 (`large`: 160x50), with random moves from a fixed seed,
written to screenshots/NAME.svg.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from abstracts_tui.game_setup import Setup
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SIZE = (100, 30)

Steps = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


async def type_move(pilot: Pilot[None], move: str) -> None:
    await pilot.press("colon", *move, "enter")


async def random_moves(app: AbstractsApp, pilot: Pilot[None], count: int, seed: int) -> None:
    """Type `count` random legal moves (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(count):
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game = screen.session.game
        if game.is_over():
            return
        await type_move(pilot, game.move_name(rng.choice(game.legal_moves())))
        await pilot.pause()
        if not isinstance(app.screen, PlayScreen):  # a dialog: the first answer
            await pilot.press("p")


def midgame(count: int, seed: int, extra: tuple[str, ...] = ()) -> Steps:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await random_moves(app, pilot, count, seed)
        if extra:
            await pilot.press(*extra)

    return steps


def keys(*pressed: str) -> Steps:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        await pilot.press(*pressed)

    return steps


def chain(*parts: Steps) -> Steps:
    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for part in parts:
            await part(app, pilot)
            await pilot.pause()

    return steps


async def pie(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await type_move(pilot, "d5")


async def finished(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await random_moves(app, pilot, 200, seed=4)


async def settled(app: AbstractsApp, pilot: Pilot[None], *kinds: str) -> None:
    """Wait until the play screen's searches of `kinds` have finished (at most a minute)."""
    screen = app.screen
    assert isinstance(screen, PlayScreen)
    deadline = time.monotonic() + 60
    while any(screen.searches.busy(kind) for kind in kinds) and time.monotonic() < deadline:
        await pilot.pause(0.1)
    await pilot.pause(0.6)  # the panel's next tick


async def analysis(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await random_moves(app, pilot, 24, seed=7)
    await pilot.press("x", "left_square_bracket", "left_square_bracket")
    await random_moves(app, pilot, 2, seed=8)  # a variation
    await settled(app, pilot, "analysis")
    await pilot.press("percent_sign")
    await settled(app, pilot, "graph")


async def against_the_computer(app: AbstractsApp, pilot: Pilot[None]) -> None:
    rng = random.Random(9)
    for _ in range(12):
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await settled(app, pilot, "turn")
        game = screen.session.game
        await type_move(pilot, game.move_name(rng.choice(game.legal_moves())))
        await pilot.pause()
    await pilot.press("b")
    await settled(app, pilot, "turn", "hint")


async def setting_up(app: AbstractsApp, pilot: Pilot[None]) -> None:
    await random_moves(app, pilot, 10, seed=10)
    await pilot.press("ctrl+e", "left", "1", "1", "up", "up", "3", "t")


SHOTS: dict[str, tuple[Setup | None, Steps]] = {
    "select": (None, keys("down", "down")),
    "petrify": (Setup("petrify", 8, first="Ann", second="Bob"), midgame(40, 1)),
    "pilo": (Setup("pilo", 8, first="Ann", second="Bob"), midgame(50, 2, ("right", "up"))),
    "egotzi": (Setup("egotzi", 7, first="Ann", second="Bob"), midgame(20, 3)),
    "linage": (
        Setup("linage", 11, komi=4.5, first="Ann", second="Bob"),
        chain(keys("2"), midgame(25, 8)),
    ),
    "partitions": (Setup("partitions", 6, first="Ann", second="Bob"), midgame(40, 5)),
    "pie-rule": (Setup("petrify", 8, first="Ann", second="Bob"), pie),
    "komi-dialog": (Setup("linage", 11, first="Ann", second="Bob"), keys()),
    "side-dialog": (Setup("egotzi", 7, "squared", first="Ann", second="Bob"), keys("enter")),
    "score-overlay": (Setup("pilo", 8, first="Ann", second="Bob"), midgame(60, 6, ("t",))),
    "finished": (Setup("partitions", 6, first="Ann", second="Bob"), finished),
    "help": (Setup("linage", 11, komi=0.5), keys("1", "question_mark")),
    "analysis": (Setup("petrify", 8, first="Ann", second="Bob"), analysis),
    "computer": (
        Setup("egotzi", 7, first="Ann", second="Computer", second_level="medium"),
        against_the_computer,
    ),
    "setup": (Setup("pilo", 8, first="Ann", second="Bob"), setting_up),
    "large": (Setup("pilo", 8, first="Ann", second="Bob"), midgame(50, 2, ("t",))),
}
SIZES = {"large": (160, 50)}
"""Shots at another size than `SIZE`: the board grows with the terminal."""


async def shoot(name: str, setup: Setup | None, steps: Steps, data: Path) -> Path:
    app = build_app(setup, data=data)
    async with app.run_test(size=SIZES.get(name, SIZE)) as pilot:
        await pilot.pause()
        await steps(app, pilot)
        await pilot.pause()
        return Path(app.save_screenshot(f"{name}.svg", str(OUT)))


def main(names: list[str]) -> None:
    # The same searches every time: a seed, and analysis by playouts rather than time.
    os.environ["ABSTRACTS_TUI_SEED"] = "1"
    os.environ["ABSTRACTS_TUI_PLAYOUTS"] = "3000"
    OUT.mkdir(exist_ok=True)
    for name, (setup, steps) in SHOTS.items():
        if names and name not in names:
            continue
        with tempfile.TemporaryDirectory() as data:
            path = asyncio.run(shoot(name, setup, steps, Path(data)))
        print(path.relative_to(OUT.parent))


if __name__ == "__main__":
    main(sys.argv[1:])
