"""`abstracts-tui puzzles mine`: the real command over a server's store finds the puzzle
a finished game contains (a game made by playing a shipped puzzle's moves and its
solution), keeps it as the server's, and does not mine the same game twice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from abstracts_tui.puzzles.puzzle import Puzzle
from abstracts_tui.puzzles.shipped import load
from abstracts_tui.records.record import Record
from abstracts_tui.store import Finish, RoomSave, RoomSetup, SqliteStore
from abstracts_tui.store.puzzle_book import mined


def mine(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "puzzles", "mine", "--data", str(data), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def finished_room(data: Path, code: str, puzzle: Puzzle, size: int | None = None) -> None:
    """Room `code` of the store in `data`: ann and bob played the puzzle's moves and its
    solution, then bob resigned."""
    game = puzzle.start()
    for move in puzzle.solution:
        game.play(move)
    sgf = Record.from_game(game, ("ann", "bob")).to_sgf()
    setup = RoomSetup(puzzle.game, size or puzzle.size, puzzle.variant, creator="ann")
    store = SqliteStore(data / "server.db")
    try:
        store.save_room(RoomSave(code, setup, "bob", sgf, Finish("Blue+R", "ann")))
    finally:
        store.close()


def test_mining_the_archive_finds_the_puzzle_a_game_contains(tmp_path: Path) -> None:
    data = tmp_path / "server"
    data.mkdir()
    puzzle = next(p for p in load("egotzi", 5) if p.grade == "medium")
    finished_room(data, "k7m2", puzzle)
    done = mine(data, "--seconds", "60")
    assert done.returncode == 0, done.stderr
    assert "1 finished games looked at, 1 mined" in done.stdout
    store = SqliteStore(data / "server.db")
    try:
        found = mined(store)
    finally:
        store.close()
    assert puzzle.moves in {p.moves for p in found}
    mined_one = next(p for p in found if p.moves == puzzle.moves)
    assert mined_one.solution[0] == puzzle.solution[0]
    again = mine(data)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "0 finished games looked at, 0 mined, 0 new puzzles kept."


def test_mining_refuses_a_folder_without_a_store(tmp_path: Path) -> None:
    done = mine(tmp_path)
    assert done.returncode == 2
    assert "There is no server store in" in done.stderr


def test_mining_a_postgresql_archive_keeps_its_puzzles_there(database_url: str) -> None:
    from abstracts_tui.puzzle_mining import mine_archive
    from abstracts_tui.store.postgres import PostgresStore

    puzzle = next(p for p in load("linage", 5) if p.grade == "medium")
    game = puzzle.start()
    for move in puzzle.solution:
        game.play(move)
    setup = RoomSetup("linage", 5, creator="ann")
    store = PostgresStore(database_url)
    try:
        sgf = Record.from_game(game, ("ann", "bob")).to_sgf()
        store.save_room(RoomSave("p7q2", setup, "bob", sgf, Finish("Horizontal+R", "ann")))
        store.save_room(RoomSave("p7q3", setup, None, None, None))  # unfinished: not read
        found = mine_archive(store, seconds=60)
        assert (found.looked_at, found.mined) == (1, 1) and found.added >= 1
        assert puzzle.moves in {p.moves for p in mined(store)}
        assert mine_archive(store).looked_at == 0  # mined once
    finally:
        store.close()
