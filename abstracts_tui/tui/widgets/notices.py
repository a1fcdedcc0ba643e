"""Two lines of the game panel that say something is wrong: the game is not being saved
(`SavingNotice`), somebody's connection is lost (`AwayLine`). Each says it in its own
words from the facts it is given, and hides while there is nothing to say."""

from __future__ import annotations

from collections.abc import Iterable

from textual.widgets import Static

from ...rooms.play import HELD


class Notice(Static):
    """A line that hides while it has nothing to say."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False, classes="-hidden")


class SavingNotice(Notice):
    """Why the game is not being saved and where it would be, or nothing while it is."""

    @staticmethod
    def words(problem: str | None, where: object, held: bool) -> str:
        """What the notice says of `problem` (None: nothing) with the game kept at
        `where`; `held`: a room's clocks wait meanwhile."""
        if problem is None:
            return ""
        held_line = f"\n{HELD}" if held else ""
        return f"Not being saved: {problem}\n({where}){held_line}"


class AwayLine(Notice):
    """Whose connection is lost, of the people playing (their seats are kept)."""

    @staticmethod
    def words(people: Iterable[str], here: frozenset[str]) -> str:
        away = [name for name in people if name not in here]
        return "\n".join(f"{name}'s connection is lost (the seat is kept)." for name in away)
