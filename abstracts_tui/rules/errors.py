"""Exceptions raised by the rules layer.

Every message is written for a person: the app shows it in its status line and the
engine protocol returns it after `?`, as it is.
"""

from ..printable import printable


class RulesError(ValueError):
    """Base class of every error the rules layer raises on bad input."""


class MoveSyntaxError(RulesError):
    """The text is not a move in this game's notation (or names a cell off the board)."""


class IllegalMoveError(RulesError):
    """The move is well formed but the rules do not allow it now."""


class OptionError(RulesError):
    """A game option (size, variant, komi) is unknown or out of range."""


class PositionError(RulesError):
    """A position string is malformed or describes a position the rules cannot reach."""


class UndoError(RulesError):
    """There is no move to take back."""


def shown(text: str, length: int = 40) -> str:
    """Outside text quoted in a message: at most `length` characters of it, with line
    breaks, control and invisible characters written as escapes (`\\n`), so that the
    message stays one line and shows what was given (`printable.printable`)."""
    return printable(text, length)
