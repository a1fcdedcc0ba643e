"""The board's colours as theme variables, and the app's own themes.

The board widget keeps colours of its own (`BoardView.DEFAULT_CSS`) so that it works in
any app; the app's stylesheet (`app.tcss`) draws it with these variables instead, so that
a theme sets them. Every Textual theme gets the defaults below; `colour-blind` replaces
the pairs that red-green colour blindness confuses (the last move's green against a
target's red, an area's brown against a fragment's red) with the Okabe-Ito palette.
"""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES, Theme

BOARD_COLOURS = {
    "board-background": "#1e2430",
    "board-foreground": "#9aa0aa",
    "board-label": "#8a8f99",
    "board-grid": "#5c6370",
    "board-block": "#9aa0aa",
    "board-blue": "#4da3ff",
    "board-orange": "#ffb000",
    "board-black": "#101010",
    "board-white": "#ffffff",
    "board-vertical": "#0a2a5a",
    "board-horizontal": "#5a0a0a",
    "board-own0": "#10308a",
    "board-own1": "#705000",
    "board-cancelled": "#3c3c3c",
    "board-fragment": "#c0504d",
    "board-free": "#c9a24a",
    "board-last": "#3c5a28",
    "board-target": "#8b2020",
    "board-selected": "#1f7a1f",
    "board-shade": "#283040",
    "wood-background": "#b8862b",
    "wood-foreground": "#3a2a10",
    "wood-grid": "#5a3e12",
    "wood-empty": "#6b4e1f",
    "wood-own0": "#4aa0b0",
    "wood-own1": "#c87060",
    "wood-cancelled": "#8a7a60",
    "wood-last": "#d8b860",
    "wood-shade": "#a87a26",
}
"""The board's colours in every theme that does not set its own."""

COLOUR_BLIND = Theme(
    name="colour-blind",
    primary="#0072B2",
    secondary="#56B4E9",
    accent="#E69F00",
    warning="#E69F00",
    error="#D55E00",
    success="#009E73",
    foreground="#e0e0e0",
    dark=True,
    variables={
        "board-blue": "#56B4E9",
        "board-orange": "#E69F00",
        "board-own0": "#0b4f7a",
        "board-own1": "#7a5a00",
        "board-fragment": "#CC79A7",
        "board-free": "#F0E442",
        "board-last": "#0072B2",
        "board-target": "#D55E00",
        "board-selected": "#009E73",
        "wood-own0": "#56B4E9",
        "wood-own1": "#E69F00",
        "wood-last": "#F0E442",
    },
)
"""Okabe-Ito colours, which stay apart for the common kinds of colour blindness."""

THEMES = (COLOUR_BLIND,)


def theme_names() -> list[str]:
    """Every theme a setting may name: Textual's and the app's own."""
    return sorted({*BUILTIN_THEMES, *(theme.name for theme in THEMES)})
