"""The notices' store (`store.notices`) and quiet hours: a player's setting kept, and a
notice claimed once however many claim it at once (two processes of a server on
PostgreSQL, each with a store of its own, hear the same event)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest

from abstracts_tui.server.notify_setting import Quiet
from abstracts_tui.store import SqliteStore, Store
from abstracts_tui.store.notices import NoticeRow, claim, forget_old, keep_setting, setting


def two_stores(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Store, Store]:
    """Two stores of one database, as two processes of a server have."""
    if kind == "sqlite":
        return SqliteStore(tmp_path / "server.db"), SqliteStore(tmp_path / "server.db")
    from abstracts_tui.store.postgres import PostgresStore

    url = request.getfixturevalue("database_url")
    return PostgresStore(url), PostgresStore(url)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_setting_is_kept_and_each_notice_is_claimed_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    first, second = two_stores(kind, tmp_path, request)
    try:
        assert setting(first, "ann") == NoticeRow(None, None)
        keep_setting(first, "ann", NoticeRow("https://ntfy.sh/ann", (22, 7, 120)))
        assert setting(second, "ann") == NoticeRow("https://ntfy.sh/ann", (22, 7, 120))
        keep_setting(second, "ann", NoticeRow(None, (22, 7, 120)))
        assert setting(first, "ann") == NoticeRow(None, (22, 7, 120))
        # Both processes hear bob's move (room k7m2's event 7) and claim it at once, a
        # few times over: one claim is taken, the others are not.
        with ThreadPoolExecutor(8) as pool:
            claims = list(
                pool.map(lambda store: claim(store, "ann", "k7m2", 7, "move"), [first, second] * 4)
            )
        assert claims.count(True) == 1
        assert claim(first, "ann", "k7m2", 8, "move")  # the next event is another notice
        assert claim(second, "bob", "k7m2", 7, "end")  # and so is another player's
        forget_old(first)  # keeps those of the last days
        assert not claim(second, "ann", "k7m2", 7, "move")
    finally:
        first.close()
        second.close()


def at(hour: int, minute: int = 0) -> float:
    """A Unix time at `hour`:`minute` UTC."""
    return datetime(2026, 1, 5, hour, minute, tzinfo=UTC).timestamp()


def test_quiet_hours_hold_a_notice_until_they_end() -> None:
    night = Quiet(22, 7)
    assert night.holds(at(23, 30)) == 7.5 * 3600
    assert night.holds(at(3)) == 4 * 3600
    assert night.holds(at(7)) == 0
    assert night.holds(at(12)) == 0
    assert night.holds(at(22)) == 9 * 3600
    lunch = Quiet(12, 14)
    assert lunch.holds(at(13)) == 3600
    assert lunch.holds(at(14)) == 0
    # 22-7 at UTC+2 is 20-5 UTC.
    east = Quiet(22, 7, 120)
    assert east.holds(at(20, 30)) == 8.5 * 3600
    assert east.holds(at(5)) == 0
    assert east.text() == "22-7 UTC+02:00"
    assert Quiet(22, 7, -330).text() == "22-7 UTC-05:30"
