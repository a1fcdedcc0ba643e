"""What one name may cost everybody else, on both live stores (SQLite in one process, a
real PostgreSQL shared by two `Rooms` as two server processes): rooms made a minute, a
room called off before anybody joined it deleted from the store (the archive keeps no
empty room), and the lobbies told that the lists changed a few times a second at most,
the latest lists each time."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from abstracts_tui.commands import Abort, Say
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms.bounds import LISTING_SECONDS, ROOMS_AT_ONCE, ROOMS_PER_MINUTE, RoomRates
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.room import RoomError
from abstracts_tui.rooms.rooms import Rooms
from tests.rooms.test_gateway import Opener, game, opener, postgres_rooms, refused, started, until

__all__ = ["opener"]  # the fixture, used by name

PILO = Setup("pilo", 6)


async def stored(rooms: Rooms, code: str) -> object:
    """Room `code` as the store has it now (None: it has none)."""
    store = rooms.live.store  # type: ignore[attr-defined]
    return await asyncio.to_thread(store.room, code)


def test_rooms_made_a_minute_are_bounded_per_name(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = await started(opener)
        now = [0.0]
        rooms.rates = RoomRates(lambda: now[0])
        # Made and called off as fast as they go: the first ROOMS_AT_ONCE are made.
        for _ in range(ROOMS_AT_ONCE):
            room = await rooms.create(PILO, ann, open=True)
            await rooms.send(room, Abort(), ann)
        with pytest.raises(RoomError) as too_fast:
            await rooms.create(PILO, ann, open=True)
        wait = 60 // ROOMS_PER_MINUTE
        assert str(too_fast.value) == (
            f"you make rooms too fast (at most {ROOMS_PER_MINUTE} a minute): wait {wait} s "
            "before you make another"
        )
        assert rooms.unfinished() == []  # nothing made
        await rooms.create(PILO, bob)  # another name's rooms are its own
        now[0] += wait - 1
        with pytest.raises(RoomError, match="wait 1 s"):
            await rooms.create(PILO, ann)
        now[0] += 1
        await rooms.create(PILO, ann)  # one more a `wait`
        with pytest.raises(RoomError, match="too fast"):
            await rooms.create(PILO, ann)
        await rooms.close()

    asyncio.run(play())


def test_a_room_called_off_before_anybody_joined_is_not_kept(opener: Opener) -> None:
    ann, bob, carl = new_holder("ann"), new_holder("bob"), new_holder("carl")

    async def play() -> tuple[str, str]:
        rooms = await started(opener)
        empty = await rooms.create(PILO, ann, open=True)
        await rooms.say(empty, "anyone?", ann)
        await rooms.flush()
        assert await stored(rooms, empty.code) is not None
        await rooms.send(empty, Abort(), ann)
        assert empty.finished and empty.abandoned
        await rooms.flush()
        await until(lambda: empty.code in rooms.discarded)
        # Deleted from the store, after its saves; in memory a finished room until let go.
        for _ in range(100):
            if await stored(rooms, empty.code) is None:
                break
            await asyncio.sleep(0.05)
        assert await stored(rooms, empty.code) is None
        assert "called off before anybody joined" in await refused(
            rooms.send(empty, Say("still here?"), carl)
        )
        assert await stored(rooms, empty.code) is None  # not saved back
        # A game somebody joined is kept, aborted as it may be before each side moved.
        void = await game(rooms, PILO, ann, bob)
        await rooms.send(void, Abort(), ann)
        assert void.finished and not void.abandoned
        await rooms.flush()
        rooms.sweep()
        rooms.sweep()  # let go of: read from the store when asked for
        assert rooms.known(empty.code) is None and rooms.known(void.code) is None
        await rooms.close()
        return empty.code, void.code

    empty, void = asyncio.run(play())

    async def again() -> None:  # the server restarted (SQLite), or another process
        rooms = await started(opener)
        assert await rooms.get(empty) is None
        kept = await rooms.get(void)
        assert kept is not None and kept.finished and kept.session.record.result == "Void"
        store = rooms.live.store  # type: ignore[attr-defined]
        archive = await asyncio.to_thread(store.rooms, finished=True)
        assert [room.code for room in archive] == [void]
        await rooms.close()

    asyncio.run(again())


def test_a_process_that_finds_a_room_gone_ends_it_too(database_url: str) -> None:
    """Another process had the room in memory, and read its change only after the room
    was deleted (its changes with it): it finds it gone, and ends it as called off."""
    opener = postgres_rooms(database_url)
    ann = new_holder("ann")

    async def play() -> None:
        here = await started(opener)
        room = await here.create(PILO, ann, open=True)
        there = await started(opener)  # reads the room at its start
        theirs = there.known(room.code)
        assert theirs is not None and there.challenges("bob") == [theirs]
        listener = there.live.listener  # type: ignore[attr-defined]
        listener.cancel()  # it hears of nothing more: the call-off comes late
        told: list[int] = []
        there.listing.subscribe(lambda: told.append(len(there.challenges("bob"))))
        await here.send(room, Abort(), ann)
        await until(lambda: room.code in here.discarded)
        for _ in range(100):
            if await stored(here, room.code) is None:
                break
            await asyncio.sleep(0.05)
        assert await stored(here, room.code) is None
        assert not theirs.finished
        await there.catch_up(room.code, room.version)  # the late notice
        assert theirs.finished and theirs.abandoned
        assert there.challenges("bob") == []
        await until(lambda: told[-1:] == [0])
        assert "called off" in await refused(there.send(theirs, Say("hello"), ann))
        await here.close()
        await there.close()

    asyncio.run(play())


def test_the_lobbies_are_told_a_few_times_a_second_the_latest_lists(opener: Opener) -> None:
    names = [new_holder(f"p{number}") for number in range(4)]

    async def play() -> None:
        rooms = await started(opener)
        told: list[tuple[float, int]] = []
        rooms.listing.subscribe(lambda: told.append((time.monotonic(), len(rooms.challenges("x")))))
        start = time.monotonic()
        made = 0
        for holder in names:  # several names: none of them is refused for its rate
            for _ in range(3):
                room = await rooms.create(PILO, holder, open=True)
                made += 1
                if made % 2 == 0:
                    await rooms.send(room, Abort(), holder)
        burst = time.monotonic() - start
        await asyncio.sleep(3 * LISTING_SECONDS)
        # Once at once, then at most once every LISTING_SECONDS; the last one told the
        # lists as they are at the end.
        assert 1 <= len(told) <= 2 + burst / LISTING_SECONDS, (told, burst)
        times = [at for at, _ in told]
        assert all(b - a >= LISTING_SECONDS * 0.9 for a, b in itertools.pairwise(times))
        assert told[-1][1] == len(rooms.challenges("x")) == made // 2
        await rooms.close()

    asyncio.run(play())
