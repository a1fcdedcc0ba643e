"""Snapshots of a room's play screen in the real app: the room's keys in the footer, the
chat under the move list (160x50), and the compact view where `;` opens the chat."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from abstracts_tui.commands import Command
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms import play
from abstracts_tui.rooms.chat import Chat, ChatLine
from abstracts_tui.rooms.terms import RoomTerms
from abstracts_tui.session import Session
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.online import RoomSeat
from abstracts_tui.tui.screens.play import PlayScreen, Seat
from tests.tui.waiting import until

SnapCompare = Callable[..., bool]


def room_screen(game: Setup, moves: tuple[str, ...]) -> Callable[[Pilot[Any]], Any]:
    """Bob's screen of room k7m2 after `moves`, with three lines said."""
    session = Session.start(game)
    if game.komi is not None:
        session.choose_side(0)  # bob, the second person, takes the first colour
    for move in moves:
        session.play(move)
    chat = Chat()
    chat.add(ChatLine("ann", "good luck"))
    chat.add(ChatLine("carol", "watching from the train", watcher=True))
    chat.add(ChatLine("bob", "thanks [b]both[/b]"))

    terms = RoomTerms()

    async def send(command: Command) -> None:
        play.apply(session, terms, command, "bob")

    async def said(text: str) -> str | None:
        return None

    async def rematch() -> None:
        return None

    room = RoomSeat(
        "k7m2",
        "bob",
        True,
        chat,
        said,
        rematch,
        lambda code: None,
        lambda: session.people,
        terms=terms,
    )
    seat = Seat(local_people=frozenset({"bob"}), shared=True, files=False, send=send, room=room)

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = PlayScreen(session, seat=seat)
        pilot.app.push_screen(screen)
        await until(pilot, lambda: pilot.app.screen is screen)
        for field in screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    return steps


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_a_room_with_its_chat(snap_compare: SnapCompare, tmp_path: Path, size: Any) -> None:
    run = room_screen(Setup("pilo", 8, first="ann", second="bob"), ("c3", "f6", "d4"))
    assert snap_compare(build_app(data=tmp_path), run_before=run, terminal_size=size)


def test_a_room_in_the_compact_view(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A terminal too small for the panel: the footer's `; Chat` opens the chat's screen."""
    run = room_screen(Setup("linage", 13, komi=0.5, first="ann", second="bob"), ("g7",))
    assert snap_compare(build_app(data=tmp_path), run_before=run, terminal_size=(60, 20))
