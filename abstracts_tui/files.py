"""Writing files so that nothing is lost: atomic replacement, and the autosave's writer.

A file is written through a temporary file in the same folder, flushed to the disk, and
renamed over the old one, and then the folder itself is flushed, so that a crash or a
power cut leaves either the old file or the new one, never half of one. A file saved over
keeps its permissions; a new one gets 0644 (less what the umask takes). A private file
(a game in progress: the autosave) is 0600 and the folders made for it 0700, whatever the
umask. A process killed while it writes leaves its temporary file (`.NAME.XXXXXXXX.tmp`):
`clean_stale` removes those older than a minute that no live process is writing (the
writer holds a lock on its temporary file while it writes).

The autosave is written off the caller's thread (the app's event loop, which over SSH
every player shares) by one writer thread for the whole process, right after each change:
the text to write is taken at once, so nothing later can change it, and only the newest
text of each file is written when changes come faster than the disk. The same writer
keeps other things than files (an SSH room's row in the server's store): `put` takes the
work that saves the newest state, made on the caller's thread from a snapshot. A failure
never reaches the caller: the autosave keeps a sentence saying what went wrong
(`problem`), tells its owner, and tries again with the next change, or, if none comes,
after `FIRST_RETRY_SECONDS`, then twice as long each time up to `RETRY_SECONDS` (a disk
freed at once is found at once; one that stays full costs one attempt in ten seconds).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

NEW_FILE_MODE = 0o644
PRIVATE_FILE_MODE = 0o600
PRIVATE_FOLDER_MODE = 0o700
STALE_SECONDS = 60.0
"""A temporary file older than this that no process is writing is a leftover."""
TEMPORARY = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp(-wal|-shm|-journal)?")
"""The names of the temporary files `write_atomic` (and the SQLite store) make."""
FIRST_RETRY_SECONDS = 1.0
"""How long after the first failed save the autosave tries it again, if nothing changed."""
RETRY_SECONDS = 10.0
"""The longest wait between two attempts of a save that keeps failing."""

log = logging.getLogger(__name__)


def write_atomic(
    path: Path, text: str, *, mode: int = NEW_FILE_MODE, private: bool = False
) -> None:
    """Write `text` (UTF-8) to `path` through a temporary file and a rename.

    A file saved over keeps its permissions; a new one gets `mode` less the umask. A
    `private` file is 0600 whatever it was, in folders made 0700 if missing.
    Raises `OSError` (nothing is changed then) if the folder cannot be written.
    """
    target = Path(os.path.realpath(path))  # saving over a link writes the file it names
    folder = target.parent
    if private:
        private_folder(folder)
        mode = PRIVATE_FILE_MODE
    else:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode &= ~_umask()
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            _lock(handle.fileno(), wait=True)  # this file is being written: not a leftover
            os.fchmod(handle.fileno(), mode)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
            os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    sync_folder(folder)


def private_folder(folder: Path) -> None:
    """Make `folder` and the folders above it that are missing, each 0700 whatever the
    umask (the umask applies to mkdir's mode: each is set after); folders there already
    are left as they are."""
    missing = []
    for parent in [folder, *folder.parents]:
        if os.path.isdir(parent):
            break
        missing.append(parent)
    for made in reversed(missing):
        try:
            made.mkdir(mode=PRIVATE_FOLDER_MODE)
        except FileExistsError:
            if not made.is_dir():
                raise
            continue  # made meanwhile by another thread or process: theirs
        fd = os.open(made, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.fchmod(fd, PRIVATE_FOLDER_MODE)
        finally:
            os.close(fd)


def _lock(fd: int, *, wait: bool) -> bool:
    """Lock the open file `fd` for this process (False if another holds it and not
    `wait`)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def clean_stale(folder: Path, *, age: float = STALE_SECONDS) -> list[str]:
    """Remove the temporary files in `folder` (not below) left by a process killed while
    it wrote them: older than `age` seconds, and written by no live process. Returns the
    names removed; a folder that cannot be read is left as it is."""
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        if not TEMPORARY.fullmatch(name):
            continue
        path = folder / name
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < age:
                continue
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            if _lock(fd, wait=False):
                path.unlink()
                removed.append(name)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries to the disk (a rename is durable only then)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # some systems cannot open folders; the rename has happened all the same
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on folders; nothing more can be done
    finally:
        os.close(fd)


_umask_lock = threading.Lock()


def _umask() -> int:
    with _umask_lock:  # os.umask can only be read by setting it
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "it is a folder",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EEXIST: "a part of the path is a file, not a folder",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ENOENT: "no such file or folder",
    errno.EIO: "the disk failed (input/output error)",
}


def describe(error: OSError) -> str:
    """What went wrong, in words a player can act on: `the disk is full`."""
    return REASONS.get(error.errno or 0) or error.strerror or str(error)


class SaveError(Exception):
    """A save that failed for another reason than a file's (a database's); the message
    says why in words a player can act on, as `describe` does for files."""


class Autosave:
    """Keeps one file (or any one thing) up to date with the newest state given, written off
    the caller's thread.

    `problem` is None while every write succeeds, else why it is not being written (`the
    disk is full`); `on_problem` is called (from the writer thread) whenever that changes.
    `flush()` waits until the newest state is saved (or has failed). `path` is where the
    state goes, as the player is told: the file, or the store's file.
    """

    def __init__(self, path: Path, on_problem: Callable[[], None] | None = None) -> None:
        self.path = path
        self.on_problem = on_problem
        self.problem: str | None = None
        self._lock = threading.Lock()
        self._pending: Callable[[], object] | None = None
        self._version = 0
        self._failures = 0  # in a row, for the wait before the next attempt
        self._idle = threading.Event()
        self._idle.set()

    def write(self, text: str) -> None:
        """Write `text` to the file soon (at once, unless a write is under way); the file
        is private (0600, in folders made 0700): a game in progress is its player's."""
        self.put(partial(write_atomic, self.path, text, private=True))

    def put(self, save: Callable[[], object]) -> None:
        """Run `save` on the writer thread soon, unless a newer one is put before it starts:
        each must save the whole state (a snapshot taken by the caller), so that only the
        newest matters. It may raise OSError or SaveError, which become `problem`."""
        with self._lock:
            scheduled = self._pending is not None
            self._pending = save
            self._version += 1
            self._idle.clear()
        if not scheduled:
            _writer().submit(self._write_pending)

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until the newest state is saved (or failed); False on a timeout."""
        return self._idle.wait(timeout)

    def _write_pending(self) -> None:
        with self._lock:
            save, version = self._pending, self._version
        problem: str | None = None
        if save is not None:
            try:
                save()
            except OSError as error:
                problem = describe(error)
            except SaveError as error:
                problem = str(error)
            except Exception as error:  # a fault of the program's: the writer must go on
                log.exception("saving to %s failed", self.path)
                problem = f"saving failed ({type(error).__name__})"
        self._failures = 0 if problem is None else self._failures + 1
        if problem != self.problem:
            self.problem = problem
            if self.on_problem is not None:
                self.on_problem()
        with self._lock:
            newer = self._version != version
            if not newer:
                self._pending = None
                self._idle.set()
        if newer:
            _writer().submit(self._write_pending)
        elif problem is not None and save is not None:
            # Tried again later: the last change of a game (its end) may have no next one.
            wait = min(FIRST_RETRY_SECONDS * 2 ** (self._failures - 1), RETRY_SECONDS)
            retry = threading.Timer(wait, self._retry, (save, version))
            retry.daemon = True
            retry.start()

    def cancel(self) -> None:
        """Try no failed save again (what it saves is being deleted); call after `flush`."""
        with self._lock:
            self._version += 1

    def _retry(self, save: Callable[[], object], version: int) -> None:
        """Put the failed save again, unless a newer one was put meanwhile."""
        with self._lock:
            if self._version != version:
                return
        with contextlib.suppress(RuntimeError):  # the process is ending: no more saves
            self.put(save)


_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _writer() -> ThreadPoolExecutor:
    """The process's one writer thread (its work is finished before the process exits)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        return _executor


def _forget_writer() -> None:
    """In a forked child: the parent's writer thread is not there, so the child makes its
    own at its first save (a session's process forked from one that saved a game, as the
    SSH server's warm-up does, would otherwise queue its saves to no thread)."""
    global _executor, _executor_lock
    _executor = None
    _executor_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_writer)
