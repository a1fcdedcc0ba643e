"""Sides that change hands during a game, from one table of cases driven through the play
model, line mode and the full-screen app (the object `build_app` makes): a behaviour one
front end has and another lacks fails here.

A case is a game, steps (a person's move, a side handed to the computer, a side taken
over, a move taken back) and what must follow: the sentences said, in order, the number
of moves in the game and who the computer plays for at the end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.pilot import Pilot

from abstracts_tui.engine.settings import PLAYOUTS_VARIABLE, SEED_VARIABLE
from abstracts_tui.game_setup import Setup
from abstracts_tui.lines.play import LineGame
from abstracts_tui.play.turns import Ask, Turns
from abstracts_tui.session import Session
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.seats import LEVEL_NAMES, SeatsDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.waiting import until

PLAYOUTS = 30


@dataclass(frozen=True)
class Step:
    """`play` (the side to move's first legal move, by a person), `computer` (hand
    `colour` to the computer at `level`), `take` (take `colour` over) or `undo`."""

    kind: str
    colour: int = 0
    level: str = "easy"


@dataclass(frozen=True)
class Case:
    name: str
    setup: Setup
    steps: tuple[Step, ...]
    said: tuple[str, ...]
    """Sentences said in this order (others may come between them)."""
    moves: int
    computers: dict[str, str]


PARTITIONS = "partitions"
CASES = (
    Case(
        "the side to move handed to the computer, which moves at once",
        Setup(PARTITIONS, 5, first="Ann", second="Bob"),
        (Step("play"), Step("computer", 1, "easy")),
        ("The computer (easy) plays Black (Bob) now.",),
        2,
        {"Bob": "easy"},
    ),
    Case(
        "the computer's side taken over, then both sides played here",
        Setup(PARTITIONS, 5, first="Ann", second="Computer", second_level="easy"),
        (Step("play"), Step("take", 1), Step("play"), Step("play")),
        ("You play Black (Computer) now, instead of the computer.",),
        4,
        {},
    ),
    Case(
        "a side already played here stays so",
        Setup(PARTITIONS, 5, first="Ann", second="Bob"),
        (Step("take", 0),),
        ("White (Ann) is already played here.",),
        0,
        {},
    ),
    Case(
        "a side handed over, then the person's move taken back with the computer's reply",
        Setup(PARTITIONS, 5, first="Ann", second="Bob"),
        (Step("play"), Step("computer", 1, "medium"), Step("undo")),
        (
            "The computer (medium) plays Black (Bob) now.",
            "Took back 2 moves. White to move (Ann).",
        ),
        0,
        {"Bob": "medium"},
    ),
)


def in_order(said: list[str], expected: tuple[str, ...]) -> bool:
    """Whether `expected` are said in this order (each within one line said: the app
    says two sides' sentences in one status line)."""
    found: Iterator[str] = iter(said)
    return all(any(sentence in line for line in found) for sentence in expected)


def first_legal(session: Session) -> str:
    game = session.game
    return game.move_name(game.legal_moves()[0])


def check(case: Case, session: Session, said: list[str]) -> None:
    assert in_order(said, case.said), said
    assert len(session.game.moves) == case.moves, said
    assert session.record.computers == case.computers


# -- the model ---------------------------------------------------------------------------


def run_model(case: Case) -> tuple[Session, list[str]]:
    """The steps on the model itself; the computer's decisions taken as the screens take
    them (its request answered by a search)."""
    from abstracts_tui.engine.decide import Thinker
    from abstracts_tui.engine.search import Budget

    turns = Turns(Session.start(case.setup))
    thinker = Thinker(1)
    said: list[str] = []

    def computer_turns() -> None:
        while (request := turns.request()) is not None and request.ask is Ask.COMPUTER:
            turns.decided(thinker.move(turns.session.game.copy(), Budget(playouts=PLAYOUTS)))

    for step in case.steps:
        computer_turns()
        if step.kind == "play":
            assert turns.play(first_legal(turns.session)) is None
        elif step.kind == "computer":
            said.append(turns.hand_to_computer(step.colour, step.level))
        elif step.kind == "take":
            said.append(turns.take_over(step.colour))
        else:
            said.append(turns.undo())
    computer_turns()
    return turns.session, said


# -- line mode ---------------------------------------------------------------------------


def run_lines(case: Case) -> tuple[Session, list[str]]:
    session = Session.start(case.setup)
    said: list[str] = []
    game = LineGame(session, said.append, thinker_seed=1, playouts=PLAYOUTS)
    steps = iter(case.steps)

    def read() -> str | None:
        step = next(steps, None)
        if step is None:
            return None
        colour = game.session.game.colour_name(step.colour)
        if step.kind == "play":
            return first_legal(game.session)
        if step.kind == "computer":
            return f"computer {colour} {step.level}"
        if step.kind == "take":
            return f"take {colour}"
        return "undo"

    game.run(read)
    return game.session, said


# -- the full-screen app -----------------------------------------------------------------


def run_app(case: Case, data: Path) -> tuple[Session, list[str]]:
    app = build_app(case.setup, data=data, settings=Settings())
    said: list[str] = []
    result: list[Session] = []

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            listen(screen, said)
            for step in case.steps:
                await settled(app, pilot, screen)
                await app_step(app, pilot, screen, step)
            await settled(app, pilot, screen)
            result.append(screen.session)

    asyncio.run(main())
    return result[0], said


def listen(screen: PlayScreen, said: list[str]) -> None:
    """Keep every sentence the screen says in its status line."""
    say = screen.say

    def kept(message: str) -> None:
        said.append(message)
        say(message)

    screen.say = kept  # type: ignore[method-assign]


async def settled(app: AbstractsApp, pilot: Pilot[None], screen: PlayScreen) -> None:
    """Until the computer has no move left to make here (its search done and played)."""

    def idle() -> bool:
        """the computer's turns are done"""
        request = screen.turns.request()
        return app.screen is screen and (request is None or request.ask is not Ask.COMPUTER)

    await until(pilot, idle)


async def app_step(app: AbstractsApp, pilot: Pilot[None], screen: PlayScreen, step: Step) -> None:
    if step.kind == "play":
        await pilot.press("colon", *first_legal(screen.session), "enter")
    elif step.kind == "undo":
        await pilot.press("u")
    else:
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, SeatsDialog))
        if step.colour == 1:
            await pilot.press("down")
        dialog = app.screen
        assert isinstance(dialog, SeatsDialog)
        wanted = 0 if step.kind == "take" else 1 + LEVEL_NAMES.index(step.level)
        row = dialog.query_one(f"#seat{step.colour}")
        shown: Callable[[], int] = lambda: row.index  # type: ignore[attr-defined]  # noqa: E731
        while shown() != wanted:
            await pilot.press("right" if shown() < wanted else "left")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen)
    await pilot.pause()


# -- the table ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def small_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PLAYOUTS_VARIABLE, str(PLAYOUTS))
    monkeypatch.setenv(SEED_VARIABLE, "1")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_model(case: Case) -> None:
    check(case, *run_model(case))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_line_mode(case: Case) -> None:
    check(case, *run_lines(case))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_full_screen_app(case: Case, tmp_path: Path) -> None:
    check(case, *run_app(case, tmp_path))


def test_a_side_changes_hands_only_once_play_begins() -> None:
    turns = Turns(Session.start(Setup("linage", 5, first="Ann", second="Bob")))
    assert turns.hand_to_computer(0, "easy") == (
        "A side changes hands once play begins, after komi and sides are chosen."
    )
    assert turns.session.record.computers == {}


def test_a_shared_game_keeps_its_players(tmp_path: Path) -> None:
    turns = Turns(Session.start(Setup(PARTITIONS, 5, first="Ann", second="Bob")), shared=True)
    assert turns.take_over(0).startswith("The sides of a shared game are its players'")
    assert turns.hand_to_computer(1, "easy").startswith("The sides of a shared game")


def test_a_resumed_game_keeps_the_computer_on_the_side_handed_to_it(tmp_path: Path) -> None:
    turns = Turns(
        Session.start(Setup(PARTITIONS, 5, first="Ann", second="Bob"), tmp_path / "g.sgf")
    )
    turns.play("a1")
    turns.hand_to_computer(1, "hard")
    assert turns.session.flush()
    resumed = Session.load(tmp_path / "g.sgf")
    assert resumed.level("Bob") == "hard" and resumed.level("Ann") is None
