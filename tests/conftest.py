"""Fixtures for every part of the tests: no user settings file, a PostgreSQL server, and a
fresh database on it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import Cluster, cluster

_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def no_user_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every test runs without the user's own settings file (an app built by the tests is
    the app with the default settings unless a test writes a file of its own)."""
    missing: Path = tmp_path_factory.getbasetemp() / "no-settings.toml"
    monkeypatch.setenv("ABSTRACTS_TUI_CONFIG", str(missing))


@pytest.fixture(autouse=True)
def computer_at_full_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer playing both sides moves as soon as it has decided (a person watching
    gets `pace.WATCHING_PACE` between its moves); the tests of the pace set their own."""
    monkeypatch.setenv("ABSTRACTS_TUI_PACE", "0")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One PostgreSQL server for the whole run (skipped with the reason without one)."""
    with cluster() as server:
        yield server


@pytest.fixture
def database_url(postgres: Cluster) -> Iterator[str]:
    """A new, empty database for the test; dropped after it."""
    name = f"test_{next(_numbers)}"
    url = postgres.create_database(name)
    yield url
    postgres.drop_database(name)
