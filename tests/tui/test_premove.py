"""A premove in a room's full-screen game (the play screen `build_app` makes, its room's
commands applied in this process): a move typed on the other player's turn is held and
said, sent the moment the turn comes, dropped with a sentence when the other's move made
it illegal, and cleared by Escape."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from abstracts_tui.commands import Command, Play
from abstracts_tui.rooms.chat import Chat
from abstracts_tui.session import Session
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import RoomSeat
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from abstracts_tui.tui.settings import Settings
from tests.play.test_offer_cases import LINAGE, begun, keep
from tests.tui.room_events import LocalRoom
from tests.tui.waiting import until

Steps = Callable[[AbstractsApp, Pilot[None], LocalRoom], Awaitable[None]]


def bobs_screen(data: Path, steps: Steps) -> tuple[Session, list[str]]:
    """Bob's play screen of a Linage room with ann (who moves first), and what it said
    after `steps`."""
    app = build_app(data=data, settings=Settings())
    session = begun(Session.start(LINAGE))
    room = LocalRoom(session)
    said: list[str] = []

    async def send(command: Command) -> None:
        room.send(command, "bob")

    async def nothing(*_: object) -> None:
        return None

    seat = RoomSeat(
        code="k7m2",
        user="bob",
        rated=True,
        chat=Chat(),
        say=nothing,
        rematch_room=nothing,
        go_to=lambda code: None,
        players=lambda: session.people,
        listen=room.listen,
        terms=room.terms,
    )
    shared = Seat(local_people=frozenset({"bob"}), shared=True, files=False, send=send, room=seat)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = PlayScreen(session, seat=shared)
            keep(screen, said)
            app.push_screen(screen)
            await until(pilot, lambda: app.screen is screen)
            await steps(app, pilot, room)
            await app.workers.wait_for_complete()
            await pilot.pause()

    asyncio.run(main())
    return session, said


async def typed(pilot: Pilot[None], move: str) -> None:
    await pilot.press("colon", *move, "enter")
    await pilot.pause()


async def anns_move(pilot: Pilot[None], room: LocalRoom, move: str) -> None:
    room.send(Play(move), "ann")
    await pilot.pause()
    await pilot.pause()


def test_a_move_typed_on_the_others_turn_is_held_and_sent_when_the_turn_comes(
    tmp_path: Path,
) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None], room: LocalRoom) -> None:
        await typed(pilot, "c3")
        assert len(room.session.game.moves) == 0  # held here: the room knows nothing
        await anns_move(pilot, room, "a1")
        await until(pilot, lambda: len(room.session.game.moves) == 2)

    session, said = bobs_screen(tmp_path, steps)
    assert "Premove: c3 (played when your turn comes; Esc clears it)." in said
    assert [session.game.move_name(move) for move in session.game.moves] == ["a1", "c3"]
    assert "Sent: c3, waiting for the server." in said


def test_a_premove_the_others_move_made_illegal_is_dropped_with_why(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None], room: LocalRoom) -> None:
        await typed(pilot, "a1")
        await anns_move(pilot, room, "a1")  # ann took the point

    session, said = bobs_screen(tmp_path, steps)
    assert len(session.game.moves) == 1
    assert "Premove a1 dropped: a1 is occupied." in said


def test_escape_clears_a_premove(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, pilot: Pilot[None], room: LocalRoom) -> None:
        await typed(pilot, "c3")
        await pilot.press("escape")
        await pilot.pause()
        await anns_move(pilot, room, "a1")

    session, said = bobs_screen(tmp_path, steps)
    assert "Premove cleared." in said
    assert len(session.game.moves) == 1  # nothing sent: bob's move is his to make


def test_a_watcher_holds_no_premove(tmp_path: Path) -> None:
    """The refusal of a move by somebody who does not play stays one sentence."""
    app = build_app(data=tmp_path, settings=Settings())
    session = begun(Session.start(LINAGE))
    room = LocalRoom(session)
    said: list[str] = []

    async def send(command: Command) -> None:
        room.send(command, "carl")

    async def nothing(*_: object) -> None:
        return None

    seat = RoomSeat("k7m2", "carl", True, Chat(), nothing, nothing, lambda code: None,
                    lambda: session.people, room.listen, room.terms)  # fmt: skip
    shared = Seat(local_people=frozenset(), shared=True, files=False, send=send, room=seat)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = PlayScreen(session, seat=shared)
            keep(screen, said)
            app.push_screen(screen)
            await until(pilot, lambda: app.screen is screen)
            assert screen.turns.play("c3") == "You are watching: ann and bob make the moves."
            assert screen.premove.held is None

    asyncio.run(main())
