"""Clocks as lichess starts them, through a room's gateway on both live stores: no clock
runs until each side has made a move, and a first move not made in time aborts the game
(no result, unrated), by the room's own timer with nobody pressing a key, as its events
say on every screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from abstracts_tui import clock
from abstracts_tui.commands import Play
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.events import Ended, Rated
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.told import missed
from tests.rooms.test_gateway import Opener, game, postgres_rooms, sqlite_rooms, started, until


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        return sqlite_rooms(tmp_path / "server.db")
    return postgres_rooms(request.getfixturevalue("database_url"))


def test_no_clock_runs_until_each_side_has_moved(tmp_path: Path) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await started(sqlite_rooms(tmp_path / "server.db"))
        room = await game(rooms, Setup("petrify", clock="5m"), ann, bob)
        running = room.session.clock
        assert running is not None and running.running is None  # both in, nobody moved
        assert room.flag_timer is not None  # the first move is due: its timer is set
        await rooms.send(room, Play("e5"), ann)
        assert running.running is None  # Bob has not moved yet
        await asyncio.sleep(0.2)
        await rooms.send(room, Play("f5"), bob)
        # Each side has moved: Ann's clock runs, neither charged for a first move.
        assert running.running == 0
        assert [side.main for side in running.sides] == [300.0, 300.0]
        await rooms.close()

    asyncio.run(play())


@pytest.mark.parametrize(("moves", "late"), [((), "ann"), (("e5",), "bob")])
def test_a_first_move_not_made_in_time_aborts_the_game_unrated(
    opener: Opener, monkeypatch: pytest.MonkeyPatch, moves: tuple[str, ...], late: str
) -> None:
    # A second for a first move instead of 30, so that the test does not wait that long.
    monkeypatch.setattr(clock, "FIRST_MOVE_FAST", 1.0)
    holders = {"ann": new_holder("ann"), "bob": new_holder("bob")}

    async def play() -> str:
        rooms = await started(opener)
        room = await game(rooms, Setup("petrify", clock="5m"), holders["ann"], holders["bob"])
        room.rated = True
        for move, by in zip(moves, ("ann", "bob"), strict=False):
            await rooms.send(room, Play(move), holders[by])
        await until(lambda: room.finished)  # nobody presses a key
        assert room.session.turn_text() == "Aborted: no result"
        ended = [s.event for s in room.events if isinstance(s.event, Ended)]
        assert ended == [
            Ended(
                Ended.ABORTED,
                None,
                None,
                f"The game is aborted: {late} made no first move within 1s: no result, unrated.",
            )
        ]
        assert not any(isinstance(s.event, Rated) for s in room.events)
        told = missed(room.events, "ann")
        assert told is not None and "the game was aborted: no result" in told
        await rooms.close()
        return room.code

    code = asyncio.run(play())

    async def again() -> None:  # kept as aborted: no winner, in the archive
        rooms = await started(opener)
        kept = await rooms.live.room(code)
        assert kept is not None and kept.finished is not None and kept.winner is None
        await rooms.close()

    asyncio.run(again())
