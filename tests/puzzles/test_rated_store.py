"""Rated puzzles in the store (`store.puzzle_book`) on SQLite and PostgreSQL: a solve
raises the player's puzzle rating and a failure lowers it, both as Glicko-2 computes
them (`ratings.after_game`, the puzzle being the opponent); the next puzzle is near the
player's rating and never one they solved; all of it kept across stores of one database
(as two processes of a server have)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from abstracts_tui.puzzles.puzzle import Puzzle
from abstracts_tui.puzzles.rated import first_rating, puzzle_key
from abstracts_tui.puzzles.shipped import load
from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.store import SqliteStore, Store, StoreError
from abstracts_tui.store.puzzle_book import (
    add_shipped,
    keep_try,
    next_puzzle,
    player_rating,
    ratings,
)


def two_stores(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Store, Store]:
    """Two stores of one database, as two processes of a server have."""
    if kind == "sqlite":
        return SqliteStore(tmp_path / "server.db"), SqliteStore(tmp_path / "server.db")
    from abstracts_tui.store.postgres import PostgresStore

    url = request.getfixturevalue("database_url")
    return PostgresStore(url), PostgresStore(url)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_solve_raises_a_failure_lowers_and_both_are_kept(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    first, second = two_stores(kind, tmp_path, request)
    try:
        shipped = load("pilo", 6)
        assert add_shipped(first, shipped) == len(shipped)
        assert add_shipped(second, shipped) == 0  # kept once
        chosen = next_puzzle(first, "ann", "pilo", random.Random(1))
        assert chosen is not None
        assert chosen.rating == first_rating(chosen.puzzle)
        solved = keep_try(first, "ann", chosen.key, won=True)
        expected, puzzle_after = after_game(Rating(), first_rating(chosen.puzzle), 1.0)
        assert solved.before == Rating()
        assert solved.after == pytest.approx(expected)
        assert solved.after.value > 1500
        assert solved.said() == f"Solved. Puzzle rating 1500 -> {round(expected.value)}."
        # The other process reads what the first kept, and rates the next try from it.
        assert [(r.game, r.tries) for r in ratings(second, "ann")] == [("pilo", 1)]
        other = next(p for p in shipped if puzzle_key(p) != chosen.key)
        failed = keep_try(second, "ann", puzzle_key(other), won=False)
        lowered, _ = after_game(expected, first_rating(other), 0.0)
        assert failed.before == pytest.approx(expected)
        assert failed.after == pytest.approx(lowered)
        assert failed.after.value < failed.before.value
        assert failed.said().startswith(f"Failed. Puzzle rating {round(expected.value)} -> ")
        (kept,) = ratings(first, "ann")
        assert kept.rating == pytest.approx(lowered) and kept.tries == 2
        # The puzzle solved lost rating to the player; it is never offered to ann again.
        again = {next_puzzle(first, "ann", "pilo", random.Random(seed)) for seed in range(40)}
        assert chosen.key not in {kept.key for kept in again if kept is not None}
        assert puzzle_after.value < chosen.rating.value
        with pytest.raises(StoreError):
            keep_try(first, "ann", "pilo-6-000000000000", won=True)
    finally:
        first.close()
        second.close()


def test_the_next_puzzle_is_near_the_players_rating(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "server.db")
    try:
        add_shipped(store, load("egotzi", 5))
        with store._transaction() as db:  # a strong player
            assert player_rating(db, "?", "ann", "egotzi") == Rating()
            db.execute(
                "INSERT INTO puzzle_ratings VALUES ('ann', 'egotzi', 2100, 60, 0.06, 30, '')"
            )
        offered = next_puzzle(store, "ann", "egotzi", random.Random(2))
        assert offered is not None
        assert offered.puzzle.grade == "hard"  # the hardest start highest
        assert next_puzzle(store, "ann", "pilo", random.Random(2)) is None
    finally:
        store.close()


def test_a_puzzles_key_is_its_position() -> None:
    puzzle = Puzzle("egotzi", 5, "standard", 0.0, ("c3", "b2"), ("d3",))
    same = Puzzle("egotzi", 5, "standard", 0.0, ("c3", "b2"), ("d3", "a1", "e5"))
    other = Puzzle("egotzi", 5, "standard", 0.0, ("c3", "b3"), ("d3",))
    assert puzzle_key(puzzle) == puzzle_key(same) != puzzle_key(other)
    assert puzzle_key(puzzle).startswith("egotzi-5-")
