"""A room's creator's colour and an open challenge's rating range, without a terminal.

The seats follow the colour chosen (second: the joiner moves first), a random colour is
drawn once, when somebody joins (the change kept says which, so another process or a
restart seats them the same), a rating range lets in only the ratings inside it (a
player with no rating counts as 1500), and both are kept by SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from abstracts_tui.commands import Join, Play, Rematch, Resign, decode, encode
from abstracts_tui.game_setup import Setup
from abstracts_tui.ratings import Rating
from abstracts_tui.rooms.events import Joined, Made, Stamped
from abstracts_tui.rooms.fold import fold
from abstracts_tui.rooms.holder import new_holder
from abstracts_tui.rooms.pairing import PairingError, RatingRange, check_colour, parse_range
from abstracts_tui.rooms.presence import Presences
from abstracts_tui.rooms.room import RoomError
from abstracts_tui.rooms.rooms import Rooms
from abstracts_tui.rooms.rows import OPEN_SEAT
from abstracts_tui.rooms.told import told
from abstracts_tui.store import SqliteStore
from abstracts_tui.store.live_sqlite import LiveSqlite

Opener = Callable[[], Rooms]


def test_ranges_read_as_typed_and_refused_with_a_sentence() -> None:
    assert parse_range("200") == parse_range("±200") == parse_range("+-200")
    assert parse_range("200") == RatingRange(spread=200)
    assert parse_range("1400-1800") == RatingRange(low=1400, high=1800)
    assert parse_range("") is None and parse_range("any") is None
    assert RatingRange(spread=200).text() == "±200"
    for bad, why in (
        ("5", "±10 to ±1000"),
        ("1800-1400", "lower bound first"),
        ("1400-5000", "between 0 and 4000"),
        ("strong", "±N (such as ±200) or MIN-MAX"),
        ("1" * 30, "at most 20 characters"),
    ):
        with pytest.raises(PairingError, match=why.replace("(", r"\(").replace(")", r"\)")):
            parse_range(bad)


def test_a_range_admits_the_ratings_inside_it_and_the_unrated_as_1500() -> None:
    around = RatingRange(spread=200)
    ann = Rating(1700, 60)
    assert around.bounds(ann) == (1500, 1900)
    assert around.refusal(ann, Rating(1850, 60), "Pilo") is None
    assert around.refusal(ann, None, "Pilo") is None  # 1500, the edge
    assert around.refusal(ann, Rating(1400, 60), "Pilo") == (
        "this challenge is for players rated 1500 to 1900 in Pilo, and yours is 1400"
    )
    # A creator with no rating is at 1500 too.
    assert around.bounds(None) == (1300, 1700)
    fixed = RatingRange(low=1600, high=2000)
    assert fixed.refusal(None, None, "Pilo") == (
        "this challenge is for players rated 1600 to 2000 in Pilo, and you count as 1500, unrated"
    )
    assert fixed.shown(None) == "ratings 1600-2000"


def test_a_game_whose_sides_are_chosen_in_it_has_no_colour_beforehand() -> None:
    assert check_colour("second") == "second"
    with pytest.raises(PairingError, match="sets komi and the other then chooses"):
        check_colour("second", takes_komi=True)
    with pytest.raises(PairingError, match="first, second or random"):
        check_colour("blue")


def test_a_join_keeps_the_colour_drawn() -> None:
    assert encode(Join("second")) == ("join", "drawn second")
    assert decode("join", "drawn second") == Join("second")
    assert decode("join", "") == Join() and decode("join", "bob") == Join()  # earlier versions


def test_the_events_say_who_plays_first() -> None:
    # A room of an earlier version reads as the creator's first.
    assert Made("ann", "pilo").colour == "first"
    joined = Joined("bob", "second")
    assert told(joined, "ann", ("ann", "bob")) == [
        "bob joined the room: the game begins. Colours drawn at random: ann plays second."
    ]
    made = Made("ann", "pilo", colour="random")
    assert fold([Stamped(1, 0, made), Stamped(2, 0, joined)]).by_colour == ("bob", "ann")
    assert fold([Stamped(1, 0, Made("ann", "pilo", colour="second"))]).by_colour == ("ann",)


def sqlite_opener(path: Path) -> Opener:
    store = SqliteStore(path)
    return lambda: Rooms(LiveSqlite(store), ratings=store.ratings)


def postgres_opener(url: str) -> Opener:
    from abstracts_tui.store.live_postgres import LivePostgres
    from abstracts_tui.store.postgres import PostgresStore

    def opened() -> Rooms:
        store = PostgresStore(url)
        return Rooms(LivePostgres(store, presences=Presences()), ratings=store.ratings)

    return opened


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        return sqlite_opener(tmp_path / "server.db")
    return postgres_opener(request.getfixturevalue("database_url"))


def test_the_creator_plays_second_and_the_store_keeps_it(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def made() -> str:
        rooms = opener()
        await rooms.start()
        room = await rooms.create(Setup("pilo", 6), ann, open=True, colour="second")
        assert room.session.people == (OPEN_SEAT, "ann")
        assert "ann (plays second) - waiting for a player" in room.describe()
        assert isinstance(room.events[0].event, Made) and room.events[0].event.colour == "second"
        await rooms.close()
        return room.code

    code = asyncio.run(made())

    async def joined() -> None:  # a restart (SQLite), or another process (PostgreSQL)
        rooms = opener()
        await rooms.start()
        room = await rooms.get(code)
        assert room is not None and room.colour == "second"
        await rooms.join(room, bob)
        assert room.session.people == ("bob", "ann")
        assert room.session.waiting_for() == "bob"  # the joiner moves first
        await rooms.close()

    asyncio.run(joined())

    async def read() -> None:
        rooms = opener()
        await rooms.start()
        room = await rooms.get(code)
        assert room is not None and room.session.people == ("bob", "ann")
        await rooms.close()

    asyncio.run(read())


def test_a_random_colour_is_drawn_once_when_somebody_joins(opener: Opener) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> tuple[str, tuple[str, ...]]:
        rooms = opener()
        await rooms.start()
        room = await rooms.create(Setup("pilo", 6), ann, open=True, colour="random")
        assert room.session.people == ("ann", OPEN_SEAT)  # nothing drawn yet
        await rooms.join(room, bob)
        joined = room.events[1].event
        assert isinstance(joined, Joined) and joined.drawn in ("first", "second")
        expected = ("ann", "bob") if joined.drawn == "first" else ("bob", "ann")
        assert room.session.people == expected
        await rooms.close()
        return room.code, expected

    code, people = asyncio.run(play())

    async def again() -> None:
        rooms = opener()
        await rooms.start()
        room = await rooms.get(code)
        assert room is not None and room.session.people == people
        await rooms.close()

    asyncio.run(again())


def test_a_rematch_reverses_the_colours_the_room_was_played_with(tmp_path: Path) -> None:
    ann, bob = new_holder("ann"), new_holder("bob")

    async def play() -> None:
        rooms = sqlite_opener(tmp_path / "server.db")()
        await rooms.start()
        room = await rooms.create(Setup("pilo", 6), ann, colour="second")
        await rooms.join(room, bob)
        assert room.session.people == ("bob", "ann")
        for mover in (bob, ann):  # each side moves, then ann resigns
            game = room.session.game
            await rooms.send(room, Play(game.move_name(game.legal_moves()[0])), mover)
        await rooms.send(room, Resign(), ann)
        await rooms.send(room, Rematch(Rematch.OFFER), ann)
        new = await rooms.rematch(room, bob)
        assert new.creator == "bob" and new.session.people == ("ann", "bob")
        await rooms.close()

    asyncio.run(play())


def rate(path: Path, name: str, game: str, value: float) -> None:
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO ratings VALUES (?, ?, ?, 60, 0.06, 10, '2026-01-01 00:00:00')",
            (name, game, value),
        )


def test_only_the_ratings_inside_the_range_accept_the_challenge(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    opener = sqlite_opener(path)
    rate(path, "ann", "pilo", 1700)
    rate(path, "bob", "pilo", 1350)
    ann, bob, carl = new_holder("ann"), new_holder("bob"), new_holder("carl")

    async def play() -> None:
        rooms = opener()
        await rooms.start()
        with pytest.raises(RoomError, match="a rating range is ±N"):
            await rooms.create(Setup("pilo", 6), ann, open=True, rating_range="strong")
        room = await rooms.create(Setup("pilo", 6), ann, open=True, rating_range="±200")
        assert room.rating_range == "±200"
        with pytest.raises(RoomError) as refused:
            await rooms.join(room, bob)
        assert str(refused.value) == (
            "this challenge is for players rated 1500 to 1900 in Pilo, and yours is 1350"
        )
        assert room.joiner is None and room.version == 1  # nothing kept of it
        await rooms.join(room, carl)  # unrated: 1500
        assert room.joiner == "carl"
        await rooms.close()

    asyncio.run(play())


def test_postgres_keeps_the_range(database_url: str) -> None:
    ann = new_holder("ann")
    opener = postgres_opener(database_url)

    async def made() -> str:
        rooms = opener()
        await rooms.start()
        room = await rooms.create(Setup("pilo", 6), ann, open=True, rating_range="1400-1800")
        await rooms.close()
        return room.code

    code = asyncio.run(made())

    async def read() -> None:
        rooms = opener()
        await rooms.start()
        room = await rooms.get(code)
        assert room is not None and room.rating_range == "1400-1800"
        await rooms.close()

    asyncio.run(read())
