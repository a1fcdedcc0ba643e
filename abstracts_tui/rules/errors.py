"""Exceptions raised by the rules layer.

Every message is written for a person: the app shows it in its status line and the
engine protocol returns it after `?`, as it is.
"""

import re


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


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def shown(text: str, length: int = 40) -> str:
    """Outside text quoted in a message: at most `length` characters of it, with line
    breaks and other control characters written as escapes (`\\n`), so that the message
    stays one line."""
    if len(text) > length:
        text = text[: length - 1] + "…"
    return _CONTROL.sub(lambda found: repr(found.group())[1:-1], text)
