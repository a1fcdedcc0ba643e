"""Rated puzzles in either store (SQLite or PostgreSQL): the server's puzzles with their
ratings (`puzzles`: the shipped ones, added on first use, and those mined from the
archive), each player's puzzle rating per game (`puzzle_ratings`) and every try
(`puzzle_tries`), and the rooms already mined (`puzzles_mined`); SQLite migration 11,
PostgreSQL migration 12.

A try is kept in one transaction with both ratings it changes, so two processes of a
server rating tries at once lose neither. Every function blocks (call it off the event
loop) and raises StoreError.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..puzzles.puzzle import Puzzle
from ..puzzles.rated import Kept, TryRated, after_try, choose, first_rating, puzzle_key
from ..ratings import Rating
from .base import Store, StoreError
from .either import Db, writing

MOST_PUZZLES = 5000
"""The most puzzles of one game read to choose the next from."""


@dataclass(frozen=True)
class PuzzleRating:
    """A player's puzzle rating in one game and how many tries it comes from."""

    game: str
    rating: Rating
    tries: int


def _rating(row: Sequence[Any]) -> Rating:
    return Rating(float(row[0]), float(row[1]), float(row[2]))


def _add(db: Db, mark: str, at: object, puzzle: Puzzle, source: str) -> bool:
    """Add `puzzle` unless it is kept already; whether it was added."""
    rating = first_rating(puzzle)
    done = db.execute(
        "INSERT INTO puzzles (key, game, size, data, value, deviation, volatility, source, "
        f"added) VALUES ({', '.join([mark] * 9)}) ON CONFLICT (key) DO NOTHING",
        (
            puzzle_key(puzzle),
            puzzle.game,
            puzzle.size,
            puzzle.to_json(),
            rating.value,
            rating.deviation,
            rating.volatility,
            source,
            at,
        ),
    )
    return bool(done.rowcount)


def add_shipped(store: Store, puzzles: Sequence[Puzzle]) -> int:
    """Keep the shipped `puzzles` not kept yet (their ratings start from their grade);
    how many were added."""
    with writing(store, "puzzles") as (db, mark, at):
        return sum(_add(db, mark, at, puzzle, "shipped") for puzzle in puzzles)


def keep_mined(store: Store, code: str, puzzles: Sequence[Puzzle]) -> int:
    """Keep the puzzles mined from room `code` (those not kept yet) and mark the room
    mined; how many were added."""
    with writing(store, "puzzles") as (db, mark, at):
        added = sum(_add(db, mark, at, puzzle, f"room {code}") for puzzle in puzzles)
        db.execute(
            f"INSERT INTO puzzles_mined (code, found, at) VALUES ({mark}, {mark}, {mark}) "
            "ON CONFLICT (code) DO NOTHING",
            (code, added, at),
        )
        return added


def mined_codes(store: Store) -> set[str]:
    """The rooms mined already (whether they held puzzles or not)."""
    with writing(store, "puzzles") as (db, _, _at):
        return {str(row[0]) for row in db.execute("SELECT code FROM puzzles_mined").fetchall()}


def count(store: Store, game: str | None = None) -> int:
    """How many puzzles the server keeps (of `game`)."""
    with writing(store, "puzzles") as (db, mark, _):
        if game is None:
            row = db.execute("SELECT count(*) FROM puzzles").fetchone()
        else:
            query = f"SELECT count(*) FROM puzzles WHERE game = {mark}"
            row = db.execute(query, (game,)).fetchone()
        return int(row[0])


def mined(store: Store) -> list[Puzzle]:
    """The puzzles mined from the archive, the first kept first."""
    with writing(store, "puzzles") as (db, _, _at):
        rows = db.execute(
            "SELECT data FROM puzzles WHERE source <> 'shipped' ORDER BY added, key"
        ).fetchall()
    return [Puzzle.from_json(str(row[0])) for row in rows]


def player_rating(db: Db, mark: str, name: str, game: str) -> Rating:
    """`name`'s puzzle rating in `game` read in transaction `db` (placeholder `mark`)."""
    row = db.execute(
        "SELECT value, deviation, volatility FROM puzzle_ratings "
        f"WHERE name = {mark} AND game = {mark}",
        (name, game),
    ).fetchone()
    return Rating() if row is None else _rating(row)


def rating_of(store: Store, name: str, game: str) -> Rating:
    """`name`'s puzzle rating in `game` (a new player's when they have none)."""
    with writing(store, "puzzles") as (db, mark, _):
        return player_rating(db, mark, name, game)


def ratings(store: Store, name: str) -> list[PuzzleRating]:
    """`name`'s puzzle ratings, by game."""
    with writing(store, "puzzles") as (db, mark, _):
        rows = db.execute(
            "SELECT game, value, deviation, volatility, tries FROM puzzle_ratings "
            f"WHERE name = {mark} ORDER BY game",
            (name,),
        ).fetchall()
    return [PuzzleRating(str(row[0]), _rating(row[1:4]), int(row[4])) for row in rows]


def next_puzzle(store: Store, name: str, game: str, rng: random.Random) -> Kept | None:
    """A puzzle of `game` near `name`'s puzzle rating that they have not solved; None when
    there is none."""
    with writing(store, "puzzles") as (db, mark, _):
        rating = player_rating(db, mark, name, game)
        rows = db.execute(
            "SELECT key, data, value, deviation, volatility FROM puzzles "
            f"WHERE game = {mark} ORDER BY abs(value - {mark}), key LIMIT {MOST_PUZZLES}",
            (game, rating.value),
        ).fetchall()
        solved = {
            str(row[0])
            for row in db.execute(
                f"SELECT key FROM puzzle_tries WHERE name = {mark} AND game = {mark} AND won",
                (name, game),
            ).fetchall()
        }
    found = [Kept(str(r[0]), Puzzle.from_json(str(r[1])), _rating(r[2:5])) for r in rows]
    return choose(found, rating, solved, rng)


def keep_try(store: Store, name: str, key: str, won: bool) -> TryRated:
    """Rate `name`'s try at puzzle `key` (won: solved without help) and keep it: the
    player's and the puzzle's ratings change as after a game between them."""
    with writing(store, "puzzles") as (db, mark, at):
        row = db.execute(
            f"SELECT game, value, deviation, volatility FROM puzzles WHERE key = {mark}", (key,)
        ).fetchone()
        if row is None:
            raise StoreError(f"there is no puzzle {key}")
        game = str(row[0])
        before = player_rating(db, mark, name, game)
        after, puzzle_after = after_try(before, _rating(row[1:4]), won)
        db.execute(
            "INSERT INTO puzzle_ratings (name, game, value, deviation, volatility, tries, "
            f"updated) VALUES ({mark}, {mark}, {mark}, {mark}, {mark}, 1, {mark}) "
            "ON CONFLICT (name, game) DO UPDATE SET value = excluded.value, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "tries = puzzle_ratings.tries + 1, updated = excluded.updated",
            (name, game, after.value, after.deviation, after.volatility, at),
        )
        db.execute(
            f"UPDATE puzzles SET value = {mark}, deviation = {mark}, volatility = {mark} "
            f"WHERE key = {mark}",
            (puzzle_after.value, puzzle_after.deviation, puzzle_after.volatility, key),
        )
        db.execute(
            "INSERT INTO puzzle_tries (name, key, game, won, value_before, value_after, at) "
            f"VALUES ({', '.join([mark] * 7)})",
            (name, key, game, won, before.value, after.value, at),
        )
    return TryRated(won, before, after, puzzle_after)
