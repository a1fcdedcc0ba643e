"""Time odds in rooms: a room's clock spec that gives each side its own time control
(`5m+3s/1m+2s`, the creator's first; read by `clock.TimeControl.parse`), as the rooms
keep it, swap it and show it."""

from __future__ import annotations

from .clock import TimeControl


def swapped_spec(spec: str | None) -> str | None:
    """A room's clock spec with time odds given to the other sides (`5m+3s/1m+2s` ->
    `1m+2s/5m+3s`); any other spec as it is."""
    if spec is None or "/" not in spec:
        return spec
    control = TimeControl.parse(spec)
    return control.swapped().spec if control is not None else spec


def has_odds(spec: str | None) -> bool:
    """Whether a room's clock spec gives each side its own time control (time odds): such
    a game is never rated, as lichess rates no game that starts unequal."""
    return spec is not None and "/" in spec


def spec_words(spec: str) -> str:
    """A clock spec as the lobby shows it: `5m+3s`, or with time odds `5m+3s vs 1m+2s`."""
    return spec.replace("/", " vs ")
