"""Setting up a position at one screen: when it may be done, checking a position string,
and putting the position in the session's record (analysis goes on from it)."""

from __future__ import annotations

from ..rules import Game, RulesError
from ..session import Phase, Session

CANCELLED = "Setup cancelled: the position is as it was."
SET_UP = "Position set up: play or analyse from here."
SET_UP_FROM_STRING = "Position set up from the string: play goes on from it."
NOT_SHARED = "Setting up a position is not possible in a shared game."


def position_check(game: Game, text: str) -> str | None:
    """Why `text` is not a position of `game`'s kind; None if it is one."""
    try:
        type(game).from_position(text.strip())
    except RulesError as error:
        return str(error)
    return None


class SetUp:
    """Setting up positions in one session."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def refusal(self) -> str | None:
        """Why no position can be set up now (komi and sides still to choose); None if
        one can."""
        return None if self.session.phase is Phase.PLAY else "Set komi and sides first."

    def set_up(self, position: str, news: str = SET_UP) -> tuple[str, bool]:
        """Put `position` in the record; the sentence that says so (`news`) or why not,
        and whether it was set up."""
        try:
            self.session.set_up(position)
        except RulesError as error:
            return f"Not set up: {error}", False
        return news, True

    def from_string(self, text: str, *, shared: bool) -> tuple[str, bool] | None:
        """A position typed or pasted in place of the one shown (`text`); None where it
        is the same or empty."""
        if text.strip() in ("", self.session.game.position()):
            return None
        if shared:
            return NOT_SHARED, False
        return self.set_up(text.strip(), SET_UP_FROM_STRING)
