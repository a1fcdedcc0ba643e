"""What the stores keep against abuse, on SQLite and on PostgreSQL: mutes and blocks,
reports (one per pair per day), suspensions, and the aborts counted from the rooms'
events."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from abstracts_tui.rooms.events import Ended, Joined, Made, Stamped
from abstracts_tui.server.moderation import ABORTS_PER_DAY, DAY, abort_refusal, sign_in_refusal
from abstracts_tui.store import RoomSave, RoomSetup, SqliteStore, Store
from abstracts_tui.store.moderation import (
    BLOCK,
    FOREVER,
    MUTE,
    Moderation,
    Relations,
    Report,
    Suspension,
)

Opener = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens the test's store anew at each call (as another process would)."""
    opened: list[Store] = []

    def opener() -> Store:
        store: Store
        if request.param == "sqlite":
            store = SqliteStore(tmp_path / "server.db")
        else:
            from abstracts_tui.store.postgres import PostgresStore

            store = PostgresStore(request.getfixturevalue("database_url"))
        opened.append(store)
        return store

    request.addfinalizer(lambda: [store.close() for store in opened])
    return opener


def moderation(store: Store) -> Moderation:
    found = Moderation.of(store)
    assert found is not None
    return found


def test_mutes_and_blocks_are_kept_for_each_person(open_store: Opener) -> None:
    ann = moderation(open_store())
    assert ann.relate("ann", "bob", MUTE, True, 1.0)
    assert not ann.relate("ann", "bob", MUTE, True, 2.0)  # muted already
    assert ann.relate("ann", "carl", BLOCK, True, 3.0)
    other = moderation(open_store())  # another process sees them
    assert other.relations("ann") == Relations(frozenset({"bob"}), frozenset({"carl"}))
    carl = other.relations("carl")
    assert carl.blocked_by == {"ann"} and carl.apart("ann") and not carl.hides("ann")
    assert other.relations("bob") == Relations()  # a mute is not told to the muted
    assert other.relate("ann", "bob", MUTE, False, 4.0)
    assert not other.relate("ann", "bob", MUTE, False, 5.0)
    assert ann.relations("ann").muted == frozenset()


def test_one_report_per_pair_per_day_and_the_newest_listed_first(open_store: Opener) -> None:
    kept = moderation(open_store())
    now = time.time()
    assert kept.report(Report("ann", "bob", "rude in chat", now - 2 * DAY), now - 3 * DAY)
    assert kept.report(Report("ann", "bob", "rude again", now), now - DAY)
    assert not kept.report(Report("ann", "bob", "and again", now + 1), now + 1 - DAY)
    assert kept.report(Report("carl", "bob", "stalls", now + 2), now + 2 - DAY)
    found = moderation(open_store()).reports(10)
    assert [(r.reporter, r.reason) for r in found] == [
        ("carl", "stalls"),
        ("ann", "rude again"),
        ("ann", "rude in chat"),
    ]


def test_a_suspension_runs_until_its_end_or_until_lifted(open_store: Opener) -> None:
    store = open_store()
    kept = moderation(store)
    now = time.time()
    kept.suspend(Suspension("bob", now + DAY, "abuse", "root"), now)
    kept.suspend(Suspension("carl", FOREVER, "spam", "root"), now)
    kept.suspend(Suspension("dan", now - 1, "old", "root"), now - DAY)  # over
    assert [s.name for s in kept.suspended(now)] == ["bob", "carl"]
    refusal = sign_in_refusal(open_store(), "bob", now)
    assert refusal is not None and refusal.startswith("bob is suspended until 20")
    assert refusal.endswith(" UTC (abuse).")
    assert sign_in_refusal(store, "carl", now) == (
        "carl is suspended until an admin lifts it (spam)."
    )
    assert sign_in_refusal(store, "dan", now) is None
    assert kept.unsuspend("bob") and not kept.unsuspend("bob")
    assert sign_in_refusal(store, "bob", now) is None


def aborted_room(store: Store, code: str, by: str | None, at: float) -> None:
    setup = RoomSetup("pilo", 8, creator="ann")
    events = (
        Stamped(1, at - 2, Made("ann", "pilo", 8)),
        Stamped(2, at - 1, Joined("bob")),
        Stamped(3, at, Ended(Ended.ABORTED, None, None, "The game is aborted.", by=by)),
    )
    store.save_room(RoomSave(code, setup, "bob", None, events=events))


def test_aborts_are_limited_per_day_from_the_rooms_events(open_store: Opener) -> None:
    store = open_store()
    now = time.time()
    aborted_room(store, "old0", "ann", now - DAY - 60)  # more than a day ago
    aborted_room(store, "late", None, now - 50)  # no first move in time: nobody's abort
    for number in range(ABORTS_PER_DAY - 1):
        aborted_room(store, f"ab{number:02}", "ann", now - 3600 + number)
    assert abort_refusal(store, "ann", now) is None
    aborted_room(store, "last", "ann", now - 10)
    refusal = abort_refusal(open_store(), "ann", now)
    first = time.strftime("%H:%M UTC", time.gmtime(now - 3600 + DAY))
    assert refusal == (
        f"You have aborted {ABORTS_PER_DAY} games in 24 hours: you may abort again at "
        f"{first}; resign instead, or play on."
    )
    assert abort_refusal(store, "bob", now) is None
