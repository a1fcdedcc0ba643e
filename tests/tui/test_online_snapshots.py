"""Snapshots of online play's questions over a game, and of a room's chat screen, in the
real app at 80x24 (and the chat at 160x50)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.chat import Chat, ChatLine
from abstracts_tui.tui.dialogs.online import OfferDialog, ResignDialog
from abstracts_tui.tui.factory import build_app
from abstracts_tui.tui.screens.chat import ChatScreen
from tests.tui.waiting import until

SnapCompare = Callable[..., bool]
PILO = Setup("pilo", 8, first="ann", second="bob")


def shown(make: Callable[[], Screen[Any]], *moves: str) -> Callable[[Pilot[Any]], Any]:
    """Play `moves` on the game, then show the screen `make` gives over it."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for move in moves:
            await pilot.press("colon", *move, "enter")
        screen = make()
        pilot.app.push_screen(screen)
        await until(pilot, lambda: pilot.app.screen is screen)
        for field in screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    return steps


def test_resign_dialog(snap_compare: SnapCompare, tmp_path: Path) -> None:
    run = shown(lambda: ResignDialog("bob", rated=True), "c3", "f6")
    assert snap_compare(build_app(PILO, data=tmp_path), run_before=run, terminal_size=(80, 24))


def test_take_back_offer(snap_compare: SnapCompare, tmp_path: Path) -> None:
    run = shown(lambda: OfferDialog.takeback("ann", ["c3", "f6"]), "c3", "f6")
    assert snap_compare(build_app(PILO, data=tmp_path), run_before=run, terminal_size=(80, 24))


def chat() -> Chat:
    found = Chat()
    found.add(ChatLine("ann", "good luck, have fun"))
    found.add(ChatLine("bob", "you too [bold]not bold[/bold] \x1b[31mnot red"))
    found.add(ChatLine("carol", "watching from the train", watcher=True))
    found.add(ChatLine("ann", "x" * 120))
    return found


async def said(text: str) -> str | None:
    return None


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_chat_screen(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    run = shown(lambda: ChatScreen("k7m2", chat(), said, player=True), "c3")
    assert snap_compare(build_app(PILO, data=tmp_path), run_before=run, terminal_size=size)
