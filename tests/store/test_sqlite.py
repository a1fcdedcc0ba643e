"""The SQLite store: migrations, rooms and their versions, the archive, names, ratings once."""

from __future__ import annotations

import sqlite3
import stat
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore, StoreError
from abstracts_tui.store.schema import MIGRATIONS

PILO = RoomSetup("pilo", 8, creator="ann", rated=True)


def test_the_tables_are_made_once_and_a_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    SqliteStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    SqliteStore(path).close()  # opened again: nothing applied twice
    with sqlite3.connect(path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_version")]
        assert versions == [m.version for m in MIGRATIONS]
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        db.execute("INSERT INTO schema_version VALUES (99, 'from the future', 'now')")
    with pytest.raises(StoreError, match="made by a newer version of abstracts-tui"):
        SqliteStore(path)


def test_a_link_or_a_folder_is_not_taken_for_the_store(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.db").write_text("")
    (tmp_path / "link.db").symlink_to(tmp_path / "elsewhere.db")
    with pytest.raises(StoreError, match="symbolic link"):
        SqliteStore(tmp_path / "link.db")
    (tmp_path / "folder.db").mkdir()
    with pytest.raises(StoreError, match="cannot be opened"):
        SqliteStore(tmp_path / "folder.db")
    (tmp_path / "text.db").write_text("not a database, but some text long enough " * 20)
    with pytest.raises(StoreError, match="not a database"):
        SqliteStore(tmp_path / "text.db")


def test_a_room_is_saved_whole_and_its_version_grows(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "server.db")
    assert store.save_room(RoomSave("k7m2", PILO, None, None)) == 1
    assert store.save_room(RoomSave("k7m2", PILO, "bob", "(;GA[pilo])")) == 2
    assert store.save_room(RoomSave("k7m2", PILO, "bob", None)) == 3  # no record: kept
    room = store.room("k7m2")
    assert room is not None
    assert (room.setup, room.joiner, room.sgf, room.version) == (PILO, "bob", "(;GA[pilo])", 3)
    assert room.finished is None and room.created <= room.updated
    assert store.room("zzzz") is None
    assert store.codes() == {"k7m2"}


def test_the_archive_lists_newest_first_by_player_and_page(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "server.db")
    for number, (code, joiner) in enumerate([("bbbb", "bob"), ("cccc", "carl"), ("dddd", "bob")]):
        store.save_room(RoomSave(code, PILO, joiner, f"(;C[{number}])"))
    store.save_room(RoomSave("bbbb", PILO, "bob", "(;C[later])", Finish("Blue+2", "ann")))
    assert [r.code for r in store.rooms()] == ["bbbb", "dddd", "cccc"]
    assert [r.code for r in store.rooms(finished=True)] == ["bbbb"]
    assert [r.code for r in store.rooms(finished=False)] == ["dddd", "cccc"]
    assert [r.code for r in store.rooms(player="bob")] == ["bbbb", "dddd"]
    assert [r.code for r in store.rooms(player="carl", finished=True)] == []
    assert [r.code for r in store.rooms(limit=2, offset=1)] == ["dddd", "cccc"]
    finished = store.room("bbbb")
    assert finished is not None and (finished.result, finished.winner) == ("Blue+2", "ann")


def test_a_rated_game_changes_both_ratings_once(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    store = SqliteStore(path)
    end = RoomSave("k7m2", PILO, "bob", "(;)", Finish("Blue+2", "ann"))
    store.save_room(end)
    store.save_room(end)  # saved again (a retry): the game is not rated again
    store.close()
    store = SqliteStore(path)  # nor after a restart
    store.save_room(end)
    store.save_room(RoomSave("k7m2", PILO, "bob", "(;)", Finish("Orange+1", "bob")))
    ann, bob = after_game(Rating(), Rating(), 1.0)
    ratings = {r.name: r for r in store.ratings("pilo")}
    assert ratings["ann"].rating == pytest.approx(ann) and ratings["ann"].games == 1
    assert ratings["bob"].rating == pytest.approx(bob) and ratings["bob"].games == 1
    assert [r.name for r in store.ratings()] == ["ann", "bob"]  # the highest first
    assert store.ratings("petrify") == []
    room = store.room("k7m2")
    assert room is not None and room.winner == "ann"  # the first finish stays
    # An unrated room's end changes no rating.
    store.save_room(RoomSave("x9zz", RoomSetup("pilo", 8, creator="ann"), "bob", "(;)"))
    store.save_room(
        RoomSave("x9zz", RoomSetup("pilo", 8, creator="ann"), "bob", "(;)", Finish("draw", None))
    )
    assert {r.name: r.games for r in store.ratings()} == {"ann": 1, "bob": 1}


def test_two_processes_finishing_one_game_at_once_rate_it_once(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    SqliteStore(path).save_room(RoomSave("k7m2", PILO, "bob", "(;)"))
    stores = [SqliteStore(path) for _ in range(4)]  # as separate processes: own connections
    start = threading.Barrier(len(stores))
    finish = Finish("draw", None, datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))

    def end(store: SqliteStore) -> None:
        start.wait()
        store.save_room(RoomSave("k7m2", PILO, "bob", "(;)", finish))

    threads = [threading.Thread(target=end, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {r.name: r.games for r in stores[0].ratings()} == {"ann": 1, "bob": 1}
    room = stores[0].room("k7m2")
    assert room is not None and room.version == 5 and room.finished == finish.at


def test_a_store_locked_by_another_program_says_so(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    store = SqliteStore(path, timeout=0.2)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreError, match="the store is locked by another program"):
        store.save_room(RoomSave("k7m2", PILO, None, None))
    other.execute("ROLLBACK")
    assert store.save_room(RoomSave("k7m2", PILO, None, None)) == 1


def test_names_keep_their_first_key(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "server.db")
    assert store.name_key("ann") is None
    assert store.keep_name("ann", "SHA256:first") == "SHA256:first"
    assert store.keep_name("ann", "SHA256:second") == "SHA256:first"
    assert store.name_key("ann") == "SHA256:first"


def test_an_imported_room_keeps_its_time_and_is_never_imported_twice(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "server.db")
    then = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
    assert store.import_room(RoomSave("k7m2", PILO, "bob", "(;)"), then)
    assert not store.import_room(RoomSave("k7m2", PILO, "carl", "(;C[other])"), then)
    room = store.room("k7m2")
    assert room is not None and (room.joiner, room.created, room.updated) == ("bob", then, then)
