"""What is said of a move, a choice, a hint and the computer's decisions, from one table of
cases driven through line mode and the full-screen app (the object `build_app` makes):
both say the same sentence for the same case (`play/sentences.py`), so that a wording one
front end has and the other lacks fails here.

A case is a game, the steps typed (a move, komi, a side, the swap, a hint, a position set
up) and the sentences that must be said, in this order. Line mode says each as a line of
its own; the app's status line says it as one of its sentences (followed by whose turn it
is, or the key that plays a hint).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.pilot import Pilot

from abstracts_tui.engine.settings import PLAYOUTS_VARIABLE, SEED_VARIABLE
from abstracts_tui.game_setup import Setup
from abstracts_tui.lines.play import LineGame
from abstracts_tui.play.sentences import played_words
from abstracts_tui.session import Session
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.komi import KomiDialog
from abstracts_tui.tui.dialogs.side import SideDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings
from tests.play.test_seat_cases import settled
from tests.tui.waiting import pie_asked, until

PLAYOUTS = 30
ONLY_A_PASS = "linage size=5,komi=0 xxxxx/x..../xxxxx/...xx/.x.xx vertical passes=0"
"""Vertical to move, with no cell left to play: passing is the only move."""


@dataclass(frozen=True)
class Case:
    name: str
    setup: Setup
    steps: tuple[str, ...]
    """`komi N`, `first` or `second` (the side chosen), `swap`, `hint`, `position P` (set
    up), or a move in notation."""
    said: tuple[str, ...]
    """Patterns of the sentences said, in this order (others may come between them)."""


TOOK = r" in (under )?\d+\.\d s"
CASES = (
    Case(
        "komi, a side and a placement",
        Setup("linage", 5, first="Ann", second="Bob"),
        ("komi 0.5", "second", "c3"),
        (
            r"Ann sets komi to 0\.5\.",
            r"Bob takes Horizontal\.",
            r"Vertical \(Ann\) plays c3\.",
        ),
    ),
    Case(
        "a capture that leaves a block",
        Setup("petrify", 8, first="Ann", second="Bob"),
        ("c3", "c5", "c3-c5"),
        (r"Blue \(Ann\) moves c3 to c5, capturing Orange, leaving a block on c3\.",),
    ),
    Case(
        "a placement that pushes a stone",
        Setup("egotzi", 5, first="Ann", second="Bob"),
        ("c3", "d3"),
        (r"White \(Bob\) plays d3, pushing c3 to b3\.",),
    ),
    Case(
        "the pie rule's swap",
        Setup("petrify", 6, first="Ann", second="Bob"),
        ("c3", "swap"),
        (r"Orange \(Bob\) swaps: Bob now plays Blue\.",),
    ),
    Case(
        "a hint where passing is the only move, and the pass",
        Setup("linage", 5, komi=0, first="Ann", second="Bob"),
        ("second", f"position {ONLY_A_PASS}", "hint", "pass"),
        (
            r"Hint: pass - (Vertical's chance \d+%.*|Vertical loses by force) "
            r"\(the only move tried\); the line pass\.",
            r"Vertical \(Ann\) passes\.",
        ),
    ),
    Case(
        "the computer chooses komi, then the person a side",
        Setup("linage", 5, first="Computer", first_level="easy", second="Ann"),
        ("first",),
        (
            r"Computer \(easy\) is choosing komi\.",
            r"Computer sets komi to -?[\d.]+\.",
            r"Ann takes Vertical\.",
        ),
    ),
    Case(
        "the computer's move, with its time",
        Setup("partitions", 5, first="Ann", second="Computer", second_level="easy"),
        ("a1",),
        (
            r"Computer \(easy\) is choosing its move\.",
            rf"Black \(Computer\) plays [a-z]\d+{TOOK}\.",
        ),
    ),
)


def in_order(said: list[str], patterns: tuple[str, ...], *, whole: bool) -> bool:
    """Whether sentences matching `patterns` are said in this order: each a whole line
    (`whole`), or a sentence of one (the status line says one after another)."""
    found = iter(said)

    def match(pattern: str, line: str) -> bool:
        if whole:
            return re.fullmatch(pattern, line) is not None
        return re.search(rf"(^|\. ){pattern}", line) is not None

    return all(any(match(pattern, line) for line in found) for pattern in patterns)


# -- line mode ---------------------------------------------------------------------------


def run_lines(case: Case) -> list[str]:
    said: list[str] = []
    game = LineGame(Session.start(case.setup), said.append, thinker_seed=1, playouts=PLAYOUTS)
    steps = iter(case.steps)

    def read() -> str | None:
        step = next(steps, None)
        if step is not None and step.startswith("position "):
            game.session.set_up(step.removeprefix("position "))
            return ""
        return step

    game.run(read)
    return said


# -- the full-screen app -----------------------------------------------------------------


def run_app(case: Case, data: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    say = PlayScreen.say

    def kept(screen: PlayScreen, message: str) -> None:
        said.append(message)
        say(screen, message)

    monkeypatch.setattr(PlayScreen, "say", kept)  # every sentence, the first one too
    app = build_app(case.setup, data=data, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: any(isinstance(s, PlayScreen) for s in app.screen_stack))
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            for step in case.steps:
                await app_step(app, pilot, screen, step)
            await settled(app, pilot, screen)

    asyncio.run(main())
    return said


async def app_step(app: AbstractsApp, pilot: Pilot[None], screen: PlayScreen, step: str) -> None:
    word, _, rest = step.partition(" ")
    if word == "komi":
        await until(pilot, lambda: isinstance(app.screen, KomiDialog))
        await pilot.press("ctrl+a", "ctrl+k", *rest, "enter")
    elif word in ("first", "second"):
        await until(pilot, lambda: isinstance(app.screen, SideDialog))
        await pilot.press("1" if word == "first" else "2")
    else:
        await until(pilot, lambda: app.screen is screen)
        await settled(app, pilot, screen)
        moves = len(screen.game.moves)
        if word == "position":
            screen.session.set_up(rest)
        elif word == "hint":
            await pilot.press("b")
            await until(pilot, lambda: screen.hint is not None)
        elif word == "swap":
            await until(pilot, lambda: pie_asked(app))
            await pilot.press("s")
        else:
            if pie_asked(app):
                await pilot.press("p")  # the pie rule declined: the move plays on
            await pilot.press("colon", *step, "enter")
        if word not in ("position", "hint"):
            await until(pilot, lambda: len(screen.game.moves) > moves)
    await pilot.pause()


# -- the table ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def small_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PLAYOUTS_VARIABLE, str(PLAYOUTS))
    monkeypatch.setenv(SEED_VARIABLE, "1")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_line_mode(case: Case) -> None:
    said = run_lines(case)
    assert in_order(said, case.said, whole=True), said


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_full_screen_app(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said = run_app(case, tmp_path, monkeypatch)
    assert in_order(said, case.said, whole=False), said


def test_a_move_told_after_more_moves_is_said_by_its_name() -> None:
    """A screen told late (a room's moves caught up at once) names the move it is told of,
    not the last one, with what it knows of it."""
    session = Session.start(Setup("petrify", 6, first="Ann", second="Bob"))
    session.play("c3")
    session.play("d4")
    assert played_words(session, "d4", 1, "Bob") == "Orange (Bob) plays d4."
    assert played_words(session, "c3", 0, "Ann", 0.04) == "Blue (Ann) plays c3 in under 0.1 s."
    assert played_words(session, "pass", 1) == "Orange passes."
