"""A room's chat on its screen, in the app `abstracts-tui` builds: lines shown as typed
(never markup nor escapes), watchers' lines marked and hidden by a player, refusals said
with the line kept, the newest line in view, lines said elsewhere shown as they come."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Static

from abstracts_tui.rooms.chat import Chat, ChatLine, ChatRefused, Rates
from abstracts_tui.tui.app import AbstractsApp
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.chat import ChatScreen
from abstracts_tui.tui.settings import Settings
from tests.tui.local_chat import say
from tests.tui.waiting import until


class Time:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Room:
    """A room's chat in one process, and a way to say a line in it as `name`."""

    def __init__(self) -> None:
        self.chat = Chat()
        self.time = Time()
        self.rates = Rates(self.time)

    def sender(self, name: str, *, watcher: bool) -> Callable[[str], Awaitable[str | None]]:
        async def send(text: str) -> str | None:
            try:
                say(self.chat, self.rates, name, text, watcher=watcher)
            except ChatRefused as refused:
                return str(refused)
            return None

        return send


Steps = Callable[[AbstractsApp, Pilot[None]], Awaitable[None]]


def run(
    tmp_path: Path,
    room: Room,
    steps: Steps,
    *,
    player: bool = True,
    size: tuple[int, int] = (80, 24),
) -> None:
    """Room k7m2's chat screen as ann (a player) or carol (watching), `steps` run on it."""
    app = build_app(data=tmp_path, settings=Settings())
    name = "ann" if player else "carol"

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.push_screen(
                ChatScreen("k7m2", room.chat, room.sender(name, watcher=not player), player=player)
            )
            await until(pilot, lambda: isinstance(app.screen, ChatScreen))
            await steps(app, pilot)

    asyncio.run(main())


def lines(app: AbstractsApp) -> list[str]:
    """The chat's lines as drawn (the log's text, one string a line)."""
    log = app.screen.query_one("#chat-lines", RichLog)
    return [strip.text.rstrip() for strip in log.lines]


def status(app: AbstractsApp) -> str:
    return str(app.screen.query_one("#chat-status", Static).content)


async def type_line(pilot: Pilot[None], text: str) -> None:
    field = pilot.app.screen.query_one("#chat-input", Input)
    field.value = text
    await pilot.press("enter")
    await pilot.pause()


def test_a_line_typed_is_said_and_shown_literally(tmp_path: Path) -> None:
    room = Room()

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert status(app) == "Nothing said yet."
        await pilot.press(*"hi bob")
        await pilot.press("enter")
        await until(pilot, lambda: lines(app) == ["ann: hi bob"])
        assert app.screen.query_one("#chat-input", Input).value == ""
        await type_line(pilot, "[bold red]not markup[/] \x1b[2Jgone\x07")
        await until(pilot, lambda: len(lines(app)) == 2)
        assert lines(app)[1] == "ann: [bold red]not markup[/] gone"

    run(tmp_path, room, steps)
    assert [line.text for line in room.chat.lines] == ["hi bob", "[bold red]not markup[/] gone"]


def test_a_refused_line_is_said_why_and_stays_in_the_field(tmp_path: Path) -> None:
    room = Room()

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        for number in range(4):
            await type_line(pilot, f"line {number}")
        await until(pilot, lambda: len(lines(app)) == 4)
        await type_line(pilot, "one too many")
        await until(pilot, lambda: "Too many lines at once" in status(app))
        assert app.screen.query_one("#chat-input", Input).value == "one too many"
        room.time.now += 2
        await pilot.press("enter")  # sent again once the rate allows it
        await until(pilot, lambda: lines(app)[-1] == "ann: one too many")
        assert status(app) == ""

    run(tmp_path, room, steps)


def test_watchers_lines_are_marked_and_a_player_hides_them(tmp_path: Path) -> None:
    room = Room()
    room.chat.add(ChatLine("bob", "good luck"))
    room.chat.add(ChatLine("carol", "go ann!", watcher=True))

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        assert lines(app) == ["bob: good luck", "carol (watching): go ann!"]
        await pilot.press("ctrl+t")
        assert lines(app) == ["bob: good luck"]
        assert status(app) == "Watchers' lines hidden (1): ctrl+t shows them."
        room.chat.add(ChatLine("dave", "hello", watcher=True))  # said meanwhile
        room.chat.add(ChatLine("bob", "thanks"))
        await until(pilot, lambda: lines(app) == ["bob: good luck", "bob: thanks"])
        assert status(app) == "Watchers' lines hidden (2): ctrl+t shows them."
        await pilot.press("ctrl+t")
        assert lines(app) == [
            "bob: good luck",
            "carol (watching): go ann!",
            "dave (watching): hello",
            "bob: thanks",
        ]

    run(tmp_path, room, steps)


def test_a_watcher_chats_but_cannot_hide_anyone(tmp_path: Path) -> None:
    room = Room()

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        title = str(app.screen.query_one("#chat-title", Static).content)
        assert title == "Room k7m2: chat (you watch)"
        await type_line(pilot, "nice move")
        await until(pilot, lambda: lines(app) == ["carol (watching): nice move"])
        await pilot.press("ctrl+t")
        assert lines(app) == ["carol (watching): nice move"]

    run(tmp_path, room, steps, player=False)
    assert room.chat.lines[-1] == ChatLine("carol", "nice move", watcher=True)


def test_the_newest_line_stays_in_view_and_escape_goes_back(tmp_path: Path) -> None:
    room = Room()
    for number in range(60):
        room.chat.add(ChatLine("bob", f"line {number}"))

    async def steps(app: AbstractsApp, pilot: Pilot[None]) -> None:
        log = app.screen.query_one("#chat-lines", RichLog)
        await until(pilot, lambda: log.scroll_y == log.max_scroll_y > 0)
        room.chat.add(ChatLine("bob", "the newest"))
        await until(pilot, lambda: lines(app)[-1] == "bob: the newest")
        await until(pilot, lambda: log.scroll_y == log.max_scroll_y)
        await pilot.press("pageup")
        await until(pilot, lambda: log.scroll_y < log.max_scroll_y)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ChatScreen))

    run(tmp_path, room, steps)
