"""What every store does, on SQLite and on PostgreSQL: rooms and their versions, the
archive, ratings changed once per game, names, imports."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.rooms.events import ChatSaid, Joined, Made, Rated, RatingChange, Stamped
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore, Store

PILO = RoomSetup("pilo", 8, creator="ann", rated=True)

Opener = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens the test's store anew at each call (as another process would)."""
    opened: list[Store] = []
    if request.param == "sqlite":

        def make() -> Store:
            return SqliteStore(tmp_path / "server.db")
    else:
        from abstracts_tui.store.postgres import PostgresStore

        url = request.getfixturevalue("database_url")

        def make() -> Store:
            return PostgresStore(url)

    def opener() -> Store:
        store = make()
        opened.append(store)
        return store

    request.addfinalizer(lambda: [store.close() for store in opened])
    return opener


def test_a_room_is_saved_whole_and_its_version_grows(open_store: Opener) -> None:
    store = open_store()
    made = Stamped(1, 1.0, Made("ann", "pilo", 8, rated=True, title="Pilo 8x8"))
    joined = Stamped(2, 2.5, Joined("bob"))
    said = Stamped(3, 3.25, ChatSaid("bob", "hi"))
    assert store.save_room(RoomSave("k7m2", PILO, None, None, events=(made,))) == 1
    assert store.save_room(RoomSave("k7m2", PILO, "bob", "(;GA[pilo])", events=(joined,))) == 2
    assert store.save_room(RoomSave("k7m2", PILO, "bob", None, events=(said,))) == 3  # kept
    assert store.save_room(RoomSave("k7m2", PILO, "bob", None)) == 3  # no event: no version
    assert store.events("k7m2", 0, 1000) == [made, joined, said]
    assert store.events("k7m2", 1, 1) == [joined]
    room = store.room("k7m2")
    assert room is not None
    assert (room.setup, room.joiner, room.sgf, room.version) == (PILO, "bob", "(;GA[pilo])", 3)
    assert room.finished is None and room.created <= room.updated
    assert room.updated.utcoffset() == UTC.utcoffset(None)
    assert store.room("zzzz") is None
    assert store.codes() == {"k7m2"}


def test_a_room_keeps_its_clock_from_its_making(open_store: Opener) -> None:
    # Before anyone joins there is no record to hold the clock: the room keeps it.
    clocked = RoomSetup("pilo", 8, creator="ann", clock="10m+3x30s")
    open_store().save_room(RoomSave("c10k", clocked, None, None))
    room = open_store().room("c10k")  # as another process, or the server restarted
    assert room is not None and room.setup.clock == "10m+3x30s"


def test_the_archive_lists_newest_first_by_player_and_page(open_store: Opener) -> None:
    store = open_store()
    for number, (code, joiner) in enumerate([("bbbb", "bob"), ("cccc", "carl"), ("dddd", "bob")]):
        store.save_room(RoomSave(code, PILO, joiner, f"(;C[{number}])"))
        time.sleep(0.002)  # SQLite keeps milliseconds: two saves in one would tie
    store.save_room(RoomSave("bbbb", PILO, "bob", "(;C[later])", Finish("Blue+2", "ann")))
    assert [r.code for r in store.rooms()] == ["bbbb", "dddd", "cccc"]
    assert [r.code for r in store.rooms(finished=True)] == ["bbbb"]
    assert [r.code for r in store.rooms(finished=False)] == ["dddd", "cccc"]
    assert [r.code for r in store.rooms(player="bob")] == ["bbbb", "dddd"]
    assert [r.code for r in store.rooms(player="carl", finished=True)] == []
    assert [r.code for r in store.rooms(limit=2, offset=1)] == ["dddd", "cccc"]
    finished = store.room("bbbb")
    assert finished is not None and (finished.result, finished.winner) == ("Blue+2", "ann")


def test_a_rated_game_changes_both_ratings_once(open_store: Opener) -> None:
    store = open_store()
    end = RoomSave("k7m2", PILO, "bob", "(;)", Finish("Blue+2", "ann"))
    store.save_room(end)
    store.save_room(end)  # saved again (a retry): the game is not rated again
    store.close()
    store = open_store()  # nor after a restart
    store.save_room(end)
    store.save_room(RoomSave("k7m2", PILO, "bob", "(;)", Finish("Orange+1", "bob")))
    ann, bob = after_game(Rating(), Rating(), 1.0)
    ratings = {r.name: r for r in store.ratings("pilo")}
    assert ratings["ann"].rating == pytest.approx(ann) and ratings["ann"].games == 1
    assert ratings["bob"].rating == pytest.approx(bob) and ratings["bob"].games == 1
    assert [r.name for r in store.ratings()] == ["ann", "bob"]  # the highest first
    assert store.ratings("petrify") == []
    # The lobby asks for the people it shows only.
    assert [r.name for r in store.ratings("pilo", ["bob", "carl"])] == ["bob"]
    assert [r.name for r in store.ratings(names={"ann", "bob"})] == ["ann", "bob"]
    assert store.ratings(names=[]) == []
    room = store.room("k7m2")
    assert room is not None and room.winner == "ann"  # the first finish stays
    # An unrated room's end changes no rating.
    store.save_room(RoomSave("x9zz", RoomSetup("pilo", 8, creator="ann"), "bob", "(;)"))
    store.save_room(
        RoomSave("x9zz", RoomSetup("pilo", 8, creator="ann"), "bob", "(;)", Finish("draw", None))
    )
    assert {r.name: r.games for r in store.ratings()} == {"ann": 1, "bob": 1}


def test_a_resignation_is_rated_and_an_aborted_game_is_not(open_store: Opener) -> None:
    store = open_store()
    store.save_room(RoomSave("void", PILO, "bob", "(;RE[Void])", Finish("Void", None)))
    assert store.ratings() == []  # called off: neither a draw nor a game
    room = store.room("void")
    assert room is not None and room.finished is not None and room.result == "Void"
    store.save_room(RoomSave("resn", PILO, "bob", "(;)", Finish("orange+R", "bob")))
    ratings = {r.name: r for r in store.ratings("pilo")}
    assert ratings["bob"].rating.value > ratings["ann"].rating.value
    assert {r.name: r.games for r in store.ratings()} == {"ann": 1, "bob": 1}


def test_open_challenges_are_listed_until_somebody_accepts_one(open_store: Opener) -> None:
    store = open_store()
    challenge = RoomSetup("pilo", 6, creator="ann", rated=True, clock="5m+3s", open=True)
    store.save_room(RoomSave("open", challenge, None, None))
    store.save_room(RoomSave("code", RoomSetup("pilo", creator="bob"), None, None))
    time.sleep(0.002)
    store.save_room(RoomSave("late", RoomSetup("petrify", creator="carl", open=True), None, None))
    store = open_store()  # as another process, or after a restart
    assert [r.code for r in store.rooms(challenges=True)] == ["late", "open"]
    room = store.room("open")
    assert room is not None and room.setup == challenge
    store.save_room(RoomSave("open", challenge, "dora", None))  # accepted
    assert [r.code for r in store.rooms(challenges=True)] == ["late"]
    store.save_room(
        RoomSave(
            "late",
            RoomSetup("petrify", creator="carl", open=True),
            None,
            None,
            Finish("Void", None),
        )
    )  # called off before anyone came
    assert store.rooms(challenges=True) == []
    assert [r.code for r in store.rooms(finished=False)] == ["open", "code"]


def test_four_processes_finishing_one_game_at_once_rate_it_once(open_store: Opener) -> None:
    open_store().save_room(RoomSave("k7m2", PILO, "bob", "(;)"))
    stores = [open_store() for _ in range(4)]  # as separate processes: own connections
    start = threading.Barrier(len(stores))
    finish = Finish("draw", None, datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))

    def end(store: Store) -> None:
        start.wait()
        store.save_room(RoomSave("k7m2", PILO, "bob", "(;)", finish))

    threads = [threading.Thread(target=end, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {r.name: r.games for r in stores[0].ratings()} == {"ann": 1, "bob": 1}
    room = stores[0].room("k7m2")
    assert room is not None and room.version == 2 and room.finished == finish.at
    # One `Rated` event, the room's next, with both players' ratings before and after.
    [rated] = stores[0].events("k7m2", 1, 1000)
    assert rated.version == 2 and isinstance(rated.event, Rated)
    assert rated.event.changes == (
        RatingChange("ann", "1500?", "1500?"),
        RatingChange("bob", "1500?", "1500?"),
    )


def test_two_games_of_one_player_ending_at_once_both_count(open_store: Opener) -> None:
    first = open_store()
    for code, joiner in (("bbbb", "bob"), ("cccc", "carl")):
        first.save_room(RoomSave(code, PILO, joiner, "(;)"))
    stores = [open_store(), open_store()]
    start = threading.Barrier(2)

    def end(store: Store, code: str, joiner: str) -> None:
        start.wait()
        store.save_room(RoomSave(code, PILO, joiner, "(;)", Finish("Blue+2", "ann")))

    threads = [
        threading.Thread(target=end, args=(store, code, joiner))
        for store, (code, joiner) in zip(stores, (("bbbb", "bob"), ("cccc", "carl")), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {r.name: r.games for r in first.ratings()} == {"ann": 2, "bob": 1, "carl": 1}


def test_names_keep_their_first_key(open_store: Opener) -> None:
    store = open_store()
    assert store.name_key("ann") is None
    assert store.keep_name("ann", "SHA256:first") == "SHA256:first"
    assert store.keep_name("ann", "SHA256:second") == "SHA256:first"
    assert store.name_key("ann") == "SHA256:first"


SKELETONS = [
    # (kept, asked, the same name?): what `names.skeleton` folds, in the store's SQL too.
    ("ann", "ANN", True),
    ("ann", "ann.", True),
    ("ann", "Ann_", True),
    ("ann", "a-n.n_", True),
    ("bob", "b0b", True),
    ("bob", "BOB", True),
    ("ilya", "I1ya", True),
    ("ilya", "llya", True),
    ("mary", "rnary", True),
    ("mary", "RNARY", True),
    ("ann", "anna", False),
    ("ann", "an", False),
    ("bob", "bo8", False),
    ("mary", "rnany", False),
    ("ann", "ANN\u0430", False),  # no player's name: never a look-alike of one
]


def test_a_name_is_kept_with_every_name_that_looks_like_it(open_store: Opener) -> None:
    from abstracts_tui.store.names import skeleton

    store = open_store()
    for number, kept in enumerate(sorted({kept for kept, _, _ in SKELETONS})):
        assert store.keep_name(kept, f"SHA256:{number}") == f"SHA256:{number}"
    for kept, asked, same in SKELETONS:
        owner = store.name_key(kept)
        assert (skeleton(asked) == skeleton(kept)) is same, (kept, asked)
        assert (store.name_key(asked) == owner) is same, (kept, asked)  # the SQL's the same
        if same:  # another key cannot take it; the key of the name is told instead
            assert store.keep_name(asked, "SHA256:other") == owner, (kept, asked)
    # The owner logging in as a look-alike keeps no second name: it is the same one.
    assert store.keep_name("ANN", store.name_key("ann") or "") == store.name_key("ann")
    assert store.key_names(store.name_key("ann") or "") == ["ann"]
    assert store.key_names("SHA256:other") == []


def test_a_key_keeps_at_most_its_names(open_store: Opener) -> None:
    store = open_store()
    for name in ("ann", "bob", "cy"):
        assert store.keep_name(name, "SHA256:one", 3) == "SHA256:one"
    assert store.keep_name("dee", "SHA256:one", 3) is None
    assert store.name_key("dee") is None
    assert store.keep_name("Bob", "SHA256:one", 3) == "SHA256:one"  # its own: no new name
    assert open_store().key_names("SHA256:one") == ["ann", "bob", "cy"]  # the first first
    assert store.keep_name("dee", "SHA256:two", 3) == "SHA256:two"


def test_look_alikes_kept_at_once_by_several_processes_go_to_one_key(
    open_store: Opener,
) -> None:
    names = ["ann", "ANN", "ann.", "Ann_", "a-nn", "A.N.N"]
    stores = [open_store() for _ in names]
    start = threading.Barrier(len(names))
    kept: list[str | None] = [None] * len(names)

    def keep(number: int) -> None:
        start.wait()
        kept[number] = stores[number].keep_name(names[number], f"SHA256:{number}")

    threads = [threading.Thread(target=keep, args=(number,)) for number in range(len(names))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(kept)) == 1 and kept[0] is not None
    assert sum(len(stores[0].key_names(f"SHA256:{n}")) for n in range(len(names))) == 1


def test_look_alikes_kept_before_keep_their_keys_and_are_told(open_store: Opener) -> None:
    store = open_store()
    # As earlier versions kept them (and as names.json is imported): the name alone.
    assert store.keep_name("zed", "SHA256:first", alike=False) == "SHA256:first"
    assert store.keep_name("ZED", "SHA256:second", alike=False) == "SHA256:second"
    assert store.keep_name("amy", "SHA256:first", alike=False) == "SHA256:first"
    assert store.keep_name("Amy", "SHA256:first", alike=False) == "SHA256:first"
    again = open_store()
    assert (again.name_key("zed"), again.name_key("ZED")) == ("SHA256:first", "SHA256:second")
    assert again.name_key("Zed") == "SHA256:first"  # a new look-alike: the first kept's
    assert again.keep_name("z.e.d", "SHA256:third") == "SHA256:first"
    assert again.look_alikes() == [["ZED", "zed"]]  # amy and Amy are one key's


def test_an_imported_room_keeps_its_time_and_is_never_imported_twice(open_store: Opener) -> None:
    store = open_store()
    then = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
    assert store.import_room(RoomSave("k7m2", PILO, "bob", "(;)"), then)
    assert not store.import_room(RoomSave("k7m2", PILO, "carl", "(;C[other])"), then)
    room = store.room("k7m2")
    assert room is not None and (room.joiner, room.created, room.updated) == ("bob", then, then)


def test_each_rated_game_adds_a_point_to_both_ratings_histories(open_store: Opener) -> None:
    store = open_store()
    assert store.rating_history("ann") == [] and store.tally("ann").played == 0
    first = RoomSave("h1h1", PILO, "bob", "(;)", Finish("Blue+2", "ann"))
    store.save_room(first)
    store.save_room(first)  # saved again: still one point
    store.save_room(RoomSave("h2h2", PILO, "bob", "(;)", Finish("Orange+R", "bob")))
    petrify = RoomSetup("petrify", 6, creator="carl", rated=True)
    store.save_room(RoomSave("h3h3", petrify, "ann", "(;)", Finish("draw", None)))
    # Neither an unrated game, a game called off nor one unfinished adds a point.
    unrated = RoomSetup("pilo", 8, creator="ann")
    store.save_room(RoomSave("h4h4", unrated, "bob", "(;)", Finish("Blue+1", "ann")))
    store.save_room(RoomSave("h5h5", PILO, "bob", "(;RE[Void])", Finish("Void", None)))
    store.save_room(RoomSave("h6h6", PILO, "bob", "(;)"))
    history = open_store().rating_history("ann")  # as another process reads it
    assert [(point.game, point.code) for point in history] == [
        ("petrify", "h3h3"),
        ("pilo", "h1h1"),
        ("pilo", "h2h2"),
    ]
    ratings = {(r.game, r.name): r.rating for r in store.ratings()}
    # The last point of each game is the rating now; each point is after its game.
    assert history[0].rating.value == pytest.approx(ratings["petrify", "ann"].value)
    assert history[2].rating.value == pytest.approx(ratings["pilo", "ann"].value)
    after_first, _ = after_game(Rating(), Rating(), 1.0)
    assert history[1].rating.value == pytest.approx(after_first.value)
    assert history[1].rating.deviation == pytest.approx(after_first.deviation)
    assert history[1].at <= history[2].at
    assert [point.code for point in store.rating_history("ann", "pilo")] == ["h1h1", "h2h2"]
    assert store.rating_history("carl", "pilo") == []
    # Played: every game finished with somebody else but the one called off.
    ann = store.tally("ann")
    assert (ann.played, ann.won, ann.lost, ann.drawn) == (4, 2, 1, 1)
    bob = store.tally("bob")
    assert (bob.played, bob.won, bob.lost, bob.drawn) == (3, 1, 2, 0)
