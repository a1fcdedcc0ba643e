"""Full screens of the app: choosing a game, playing it, and the help."""

from __future__ import annotations

from .help import HelpScreen
from .select import SelectScreen

__all__ = ["HelpScreen", "SelectScreen"]
