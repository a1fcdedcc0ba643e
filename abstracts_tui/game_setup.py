"""What is chosen before a game starts (kept apart so the selection screen loads fast)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_NAMES = ("Player 1", "Player 2")
COMPUTER_NAME = "Computer"


@dataclass(frozen=True)
class Setup:
    """What is chosen before a game: the game, its options and the two people's names."""

    game: str
    size: int | None = None
    variant: str | None = None
    komi: float | None = None
    """A komi agreed beforehand; None lets the first person set it in the game."""
    first: str = DEFAULT_NAMES[0]
    """The person who moves first (or, with komi, who sets komi)."""
    second: str = DEFAULT_NAMES[1]
    first_level: str | None = None
    """The strength of the computer that plays for the first person; None: a person plays."""
    second_level: str | None = None
    """The strength of the computer that plays for the second person; None: a person plays."""
    clock: str | None = None
    """The time control's spec (`5m+3s`, `10m+3x30s`); None: no clock."""


def seat_names(typed: tuple[str, str], levels: tuple[str | None, str | None]) -> tuple[str, str]:
    """The two people's names from what was typed: the default for a blank one,
    "Computer" for a computer's seat left blank or default, and " 2" added to the second
    of two equal names (the record and the turn line tell people apart by name)."""
    names = []
    for name, default, level in zip(typed, DEFAULT_NAMES, levels, strict=True):
        name = name.strip()
        if level is not None and name in ("", *DEFAULT_NAMES):
            name = COMPUTER_NAME
        names.append(name or default)
    if names[0] == names[1]:
        names[1] += " 2"
    return names[0], names[1]
