"""Failing disks for the tests: a folder that is full, or read-only, for real.

A full disk is a small tmpfs mounted for the test (root may mount; anyone else gets the
test skipped with the reason), filled at once or when the test says. A read-only folder
is a tmpfs remounted read-only for root (who ignores permission bits), and a folder
without write permission for anyone else.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(folder: Path, options: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("a full or read-only disk is made by mounting a tmpfs, which needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@contextmanager
def small_disk(folder: Path, size: str = "64k") -> Iterator[Path]:
    """`folder` as a small file system of its own, to fill up with `fill` when wanted."""
    folder.mkdir(parents=True, exist_ok=True)
    _mount(folder, f"size={size}")
    try:
        yield folder
    finally:
        _unmount(folder)


def fill(folder: Path) -> Path:
    """Fill the file system of `folder` up with a file; returns it (remove it to make room)."""
    filler = folder / ".filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 512):
            pass
    except OSError:
        pass  # full
    finally:
        os.close(fd)
    return filler


@contextmanager
def full_disk(folder: Path, files: dict[str, str] | None = None) -> Iterator[Path]:
    """`folder` as a tiny file system holding `files` (name -> text), then filled up."""
    with small_disk(folder):
        for name, text in (files or {}).items():
            (folder / name).write_text(text, encoding="utf-8")
        fill(folder)
        yield folder


@contextmanager
def read_only(folder: Path, files: dict[str, str] | None = None) -> Iterator[Path]:
    """`folder` holding `files` (name -> text), then made impossible to write to."""
    folder.mkdir(parents=True, exist_ok=True)
    root = os.geteuid() == 0
    if root:
        _mount(folder, "size=64k")
    try:
        for name, text in (files or {}).items():
            (folder / name).write_text(text, encoding="utf-8")
        if root:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            folder.chmod(0o555)
        yield folder
    finally:
        if root:
            _unmount(folder)
        else:
            folder.chmod(0o755)
