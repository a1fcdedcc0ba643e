"""Files written so that nothing is lost: permissions, links, failures, the autosave."""

from __future__ import annotations

import itertools
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from abstracts_tui import files
from abstracts_tui.files import Autosave, SaveError, describe, write_atomic
from tests.disks import full_disk, read_only


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_is_0644_under_the_usual_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "game.sgf", "(;)")
    finally:
        os.umask(old)
    assert mode(tmp_path / "game.sgf") == 0o644
    assert (tmp_path / "game.sgf").read_text() == "(;)"


def test_a_stricter_umask_is_honoured(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "game.sgf", "(;)")
    finally:
        os.umask(old)
    assert mode(tmp_path / "game.sgf") == 0o600


@pytest.mark.parametrize("kept", [0o600, 0o640, 0o664])
def test_a_file_saved_over_keeps_its_permissions(tmp_path: Path, kept: int) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("old")
    path.chmod(kept)
    write_atomic(path, "new")
    assert path.read_text() == "new"
    assert mode(path) == kept


def test_saving_over_a_link_writes_the_file_it_names(tmp_path: Path) -> None:
    real = tmp_path / "records" / "game.sgf"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "game.sgf"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_no_temporary_file_is_left_behind(tmp_path: Path) -> None:
    for text in ("one", "two", "three"):
        write_atomic(tmp_path / "game.sgf", text)
    assert [p.name for p in tmp_path.iterdir()] == ["game.sgf"]


def test_a_read_only_folder_refuses_and_leaves_the_old_file_whole(tmp_path: Path) -> None:
    with read_only(tmp_path / "ro", {"game.sgf": "old"}) as folder:
        with pytest.raises(OSError) as raised:
            write_atomic(folder / "game.sgf", "new")
        assert describe(raised.value) in ("the disk is read-only", "permission denied")
        assert (folder / "game.sgf").read_text() == "old"
        assert [p.name for p in folder.iterdir()] == ["game.sgf"]


def test_a_full_disk_refuses_and_leaves_the_old_file_whole(tmp_path: Path) -> None:
    with full_disk(tmp_path / "full", {"game.sgf": "old"}) as folder:
        with pytest.raises(OSError) as raised:
            write_atomic(folder / "game.sgf", "new" * 20_000)
        assert describe(raised.value) == "the disk is full"
        assert (folder / "game.sgf").read_text() == "old"
        assert sorted(p.name for p in folder.iterdir()) == [".filler", "game.sgf"]


def test_the_autosave_says_why_it_cannot_write_and_recovers(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    changes = threading.Semaphore(0)
    autosave = Autosave(blocker / "games" / "game.sgf", changes.release)
    autosave.write("first")
    assert autosave.flush()
    assert changes.acquire(timeout=5)
    assert autosave.problem == "a part of the path is a file, not a folder"
    blocker.unlink()
    autosave.write("second")
    assert autosave.flush()
    assert changes.acquire(timeout=5)
    assert autosave.problem is None
    assert (blocker / "games" / "game.sgf").read_text() == "second"


def test_the_autosave_writes_the_newest_text_when_changes_come_fast(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path / "game.sgf")
    for number in range(200):
        autosave.write(f"version {number}")
    assert autosave.flush()
    assert (tmp_path / "game.sgf").read_text() == "version 199"
    assert autosave.problem is None


def test_the_autosave_keeps_any_state_through_put_and_says_why_a_save_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "FIRST_RETRY_SECONDS", 0.1)
    saved: list[str] = []
    failing = threading.Event()
    changes = threading.Semaphore(0)

    def save(state: str) -> None:
        if failing.is_set():
            raise SaveError("the store is locked by another program")
        saved.append(state)

    autosave = Autosave(tmp_path / "server.db", changes.release)
    failing.set()
    autosave.put(lambda: save("first"))
    assert autosave.flush()
    assert changes.acquire(timeout=5)
    assert autosave.problem == "the store is locked by another program"
    failing.clear()  # tried again without a new state: a game's end has no next move
    assert changes.acquire(timeout=5)
    assert autosave.problem is None and saved == ["first"]
    for number in range(100):  # a whole state each: only the newest needs saving
        autosave.put(lambda number=number: save(f"state {number}"))
    assert autosave.flush()
    assert autosave.problem is None
    assert saved[-1] == "state 99"


def test_a_save_that_keeps_failing_is_tried_again_less_and_less_often(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "FIRST_RETRY_SECONDS", 0.05)
    monkeypatch.setattr(files, "RETRY_SECONDS", 0.4)
    attempts: list[float] = []

    def save() -> None:
        attempts.append(time.monotonic())
        raise SaveError("the store is locked by another program")

    autosave = Autosave(tmp_path / "server.db")
    autosave.put(save)
    time.sleep(1.6)
    autosave.cancel()
    waits = [later - earlier for earlier, later in itertools.pairwise(attempts)]
    # 0.05, 0.1, 0.2, 0.4, 0.4 s: longer each time (a fixed 0.05 s would try 30 times)
    assert 3 <= len(waits) <= 6, waits
    assert waits[2] > 0.15, waits


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
def test_a_private_file_is_0600_in_folders_made_0700_whatever_the_umask(
    tmp_path: Path, umask: int
) -> None:
    (tmp_path / "open").mkdir()
    (tmp_path / "open").chmod(0o755)  # a folder there already is the user's choice
    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "open" / "data" / "game.sgf", "(;)", private=True)
        write_atomic(tmp_path / "data" / "games" / "game.sgf", "(;)", private=True)
        (tmp_path / "data" / "games" / "old.sgf").write_text("(;)")
        (tmp_path / "data" / "games" / "old.sgf").chmod(0o644)
        write_atomic(tmp_path / "data" / "games" / "old.sgf", "(;)", private=True)
    finally:
        os.umask(old)
    for folder in (tmp_path / "data", tmp_path / "data" / "games"):
        assert mode(folder) == 0o700, folder
    assert mode(tmp_path / "data" / "games" / "game.sgf") == 0o600
    assert mode(tmp_path / "data" / "games" / "old.sgf") == 0o600  # an older file too
    assert (mode(tmp_path / "open"), mode(tmp_path / "open" / "data")) == (0o755, 0o700)


def test_the_autosave_writes_private_files(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        autosave = Autosave(tmp_path / "games" / "game.sgf")
        autosave.write("(;)")
        assert autosave.flush()
    finally:
        os.umask(old)
    assert mode(tmp_path / "games") == 0o700
    assert mode(tmp_path / "games" / "game.sgf") == 0o600


def aged(path: Path, seconds: float) -> Path:
    when = time.time() - seconds
    os.utime(path, (when, when), follow_symlinks=False)
    return path


def test_temporary_files_left_by_a_killed_writer_are_removed_and_no_other(tmp_path: Path) -> None:
    left = tmp_path / ".game.sgf.k2j4x9_a.tmp"
    left.write_text("half a game")
    aged(left, 120)
    fresh = tmp_path / ".other.sgf.abcdefgh.tmp"  # being written now, or a moment ago
    fresh.write_text("a game being written")
    wal = tmp_path / ".server.db.0a1b2c3d.tmp-wal"  # a new store's, never finished
    wal.write_text("")
    aged(wal, 120)
    game = tmp_path / "game.sgf"  # not a temporary file, however old
    game.write_text("(;)")
    aged(game, 3600)
    odd = tmp_path / ".notes.tmp"  # not a name the writer makes
    odd.write_text("")
    aged(odd, 3600)
    target = tmp_path / "elsewhere.txt"
    target.write_text("kept")
    link = tmp_path / ".link.sgf.zzzzzzzz.tmp"
    link.symlink_to(target)
    aged(link, 3600)
    assert sorted(files.clean_stale(tmp_path)) == [left.name, wal.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [fresh.name, game.name, odd.name, target.name, link.name]
    )
    assert target.read_text() == "kept"


def test_a_temporary_file_another_process_is_writing_is_never_removed(tmp_path: Path) -> None:
    import subprocess
    import sys

    temp = tmp_path / ".game.sgf.abcdefgh.tmp"
    temp.write_text("")
    aged(temp, 600)  # old, but its writer holds it: a write that takes long
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time\n"
            f"handle = open({str(temp)!r}, 'a')\n"
            "fcntl.flock(handle, fcntl.LOCK_EX)\n"
            "print('locked', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "locked\n"
        assert files.clean_stale(tmp_path) == []
        assert temp.exists()
    finally:
        assert writer.stdin is not None
        writer.stdin.close()
        writer.wait(10)
    assert files.clean_stale(tmp_path) == [temp.name]  # its writer is gone now


def test_the_games_in_progress_are_listed_after_the_leftovers_of_killed_writes_go(
    tmp_path: Path,
) -> None:
    from abstracts_tui.saved_games import SavedGames

    games = tmp_path / "games"
    games.mkdir()
    left = games / ".2026-11-23-140512-pilo.sgf.q1w2e3r4.tmp"
    left.write_text("(;GM[1000]GA[pi")  # half a game: the kill came during the write
    aged(left, 300)
    found, problems = SavedGames(tmp_path).read()
    assert (found, problems) == ([], [])
    assert list(games.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a forked child's saves need fork")
def test_a_process_forked_from_one_that_saved_still_saves(tmp_path: Path) -> None:
    """The SSH server forks each session from a process that has played (and saved) a
    game: the child's saves go to a writer thread of its own, not to the parent's, which
    a fork leaves behind."""
    first = Autosave(tmp_path / "parent.sgf")
    first.write("(;GA[pilo])")
    assert first.flush()
    child = os.fork()
    if child == 0:  # the child: exit 0 only if its own save is written
        saved = Autosave(tmp_path / "child.sgf")
        saved.write("(;GA[petrify])")
        os._exit(0 if saved.flush(5) and (tmp_path / "child.sgf").exists() else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert (tmp_path / "child.sgf").read_text() == "(;GA[petrify])"
