"""Who is in a room, as its events (`events.Arrived`, `Left`, `Back`, `Watching`): the
screens that show a room follow its presence (`presence.Presences.follow`, as the desk
does for each screen), the rooms commit what changed through the room's gateway, kept by
the store with the other events and folded the same way; a loop of reconnections is
written at a bounded rate; and the last version each person saw of each room is kept in
the store, for a restart and for the other processes of a shared one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from abstracts_tui.commands import Join, Play
from abstracts_tui.game_setup import Setup
from abstracts_tui.rooms import attending
from abstracts_tui.rooms.events import Arrived, Back, Event, Left, Stamped, Watching
from abstracts_tui.rooms.fold import fold, presence
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.presence import Presences
from abstracts_tui.rooms.room import Room
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.rooms.rows import OPEN_SEAT
from abstracts_tui.rooms.told import missed, told
from abstracts_tui.store import SqliteStore
from abstracts_tui.store.live_sqlite import LiveSqlite
from abstracts_tui.subscribers import Subscription

PRESENCE_KINDS = (Arrived, Left, Back, Watching)


def presence_of(events: list[Stamped]) -> list[Event]:
    return [stamped.event for stamped in events if isinstance(stamped.event, PRESENCE_KINDS)]


async def settled(rooms: Rooms, room: Room, wanted: Callable[[list[Event]], bool]) -> None:
    """Wait until the presence events of `room` are as `wanted` (the writes are made
    within a window of a second: nothing here is timed but the test's own limit)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if wanted(presence_of(await rooms.events_since(room, 0))):
            return
        await asyncio.sleep(0.025)
    raise AssertionError(presence_of(await rooms.events_since(room, 0)))


ANN, BOB = new_holder("ann"), new_holder("bob")


async def pilo_game(rooms: Rooms, clock: str | None = None) -> Room:
    setup = Setup("pilo", 6, first="ann", second=OPEN_SEAT, clock=clock)
    room = await rooms.create(setup, ANN)
    await rooms.send(room, Join(), BOB)
    return room


def in_sqlite(path: Path, run: Callable[[Rooms], Awaitable[None]]) -> None:
    async def main() -> None:
        store = SqliteStore(path)
        rooms = Rooms(LiveSqlite(store), Presences())
        await rooms.start()
        try:
            await run(rooms)
        finally:
            await rooms.close()
            store.close()

    asyncio.run(main())


@pytest.mark.parametrize("clock", [None, "10m+5s"])
def test_players_arriving_leaving_and_coming_back_and_the_watchers_are_events(
    tmp_path: Path, clock: str | None
) -> None:
    async def run(rooms: Rooms) -> None:
        room = await pilo_game(rooms, clock)
        follow = rooms.presences.follow
        ties: dict[str, Subscription] = {}
        ties["ann"] = follow(room.code, "ann", lambda: None)
        ties["bob"] = follow(room.code, "bob", lambda: None)
        await settled(rooms, room, lambda found: len(found) == 2)
        ties["carl"] = follow(room.code, "carl", lambda: None)
        await settled(rooms, room, lambda found: found[-1:] == [Watching(1)])
        ties.pop("bob").close()
        await settled(rooms, room, lambda found: found[-1:] == [Left("bob")])
        ties["bob"] = follow(room.code, "bob", lambda: None)
        await settled(rooms, room, lambda found: found[-1:] == [Back("bob")])
        events = await rooms.events_since(room, 0)
        assert presence_of(events) == [
            Arrived("ann"),
            Arrived("bob"),
            Watching(1),
            Left("bob"),
            Back("bob"),
        ]
        # The fold says who is in the room; line mode's words say each once, and the
        # first arrival is never a coming back.
        state = fold(events)
        assert state.attendance.here == {"ann", "bob"} and state.attendance.watching == 1
        said = [line for e in events for line in told(e.event, "ann", ("ann", "bob"))]
        assert "bob is back in the room." in said
        assert said.count("bob is back in the room.") == 1
        assert said.index("bob has left the room; their seat is kept.") < said.index(
            "bob is back in the room."
        )
        # Who is connected as the events say it: nothing more to write.
        assert presence(state.attendance, room.players, frozenset({"ann", "bob", "carl"})) == []
        for tie in ties.values():
            tie.close()

    in_sqlite(tmp_path / "server.db", run)


def test_a_watcher_who_reconnects_in_a_loop_grows_the_stream_at_a_bounded_rate(
    tmp_path: Path,
) -> None:
    async def run(rooms: Rooms) -> None:
        room = await pilo_game(rooms)
        ann = rooms.presences.follow(room.code, "ann", lambda: None)
        await settled(rooms, room, lambda found: found == [Arrived("ann")])
        before = room.version
        # 2000 reconnections as fast as the loop goes, then the watcher stays.
        for _ in range(2000):
            rooms.presences.follow(room.code, "carl", lambda: None).close()
            await asyncio.sleep(0)
        carl = rooms.presences.follow(room.code, "carl", lambda: None)
        await settled(rooms, room, lambda found: found[-1:] == [Watching(1)])
        written = room.version - before
        assert written <= attending.PRESENCE_BURST + 1
        # A move is still one change, taken at once.
        game = room.session.game
        await rooms.send(room, Play(game.move_name(game.legal_moves()[0])), ANN)
        ann.close()
        carl.close()

    in_sqlite(tmp_path / "server.db", run)


def test_what_a_person_saw_of_a_room_is_kept_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    codes: list[str] = []

    async def first(rooms: Rooms) -> None:
        room = await pilo_game(rooms)
        codes.append(room.code)
        rooms.remember_seen("ann", room.code, room.version)
        rooms.remember_seen("ann", room.code, 1)  # an older screen's: the later one stays
        await rooms.flush()
        await asyncio.sleep(0)
        for task in list(rooms.tasks):
            await task
        assert await rooms.seen_by("ann", room.code) == 2

    async def second(rooms: Rooms) -> None:
        assert rooms.seen == {}  # nothing in memory: the store has it
        assert await rooms.seen_by("ann", codes[0]) == 2
        assert await rooms.seen_by("bob", codes[0]) is None

    in_sqlite(path, first)
    in_sqlite(path, second)


def test_what_was_missed_says_the_others_coming_and_going_never_ones_own() -> None:
    events = [
        Stamped(5, 0.0, Left("ann")),
        Stamped(6, 0.0, Left("bob")),
        Stamped(7, 0.0, Back("bob")),
        Stamped(8, 0.0, Watching(2)),
        Stamped(9, 0.0, Watching(0)),
    ]
    assert missed(events, "ann") == (
        "While you were away: bob left the room; bob came back; nobody watches now."
    )
    assert missed(events[:1], "ann") is None


@pytest.mark.parametrize("viewer", ["ann", "carl"])
def test_a_first_arrival_is_never_said_as_a_coming_back(viewer: str) -> None:
    assert told(Arrived("bob"), viewer, ("ann", "bob")) == []
    assert told(Back("bob"), viewer, ("ann", "bob")) == ["bob is back in the room."]
    assert told(Left("bob"), viewer, ("ann", "bob"), over=True) == ["bob has left the room."]


def postgres_rooms(url: str) -> Rooms:
    """One server process's rooms over the database at `url` (its own store, connections
    and presences, as the server makes them)."""
    from abstracts_tui.store.live_postgres import LivePostgres
    from abstracts_tui.store.postgres import PostgresStore

    presences = Presences()
    return Rooms(LivePostgres(PostgresStore(url), presences=presences), presences)


def test_two_processes_write_a_players_coming_and_going_once_and_share_what_was_seen(
    database_url: str,
) -> None:
    async def main() -> None:
        one, two = postgres_rooms(database_url), postgres_rooms(database_url)
        await one.start()
        await two.start()
        try:
            room = await pilo_game(one)
            there = await two.get(room.code)
            assert there is not None
            # Ann is shown the room by the first process, Bob and a watcher by the second.
            ann = one.presences.follow(room.code, "ann", lambda: None)
            bob = two.presences.follow(room.code, "bob", lambda: None)
            carl = two.presences.follow(room.code, "carl", lambda: None)
            for rooms, copy in ((one, room), (two, there)):
                await settled(
                    rooms,
                    copy,
                    lambda found: (
                        {Arrived("ann"), Arrived("bob")} <= set(found)
                        and found[-1:] == [Watching(1)]
                    ),
                )
            bob.close()
            for rooms, copy in ((one, room), (two, there)):
                await settled(rooms, copy, lambda found: found[-1:] == [Left("bob")])
            # Each change written once, whichever process saw it first.
            found = presence_of(await one.events_since(room, 0))
            assert found.count(Arrived("ann")) == found.count(Arrived("bob")) == 1
            assert found.count(Left("bob")) == 1 and found.count(Watching(1)) == 1
            assert [e.version for e in await one.events_since(room, 0)] == list(
                range(1, room.version + 1)
            )
            # What Ann saw in one process is what the other reads.
            one.remember_seen("ann", room.code, room.version)
            for task in list(one.tasks):
                await task
            assert await two.seen_by("ann", room.code) == room.version
            ann.close()
            carl.close()
        finally:
            await one.close()
            await two.close()

    asyncio.run(main())


def test_a_database_of_the_version_before_gets_the_seen_table_and_presence_changes(
    database_url: str,
) -> None:
    import psycopg

    from abstracts_tui.store.postgres import PostgresStore

    PostgresStore(database_url).pool.close()
    with psycopg.connect(database_url, autocommit=True) as db:  # as the version before left it
        db.execute("DROP TABLE seen")
        db.execute("ALTER TABLE room_changes DROP CONSTRAINT room_changes_kind_check")
        db.execute(
            "ALTER TABLE room_changes ADD CONSTRAINT room_changes_kind_check CHECK (kind IN "
            "('join', 'komi', 'side', 'move', 'flag', 'resign', 'abort', 'takeback', "
            "'rematch', 'chat', 'hold'))"
        )
        db.execute("DELETE FROM schema_version WHERE version = 7")  # as version 6 left it

    async def main() -> None:
        rooms = postgres_rooms(database_url)
        await rooms.start()
        try:
            room = await pilo_game(rooms)
            tie = rooms.presences.follow(room.code, "ann", lambda: None)
            await settled(rooms, room, lambda found: found == [Arrived("ann")])
            rooms.remember_seen("ann", room.code, room.version)
            for task in list(rooms.tasks):
                await task
            assert await rooms.seen_by("ann", room.code) == room.version
            tie.close()
        finally:
            await rooms.close()

    asyncio.run(main())
