"""The games in progress on this machine: one autosave file per game, never replaced.

Every game the app starts or opens is written after every move to a file of its own in
`games/` in the data folder, named by when it started (`2026-11-23-140512-petrify.sgf`).
Starting another game therefore never replaces one in progress: the resume offer lists
every unfinished game, newest first, and the player resumes one or deletes it. A finished
game's file moves to the recent games when the next game starts (`recent_games.py`: it
stays where it is until then, while an undo may take its end back). A game is kept only
once something was played in it that its record did not have: a file with no move (nor
set-up position), or a copy of a newer file (the same record opened twice by earlier
versions), is removed as the list is read.
`autosave.sgf` beside `games/`, where earlier versions kept the one game in progress, is
listed too. The files are their player's alone (0600, in folders made 0700).
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .files import clean_stale, describe

if TYPE_CHECKING:
    from .records import Record

FOLDER = "games"
OLD_AUTOSAVE = "autosave.sgf"


@dataclass(frozen=True)
class SavedGame:
    """A game in progress on disk, as the resume offer lists it."""

    path: Path
    record: Record
    modified: float
    """When it was last written (seconds since the epoch)."""

    def played(self, now: datetime.datetime | None = None) -> str:
        """When it was last played (`today 14:05`: see `played_text`)."""
        return played_text(self.modified, now)

    def describe(self) -> str:
        """`Petrify 8x8, Ann - Bob, 12 moves, Orange to move (Bob)`; a game from a set-up
        position counts its moves since the set-up (`set up, 3 moves since`)."""
        from .session import Session  # the session replays the record: only when listing

        session = Session(self.record)
        game = session.game
        info = game.info
        size = f"side {game.size}" if info.geometry == "hex" else f"{game.size}x{game.size}"
        moves = len(game.moves)  # since the last set-up position on the way, if any
        counted = f"{moves} move{'s' * (moves != 1)}"
        if any(node.setup is not None for node in [self.record.root, *session.node.line()]):
            counted = f"set up, {counted} since" if moves else "set up, no move since"
        return (
            f"{info.title} {size}, {session.people[0]} - {session.people[1]}, "
            f"{counted}, {session.turn_text()}"
        )

    def started_words(self, now: datetime.datetime | None = None) -> str:
        """`, started today 14:02` (what tells apart two games of the same people at the
        same move), or nothing where the file's name does not say."""
        started = self.started()
        return f", started {played_text(started, now)}" if started is not None else ""

    def started(self) -> float | None:
        """When the game started, from its file's name (None: `autosave.sgf`)."""
        try:
            when = datetime.datetime.strptime(self.path.name[:17], "%Y-%m-%d-%H%M%S")
        except ValueError:
            return None
        return when.timestamp()


def data_dir() -> Path:
    """Where the games in progress are kept: the user's data directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("abstracts-tui", appauthor=False))


def played_text(when: float, now: datetime.datetime | None = None) -> str:
    """When a game was last played, as a person says it, in local time: `today 14:05`,
    `yesterday 09:12`, `23 Nov 14:05`, or `23 Nov 2025` from another year."""
    played = datetime.datetime.fromtimestamp(when)
    now = now or datetime.datetime.now()
    days = (now.date() - played.date()).days
    clock = played.strftime("%H:%M")
    if days == 0:
        return f"today {clock}"
    if days == 1:
        return f"yesterday {clock}"
    day = f"{played.day} {played.strftime('%b')}"
    return f"{day} {clock}" if played.year == now.year else f"{day} {played.year}"


class SavedGames:
    """The autosave files in one data folder (the app's, or an SSH user's)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.folder = data / FOLDER

    def new_path(self, game: str, now: datetime.datetime | None = None) -> Path:
        """A file for a new game of `game`, named by the time; no existing file is reused."""
        stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
        path = self.folder / f"{stamp}-{game}.sgf"
        number = 2
        while path.exists():
            path = self.folder / f"{stamp}-{game}-{number}.sgf"
            number += 1
        return path

    def files(self) -> list[Path]:
        """Every autosave file, newest first."""
        found = [self.data / OLD_AUTOSAVE] if (self.data / OLD_AUTOSAVE).is_file() else []
        with contextlib.suppress(OSError):  # no folder (or none readable): no games
            found += [p for p in self.folder.glob("*.sgf") if p.is_file()]
        return sorted(found, key=modified_at, reverse=True)

    def read(self) -> tuple[list[SavedGame], list[str]]:
        """The unfinished games, newest first, and a sentence for each file that could
        not be read (such files are left as they are). The temporary files of writes cut
        short (a process killed while it wrote) are removed first."""
        clean_stale(self.data)
        clean_stale(self.folder)
        games: list[SavedGame] = []
        problems: list[str] = []
        paths = self.files()
        if not paths:
            return games, problems
        seen: set[str] = set()
        for path, record in records_of(paths, problems):
            if record.result:
                continue
            text = record.to_sgf()
            if text in seen or not record.has_play():
                # A copy of a newer file, or nothing played: the file holds nothing more.
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            seen.add(text)
            games.append(SavedGame(path, record, modified_at(path)))
        return games, problems


def records_of(paths: Iterable[Path], problems: list[str]) -> Iterator[tuple[Path, Record]]:
    """Each of `paths` read as a game record, in order; for one that cannot be read, a
    sentence in `problems` instead."""
    # Records (and with them the rules) are imported only when there is one to read:
    # the app asks for its games as it starts, usually of an empty folder.
    from .records import Record, RecordError

    for path in paths:
        try:
            record = Record.load(path)
        except OSError as error:
            problems.append(f"{path} could not be read: {describe(error)}.")
            continue
        except RecordError as error:
            problems.append(f"{path} is not a game record this program can read: {error}.")
            continue
        yield path, record


def modified_at(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
