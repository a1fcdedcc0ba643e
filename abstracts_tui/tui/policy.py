"""What an app may do besides playing (`Policy`), a part of its settings that is not the
user's to choose: it depends on where the app runs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Policy:
    """What an app may do besides playing: the plain app may save and load records; an
    app of the SSH server may not (the server's disk is not the player's); an app in a
    browser saves by downloading the record to the visitor's machine, and loads nothing."""

    files: bool = True
    files_refusal: str = ""
    """What is said when `files` is False and a file is asked for."""
    download: bool = False
    """Whether saving a record downloads it instead (`App.deliver_text`)."""
