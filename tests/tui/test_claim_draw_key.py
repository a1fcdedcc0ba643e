"""The full-screen room's draw claim key (`D` Claim draw): beside `W` Claim win, in the
footer under the same condition (the other player's connection gone, each side moved) and
only in a game that can end equal; pressed, the game ends drawn and the screen says who
claimed it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from abstracts_tui.commands import Claim, Command
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.chat import Chat
from abstracts_tui.rooms.presence import Presences, RoomPresence
from abstracts_tui.session import Session
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import RoomSeat
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from abstracts_tui.tui.settings import Settings
from tests.tui.room_events import LocalRoom
from tests.tui.test_claim_key import footer
from tests.tui.waiting import until


def run_room(setup: Setup, moves: tuple[str, ...], tmp_path: Path, draw: bool) -> list[str]:
    """ann's room screen of `setup` after `moves`: bob's connection drops, and with
    `draw` ann presses `D`; what the screen said, the footer's claim keys checked."""
    session = Session.start(setup)
    if session.phase.name == "SIDE":
        session.choose_side(1)
    for move in moves:
        session.play(move)
    room = LocalRoom(session)
    sent: list[Command] = []
    said: list[str] = []

    async def send(command: Command) -> None:
        sent.append(command)
        room.send(command, "ann")

    async def nothing_said(text: str) -> str | None:
        return None

    async def no_rematch() -> None:
        pass

    seat = RoomSeat(
        code="d7m2",
        user="ann",
        rated=True,
        chat=Chat(),
        say=nothing_said,
        rematch_room=no_rematch,
        go_to=lambda code: None,
        players=lambda: session.people,
        listen=room.listen,
        terms=room.terms,
    )
    presences = Presences()
    bob = RoomPresence("d7m2", "bob", presences)
    shared = Seat(
        local_people=frozenset({"ann"}),
        shared=True,
        files=False,
        send=send,
        room=seat,
        presence=RoomPresence("d7m2", "ann", presences),
    )
    app = build_app(data=tmp_path, settings=Settings())

    def ignore() -> None:
        pass

    async def main() -> None:
        async with app.run_test(size=(140, 30)) as pilot:
            await pilot.pause()
            bob.follow(True, ignore)
            screen = PlayScreen(session, seat=shared)
            say = screen.say

            def kept(message: str) -> None:
                said.append(message)
                say(message)

            screen.say = kept  # type: ignore[method-assign]
            app.push_screen(screen)
            await until(pilot, lambda: app.screen is screen)
            assert "Claim draw" not in footer(screen)
            bob.follow(False, ignore)  # his connection drops
            await until(pilot, lambda: "Claim win" in footer(screen))
            assert ("Claim draw" in footer(screen)) == draw
            assert screen.check_action("room", ("claim_draw",)) is draw
            if draw:
                await pilot.press("D")
                await until(pilot, lambda: session.over)
                await pilot.pause()
                assert "Claim draw" not in footer(screen)

    asyncio.run(main())
    assert sent == ([Claim(draw=True)] if draw else [])
    return said


def test_the_draw_claim_key_shows_where_the_game_can_end_equal_and_draws_it(
    tmp_path: Path,
) -> None:
    linage = Setup("linage", 5, komi=0, first="ann", second="bob")
    said = run_room(linage, ("a1", "b1"), tmp_path, draw=True)
    assert "Game over: bob left the game: ann claims a draw." in said


def test_no_draw_claim_key_in_a_game_that_cannot_end_equal(tmp_path: Path) -> None:
    run_room(Setup("pilo", 6, first="ann", second="bob"), ("c3", "d3"), tmp_path, draw=False)
