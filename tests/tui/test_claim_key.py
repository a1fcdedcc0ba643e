"""The full-screen room's claim key (`W` Claim win): in the footer only while the other
player's connection is gone from the room and each side has moved, and pressed, the
claim sent to the room (whose gateway the server puts behind a check of how long they
have been gone: `server.moderation.claim_refusal`, tested over SSH in
`tests/ssh/test_moderation.py`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from abstracts_tui.commands import Command
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.chat import Chat
from abstracts_tui.rooms.presence import Presences, RoomPresence
from abstracts_tui.session import Session
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import RoomSeat
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from abstracts_tui.tui.settings import Settings
from abstracts_tui.tui.widgets.key_bar import KeyBar
from tests.tui.room_events import LocalRoom
from tests.tui.waiting import until


def footer(screen: PlayScreen) -> str:
    return str(screen.query_one(KeyBar).render())


def test_the_claim_key_shows_once_the_other_player_is_gone_and_claims_the_game(
    tmp_path: Path,
) -> None:
    session = Session.start(Setup("pilo", 6, first="ann", second="bob"))
    session.play("c3")
    session.play("d3")
    room = LocalRoom(session)
    sent: list[Command] = []

    async def send(command: Command) -> None:
        sent.append(command)
        room.send(command, "ann")

    async def nothing_said(text: str) -> str | None:
        return None

    async def no_rematch() -> None:
        pass

    seat = RoomSeat(
        code="k7m2",
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
    bob = RoomPresence("k7m2", "bob", presences)
    shared = Seat(
        local_people=frozenset({"ann"}),
        shared=True,
        files=False,
        send=send,
        room=seat,
        presence=RoomPresence("k7m2", "ann", presences),
    )
    app = build_app(data=tmp_path, settings=Settings())

    def ignore() -> None:
        pass

    async def main() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            bob.follow(True, ignore)  # bob's screen shows the game
            screen = PlayScreen(session, seat=shared)
            app.push_screen(screen)
            await until(pilot, lambda: app.screen is screen)
            assert screen.check_action("room", ("claim",)) is False
            assert "Claim win" not in footer(screen)
            bob.follow(False, ignore)  # his connection drops
            await until(pilot, lambda: "Claim win" in footer(screen))
            assert screen.check_action("room", ("claim",)) is True
            await pilot.press("W")
            await until(pilot, lambda: session.over)
            await pilot.pause()
            assert "Claim win" not in footer(screen)

    asyncio.run(main())
    assert [type(command).__name__ for command in sent] == ["Claim"]
    assert session.turn_text() == "Orange (bob) left the game: Blue (ann) wins"
