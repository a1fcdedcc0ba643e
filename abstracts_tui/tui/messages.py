"""Requests the play screen sends to the app."""

from __future__ import annotations

from textual.message import Message


class NewGameRequested(Message):
    """The players want the selection screen for a new game."""


class LoadRequested(Message):
    """The players want to open the record at `path`."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path


class HelpRequested(Message):
    """The players want the help screen."""


class ResumeRequested(Message):
    """The player wants the list of games in progress."""


class RecentRequested(Message):
    """The player wants the list of recent (finished) games."""
