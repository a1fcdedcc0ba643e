"""The SQLite store's file: made new only where there is none, used only while it is sound.

- A new store is made under a temporary name in its folder (`.server.db.XXXXXXXX.tmp`,
  owner-only whatever the umask), its tables made, then linked into place: a file at the
  store's path is one the program finished making, so an existing file is never replaced
  or written over. A file that is empty (0 bytes), is not an SQLite database, is another
  program's database (it has no `schema_version`), or that SQLite's quick check finds
  damaged is refused with a sentence naming it.
- While the server runs its one connection keeps pages in memory and never reads them
  again, so damage done to the file by another program would go unseen (and a checkpoint
  would write the server's pages over whatever is there). `Watch` notices when the file
  was changed by somebody else (its size, time or identity are not what the store's own
  last write left) and then checks it with a fresh connection: the header, then SQLite's
  quick check.
- `check` is what `serve --check` runs: SQLite's full integrity check and the schema
  version, reading the file only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .base import StoreError
from .schema import MIGRATIONS, NewerStore, migrate
from .sqlite_errors import reason

MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database."""
LEAVE_IT = (
    "the server writes nothing to it (move it away and put back a copy, or move it away "
    "to start with a new store)"
)


def make_new(path: Path) -> None:
    """Make a new, empty store at `path` (its tables made), unless a file is there by the
    time it is ready (another process made one meanwhile: that one is kept)."""
    temp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.fchmod(fd, 0o600)  # the umask applies to open's mode: set it after
        finally:
            os.close(fd)
    except OSError as error:
        raise StoreError(f"{path} cannot be made: {error.strerror}") from None
    try:
        db = sqlite3.connect(temp, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            migrate(db)
        finally:
            db.close()  # the last connection: the WAL is written into the file and removed
        _link(temp, path)
    except sqlite3.Error as error:
        raise StoreError(f"{path} cannot be made: {reason(error)}") from None
    except OSError as error:
        raise StoreError(f"{path} cannot be made: {error.strerror}") from None
    finally:
        for leftover in (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()
    _sync_folder(path.parent)


def _link(temp: Path, path: Path) -> None:
    """Put the new store at `path`, never over a file there."""
    try:
        os.link(temp, path, follow_symlinks=False)
    except FileExistsError:
        return  # made by another process meanwhile (or a link put there): examined next
    except OSError:  # a file system without hard links
        if not os.path.lexists(path):
            os.rename(temp, path)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def examine_file(path: Path) -> None:
    """Raise StoreError unless `path` is a regular file, no link, that starts as an SQLite
    database does."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if os.path.islink(path):
            raise StoreError(f"{path} is a symbolic link (the server follows none)") from None
        raise StoreError(f"{path} cannot be opened: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"{path} is not a regular file")
        if info.st_size == 0:
            raise StoreError(f"{path} is empty (0 bytes), so it holds no store: {LEAVE_IT}")
        head = os.pread(fd, len(MAGIC), 0)
    except OSError as error:
        raise StoreError(f"{path} cannot be read: {error.strerror}") from None
    finally:
        os.close(fd)
    if head != MAGIC:
        raise StoreError(f"{path} is not a database (no SQLite header): {LEAVE_IT}")


def examine_tables(db: sqlite3.Connection, path: Path, *, full: bool = False) -> int:
    """Raise StoreError unless the database `db` at `path` is a store of this program and
    SQLite's quick check (`full`: integrity check) finds nothing wrong; returns its
    schema version."""
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "schema_version" not in tables:
            what = "has no tables" if not tables else "is a database of another program"
            raise StoreError(
                f"{path} {what} (no schema_version table), so it is no store of "
                f"abstracts-tui: {LEAVE_IT}"
            )
        pragma = "integrity_check" if full else "quick_check"
        found = [str(row[0]) for row in db.execute(f"PRAGMA {pragma}(5)")]
        if found != ["ok"]:
            check = "integrity check" if full else "quick check"
            lines = [line for line in "\n".join(found).splitlines() if not line.startswith("*")]
            first = (lines or found)[0][:200]
            raise StoreError(f"{path} is damaged (SQLite's {check}: {first}): {LEAVE_IT}")
        row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    except UnicodeDecodeError:
        raise StoreError(f"{path} is damaged (a text in it is not UTF-8): {LEAVE_IT}") from None
    except sqlite3.Error as error:
        name = getattr(error, "sqlite_errorname", "") or ""
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            said = reason(error)
            raise StoreError(f"{path} is damaged (SQLite says: {said}): {LEAVE_IT}") from None
        raise StoreError(f"{path} cannot be read: {reason(error)}") from None
    return int(row[0] or 0)


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that reads `path` and can change nothing."""
    uri = f"file:{quote(str(path.absolute()))}?mode=ro"
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)


def check(path: Path) -> str:
    """What `serve --check` says of the store at `path`: a sentence when it is sound;
    raises StoreError saying what is wrong. Reads only."""
    if not os.path.lexists(path):
        raise StoreError(f"there is no store at {path} (the server's first start makes one)")
    examine_file(path)
    try:
        db = read_only(path)
    except sqlite3.Error as error:
        raise StoreError(f"{path} cannot be opened: {reason(error)}") from None
    try:
        version = examine_tables(db, path, full=True)
    finally:
        db.close()
    newest = max(migration.version for migration in MIGRATIONS)
    if version > newest:
        raise StoreError(f"{path} cannot be used: {NewerStore.message(version, newest)}")
    tables = f"its tables are at version {version}"
    tables += " (this version's)" if version == newest else f" (the start makes them {newest})"
    return f"{path} is sound: SQLite's integrity check finds nothing wrong, and {tables}"


@dataclass(frozen=True)
class Seen:
    """The file as the store left it: which file, its size and when it was last changed."""

    device: int
    inode: int
    size: int
    changed: int


def seen(path: Path) -> Seen | None:
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return Seen(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


class Watch:
    """Notices another program changing the store's file under the server (see the
    module's text)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        first = seen(path)
        assert first is not None
        self.file = (first.device, first.inode)
        self.last = first

    def written(self) -> None:
        """The store's own write is done (its checkpoints change the file)."""
        self.last = seen(self.path) or self.last

    def problem(self) -> str | None:
        """Why the file cannot be trusted any more, if another program changed it so; None
        while it is as the store left it, or still sound."""
        now = seen(self.path)
        if now == self.last:
            return None
        if now is None:
            return "was removed"
        if (now.device, now.inode) != self.file:
            return "was replaced by another file"
        try:
            examine_file(self.path)
            db = read_only(self.path)
            try:
                examine_tables(db, self.path)
            finally:
                db.close()
        except (StoreError, sqlite3.Error) as error:
            return str(error).removeprefix(f"{self.path} ").split(": the server")[0]
        self.last = now  # changed by another connection that knows SQLite: sound
        return None
