"""The lobby's list of open challenges, in the app `abstracts-tui` builds: each line says
the game, the clock, rated or not and who waits; Enter accepts the one highlighted."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen

from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.rooms.challenges import NONE_OPEN, Challenge, ChallengeList
from abstracts_tui.tui.settings import Settings

ANN = Challenge("k7m2", "ann 1662?", "Pilo 8x8", "5m+3s", rated=True)
BOB = Challenge("q3zx", "bob", "Linage 11x11", None, rated=False)


class Lobby(Screen[None]):
    """The part of the lobby that lists the challenges (the rest of the lobby lists
    rooms of the server, which these tests have none of)."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[str] = []

    def compose(self) -> ComposeResult:
        yield ChallengeList(id="challenges")

    def on_challenge_list_accept(self, message: ChallengeList.Accept) -> None:
        self.accepted.append(message.code)


Steps = Callable[[Lobby, ChallengeList, Pilot[None]], Awaitable[None]]


def run(tmp_path: Path, steps: Steps) -> None:
    app = build_app(data=tmp_path, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lobby = Lobby()
            await app.push_screen(lobby)
            await pilot.pause()
            challenges = lobby.query_one(ChallengeList)
            challenges.focus()
            await steps(lobby, challenges, pilot)

    asyncio.run(main())


def texts(challenges: ChallengeList) -> list[str]:
    return [str(option.prompt) for option in challenges.options]


def test_each_challenge_says_what_it_is_and_enter_accepts_it(tmp_path: Path) -> None:
    async def steps(lobby: Lobby, challenges: ChallengeList, pilot: Pilot[None]) -> None:
        challenges.show([ANN, BOB])
        await pilot.pause()
        assert texts(challenges) == [
            "k7m2  Pilo 8x8  clock 5m+3s  rated  ann 1662?",
            "q3zx  Linage 11x11  no clock  casual  bob",
        ]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert lobby.accepted == ["q3zx"]

    run(tmp_path, steps)


def test_the_highlight_stays_on_its_challenge_while_the_list_changes(tmp_path: Path) -> None:
    async def steps(lobby: Lobby, challenges: ChallengeList, pilot: Pilot[None]) -> None:
        challenges.show([ANN, BOB])
        await pilot.press("down")
        carol = Challenge("zz99", "carol", "Petrify 8x8", "10m", rated=True)
        challenges.show([carol, ANN, BOB])  # one more, listed before
        await pilot.press("enter")
        challenges.show([ANN])  # bob's was accepted by somebody else
        await pilot.press("enter")
        await pilot.pause()
        assert lobby.accepted == ["q3zx", "k7m2"]

    run(tmp_path, steps)


def test_with_none_open_the_list_says_how_to_make_one(tmp_path: Path) -> None:
    async def steps(lobby: Lobby, challenges: ChallengeList, pilot: Pilot[None]) -> None:
        challenges.show([])
        await pilot.press("enter")
        await pilot.pause()
        assert texts(challenges) == [NONE_OPEN] and lobby.accepted == []
        assert not challenges.can_focus  # the lobby's keys pass over it

    run(tmp_path, steps)
