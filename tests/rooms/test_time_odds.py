"""Time odds in rooms, on both live stores: each person keeps their own time control
whichever colour they play (the creator's first in the spec), the room is unrated, a
restart (SQLite) or another process (PostgreSQL) has both controls and both times, and a
rematch gives each player their own again with the colours reversed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from abstracts_tui.clock import TimeControl
from abstracts_tui.commands import ChooseSide, Play, Rematch, Resign, SetKomi
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.room import Room
from abstracts_tui.session import Session
from tests.rooms.test_gateway import Opener, postgres_rooms, sqlite_rooms, started

ODDS = "5m+3s/1m+2s"
ANNS, BOBS = TimeControl.parse("5m+3s"), TimeControl.parse("1m+2s")


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        return sqlite_rooms(tmp_path / "server.db")
    return postgres_rooms(request.getfixturevalue("database_url"))


def own_controls(session: Session) -> dict[str, TimeControl | None]:
    """Each person's own time control, by name."""
    control = session.clock.control if session.clock is not None else None
    assert control is not None
    return {name: base(control.of(side)) for side, name in enumerate(session.people)}


def base(control: TimeControl) -> TimeControl:
    """A control without its odds, to compare with a plain one."""
    return TimeControl(control.main, control.increment, control.periods, control.period)


async def first_moves(rooms_: object, room: Room, count: int = 2) -> None:
    """`count` moves (the first legal move each time) from each side's first on."""
    for _ in range(count):
        game = room.session.game
        mover = room.session.waiting_for()
        assert mover is not None
        await room_send(rooms_, room, Play(game.move_name(game.legal_moves()[0])), mover)


HOLDERS = {"ann": new_holder("ann"), "bob": new_holder("bob")}


async def room_send(rooms_: object, room: Room, command: object, name: str) -> None:
    await rooms_.send(room, command, HOLDERS[name])  # type: ignore[attr-defined]


@pytest.mark.parametrize("colour", ["first", "second"])
def test_each_person_keeps_their_own_time_whichever_colour(opener: Opener, colour: str) -> None:
    ann, bob = HOLDERS["ann"], HOLDERS["bob"]

    async def play() -> tuple[str, dict[str, float]]:
        rooms = await started(opener)
        room = await rooms.create(Setup("pilo", 6, clock=ODDS), ann, rated=True, colour=colour)
        assert not room.rated  # a game with time odds is never rated
        await rooms.join(room, bob)
        expected_people = ("ann", "bob") if colour == "first" else ("bob", "ann")
        assert room.session.people == expected_people
        controls = own_controls(room.session)
        assert controls == {"ann": ANNS, "bob": BOBS}
        await first_moves(rooms, room, 4)  # the clocks run from the third move on
        clock = room.session.clock
        assert clock is not None and clock.running is not None
        times = dict(zip(room.session.people, clock.sides, strict=True))
        # Each has had their own increment on a move made in a few moments.
        assert 300 < times["ann"].main <= 303 and 60 < times["bob"].main <= 62
        kept = {name: time.main for name, time in times.items()}
        # The record's own order is the colours': the first colour's control first.
        text = room.session.record.to_sgf()
        assert ("TIMEODDS[1m+2s]" in text) == (colour == "first")
        await rooms.close()
        return room.code, kept

    code, kept = asyncio.run(play())

    async def again() -> None:  # a restart (SQLite), or another process (PostgreSQL)
        rooms = await started(opener)
        room = await rooms.get(code)
        assert room is not None and room.setup.clock == ODDS and not room.rated
        controls = own_controls(room.session)
        assert controls == {"ann": ANNS, "bob": BOBS}
        clock = room.session.clock
        assert clock is not None
        people = room.session.people
        times = {name: round(time.main, 1) for name, time in zip(people, clock.sides, strict=True)}
        assert times == {name: round(main, 1) for name, main in kept.items()}
        await rooms.close()

    asyncio.run(again())


def test_the_side_chosen_after_komi_keeps_each_persons_time(opener: Opener) -> None:
    ann, bob = HOLDERS["ann"], HOLDERS["bob"]

    async def play() -> None:
        rooms = await started(opener)
        room = await rooms.create(Setup("linage", 5, clock=ODDS), ann)
        await rooms.join(room, bob)
        await rooms.send(room, SetKomi(3.5), ann)
        await rooms.send(room, ChooseSide(0), bob)  # bob takes the first colour
        assert room.session.people == ("bob", "ann")
        controls = own_controls(room.session)
        assert controls == {"ann": ANNS, "bob": BOBS}
        clock = room.session.clock
        assert clock is not None and [side.main for side in clock.sides] == [60.0, 300.0]
        await rooms.close()

    asyncio.run(play())


def test_a_rematch_keeps_each_players_own_time_with_the_colours_reversed(
    opener: Opener,
) -> None:
    ann, bob = HOLDERS["ann"], HOLDERS["bob"]

    async def play() -> None:
        rooms = await started(opener)
        room = await rooms.create(Setup("pilo", 6, clock=ODDS), ann)
        await rooms.join(room, bob)
        await first_moves(rooms, room)
        await rooms.send(room, Resign(), ann)
        await rooms.send(room, Rematch(Rematch.OFFER), bob)
        new = await rooms.rematch(room, ann)
        assert new.creator == "bob" and new.setup.clock == "1m+2s/5m+3s"
        assert new.session.people == ("bob", "ann")  # the colours reversed
        controls = own_controls(new.session)
        assert controls == {"ann": ANNS, "bob": BOBS}
        assert not new.rated
        await rooms.close()

    asyncio.run(play())
