"""The engine: the text protocol for other programs (and, later, the AI)."""

from .protocol import Engine

__all__ = ["Engine"]
