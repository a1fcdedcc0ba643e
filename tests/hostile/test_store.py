"""The server's store and files under hostile conditions, at small counts (see
`store_cases`; `scripts/hostile_store.py` runs the same at larger ones): store files
damaged before the start and while the server runs, umasks that would open the players'
files, temporary files left by killed writers, a database outage under two processes, and
room clocks held through a database outage and another program's lock."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import store_cases


def test_damaged_store_files_are_refused_in_one_sentence_and_never_written_to(
    tmp_path: Path,
) -> None:
    report = store_cases.damaged_store_files(tmp_path, count=15)
    assert report.failures == []
    assert report.cases == 2 * len(store_cases.NAMED) + 15


def test_a_store_damaged_while_the_server_runs_is_told_logged_once_and_left_alone(
    tmp_path: Path,
) -> None:
    report = store_cases.damage_while_running(tmp_path, runs=1)
    assert report.failures == []
    # The player in a hot-seat game meanwhile was not kept waiting by the failing saves.
    assert report.stalls_ms and max(report.stalls_ms) < 2000, report.stalls_ms


@pytest.mark.parametrize("umask", [0o000, 0o077])
def test_whatever_the_umask_the_players_files_are_theirs_alone(tmp_path: Path, umask: int) -> None:
    report = store_cases.umask_starts(tmp_path, [umask])
    assert report.failures == []


def test_temporary_files_left_by_killed_writers_are_removed_at_the_start_and_nothing_else(
    tmp_path: Path,
) -> None:
    report = store_cases.stale_temporary_files(tmp_path, count=5)
    assert report.failures == []


def test_after_a_database_outage_two_processes_show_their_players_connected(
    tmp_path: Path,
) -> None:
    report = store_cases.database_outages(tmp_path, outages=1, seconds=3)
    assert report.failures == []
    assert report.cases == 1


def test_through_a_database_outage_the_clock_is_held_and_nobody_loses_on_time(
    tmp_path: Path,
) -> None:
    report = store_cases.clocks_through_outages(tmp_path, outages=1, seconds=14)
    assert report.failures == []
    assert report.cases == 1


def test_through_a_lock_held_by_another_program_the_clock_is_held_and_nobody_loses_on_time(
    tmp_path: Path,
) -> None:
    report = store_cases.clocks_through_locks(tmp_path, locks=1, seconds=14)
    assert report.failures == []
    assert report.cases == 1
    assert report.stalls_ms and max(report.stalls_ms) < 2000, report.stalls_ms
