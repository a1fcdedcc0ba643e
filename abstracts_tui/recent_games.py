"""The games finished on this machine: the recent games, to look at again.

A game that ends (by the rules, on time, by a resignation) stays in its autosave file in
`games/` while it is on the screen (an undo may take the end back); when the next game
starts, the file moves to `finished/` beside it instead of being deleted. The home
screen's Recent games and line mode's menu list both: the finished games still in
`games/` and those in `finished/`, newest first, each with its game, players, result and
date, and open one to look at, analyse or play on from (its file is its autosave again).
Only the last `RECENT_GAMES` are kept, as the server's archive keeps its games: the
oldest go as new ones come. The files are their player's alone, as the games in
progress are.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .saved_games import SavedGame, SavedGames, modified_at, records_of

FOLDER = "finished"
RECENT_GAMES = 100
"""How many finished games are kept (the newest); older ones are removed."""


class RecentGames:
    """The finished games of one data folder (the app's, or an SSH user's)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.folder = data / FOLDER

    def keep(self, path: Path) -> None:
        """Move the finished game's file `path` in among the recent games, then drop the
        oldest beyond `RECENT_GAMES`. Its name (when the game started, unique in `games/`)
        stays: a later copy of the same game replaces the one there. A file that cannot
        be moved stays where it is (it is listed from there all the same)."""
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.replace(path, self.folder / path.name)
        except OSError:
            return
        self.prune()

    def take_finished(self, saved: SavedGames, keep: Path | None = None) -> None:
        """Move the files of `saved`'s finished games (not `keep`) in among these."""
        from .records import Record, RecordError

        for path in saved.files():
            if path == keep:
                continue
            try:
                finished = bool(Record.load(path).result)
            except (OSError, RecordError):
                continue  # unreadable files stay, for the player to look at
            if finished:
                self.keep(path)

    def files(self) -> list[Path]:
        """The files of `finished/`, newest first."""
        with contextlib.suppress(OSError):
            found = [p for p in self.folder.glob("*.sgf") if p.is_file()]
            return sorted(found, key=modified_at, reverse=True)
        return []

    def prune(self) -> None:
        """Remove the files beyond the newest `RECENT_GAMES`."""
        for path in self.files()[RECENT_GAMES:]:
            with contextlib.suppress(OSError):
                path.unlink()

    def read(self) -> tuple[list[SavedGame], list[str]]:
        """The finished games, newest first (those in `games/` that the next game will
        move here, then these), at most `RECENT_GAMES`; and a sentence for each file that
        could not be read."""
        paths = [*SavedGames(self.data).files(), *self.files()]
        games: list[SavedGame] = []
        problems: list[str] = []
        for path, record in records_of(paths, problems):
            if record.result or path.parent == self.folder:
                games.append(SavedGame(path, record, modified_at(path)))
        games.sort(key=lambda game: game.modified, reverse=True)
        named: dict[str, SavedGame] = {}
        for game in games:  # a game in both folders: its newer file
            named.setdefault(game.path.name, game)
        return list(named.values())[:RECENT_GAMES], problems
