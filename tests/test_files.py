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
