"""The room's draw key (`=`) on the full-screen play screen: in a game that can end equal
it offers a draw (the other player's screen is asked in a dialog, see
tests/play/test_offer_cases.py); the footer shows it there only."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from abstracts_tui.rooms.draws import DRAW
from abstracts_tui.tui.app import AbstractsApp
from tests.tui.room_events import LocalRoom
from tests.tui.test_premove import anns_move, bobs_screen


def test_the_draw_key_offers_a_draw_on_the_others_turn(tmp_path: Path) -> None:
    shown: list[bool] = []

    async def steps(app: AbstractsApp, pilot: Pilot[None], room: LocalRoom) -> None:
        shown.append(app.screen.check_action("room", ("draw",)) is True)
        await pilot.press("equals_sign")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        offered = room.terms.offers.get(DRAW)
        assert offered is not None and offered.by == "bob"
        await anns_move(pilot, room, "a1")  # ann plays on: the offer is declined so

    session, said = bobs_screen(tmp_path, steps)
    assert shown == [True]
    assert "Sent: draw offer, waiting for the server." in said
    assert "Draw offered: waiting for ann's answer." in said
    assert len(session.game.moves) == 1 and not session.over
