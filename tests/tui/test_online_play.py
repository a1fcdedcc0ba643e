"""Online play on the play screen of the app `abstracts-tui` builds: resign and abort
asked first, a take-back asked and answered, a rematch offered and accepted. Bob plays at
this screen; what Ann does reaches the room's game as a command from another connection
would. The room is one process's (its commands applied at once, no store between)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from abstracts_tui.commands import Command, Rematch, Takeback
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms import play
from abstracts_tui.rooms.chat import Chat
from abstracts_tui.session import Session
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.online import AbortDialog, OfferDialog, ResignDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import OnlinePlay, RoomSeat
from abstracts_tui.tui.screens.play import PlayScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.room_events import LocalRoom
from tests.tui.waiting import until

Steps = Callable[[AbstractsApp, OnlinePlay, Pilot[None]], Awaitable[None]]


def run(tmp_path: Path, steps: Steps, *, user: str = "bob", moves: int = 0) -> Session:
    """Room k7m2's Pilo game of ann and bob, `moves` played, shown to `user`."""
    app = build_app(Setup("pilo", 8, first="ann", second="bob"), data=tmp_path, settings=Settings())
    gone_to: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            session = screen.session
            for _ in range(moves):
                session.play(session.game.move_name(session.game.legal_moves()[0]))

            room_events = LOCAL[id(session)] = LocalRoom(session)

            async def send(command: Command) -> None:
                room_events.send(command, user)

            async def chat_send(text: str) -> str | None:
                return None

            async def rematch_room() -> None:  # the room's own: made, then named here
                room_events.send(Rematch(Rematch.ACCEPT, "r3mt"), user)

            room = RoomSeat(
                code="k7m2",
                user=user,
                rated=True,
                chat=Chat(),
                say=chat_send,
                rematch_room=rematch_room,
                go_to=gone_to.append,
                players=lambda: session.people,
                listen=room_events.listen,
                terms=room_events.terms,
            )
            online = OnlinePlay(screen, session, room, send)
            room_events.listen(lambda events: [online.heard(e.event) for e in events])
            await pilot.pause()
            await steps(app, online, pilot)
            result.append(session)

    result: list[Session] = []
    asyncio.run(main())
    return result[0]


LOCAL: dict[int, LocalRoom] = {}
"""Each game's room, by the game's id."""


def ann(session: Session, command: Command) -> None:
    """`command` sent from ann's connection."""
    LOCAL[id(session)].send(command, "ann")


def status(app: AbstractsApp) -> str:
    return str(app.screen.query_one("#status", Static).content)


def on_top(app: AbstractsApp, kind: type) -> Callable[[], bool]:
    return lambda: isinstance(app.screen, kind)


def test_before_each_side_has_moved_the_key_asks_to_abort(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        online.resign()
        await until(pilot, on_top(app, AbortDialog))
        await pilot.press("enter")  # a slip: nothing happens
        await until(pilot, on_top(app, PlayScreen))
        assert status(app) == "Play on." and not online.session.over
        online.resign()
        await until(pilot, on_top(app, AbortDialog))
        await pilot.press("y")
        await until(pilot, lambda: status(app) == "Game over: Aborted: no result.")

    session = run(tmp_path, steps, moves=1)
    assert session.record.result == "Void"


def test_a_resignation_is_confirmed_then_sent(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        online.resign()
        await until(pilot, on_top(app, ResignDialog))
        text = str(app.screen.query_one(".dialog-text", Static).content)
        assert text == "Resign this game? ann wins. The game is rated: it counts as a loss."
        await pilot.press("y")
        await until(pilot, lambda: status(app).startswith("Game over"))
        assert status(app) == "Game over: Orange (bob) resigned: Blue (ann) wins."
        online.resign()
        await pilot.pause()
        assert status(app).startswith("The game is over")

    assert run(tmp_path, steps, moves=2).record.result == "blue+R"


def test_the_other_players_take_back_request_is_asked_and_answered(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        session = online.session
        ann(session, Takeback(Takeback.OFFER))  # from ann's connection
        await until(pilot, on_top(app, OfferDialog))
        await pilot.press("escape")  # later
        await until(pilot, lambda: status(app) == "ann asks to take back: u answers.")
        online.takeback()  # u: asked again
        await until(pilot, on_top(app, OfferDialog))
        await pilot.press("y")
        await until(pilot, lambda: status(app).startswith("Taken back."))
        assert len(session.node.line()) == 2  # ann's last move and bob's reply: gone
        assert session.waiting_for() == "ann"

    run(tmp_path, steps, moves=4)


def test_asking_to_take_back_says_it_waits_and_a_decline_is_told(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        online.takeback()
        await until(pilot, lambda: status(app) == "Take-back asked: waiting for ann's answer.")
        online.takeback()
        await until(pilot, lambda: status(app).startswith("You have asked to take back"))
        ann(online.session, Takeback(Takeback.DECLINE))
        await until(pilot, lambda: status(app) == "ann declined the take-back: play on.")

    run(tmp_path, steps, moves=2)


def test_a_rematch_offered_by_the_other_is_accepted_in_a_new_room(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        session = online.session
        online.rematch()
        await until(pilot, lambda: status(app) == "A rematch is offered once the game is over.")
        session.resign(0)
        ann(session, Rematch(Rematch.OFFER))
        await until(pilot, on_top(app, OfferDialog))
        await pilot.press("y")
        await until(pilot, lambda: online.terms.rematch == "r3mt")
        await until(pilot, lambda: online.gone)  # this screen's player goes there

    run(tmp_path, steps, moves=2)


def test_a_rematch_declined_is_sent_and_the_offerer_is_told(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        session = online.session
        session.resign(0)
        ann(session, Rematch(Rematch.OFFER))
        await until(pilot, on_top(app, OfferDialog))
        await pilot.press("n")
        await until(pilot, lambda: status(app) == "Rematch declined.")
        terms = online.terms
        assert play.offer(session, terms, play.REMATCH) is None and terms.rematch is None

    run(tmp_path, steps, moves=2)

    async def offered(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        session = online.session
        session.resign(0)
        online.rematch()
        await until(pilot, lambda: status(app).startswith("Rematch offered: waiting for ann"))
        ann(session, Rematch(Rematch.DECLINE))
        await until(pilot, lambda: status(app) == "ann declined the rematch.")

    run(tmp_path, offered, moves=2)


def test_a_watcher_is_told_of_offers_and_gives_no_command(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, online: OnlinePlay, pilot: Pilot[None]) -> None:
        ann(online.session, Takeback(Takeback.OFFER))
        await until(pilot, lambda: status(app) == "ann asks to take back.")
        assert isinstance(app.screen, PlayScreen)  # no dialog for a watcher
        online.resign()
        await until(pilot, lambda: status(app).startswith("Only the players"))

    run(tmp_path, steps, user="carol", moves=2)
