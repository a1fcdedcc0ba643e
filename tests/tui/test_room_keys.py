"""A room's keys on the play screen of the app `abstracts-tui` builds: `;` chats (beside
the board, or on a screen of its own where the panel is hidden), `x` resigns or aborts,
`u` asks to take back, `r` offers a rematch; a watcher has the chat only. The room is one
process's (its commands applied at once, no store between)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Static

from abstracts_tui.commands import Command, Rematch, Takeback
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms import play
from abstracts_tui.rooms.chat import Chat, ChatLine, ChatRefused, Rates
from abstracts_tui.session import Session
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.dialogs.online import AbortDialog, ResignDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import RoomSeat
from abstracts_tui.tui.screens.chat import ChatScreen
from abstracts_tui.tui.screens.help import HelpScreen
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from abstracts_tui.tui.settings import Settings
from tests.tui.local_chat import say
from tests.tui.room_events import LocalRoom
from tests.tui.waiting import until

Steps = Callable[[AbstractsApp, PlayScreen, Pilot[None]], Awaitable[None]]
PILO = Setup("pilo", 6, first="ann", second="bob")


def run(
    tmp_path: Path,
    steps: Steps,
    *,
    user: str = "bob",
    size: tuple[int, int] = (100, 30),
    game: Setup = PILO,
    moves: int = 0,
) -> tuple[Session, Chat]:
    """Room k7m2's game of ann and bob, `moves` played, on `user`'s room screen."""
    app = build_app(data=tmp_path, settings=Settings())
    session = Session.start(game)
    for _ in range(moves):
        session.play(session.game.move_name(session.game.legal_moves()[0]))
    chat, rates = Chat(), Rates()

    room_events = LOCAL[id(session)] = LocalRoom(session)

    async def send(command: Command) -> None:
        room_events.send(command, user)

    async def said(text: str) -> str | None:
        try:
            say(chat, rates, user, text, watcher=user not in session.people)
        except ChatRefused as refused:
            return str(refused)
        return None

    async def rematch_room() -> None:
        play.apply(session, room_events.terms, Rematch(Rematch.ACCEPT, "r3mt"), user)

    room = RoomSeat(
        "k7m2",
        user,
        True,
        chat,
        said,
        rematch_room,
        lambda code: None,
        lambda: session.people,
        room_events.listen,
        room_events.terms,
    )
    seat = Seat(
        local_people=frozenset({user}) & frozenset(session.people),
        shared=True,
        files=False,
        send=send,
        room=room,
    )

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = PlayScreen(session, seat=seat)
            app.push_screen(screen)
            await until(pilot, lambda: app.screen is screen)
            await steps(app, screen, pilot)

    asyncio.run(main())
    return session, chat


LOCAL: dict[int, LocalRoom] = {}
"""Each game's room, by the game's id."""


def status(app: AbstractsApp) -> str:
    return str(app.screen.query_one("#status", Static).content)


def footer(screen: PlayScreen) -> set[str]:
    return {b.binding.description for b in screen.active_bindings.values() if b.enabled}


def test_semicolon_chats_beside_the_board_and_escape_goes_back(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("semicolon")
        assert screen.focused is not None and screen.focused.id == "chat-input"
        await pilot.press(*"hi: u x r")  # a colon, and the room's keys, are text here
        assert screen.query_one("#chat-input", Input).value == "hi: u x r"
        assert not screen.typing
        await pilot.press("enter")
        log = screen.query_one("#chat-lines", RichLog)
        await until(pilot, lambda: [s.text.rstrip() for s in log.lines] == ["bob: hi: u x r"])
        await pilot.press("escape")
        assert screen.focused is screen.board

    _, chat = run(tmp_path, steps)
    assert list(chat.lines) == [ChatLine("bob", "hi: u x r")]


def test_where_the_panel_is_hidden_the_chat_has_a_screen_of_its_own(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert screen.fitting.compact
        chat = screen.online.chat if screen.online is not None else Chat()
        chat.add(ChatLine("ann", "hello"))  # said on ann's screen: told here
        await until(pilot, lambda: status(app) == "ann: hello (; opens the chat)")
        await pilot.press("semicolon")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen))
        await pilot.press(*"gg", "enter")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)

    game = Setup("pilo", 10, first="ann", second="bob")
    _, chat = run(tmp_path, steps, size=(60, 20), game=game)
    assert [line.text for line in chat.lines] == ["hello", "gg"]


def test_x_aborts_before_each_side_has_moved_and_resigns_after(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert {"Abort", "Take back", "Chat"} <= footer(screen)
        assert not {"Resign", "Rematch", "Undo", "Analysis"} & footer(screen)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, AbortDialog))
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen)
        session = screen.session
        session.play(session.game.move_name(session.game.legal_moves()[0]))  # bob's
        await pilot.pause()
        assert "Resign" in footer(screen) and "Abort" not in footer(screen)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ResignDialog))
        await pilot.press("y")
        await until(pilot, lambda: status(app).startswith("Game over"))
        assert "Rematch" in footer(screen) and "Take back" not in footer(screen)
        await pilot.press("r")
        await until(pilot, lambda: status(app) == "Rematch offered: waiting for ann's answer.")

    session, _ = run(tmp_path, steps, moves=1)
    assert session.record.result == "blue+R"


def test_u_asks_to_take_back(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("u")
        await until(pilot, lambda: status(app) == "Take-back asked: waiting for ann's answer.")
        terms = LOCAL[id(screen.session)].terms
        assert play.offer_text(screen.session, terms, "ann") == "bob asks to take back."
        LOCAL[id(screen.session)].send(Takeback(Takeback.ACCEPT), "ann")  # ann's connection
        await until(pilot, lambda: status(app).startswith("ann accepted"))
        assert status(app) == "ann accepted the take-back. Orange to move (bob)."

    run(tmp_path, steps, moves=2)


def test_a_watcher_has_the_chat_only_and_is_marked(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        assert "Chat" in footer(screen)
        assert not {"Abort", "Resign", "Take back", "Rematch"} & footer(screen)
        await pilot.press("x", "u")
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("semicolon", *"go", "enter")
        await until(pilot, lambda: bool(screen.query_one("#chat-lines", RichLog).lines))

    _, chat = run(tmp_path, steps, user="carol", moves=2)
    assert list(chat.lines) == [ChatLine("carol", "go", watcher=True)]


def test_the_help_lists_the_room_keys_and_when_they_work(tmp_path: Path) -> None:
    async def steps(app: AbstractsApp, screen: PlayScreen, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        listed = dict((what, key) for key, what in help_screen.keys)
        assert listed["Take back"] == "u ^z" and listed["Chat"] == ";"
        assert listed["Abort"] == "x"
        assert listed["Resign (a player, once each side has moved)"] == "x"
        assert listed["Rematch (a player, once the game is over)"] == "r"
        assert not any("Undo" in what or "Analysis" in what for what in listed)

    run(tmp_path, steps)
