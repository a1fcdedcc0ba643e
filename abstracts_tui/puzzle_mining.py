"""Puzzles mined from a server's archive (`abstracts-tui puzzles mine`): the finished
games of its store not mined yet, on boards the solver settles, each walked back from its
end within a time bound (`puzzles.archive`), their puzzles kept as the server's beside the
shipped ones (`store.puzzle_book`). Runs apart from the server, on the same store."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .puzzles.archive import SECONDS, game_of, minable, puzzles_in_game
from .store import Store
from .store.puzzle_book import keep_mined, mined_codes

PAGE = 100
"""Rooms read from the archive at a time."""


@dataclass(frozen=True)
class Mined:
    """What one run mined: the games looked at, those mined, the puzzles added."""

    looked_at: int
    mined: int
    added: int

    def said(self) -> str:
        return (
            f"{self.looked_at} finished games looked at, {self.mined} mined, "
            f"{self.added} new puzzles kept."
        )


def mine_archive(
    store: Store,
    *,
    seconds: float = SECONDS,
    most_games: int = 100,
    say: Callable[[str], None] | None = None,
) -> Mined:
    """Mine up to `most_games` finished games of `store` not mined before (the most
    recent first), at most `seconds` each; every game looked at is marked mined, whether
    it held puzzles or not, so that it is not read again."""
    done = mined_codes(store)
    looked_at = mined = added = 0
    offset = 0
    while looked_at < most_games:
        rooms = store.rooms(finished=True, limit=PAGE, offset=offset)
        if not rooms:
            break
        offset += len(rooms)
        for room in rooms:
            if room.code in done or looked_at >= most_games:
                continue
            looked_at += 1
            game = game_of(room.sgf) if room.sgf else None
            found = []
            if game is not None and minable(game.info.name, game.size):
                found = puzzles_in_game(game, seconds)
                mined += 1
            new = keep_mined(store, room.code, found)
            added += new
            if say is not None and new:
                say(f"Room {room.code}: {new} new puzzles.")
    return Mined(looked_at, mined, added)
