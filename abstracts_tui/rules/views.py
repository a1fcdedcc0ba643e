"""Typed views of a game's state: what `Game.view()` returns, one kind per game.

A view is the whole of a position as its game holds it (the bitboards in the game's own
layout, the counters the rules need beyond the board), read-only and named field by
field, for code outside the rules that works on the same bits: the compiled core builds
its positions from views. A view is taken at one moment and does not follow the game.

Bitboards are Python integers, bit `b` standing for one cell in the layout the view names:
- dense: bit `c` for cell `c` of the game's `geometry` (`a1` = 0, row by row from the
  bottom; Partitions row by row from the bottom row, each from the left);
- padded square (Petrify, Pilo; `squares.Layout`): the square (col, row), both from 0 at
  the bottom left, is bit `(row + 1) * (size + 3) + col + 1`; rows 0 and size + 1 and
  columns 0 and size + 1 are the ring of blocks around the board; column size + 2 is
  never set;
- padded points (Linage): the point (col, row) is bit `row * (size + 1) + col`; bit
  `size` of each row is a sentinel, never set.

Views are named tuples so that taking one costs little (search takes one per position it
starts from), but their fields are what they are for: read them by name.
"""

from __future__ import annotations

from typing import NamedTuple


class PetrifyView(NamedTuple):
    """A Petrify position: disks and blocks on padded square bitboards."""

    blue: int
    """Blue's disks (colour 0, moves first)."""
    orange: int
    """Orange's disks (colour 1)."""
    blocks: int
    """The blocks, the ring around the board included."""
    turn: int
    """Colour index of the side to move."""
    passes: int
    """Passes made in succession just before (2 ends the game)."""
    last: int | None
    """Colour index of the side that made the last placement or capture, None before any."""
    swap: bool
    """Whether the pie rule's swap is a legal move now."""


class PiloView(NamedTuple):
    """A Pilo position: stacks, their heights and blocks on padded square bitboards."""

    blue: int
    """The squares of Blue's stacks (colour 0, moves first), any height."""
    orange: int
    """The squares of Orange's stacks (colour 1), any height."""
    blocks: int
    """The blocks, the ring around the board included."""
    tall: int
    """The stacks of height 2 or more, of either colour (the others have height 1)."""
    levels: tuple[int, ...]
    """`levels[h]`: the stacks of height h, for h >= 2; `levels[0]` and `levels[1]` are 0.
    Its length depends on the board's size only (`Pilo.max_height` + 2)."""
    turn: int
    """Colour index of the side to move."""
    passes: int
    """Passes made in succession just before (2 ends the game)."""
    last: int | None
    """Colour index of the side that made the last placement or capture, None before any."""
    swap: bool
    """Whether the pie rule's swap is a legal move now."""


class EgotziView(NamedTuple):
    """An Egotzi position: two dense bitboards (the side to move follows from them)."""

    black: int
    """Black's stones (colour 0, moves first)."""
    white: int
    """White's stones (colour 1)."""
    swap: bool
    """Whether the pie rule's swap is a legal move now (only right after Black's first
    stone, with the pie rule on)."""

    @property
    def turn(self) -> int:
        """Colour index of the side to move: Black when the number of stones is even."""
        return (self.black | self.white).bit_count() & 1


class LinageView(NamedTuple):
    """A Linage position: the empty points on the padded points layout."""

    empty: int
    """The empty points (every other point holds a neutral stone)."""
    turn: int
    """Colour index of the side to move: 0 Vertical, 1 Horizontal."""
    passes: int
    """Passes made in succession just before (2 ends the game)."""


class PartitionsView(NamedTuple):
    """A Partitions position: two dense bitboards of the hex board."""

    white: int
    """White's pieces (colour 0, moves first)."""
    black: int
    """Black's pieces (colour 1)."""
    turn: int
    """Colour index of the side to move."""


GameView = PetrifyView | PiloView | EgotziView | LinageView | PartitionsView
"""The view of any game: one of the five kinds, told apart by its type."""
