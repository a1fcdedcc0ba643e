"""The server's own folder: read without following links, set bad files aside, sync folders.

Everything the server keeps is under its data folder, and files there can outlive the
process that wrote them: a disk fault, an older version or a hand edit can leave anything.
So what the server reads back is opened without following a symbolic link (a link could
lead it to read or overwrite files outside the folder), must be a regular file (a FIFO
would block the start) and has a size limit; folders it makes are the owner's alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from ..files import PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, clean_stale, private_folder
from .limits import ConfigError


class RefusedFile(Exception):
    """A file the server will not read (the message says why)."""


def read_own_file(path: Path, limit: int) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes that is no link.

    Raises RefusedFile for a link, a special file or a file too big, OSError otherwise
    (FileNotFoundError when there is none).
    """
    if path.is_symlink():
        raise RefusedFile(f"{path.name} is a symbolic link (the server follows none)")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:  # made a link after the check above
            raise RefusedFile(f"{path.name} is a symbolic link (the server follows none)") from None
        raise
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RefusedFile(f"{path.name} is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise RefusedFile(f"{path.name} is larger than {limit:,} bytes")
    return data


def own_folder(path: Path, *, link: bool = False) -> Path:
    """`path` as a folder of the server's: made owner-only (0700, whatever the umask) if
    missing, with any folder above it that is missing; a link is refused unless `link`
    (the data folder itself is the operator's choice, and may be one)."""
    try:
        private_folder(path)
    except OSError as error:
        raise ConfigError(f"{path} cannot be made a folder: {error.strerror}") from None
    if (path.is_symlink() and not link) or not path.is_dir():
        raise ConfigError(
            f"{path} is a symbolic link or not a folder: the server keeps its files in "
            "folders of its own (move it away, or give another --data)"
        )
    return path


def tidy_user_files(data: Path) -> tuple[int, int]:
    """At the start: the players' folders (`users/NAME/` and its `games/`) owner-only,
    0700 and their files 0600 (earlier versions made them as the umask said), and the
    temporary files a killed writer left there, or in the data folder, removed. Links
    are neither followed nor changed. Returns how many files and folders were made
    owner-only, and how many leftovers were removed."""
    removed = len(clean_stale(data))
    users = own_folder(data / "users")
    tightened = 0
    try:
        names = sorted(os.listdir(users))
    except OSError:
        return tightened, removed
    for name in names:
        for folder in (users / name, users / name / "games"):
            tightened += _owner_only(folder, PRIVATE_FOLDER_MODE)
            if not _is_folder(folder):
                continue
            removed += len(clean_stale(folder))
            with contextlib.suppress(OSError):
                for entry in os.scandir(folder):
                    if entry.is_file(follow_symlinks=False):
                        tightened += _owner_only(Path(entry.path), PRIVATE_FILE_MODE)
    return tightened, removed


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _owner_only(path: Path, mode: int) -> int:
    """Set `path`'s mode to `mode` if it is more open (no link is followed); 1 if it was."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:  # a link (ELOOP), or gone
        return 0
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) & ~mode == 0:
            return 0
        os.fchmod(fd, mode)
    except OSError:
        return 0
    finally:
        os.close(fd)
    return 1


def fsync_folder(path: Path) -> None:
    """Make the names just written, renamed or moved in `path` survive a power cut."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def set_aside(folder: Path, names: list[str], into: str) -> list[str]:
    """Move the files `names` of `folder` that exist into `folder/into/`, keeping what is
    there already (a name taken gets `.1`, `.2`, ...); returns the names moved.

    A link is moved as the link, never followed. Raises ConfigError if `into` is not a
    folder of the server's own, OSError if a file cannot be moved.
    """
    target = own_folder(folder / into)
    moved = []
    for name in names:
        source = folder / name
        if not os.path.lexists(source):
            continue
        destination = target / name
        number = 0
        while os.path.lexists(destination):
            number += 1
            destination = target / f"{name}.{number}"
        os.rename(source, destination)
        moved.append(name)
    if moved:
        fsync_folder(target)
        fsync_folder(folder)
    return moved


def write_private_once(path: Path, data: bytes) -> None:
    """Create `path` (owner-only) with `data`, synced with its folder; FileExistsError if
    it exists already."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    fsync_folder(path.parent)
