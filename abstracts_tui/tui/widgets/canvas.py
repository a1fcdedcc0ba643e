"""A grid of characters with a style key per character.

A board is drawn in two steps: its layout paints the parts that never change (labels,
grid lines) once, then each redraw copies that canvas and paints the cells over it.
A style key is a tuple of component-class names; the widget turns keys into styles and
each line into a `Strip`.
"""

from __future__ import annotations

StyleKey = tuple[str, ...]
"""Component classes whose styles are combined, in order, for one character."""

PLAIN: StyleKey = ()


class Canvas:
    """Characters and style keys, `width` by `height`."""

    __slots__ = ("chars", "height", "keys", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.keys: list[list[StyleKey]] = [[PLAIN] * width for _ in range(height)]

    def copy(self) -> Canvas:
        """An independent copy."""
        other = Canvas.__new__(Canvas)
        other.width = self.width
        other.height = self.height
        other.chars = [row[:] for row in self.chars]
        other.keys = [row[:] for row in self.keys]
        return other

    def put(self, x: int, y: int, text: str, key: StyleKey) -> None:
        """Write `text` from column `x` of line `y`; characters off the canvas are dropped."""
        chars = self.chars[y]
        keys = self.keys[y]
        for i, char in enumerate(text, start=x):
            if 0 <= i < self.width:
                chars[i] = char
                keys[i] = key
