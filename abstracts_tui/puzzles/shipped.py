"""The set of puzzles that ships with the package (`puzzles/data/GAME-SIZE.jsonl`,
written by `scripts/make_puzzles.py`)."""

from __future__ import annotations

from collections import Counter
from importlib import resources

from .puzzle import GRADES, Puzzle

DATA = "data"
"""The package folder of the shipped set."""


def file_name(game: str, size: int) -> str:
    """The name of the file that keeps `game`'s puzzles of `size`."""
    return f"{game}-{size}.jsonl"


def shipped_sizes() -> list[tuple[str, int]]:
    """The (game, size) pairs the shipped set has puzzles of, in the catalogue's order."""
    from ..rules.catalogue import CATALOGUE

    folder = resources.files(__package__).joinpath(DATA)
    names = {entry.name for entry in folder.iterdir() if entry.name.endswith(".jsonl")}
    return [
        (game, size)
        for game, info in CATALOGUE.items()
        for size in info.sizes
        if file_name(game, size) in names
    ]


def load(game: str, size: int) -> list[Puzzle]:
    """The shipped puzzles of `game` on `size` (none when there are none)."""
    entry = resources.files(__package__).joinpath(DATA).joinpath(file_name(game, size))
    if not entry.is_file():
        return []
    text = entry.read_text(encoding="utf-8")
    return [Puzzle.from_json(line) for line in text.splitlines() if line.strip()]


def load_all() -> list[Puzzle]:
    """Every shipped puzzle."""
    return [puzzle for game, size in shipped_sizes() for puzzle in load(game, size)]


def counts() -> dict[tuple[str, int], Counter[str]]:
    """How many shipped puzzles each game and size has, by grade."""
    found: dict[tuple[str, int], Counter[str]] = {}
    for game, size in shipped_sizes():
        graded = Counter(puzzle.grade for puzzle in load(game, size))
        found[(game, size)] = Counter({grade: graded[grade] for grade in GRADES})
    return found
