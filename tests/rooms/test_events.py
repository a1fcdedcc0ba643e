"""A room's events through its real gateway, on both live stores (SQLite in a temporary
folder, and a real PostgreSQL where it is installed): every command committed makes at
least one event, the versions run 1..n without a gap, the store keeps exactly the events
sent (read back whole, or after any version), and a rated game's end is followed by its
`Rated` event with the store's own rating changes."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from abstracts_tui.commands import (
    Abort,
    ChooseSide,
    Command,
    Play,
    Rematch,
    Resign,
    Say,
    SetKomi,
    Takeback,
)
from abstracts_tui.game_setup import Setup
from abstracts_tui.ratings import Rating
from abstracts_tui.rooms.events import Ended, Joined, Made, Rated, Stamped
from abstracts_tui.rooms.holder import Holder, new_holder
from abstracts_tui.rooms.kept import rated_event
from abstracts_tui.rooms.live import Refused
from abstracts_tui.rooms.presence import Presences
from abstracts_tui.rooms.room import Room
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.store import SqliteStore
from abstracts_tui.store.live_sqlite import LiveSqlite

KINDS = ("move", "move", "move", "say", "resign", "abort", "komi", "side")
KINDS += ("takeback offer", "takeback accept", "takeback decline")
KINDS += ("rematch offer", "rematch decline")
STEPS = st.lists(st.tuples(st.sampled_from(KINDS), st.booleans(), st.integers(0, 500)), max_size=30)
GAMES = st.sampled_from(["linage", "pilo", "petrify"])

Changes = Callable[[str], list[tuple[str, Rating, Rating]]]


def command_of(kind: str, room: Room, number: int) -> Command:
    """The command `kind` in `room` now (a legal move, chosen by `number`)."""
    game = room.session.game
    match kind:
        case "move":
            moves = game.legal_moves() if not room.session.over else []
            return Play(game.move_name(moves[number % len(moves)]) if moves else "pass")
        case "say":
            return Say(f"line {number}")
        case "resign":
            return Resign()
        case "abort":
            return Abort()
        case "komi":
            return SetKomi(0.5 + number % 4)
        case "side":
            return ChooseSide(number % 2)
        case _:
            what, answer = kind.split()
            return Takeback(answer) if what == "takeback" else Rematch(answer)


async def play_out(
    rooms: Rooms, game: str, steps: list[tuple[str, bool, int]], ann: Holder, bob: Holder
) -> tuple[Room, list[Stamped]]:
    """A rated room of `game` made and joined, then `steps` sent (each by the person the
    game waits for, or the other one): the room and the events told of it."""
    room = await rooms.create(Setup(game), ann, rated=True)
    told: list[Stamped] = []
    room.told.subscribe(told.extend)
    await rooms.join(room, bob)
    for kind, waited, number in steps:
        waiting = room.session.waiting_for() or "ann"
        name = waiting if waited else ("bob" if waiting == "ann" else "ann")
        before = room.version
        try:
            await rooms.send(room, command_of(kind, room, number), ann if name == "ann" else bob)
        except Refused:
            assert room.version == before  # refused: nothing kept, nothing told
            continue
        assert room.version > before  # every command makes at least one event
        assert [s.version for s in told][-1] == room.version
    return room, told


async def check_kept(rooms: Rooms, room: Room, told: list[Stamped], changes: Changes) -> None:
    events = room.events
    assert [s.version for s in events] == list(range(1, room.version + 1))
    assert isinstance(events[0].event, Made) and isinstance(events[1].event, Joined)
    assert events[1:] == told  # each told once, in order
    for after in range(room.version + 1):
        assert await rooms.live.events(room.code, after) == events[after:]
    ended = [i for i, s in enumerate(events) if isinstance(s.event, Ended)]
    assert len(ended) == room.finished
    rated = [s for s in events if isinstance(s.event, Rated)]
    kept = changes(room.code)
    if kept:  # the end's next event, with what the store keeps of the rating change
        assert events[ended[0] + 1].event == rated_event(kept) and len(rated) == 1
    else:
        assert not rated


def test_random_commands_make_numbered_events_kept_as_sent_on_sqlite() -> None:
    @settings(max_examples=25, deadline=None)
    @given(game=GAMES, steps=STEPS)
    def run(game: str, steps: list[tuple[str, bool, int]]) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "server.db"

            async def go() -> tuple[str, list[Stamped]]:
                store = SqliteStore(path)
                rooms = Rooms(LiveSqlite(store))
                await rooms.start()
                room, told = await play_out(
                    rooms, game, steps, new_holder("ann"), new_holder("bob")
                )
                await rooms.flush()
                await check_kept(rooms, room, told, store.rating_changes)
                await rooms.close()
                store.close()
                return room.code, room.events

            code, events = asyncio.run(go())
            again = SqliteStore(path)  # the file has them, as a restart reads them
            assert again.events(code, 0, 1000) == events
            assert again.room(code) is not None and again.room(code).version == len(events)  # type: ignore[union-attr]
            again.close()

    run()


def test_random_commands_make_numbered_events_kept_as_sent_on_postgres(
    database_url: str,
) -> None:
    from abstracts_tui.store.live_postgres import LivePostgres
    from abstracts_tui.store.postgres import PostgresStore

    @settings(
        max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(game=GAMES, steps=STEPS)
    def run(game: str, steps: list[tuple[str, bool, int]]) -> None:
        async def go() -> None:
            store = PostgresStore(database_url)
            rooms = Rooms(LivePostgres(store, presences=Presences()))
            await rooms.start()
            room, told = await play_out(rooms, game, steps, new_holder("ann"), new_holder("bob"))
            await check_kept(rooms, room, told, store.rating_changes)
            await rooms.close()
            store.close()

        asyncio.run(go())

    run()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_rated_games_end_is_told_with_its_rating_change_at_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def go() -> None:
        if kind == "sqlite":
            store: object = SqliteStore(tmp_path / "server.db")
            assert isinstance(store, SqliteStore)
            rooms = Rooms(LiveSqlite(store))
            changes: Changes = store.rating_changes
        else:
            from abstracts_tui.store.live_postgres import LivePostgres
            from abstracts_tui.store.postgres import PostgresStore

            pg = PostgresStore(request.getfixturevalue("database_url"))
            rooms = Rooms(LivePostgres(pg, presences=Presences()))
            changes = pg.rating_changes
        await rooms.start()
        room = await rooms.create(Setup("pilo"), ann, rated=True)
        await rooms.join(room, bob)
        told: list[list[Stamped]] = []
        room.told.subscribe(told.append)
        for holder in (ann, bob, ann):
            await rooms.send(room, command_of("move", room, 0), holder)
        await rooms.send(room, Resign(), bob)
        # The resignation's change is told with both of its events: the end, then the
        # rating change the store made in the same transaction.
        ended, rated = told[-1]
        assert isinstance(ended.event, Ended) and ended.event.how == Ended.RESIGNED
        assert (ended.event.winner, ended.event.loser) == ("ann", "bob")
        assert rated.version == ended.version + 1 == room.version
        assert rated.event == rated_event(changes(room.code))
        assert [c.name for c in rated.event.changes] == ["ann", "bob"]  # type: ignore[union-attr]
        await rooms.close()

    asyncio.run(go())


FOLLOWER = """
import asyncio, json, sys
from abstracts_tui.rooms.events import encode
from abstracts_tui.rooms.presence import Presences
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.store.live_postgres import LivePostgres
from abstracts_tui.store.postgres import PostgresStore

def rows(events):
    return [[s.version, s.at, *encode(s.event)] for s in events]

async def main(url, code):
    rooms = Rooms(LivePostgres(PostgresStore(url), presences=Presences()))
    await rooms.start()
    room = await rooms.get(code)
    told = []
    room.told.subscribe(told.extend)
    print(json.dumps({"version": room.version}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.readline():
        kept = {"version": room.version, "told": rows(told), "events": rows(room.events)}
        print(json.dumps(kept), flush=True)
    await rooms.close()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def test_a_process_stopped_while_a_room_gets_20_events_has_those_20_once_in_order(
    database_url: str,
) -> None:
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    from abstracts_tui.rooms.events import encode
    from abstracts_tui.store.live_postgres import LivePostgres
    from abstracts_tui.store.postgres import PostgresStore

    ann, bob = new_holder("ann"), new_holder("bob")

    async def go() -> None:
        rooms = Rooms(LivePostgres(PostgresStore(database_url), presences=Presences()))
        await rooms.start()
        room = await rooms.create(Setup("pilo"), ann)
        await rooms.join(room, bob)
        follower = subprocess.Popen(
            [sys.executable, "-c", FOLLOWER, database_url, room.code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert follower.stdin is not None and follower.stdout is not None
        try:
            ready = await asyncio.to_thread(follower.stdout.readline)
            assert json.loads(ready) == {"version": room.version}
            os.kill(follower.pid, signal.SIGSTOP)
            before = room.version
            for number in range(20):
                await rooms.send(room, Say(f"line {number}"), (ann, bob)[number % 2])
            made = [[s.version, s.at, *encode(s.event)] for s in room.events if s.version > before]
            assert len(made) == 20
            os.kill(follower.pid, signal.SIGCONT)
            deadline = time.monotonic() + 20
            while True:
                follower.stdin.write("look\n")
                follower.stdin.flush()
                kept = json.loads(await asyncio.to_thread(follower.stdout.readline))
                if kept["version"] == room.version or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
            assert kept["version"] == room.version
            assert kept["told"] == made  # exactly those 20, once each, in order
            assert kept["events"] == made
        finally:
            os.kill(follower.pid, signal.SIGCONT)
            follower.stdin.close()
            follower.wait(20)
            await rooms.close()

    asyncio.run(go())


def without_times(events: list[Stamped]) -> list[object]:
    return [(s.version, s.event) for s in events]


async def two_games(rooms: Rooms) -> tuple[Room, Room]:
    """A rated game of four moves that bob resigns, and one of two moves under way."""
    ann, bob = new_holder("ann"), new_holder("bob")
    ended = await rooms.create(Setup("pilo"), ann, rated=True)
    await rooms.join(ended, bob)
    for holder in (ann, bob, ann, bob):
        await rooms.send(ended, command_of("move", ended, 3), holder)
    await rooms.send(ended, Resign(), bob)
    going = await rooms.create(Setup("linage"), ann)
    await rooms.join(going, bob)
    await rooms.send(going, SetKomi(3.5), ann)
    await rooms.send(going, ChooseSide(1), bob)
    for holder in (ann, bob):
        await rooms.send(going, command_of("move", going, 7), holder)
    return ended, going


def test_rooms_kept_before_events_get_them_derived_once_at_the_start(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "server.db"

    async def first() -> tuple[Room, Room]:
        store = SqliteStore(path)
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        made = await two_games(rooms)
        await rooms.close()
        store.close()
        return made

    ended, going = asyncio.run(first())
    # The file as the version before left it: no events, a version per change.
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE room_events")
        db.execute("DELETE FROM schema_version WHERE version = 5")
        for room, changes in ((ended, 7), (going, 6)):
            db.execute("UPDATE rooms SET version = ? WHERE code = ?", (changes, room.code))
    db.close()

    async def again() -> None:
        store = SqliteStore(path)
        # Derived as the commits made them (their times aside: the moves' are not kept).
        for room in (ended, going):
            derived = store.events(room.code, 0, 1000)
            assert without_times(derived) == without_times(room.events)
            stored = store.room(room.code)
            assert stored is not None and stored.version == len(room.events)
        assert isinstance(ended.events[-1].event, Rated)
        rooms = Rooms(LiveSqlite(store))
        await rooms.start()
        here = await rooms.get(going.code)
        assert here is not None and here.version == len(going.events)
        ann = new_holder("ann")
        await rooms.join(here, ann)  # the seat, from this connection
        await rooms.send(here, command_of("move", here, 0), ann)
        assert here.version == len(going.events) + 1
        await rooms.close()
        assert [s.version for s in store.events(going.code, 0, 1000)] == list(
            range(1, here.version + 1)
        )
        store.close()
        # Once: a later start derives nothing again.
        with sqlite3.connect(path) as db:
            (count,) = db.execute("SELECT count(*) FROM room_events").fetchone()
        db.close()
        assert count == len(ended.events) + len(going.events) + 1
        SqliteStore(path).close()
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM room_events").fetchone() == (count,)
        db.close()

    asyncio.run(again())


def test_rooms_kept_before_events_in_postgresql_get_them_and_play_on(database_url: str) -> None:
    import psycopg

    from abstracts_tui.store.live_postgres import LivePostgres
    from abstracts_tui.store.postgres import PostgresStore

    async def first() -> tuple[Room, Room]:
        rooms = Rooms(LivePostgres(PostgresStore(database_url), presences=Presences()))
        await rooms.start()
        made = await two_games(rooms)
        await rooms.close()
        return made

    ended, going = asyncio.run(first())
    # As the version before left it: no events, the changes numbered 2, 3, ...
    with psycopg.connect(database_url, autocommit=True) as db:
        db.execute("DROP TABLE room_events")
        db.execute("DELETE FROM schema_version WHERE version = 6")
        db.execute(
            "UPDATE room_changes c SET version = -n.number FROM (SELECT code, version, "
            "row_number() OVER (PARTITION BY code ORDER BY version) + 1 AS number "
            "FROM room_changes) n WHERE n.code = c.code AND n.version = c.version"
        )
        db.execute("UPDATE room_changes SET version = -version")
        db.execute(
            "UPDATE rooms SET version = 1 + (SELECT count(*) FROM room_changes c "
            "WHERE c.code = rooms.code)"
        )

    async def again() -> None:
        store = PostgresStore(database_url)
        for room in (ended, going):
            assert without_times(store.events(room.code, 0, 1000)) == without_times(room.events)
        rooms = Rooms(LivePostgres(store, presences=Presences()))
        await rooms.start()
        other = Rooms(LivePostgres(PostgresStore(database_url), presences=Presences()))
        await other.start()
        here, there = await rooms.get(going.code), await other.get(going.code)
        assert here is not None and there is not None
        assert here.version == there.version == len(going.events)
        ann = new_holder("ann")
        await rooms.join(here, ann)  # the seat, from this connection
        await rooms.send(here, command_of("move", here, 0), ann)
        # The other process reads the change and its one event, none of the old changes.
        for _ in range(200):
            if there.version == here.version:
                break
            await asyncio.sleep(0.05)
        assert there.version == here.version == len(going.events) + 1
        assert there.events == here.events[-1:]
        assert there.session.game.moves == here.session.game.moves
        await other.close()
        await rooms.close()

    asyncio.run(again())
