"""Fixtures for every part of the tests: a PostgreSQL server, and a fresh database on it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from .postgres import Cluster, cluster

_numbers = itertools.count(1)


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
