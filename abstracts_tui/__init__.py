"""abstracts-tui: play and study modern abstract territory games in a terminal."""

__version__ = "0.1.0"
