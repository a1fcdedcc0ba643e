"""The SQLite store: migrations, rooms and their versions, the archive, names, ratings once;
a file it cannot trust (empty, not a database, another program's, damaged, at the start
or while it is open) refused and never written to; `serve --check`'s check."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from abstracts_tui.rooms.events import ChatSaid, Joined, Stamped
from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore, StoreError
from abstracts_tui.store.base import Recent
from abstracts_tui.store.schema import MIGRATIONS
from abstracts_tui.store.sqlite_file import check

PILO = RoomSetup("pilo", 8, creator="ann", rated=True)
NEWEST = max(m.version for m in MIGRATIONS)


def test_the_tables_are_made_once_and_a_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    SqliteStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    SqliteStore(path).close()  # opened again: nothing applied twice
    with sqlite3.connect(path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_version ORDER BY 1")]
        assert versions == sorted(m.version for m in MIGRATIONS)
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
    with pytest.raises(StoreError, match="is not a regular file"):
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


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def a_store(path: Path, rooms: int = 40) -> Path:
    """A store of `rooms` rooms, all of it in its file (checkpointed, no WAL left)."""
    store = SqliteStore(path)
    for number in range(rooms):
        store.save_room(RoomSave(f"r{number:03d}", PILO, "bob", "(;GA[pilo]" + "C[x]" * 100 + ")"))
    store.close()
    return path


def overwrite(path: Path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.seek(offset)
        handle.write(data)


def emptied(path: Path) -> None:
    os.truncate(path, 0)


def truncated(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def header_garbage(path: Path) -> None:
    overwrite(path, 0, b"\xde\xad" * 50)


def page_garbage(path: Path) -> None:
    """Every page but the first and the last overwritten (a page the WAL has anew would
    be written whole again: damage there is not the file's for long)."""
    overwrite(path, 4096, b"\x5a" * (path.stat().st_size - 2 * 4096))


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty": (emptied, r"is empty \(0 bytes\), so it holds no store"),
    "truncated": (truncated, "is damaged"),
    "header": (header_garbage, r"is not a database \(no SQLite header\)"),
    "page": (page_garbage, "is damaged"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_file_that_cannot_be_trusted_is_refused_in_a_sentence_and_left_as_it_is(
    tmp_path: Path, damage: str
) -> None:
    path = a_store(tmp_path / "server.db")
    spoil, said = DAMAGE[damage]
    spoil(path)
    before = digest(path)
    with pytest.raises(StoreError, match=said) as refused:
        SqliteStore(path)
    sentence = str(refused.value)
    assert sentence.startswith(f"{path} ") and "\n" not in sentence
    assert "the server writes nothing to it" in sentence
    assert digest(path) == before  # never replaced, never written to
    with pytest.raises(StoreError, match=said):
        check(path)


def test_another_programs_database_is_not_taken_for_a_store(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    before = digest(path)
    with pytest.raises(StoreError, match="is a database of another program"):
        SqliteStore(path)
    assert digest(path) == before


@pytest.mark.parametrize("umask", [0o000, 0o077])
def test_a_new_store_is_made_whole_owner_only_and_only_where_there_is_no_file(
    tmp_path: Path, umask: int
) -> None:
    old = os.umask(umask)
    try:
        SqliteStore(tmp_path / "server.db").close()
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "server.db").stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["server.db"]  # nothing left over
    assert check(tmp_path / "server.db").endswith(f"at version {NEWEST} (this version's)")


@pytest.mark.parametrize("damage", [*DAMAGE, "replaced", "removed"])
def test_damage_done_while_the_store_is_open_is_found_logged_once_and_not_written_over(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = a_store(tmp_path / "server.db")
    store = SqliteStore(path)
    store.save_room(RoomSave("k7m2", PILO, None, None))
    if damage == "replaced":  # a sound store of elsewhere copied in its place
        (tmp_path / "other").mkdir()
        other = a_store(tmp_path / "other" / "server.db", rooms=1)
        path.rename(tmp_path / "old.db")
        shutil.copyfile(other, path)
    elif damage == "removed":
        path.unlink()
    else:
        DAMAGE[damage][0](path)
    before = digest(path) if path.exists() else None
    with caplog.at_level(logging.ERROR, logger="abstracts_tui"):
        for _ in range(3):  # every save refused: writing could only lose more
            with pytest.raises(StoreError, match=r"^the store's file is damaged$"):
                store.save_room(RoomSave("k7m2", PILO, "bob", "(;GA[pilo])"))
    store.close()
    if before is not None:
        assert digest(path) == before
    logged = [r.getMessage() for r in caplog.records if "cannot be trusted" in r.getMessage()]
    assert len(logged) == 1, logged
    assert logged[0].startswith(f"{path} cannot be trusted any more (another program changed it")


def test_a_change_made_by_another_program_through_sqlite_is_not_damage(tmp_path: Path) -> None:
    path = a_store(tmp_path / "server.db")
    store = SqliteStore(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("UPDATE rooms SET joiner = 'carl' WHERE code = 'r001'")
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # written into the file itself
    other.close()
    joined = (Stamped(2, 1.5, Joined("dan")),)
    assert store.save_room(RoomSave("r002", PILO, "dan", None, events=joined)) == 2
    assert store.damaged is None
    store.close()


def test_the_check_reads_the_whole_file_and_its_version_and_changes_nothing(
    tmp_path: Path,
) -> None:
    with pytest.raises(StoreError, match="there is no store at"):
        check(tmp_path / "server.db")
    path = a_store(tmp_path / "server.db")
    before = digest(path)
    said = check(path)
    assert said == (
        f"{path} is sound: SQLite's integrity check finds nothing wrong, "
        f"and its tables are at version {NEWEST} (this version's)"
    )
    assert digest(path) == before  # read only (SQLite's -wal and -shm beside it at most)
    assert {p.name for p in tmp_path.iterdir()} <= {"server.db", "server.db-wal", "server.db-shm"}
    with sqlite3.connect(path) as db:  # as an earlier version left it
        db.execute("DELETE FROM schema_version WHERE version = ?", (NEWEST,))
    db.close()
    assert check(path).endswith(f"at version {NEWEST - 1} (the start makes them {NEWEST})")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (99, 'from the future', 'now')")
    db.close()
    with pytest.raises(StoreError, match="made by a newer version"):
        check(path)


def test_serve_check_says_in_one_sentence_whether_the_store_can_be_used(tmp_path: Path) -> None:
    import subprocess
    import sys

    data = tmp_path / "data"

    def serve_check() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "abstracts_tui", "serve", "--check", "--data", str(data)]
        return subprocess.run(command, capture_output=True, text=True, timeout=60)

    missing = serve_check()
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        f"Error: there is no store at {data / 'server.db'} (the server's first start makes one)\n"
    )
    assert not data.exists()  # nothing made
    data.mkdir()
    a_store(data / "server.db")
    sound = serve_check()
    assert (sound.returncode, sound.stderr) == (0, "")
    assert sound.stdout == (
        f"{data / 'server.db'} is sound: SQLite's integrity check finds nothing wrong, "
        f"and its tables are at version {NEWEST} (this version's)\n"
    )
    page_garbage(data / "server.db")
    damaged = serve_check()
    assert (damaged.returncode, damaged.stdout) == (2, "")
    assert damaged.stderr.startswith(f"Error: {data / 'server.db'} is damaged (SQLite")
    assert len(damaged.stderr.splitlines()) == 1 and "Usage:" not in damaged.stderr


def test_a_rooms_last_changes_are_kept_with_it_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    store = SqliteStore(path)
    store.save_room(RoomSave("k7m2", PILO, None, None))
    said = Recent(7, (("play", "a1", "ann"), ("say", "good luck", "bob"), ("flag", "", None)))
    events = tuple(Stamped(v, 2.0, ChatSaid("bob", "hi")) for v in range(2, 8))
    saved = RoomSave("k7m2", PILO, "bob", "(;GA[pilo])", recent=said, events=events)
    assert store.save_room(saved) == 7
    # A save without them (the finish of a game whose end was not saved) keeps them, and
    # its version (it has no events).
    store.save_room(RoomSave("k7m2", PILO, "bob", None))
    stored = store.room("k7m2")
    assert stored is not None and stored.recent == said and stored.version == 7
    store.close()
    # Not what the store writes there: the file's damage, in its one sentence.
    for bad in ('{"version": 1}', '{"version": 2, "changes": [["play", 5, null]]}', "[[[["):
        with sqlite3.connect(path) as db:
            db.execute("UPDATE rooms SET recent = ? WHERE code = 'k7m2'", (bad,))
        db.close()
        store = SqliteStore(path)
        with pytest.raises(StoreError, match=r"^the store's file is damaged$"):
            store.room("k7m2")
        store.close()


def as_at_version(path: Path, version: int) -> None:
    """Take the store at `path` back to how migrations up to `version` left it: the tables
    and the rooms' columns of later migrations dropped, their versions forgotten."""
    earlier = sqlite3.connect(":memory:")
    for migration in MIGRATIONS:
        if migration.version <= version:
            for statement in migration.statements:
                earlier.execute(statement)
    tables = {
        row[0] for row in earlier.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }
    columns = {row[1] for row in earlier.execute("PRAGMA table_info(rooms)")}
    earlier.close()
    with sqlite3.connect(path) as db:
        kept = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in kept:
            if table not in tables | {"schema_version"}:
                db.execute(f"DROP TABLE {table}")
        for row in list(db.execute("PRAGMA table_info(rooms)")):
            if row[1] not in columns:
                db.execute(f"ALTER TABLE rooms DROP COLUMN {row[1]}")
        db.execute("DELETE FROM schema_version WHERE version > ?", (version,))
    db.close()


def test_a_store_of_the_version_before_gets_the_last_changes_column(tmp_path: Path) -> None:
    path = a_store(tmp_path / "server.db", rooms=2)
    as_at_version(path, 3)  # as the version before left it
    store = SqliteStore(path)
    stored = store.room("r001")
    assert stored is not None and stored.joiner == "bob" and stored.recent is None
    store.close()
    assert check(path).endswith(f"at version {NEWEST} (this version's)")
