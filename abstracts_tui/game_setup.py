"""What is chosen before a game starts (kept apart so the selection screen loads fast)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setup:
    """What is chosen before a game: the game, its options and the two people's names."""

    game: str
    size: int | None = None
    variant: str | None = None
    komi: float | None = None
    """A komi agreed beforehand; None lets the first person set it in the game."""
    first: str = "Player 1"
    """The person who moves first (or, with komi, who sets komi)."""
    second: str = "Player 2"
    first_level: str | None = None
    """The strength of the computer that plays for the first person; None: a person plays."""
    second_level: str | None = None
    """The strength of the computer that plays for the second person; None: a person plays."""
