"""The SQLite store: migrations, rooms and their versions, the archive, names, ratings once."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore, StoreError
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


def test_a_store_locked_by_another_program_says_so(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    store = SqliteStore(path, timeout=0.2)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreError, match="the store is locked by another program"):
        store.save_room(RoomSave("k7m2", PILO, None, None))
    other.execute("ROLLBACK")
    assert store.save_room(RoomSave("k7m2", PILO, None, None)) == 1
