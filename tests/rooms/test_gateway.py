"""A room's commands through its gateway, on both live stores: SQLite in one process, and
a real PostgreSQL that several `Rooms` (as several server processes) share.

Each command is committed before it is shown, and kept (a restart, or another process,
has it); the failure paths refuse with one sentence and change nothing: a version
conflict (another process committed first, and the catch-up then shows its change), a
seat held by another connection, the database lost mid-game (after it is back the
command goes through), and a database that hangs (the loop goes on answering meanwhile,
and a command refused for want of an answer is not made after all).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from abstracts_tui.commands import ChooseSide, Flag, Play, Say, SetKomi
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms import gateway
from abstracts_tui.rooms.holder import Holder, new_holder
from abstracts_tui.rooms.kept import StoredRoom
from abstracts_tui.rooms.live import Refused
from abstracts_tui.rooms.presence import Presences
from abstracts_tui.rooms.room import Room, RoomError
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.session import Phase
from abstracts_tui.store import SqliteStore
from abstracts_tui.store.live_sqlite import LiveSqlite
from tests.postgres import Cluster, cluster

Opener = Callable[[], Rooms]


def sqlite_rooms(path: Path) -> Opener:
    store = SqliteStore(path)
    return lambda: Rooms(LiveSqlite(store))


def postgres_rooms(url: str) -> Opener:
    from abstracts_tui.store.live_postgres import LivePostgres
    from abstracts_tui.store.postgres import PostgresStore

    # Each opened is one server process: its own store, connections and presences.
    return lambda: Rooms(LivePostgres(PostgresStore(url), presences=Presences()))


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        return sqlite_rooms(tmp_path / "server.db")
    return postgres_rooms(request.getfixturevalue("database_url"))


async def until(check: Callable[[], bool], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def refused(sending: Awaitable[None]) -> str:
    with pytest.raises(Refused) as caught:
        await sending
    return str(caught.value)


async def started(opener: Opener) -> Rooms:
    rooms = opener()
    await rooms.start()
    return rooms


async def game(rooms: Rooms, setup: Setup, ann: Holder, bob: Holder) -> Room:
    room = await rooms.create(setup, ann)
    await rooms.join(room, bob)
    return room


def test_each_command_is_committed_then_shown_and_kept(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> str:
        rooms = await started(opener)
        room = await rooms.create(Setup("linage", clock="10m"), ann)
        seen: list[str] = []
        room.session.listeners.subscribe(lambda changed: seen.append(changed.change.value))
        assert room.state_text() == "open seat"
        await rooms.join(room, bob)
        assert room.joiner == "bob" and room.session.people == ("ann", "bob")
        assert room.holders["bob"] == bob.token
        # Komi is the creator's, the side the joiner's: anybody else's is refused.
        assert "it is ann's turn" in await refused(rooms.send(room, SetKomi(3.5), bob))
        await rooms.send(room, SetKomi(3.5), ann)
        assert room.session.phase is Phase.SIDE and room.session.game.options.komi == 3.5
        await rooms.send(room, ChooseSide(1), bob)
        assert room.session.phase is Phase.PLAY and room.session.people == ("ann", "bob")
        # As on lichess, no clock runs before each side has moved.
        assert room.session.clock is not None and room.session.clock.running is None
        await rooms.send(room, Play("c3"), ann)
        assert [n.move for n in room.session.record.root.mainline()] == ["c3"]
        assert room.version == 5  # made, joined, komi, side, move
        assert seen == ["phase", "phase", "phase", "move"]
        # The clock's flag is refused while time is left: nothing changes.
        assert "time left" in await refused(rooms.send(room, Flag(), None))
        assert not room.finished and room.version == 5
        await rooms.close()
        return room.code

    code = asyncio.run(play())

    async def again() -> None:  # a restart (SQLite), or another process (PostgreSQL)
        rooms = await started(opener)
        room = await rooms.get(code)
        assert room is not None and room.joiner == "bob"
        session = room.session
        assert session.game.options.komi == 3.5 and session.people == ("ann", "bob")
        assert [n.move for n in session.record.root.mainline()] == ["c3"]
        await rooms.close()

    asyncio.run(again())


def test_a_clock_that_runs_out_is_flagged_by_the_rooms_own_timer(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> str:
        rooms = await started(opener)
        room = await game(rooms, Setup("petrify", clock="2s"), ann, bob)
        await rooms.send(room, Play("e5"), ann)
        await rooms.send(room, Play("f5"), bob)  # each side has moved: Ann's clock runs
        await until(lambda: room.finished)  # nobody presses a key: Ann's time runs out
        assert "Blue (ann) lost on time" in room.session.turn_text()
        assert room.version == 5  # made, joined, moved, moved, flagged
        with pytest.raises(Refused):
            await rooms.send(room, Play("e4"), ann)
        await rooms.close()
        return room.code

    code = asyncio.run(play())

    async def again() -> None:  # the end is kept: the room is in the archive now
        rooms = await started(opener)
        assert code not in rooms.rooms
        kept = await rooms.live.room(code)
        assert kept is not None and kept.finished is not None and kept.winner == "bob"
        room = await rooms.get(code)
        assert room is not None and room.finished
        await rooms.close()

    asyncio.run(again())


def test_a_refused_join_says_why_and_changes_nothing(opener: Opener) -> None:
    ann, bob, carl = new_holder("ann"), new_holder("bob"), new_holder("carl")

    async def play() -> None:
        rooms = await started(opener)
        room = await game(rooms, Setup("petrify"), ann, bob)
        with pytest.raises(RoomError, match=f"room {room.code} is full: ann and bob play"):
            await rooms.join(room, carl)
        assert "it is ann's turn" in await refused(rooms.send(room, Play("e5"), carl))
        assert "z99 is off the board" in await refused(rooms.send(room, Play("z99"), ann))
        assert room.players == ("ann", "bob") and room.version == 2
        assert not room.session.game.moves
        await rooms.close()

    asyncio.run(play())


def test_another_process_that_committed_first_refuses_the_command_then_shows_its_change(
    database_url: str,
) -> None:
    opener = postgres_rooms(database_url)
    ann, bob, carl = new_holder("ann"), new_holder("bob"), new_holder("carl")

    async def play() -> None:
        one, two = await started(opener), await started(opener)
        here = await one.create(Setup("petrify"), ann)
        there = await two.get(here.code)
        assert there is not None
        # What process two commits reaches process one a moment later: hold it back, so
        # that Carl's join on one is sent while one still has the room at version 1.
        held: list[tuple[str, int | None]] = []
        one.changed = lambda code, version: held.append((code, version))  # type: ignore[method-assign]
        await two.join(there, bob)
        with pytest.raises(RoomError, match="the game changed meanwhile: look again"):
            await one.join(here, carl)
        # Refused once caught up: the room here shows Bob's join, not Carl's.
        assert here.joiner == "bob" and here.version == 2
        assert here.session.people == ("ann", "bob")
        await one.close()
        await two.close()

    asyncio.run(play())


def test_a_move_that_another_processs_chat_beat_to_the_store_is_sent_again(
    database_url: str,
) -> None:
    """A chat line (or somebody coming or going) committed by another process first
    changes nothing the move was decided on: the move is sent again once caught up,
    not refused as "the game changed meanwhile"."""
    opener = postgres_rooms(database_url)
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        one, two = await started(opener), await started(opener)
        here = await game(one, Setup("petrify"), ann, bob)
        there = await two.get(here.code)
        assert there is not None
        await until(lambda: there.version == here.version)
        one.changed = lambda code, version: None  # type: ignore[method-assign]
        await two.send(there, Say("good luck"), bob)
        before = here.version
        await one.send(here, Play("e5"), ann)  # one still has the room before the chat
        assert here.session.game.moves and here.version == before + 2
        said = [stamped.event for stamped in await one.events_since(here, before)]
        assert [type(event).__name__ for event in said] == ["ChatSaid", "MovePlayed"]
        await one.close()
        await two.close()

    asyncio.run(play())


def test_a_seat_taken_by_another_connection_refuses_the_old_ones_commands(
    database_url: str,
) -> None:
    opener = postgres_rooms(database_url)
    ann, bob, ann_again = new_holder("ann"), new_holder("bob"), new_holder("ann")

    async def play() -> None:
        one, two = await started(opener), await started(opener)
        here = await game(one, Setup("petrify"), ann, bob)
        there = await two.get(here.code)
        assert there is not None
        held = {"ann": ann.token, "bob": bob.token}
        assert await two.live.seats([here.code]) == {here.code: held}  # reading took none
        await until(lambda: there.holders == held)
        await two.take_seat(there, ann_again)
        await until(lambda: here.holders["ann"] == ann_again.token)
        sentence = await refused(one.send(here, Play("e5"), ann))
        assert sentence == (
            f"ann's seat is played from another connection now (join room {here.code} "
            "again to take it here)"
        )
        assert not here.session.game.moves
        # A process that has not heard of the seat yet is refused by the database.
        one.seat = lambda code, name, holder: None  # type: ignore[method-assign]
        await one.take_seat(here, ann)
        await until(lambda: there.holders["ann"] == ann.token)
        await two.take_seat(there, ann_again)
        await asyncio.sleep(0.3)
        sentence = await refused(one.send(here, Play("e5"), ann))
        assert sentence == "ann's seat is played from another connection now"
        assert not here.session.game.moves and here.version == 2
        # The connection that holds it plays; both processes show the move.
        await two.send(there, Play("e5"), ann_again)
        await until(lambda: len(here.session.game.moves) == 1)
        await one.close()
        await two.close()

    asyncio.run(play())


def test_two_readings_of_a_new_room_that_cross_leave_it_at_the_later_version(
    database_url: str,
) -> None:
    """A room new to a process is read whole when another process tells of a change;
    the reading for its creation can end after the one for the join began. Whichever
    ends last, the copy here ends at the join (a copy left at the creation refused the
    next move as "the game changed meanwhile"). The store answers the first reading
    only once the second has its answer, the second once the first's copy is kept."""
    opener = postgres_rooms(database_url)
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        one, two = await started(opener), await started(opener)
        read = two.live.room
        answers: list[int] = []
        second_read = asyncio.Event()

        async def in_that_order(code: str) -> StoredRoom | None:
            found = await read(code)
            if found is None:
                return None
            answers.append(found.version)
            if len(answers) == 1:
                await second_read.wait()
            else:
                second_read.set()
                await until(lambda: code in two.rooms)
            return found

        two.live.room = in_that_order  # type: ignore[method-assign]
        here = await one.create(Setup("petrify"), ann)
        await until(lambda: len(answers) == 1)
        await one.join(here, bob)
        await until(lambda: here.code in two.rooms and two.rooms[here.code].version == 2)
        assert answers == [1, 2]
        there = two.rooms[here.code]
        assert there.joiner == "bob"
        await two.send(there, Play("e5"), ann)
        await until(lambda: len(here.session.game.moves) == 1)
        await one.close()
        await two.close()

    asyncio.run(play())


def test_a_database_lost_mid_game_refuses_then_takes_the_command_again(tmp_path: Path) -> None:
    with cluster() as database:  # a server of the test's own, to stop and start
        opener = postgres_rooms(database.create_database("lost"))
        asyncio.run(_lost_and_back(opener, database))


async def _lost_and_back(opener: Opener, database: Cluster) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")
    rooms = await started(opener)
    room = await game(rooms, Setup("petrify"), ann, bob)
    told: list[str | None] = []
    room.session.saving_listeners.subscribe(lambda: told.append(room.terms.trouble))
    database.stop()
    sentence = await refused(rooms.send(room, Play("e5"), ann))
    assert "moves wait until it is back" in sentence or "did not answer" in sentence
    assert not room.session.game.moves and room.version == 2
    await until(lambda: rooms.live.problem is not None)
    assert told and told[-1] is not None  # the players are told
    assert "moves wait until it is back" in await refused(rooms.send(room, Play("e5"), ann))
    database.start()
    await until(lambda: rooms.live.problem is None and told[-1] is None)  # told again
    await rooms.send(room, Play("e5"), ann)
    assert room.version == 3
    await rooms.close()
    other = await started(opener)  # nothing lost: another process reads the move
    again = await other.get(room.code)
    assert again is not None and [n.move for n in again.session.record.root.mainline()] == ["e5"]
    await other.close()


def test_a_database_that_hangs_delays_only_the_command_that_needs_it(
    postgres: Cluster, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gateway, "COMMIT_SECONDS", 1.5)
    opener = postgres_rooms(database_url)
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await started(opener)
        room = await game(rooms, Setup("petrify"), ann, bob)
        postgres.pause()
        try:
            sending = asyncio.get_running_loop().create_task(rooms.send(room, Play("e5"), ann))
            # Meanwhile the loop answers at once: the lobby's list, a timer.
            late = 0.0
            for _ in range(20):
                before = time.monotonic()
                await asyncio.sleep(0.05)
                late = max(late, time.monotonic() - before - 0.05)
                assert rooms.of_player("ann") == [room]
            assert late < 0.5, late
            assert "did not answer" in await refused(sending)
            assert not room.session.game.moves
        finally:
            postgres.go_on()
        # Refused, it is not made after all once the database goes on (it would be
        # charged with the time the database hung); sent again, it is.
        await until(lambda: rooms.live.problem is None)
        await rooms.live.versions()  # the database answers again: the move's turn is past
        await asyncio.sleep(1)  # (a change made would be read back by now)
        assert not room.session.game.moves and room.version == 2
        await rooms.send(room, Play("e5"), ann)
        assert len(room.session.game.moves) == 1 and room.version == 3
        await rooms.close()

    asyncio.run(play())


def test_a_screens_move_is_shown_as_sent_then_played_or_refused(tmp_path: Path) -> None:
    from abstracts_tui.play.turns import Turns

    opener = sqlite_rooms(tmp_path / "server.db")
    ann, bob, bob_again = new_holder("ann"), new_holder("bob"), new_holder("bob")

    async def play() -> None:
        rooms = await started(opener)
        room = await game(rooms, Setup("petrify"), ann, bob)
        said: list[tuple[str, bool]] = []

        def turns_of(holder: Holder) -> Turns:
            return Turns(
                room.session,
                local_people=frozenset({holder.user}),
                shared=True,
                send=rooms.sender(room, holder),
                told=lambda text, refused: said.append((text, refused)),
            )

        anns = turns_of(ann)
        assert anns.play("e5") is None
        assert said == [("Sent: e5, waiting for the server.", False)]
        assert not room.session.game.moves  # not shown before it is kept
        assert anns.play("d5") == "Not played: your last command is still on its way to the server."
        await until(lambda: anns.sending is None)
        assert [n.move for n in room.session.record.root.mainline()] == ["e5"]
        assert anns.play("f5") == "Not played: it is bob's turn."
        # Bob's seat is taken by his other connection: the first one's move is refused.
        await rooms.take_seat(room, bob_again)
        bobs = turns_of(bob)
        assert bobs.play("f5") is None
        await until(lambda: bobs.sending is None)
        assert said[-1] == (
            f"Not played: bob's seat is played from another connection now (join room "
            f"{room.code} again to take it here).",
            True,
        )
        assert len(room.session.game.moves) == 1
        await rooms.close()

    asyncio.run(play())
