"""What the PostgreSQL store adds for several processes: migrations applied once by
processes starting together, changes committed at their version only and announced,
seats, sessions counted on live processes only, one host key."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from abstracts_tui.store import RoomSave, RoomSetup, StoreError

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed")

from abstracts_tui.rooms.live import Change, Conflict  # noqa: E402
from abstracts_tui.store import postgres  # noqa: E402
from abstracts_tui.store.pg_schema import MIGRATIONS  # noqa: E402
from abstracts_tui.store.postgres import PostgresStore  # noqa: E402

PILO = RoomSetup("pilo", 8, creator="ann")


def test_processes_starting_together_apply_each_migration_once(database_url: str) -> None:
    start = threading.Barrier(4)
    stores: list[PostgresStore] = []

    def open_store() -> None:
        start.wait()
        stores.append(PostgresStore(database_url))

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(stores) == 4
    with psycopg.connect(database_url) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert versions == sorted(m.version for m in MIGRATIONS)
        db.execute("INSERT INTO schema_version VALUES (99, 'from the future', now())")
    with pytest.raises(StoreError, match="made by a newer version of abstracts-tui"):
        PostgresStore(database_url)
    for store in stores:
        store.close()


def test_the_location_never_shows_the_password_and_a_bad_url_is_refused() -> None:
    assert postgres.where("postgresql://ann:secret@db.example:6000/games") == (
        "database games on db.example:6000"
    )
    with pytest.raises(StoreError, match="takes a postgresql:// URL"):
        PostgresStore("sqlite:///tmp/x.db")


def test_a_change_is_committed_at_its_version_only_and_announced(database_url: str) -> None:
    store = PostgresStore(database_url)
    listener = psycopg.connect(database_url, autocommit=True)
    listener.execute("LISTEN abstracts_tui_rooms")
    db = postgres.connect(database_url, autocommit=True)
    room = RoomSave("k7m2", PILO, None, None)
    assert postgres.create_room(db, room, "ann-1")
    assert not postgres.create_room(db, room, "ann-2")  # the code is taken
    joined = RoomSave("k7m2", PILO, "bob", "(;GA[pilo])")
    postgres.change_room(db, joined, Change(2, "join", "bob", "bob"), ("bob", "bob-1"))
    moved = RoomSave("k7m2", PILO, "bob", "(;GA[pilo];B[d4])")
    with pytest.raises(Conflict) as stale:  # made on a copy that missed the join
        postgres.change_room(db, moved, Change(2, "move", "d4", "ann"), ("ann", "ann-1"))
    assert not stale.value.seat
    postgres.take_seat(db, "k7m2", "ann", "ann-2")  # Ann opened the room elsewhere
    with pytest.raises(Conflict) as taken:
        postgres.change_room(db, moved, Change(3, "move", "d4", "ann"), ("ann", "ann-1"))
    assert taken.value.seat
    postgres.change_room(db, moved, Change(3, "move", "d4", "ann"), ("ann", "ann-2"))

    assert [(c.version, c.kind, c.value) for c in postgres.changes(db, "k7m2", 1)] == [
        (2, "join", "bob"),
        (3, "move", "d4"),
    ]
    stored = store.room("k7m2")
    assert stored is not None and (stored.version, stored.sgf) == (3, "(;GA[pilo];B[d4])")
    assert postgres.seats(db, ["k7m2"]) == {"k7m2": {"ann": "ann-2", "bob": "bob-1"}}
    told = [n.payload for n in listener.notifies(timeout=2, stop_after=3)]
    assert told == ["k7m2 1", "k7m2 2", "k7m2 3"]
    for connection in (listener, db):
        connection.close()
    store.close()


def alive(db: postgres.Db) -> list[int]:
    """The numbers of the processes alive, as the database sees them."""
    rows = db.execute(postgres.LIVE_PROCESSES, (postgres.PROCESS_LOCKS,)).fetchall()
    return [row[0] for row in rows]


def test_sessions_count_on_the_processes_alive_only(database_url: str) -> None:
    PostgresStore(database_url).close()
    db = postgres.connect(database_url, autocommit=True)

    async def hold() -> tuple[psycopg.AsyncConnection[object], int]:
        conn = await postgres.connect_async(database_url)
        return conn, await postgres.hold_process(conn)

    async def both() -> None:
        first, one = await hold()
        second, two = await hold()
        assert one != two
        assert postgres.open_session(db, "t1", "ann", one, 2)
        assert postgres.open_session(db, "t2", "ann", two, 2)
        assert not postgres.open_session(db, "t3", "ann", two, 2)  # two open, anywhere
        assert postgres.open_session(db, "t4", "bob", two, 2)
        await first.close()  # the first process is gone: its session no longer counts
        gone_by = time.monotonic() + 10  # once the database has ended its backend
        while one in alive(db) and time.monotonic() < gone_by:
            await asyncio.sleep(0.05)
        assert postgres.open_session(db, "t5", "ann", two, 2)
        postgres.close_session(db, "t5")
        postgres.restore_sessions(db, two, {"t2": "ann"})
        rows = db.execute("SELECT token FROM sessions ORDER BY token").fetchall()
        assert [row[0] for row in rows] == ["t2"]
        await second.close()

    asyncio.run(both())
    db.close()


def test_every_process_serves_the_first_host_key_kept(database_url: str) -> None:
    stores = [PostgresStore(database_url) for _ in range(2)]
    first = stores[0].host_key(lambda: "first key")
    assert first == "first key"
    assert stores[1].host_key(lambda: "second key") == "first key"
    for store in stores:
        store.close()


def test_who_is_connected_is_read_from_the_processes_alive_and_put_back_whole(
    database_url: str,
) -> None:
    PostgresStore(database_url).close()
    db = postgres.connect(database_url, autocommit=True)
    listener = psycopg.connect(database_url, autocommit=True)
    listener.execute("LISTEN abstracts_tui_presence")

    async def hold() -> tuple[psycopg.AsyncConnection[object], int]:
        conn = await postgres.connect_async(database_url)
        return conn, await postgres.hold_process(conn)

    async def both() -> None:
        first, one = await hold()
        second, two = await hold()
        postgres.set_presence(db, one, "k7m2", {"ann"})
        postgres.set_presence(db, two, "k7m2", {"bob", "carl"})
        postgres.set_presence(db, two, "q9xr", {"bob"})
        told = [n.payload for n in listener.notifies(timeout=2, stop_after=3)]
        assert told == [f"k7m2 {one}", f"k7m2 {two}", f"q9xr {two}"]
        # Each process reads the others' only.
        assert postgres.presence_elsewhere(db, one, ["k7m2", "zzzz"]) == {
            "k7m2": frozenset({"bob", "carl"}),
            "zzzz": frozenset(),
        }
        assert postgres.presence_elsewhere(db, two, ["k7m2"]) == {"k7m2": frozenset({"ann"})}
        # After a reconnection the second process says what it shows now, as a whole:
        # every room it had or has rows of is announced.
        postgres.restore_presence(db, two, {"k7m2": frozenset({"bob"})})
        told = sorted(n.payload for n in listener.notifies(timeout=2, stop_after=2))
        assert told == [f"k7m2 {two}", f"q9xr {two}"]
        assert postgres.presence_elsewhere(db, one, ["k7m2", "q9xr"]) == {
            "k7m2": frozenset({"bob"}),
            "q9xr": frozenset(),
        }
        await second.close()  # gone (killed): its rows are not read, though still there
        gone_by = time.monotonic() + 10
        while two in alive(db) and time.monotonic() < gone_by:
            await asyncio.sleep(0.05)
        assert postgres.presence_elsewhere(db, one, ["k7m2"]) == {"k7m2": frozenset()}
        postgres.restore_presence(db, one, {})  # and the next one to put back its own drops them
        assert db.execute("SELECT count(*) FROM presence").fetchone() == (0,)
        await first.close()

    asyncio.run(both())
    for connection in (listener, db):
        connection.close()


def test_seats_held_through_an_outage_are_put_back_where_none_is_held(database_url: str) -> None:
    PostgresStore(database_url).close()
    db = postgres.connect(database_url, autocommit=True)
    assert postgres.create_room(db, RoomSave("k7m2", PILO, None, None), "ann-1")
    db.execute("DELETE FROM seats")  # a database restored from before the room was made
    postgres.take_seat(db, "k7m2", "bob", "bob-2")  # Bob took his seat elsewhere meanwhile
    postgres.restore_seats(
        db, [("k7m2", "ann", "ann-1"), ("k7m2", "bob", "bob-1"), ("gone", "ann", "ann-1")]
    )
    assert postgres.seats(db, ["k7m2", "gone"]) == {"k7m2": {"ann": "ann-1", "bob": "bob-2"}}
    db.close()


def test_serve_check_of_a_database_says_whether_it_can_be_used(database_url: str) -> None:
    assert postgres.check_database(database_url).endswith(
        "can be used: its tables are not made yet (the first start makes them)"
    )
    PostgresStore(database_url).close()
    newest = MIGRATIONS[-1].version
    assert postgres.check_database(database_url).endswith(
        f"can be used: its tables are at version {newest} (this version's)"
    )
    with pytest.raises(StoreError, match="cannot be used: the database cannot be reached"):
        postgres.check_database("postgresql://abstracts@127.0.0.1:1/none")
