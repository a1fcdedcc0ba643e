"""Linage: neutral stones on the points; regions without a line across are territory.

A region is a maximal set of orthogonally connected empty points; a line is three empty
points in a row, horizontally or vertically. A region with no horizontal line is
Vertical's, one with no vertical line is Horizontal's, one with both is free. A stone goes
on an empty point of a free region, and afterwards every region must still hold a line.
`pass` is always legal; two passes in a row end the game. Each side scores the points of
the regions it owns; Horizontal adds komi; equal scores are a draw (docs/rules.md, Linage).

Internally the empty points are one Python integer on a padded layout: rows of `size + 1`
bits whose last bit is a sentinel that is never empty, so that a shift by one bit never
wraps from one row into the next. Move codes and cells at the API edge are the dense
row-major indices of `SquareGrid`; `_Layout` holds the tables between the two.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from .base import PASS, SWAP, Game, Move, Outcome, Piece, Score
from .catalogue import LINAGE, Options, format_number
from .errors import PositionError, shown
from .geometry import SquareGrid
from .views import LinageView

INFO = LINAGE

VERTICAL = 0
"""Colour index of Vertical, who moves first and owns regions with no horizontal line."""
HORIZONTAL = 1
"""Colour index of Horizontal, who owns regions with no vertical line and adds komi."""

STONE = Piece("stone", None)
"""The neutral stone, written `x` in position strings."""


@dataclass(frozen=True)
class Region:
    """One region of a position: its points and who owns it."""

    cells: frozenset[int]
    """Its points as dense cell indices (`a1` = 0, row by row from the bottom)."""
    owner: int | None
    """`VERTICAL` (no horizontal line), `HORIZONTAL` (no vertical line), None when free."""

    @property
    def size(self) -> int:
        """The number of points in the region."""
        return len(self.cells)


@dataclass(frozen=True)
class LinageScore(Score):
    """A Linage score: the points of the owned regions, komi added to Horizontal."""

    regions: tuple[Region, ...] = ()
    """Every region of the position, ordered by its lowest cell."""
    komi: float = 0.0
    """The komi included in Horizontal's points."""


class _Layout:
    """The padded bitboard layout of one board size and its precomputed tables.

    Bit `row * (size + 1) + col` stands for the point (col, row); bit `size` of each row
    is the sentinel. Tables indexed by a padded index hold 0 at sentinels.
    """

    def __init__(self, size: int) -> None:
        n = size
        w = n + 1
        self.width = w
        self.pad = tuple(row * w + col for row in range(n) for col in range(n))
        """Padded index of each dense cell."""
        self.bit = tuple(1 << p for p in self.pad)
        """Padded bit of each dense cell."""
        dense = [-1] * (n * w)
        for cell, p in enumerate(self.pad):
            dense[p] = cell
        self.board = sum(self.bit)
        """Every point, all empty: the start position."""
        h_through = [0] * (n * w)
        v_through = [0] * (n * w)
        near = [0] * (n * w)
        for cell, p in enumerate(self.pad):
            col, row = cell % n, cell // n
            # Starts (lowest point) of the lines that would pass through this point.
            for k in range(3):
                if 0 <= col - k <= n - 3:
                    h_through[p] |= 1 << (p - k)
                if 0 <= row - k <= n - 3:
                    v_through[p] |= 1 << (p - k * w)
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= col + dc < n and 0 <= row + dr < n:
                    near[p] |= 1 << (p + dc + dr * w)
        self.h_through = tuple(h_through)
        self.v_through = tuple(v_through)
        self.near = tuple(near)

        self._bytes = (n * w + 7) // 8
        # The dense cells of each byte of a padded mask: a mask becomes a list of cells
        # a byte at a time instead of a bit at a time.
        self._byte_cells = tuple(
            tuple(
                tuple(
                    dense[8 * j + i]
                    for i in range(8)
                    if byte >> i & 1 and 8 * j + i < n * w and dense[8 * j + i] >= 0
                )
                for byte in range(256)
            )
            for j in range(self._bytes)
        )

    def cells(self, mask: int) -> list[int]:
        """The dense cells of a padded mask, lowest first."""
        out: list[int] = []
        for table, byte in zip(self._byte_cells, mask.to_bytes(self._bytes, "little"), strict=True):
            if byte:
                out += table[byte]
        return out


@functools.cache
def _grid(size: int) -> SquareGrid:
    return SquareGrid(size)


@functools.cache
def _layout(size: int) -> _Layout:
    return _Layout(size)


# -- the bitboard kernels (module functions: the hot path of search) ---------------------


def _components(empty: int, w: int) -> list[int]:
    """The regions (orthogonally connected parts) of the padded mask `empty`."""
    parts = []
    rest = empty
    while rest:
        found = rest & -rest
        while True:
            grown = (found | found << 1 | found >> 1 | found << w | found >> w) & rest
            if grown == found:
                break
            found = grown
        parts.append(found)
        rest ^= found
    return parts


def _line_starts(empty: int, w: int) -> tuple[int, int]:
    """The lowest points of the horizontal and of the vertical lines of `empty`."""
    return empty & empty >> 1 & empty >> 2, empty & empty >> w & empty >> (w + w)


def _may_split(empty: int, w: int) -> int:
    """The empty points whose removal might split their region.

    A point is safe when its empty orthogonal neighbours stay connected to one another
    through the ring of its 8 neighbours; then the rest of its region stays connected.
    Every other point with two or more empty neighbours is returned (a superset of the
    cut points, decided later by flood fills).
    """
    n = empty >> w
    s = empty << w
    e = empty >> 1
    v = empty << 1  # west
    ne = n & e & empty >> (w + 1)
    se = s & e & empty << (w - 1)
    sw = s & v & empty << (w + 1)
    nw = n & v & empty >> (w - 1)
    return empty & (
        (n & e & ~(ne | (nw & sw & se)))
        | (e & s & ~(se | (ne & nw & sw)))
        | (s & v & ~(sw | (se & ne & nw)))
        | (v & n & ~(nw | (sw & se & ne)))
        | (n & s & ~((ne & se) | (nw & sw)))
        | (e & v & ~((ne & nw) | (se & sw)))
    )


def _in_every_line(h: int, v: int, w: int) -> int:
    """The points that lie on every line whose starts are `h` (horizontal) and `v`."""
    low = h & -h
    high = 1 << (h.bit_length() - 1)
    if high > low << 2:
        return 0
    # All horizontal starts lie within 3 points of one row: they share [high, low + 2].
    across = (low << 3) - high
    low = v & -v
    high = 1 << (v.bit_length() - 1)
    if v & ~(low | low << w | low << (w + w)):
        return 0
    down = low << (w + w)
    if high <= low << w:
        down |= low << w
    if high == low:
        down |= low
    return across & down


def _keeps_lines(lay: _Layout, region: int, h: int, v: int, p: int) -> bool:
    """Whether every part of `region` minus point `p` still holds a line.

    `h` and `v` are the line starts of the region. Each part of the rest touches one of
    p's neighbours, so a flood from each neighbour runs only until it meets a line that
    does not pass through p (every such line lies wholly inside one part).
    """
    w = lay.width
    hs = h & ~lay.h_through[p]
    vs = v & ~lay.v_through[p]
    kept = hs | hs << 1 | hs << 2 | vs | vs << w | vs << (w + w)
    if not kept:
        return False
    rest = region ^ (1 << p)
    todo = lay.near[p] & rest & ~kept
    while todo:
        found = todo & -todo
        while True:
            grown = (found | found << 1 | found >> 1 | found << w | found >> w) & rest
            if grown & kept:
                break
            if grown == found:
                return False
            found = grown
        todo &= ~grown
    return True


def _legal_in(lay: _Layout, region: int, h: int, v: int, risky: int) -> int:
    """The legal placements of a free region (padded mask).

    `h` and `v` are the region's line starts, `risky` its points that might split it.
    """
    w = lay.width
    legal = region & ~risky & ~_in_every_line(h, v, w)
    risky &= region
    if not risky:
        return legal
    across = h | h << 1 | h << 2
    down = v | v << w | v << (w + w)
    # A risky point is still legal at once when each of its empty neighbours lies on a
    # line that does not pass through it (e.g. the east one: a horizontal line starting
    # there, or any vertical line): then every part left holds a line. Only the others
    # need flood fills.
    stuck = (
        region >> 1 & ~(h >> 1 | down >> 1)
        | region << 1 & ~(h << 3 | down << 1)
        | region >> w & ~(v >> w | across >> w)
        | region << w & ~(v << (3 * w) | across << w)
    )
    legal |= risky & ~stuck
    risky &= stuck
    if not risky:
        return legal
    # A point whose only empty neighbour is p is left alone, with no line, by a stone on
    # p: such a p is illegal without a flood fill.
    n = region >> w
    s = region << w
    e = region >> 1
    west = region << 1
    several = n & (s | e | west) | s & (e | west) | e & west
    dead = region & ~several
    risky &= ~(dead >> 1 | dead << 1 | dead >> w | dead << w)
    while risky:
        low = risky & -risky
        risky ^= low
        if _keeps_lines(lay, region, h, v, low.bit_length() - 1):
            legal |= low
    return legal


def _legal_in_region(lay: _Layout, region: int) -> int:
    """The legal placements of one free region (padded mask) on its own."""
    w = lay.width
    h, v = _line_starts(region, w)
    # The ring test of a point only looks at points of its own region.
    return _legal_in(lay, region, h, v, _may_split(region, w))


def _legal_mask(lay: _Layout, empty: int) -> int:
    """Every legal placement of the position (padded mask)."""
    w = lay.width
    hstarts, vstarts = _line_starts(empty, w)
    risky = _may_split(empty, w)
    legal = 0
    for region in _components(empty, w):
        h = hstarts & region
        if h:
            v = vstarts & region
            if v:
                legal |= _legal_in(lay, region, h, v, risky)
    return legal


def _legal_at(lay: _Layout, empty: int, bit: int) -> bool:
    """Whether a stone may go on the point `bit` (a padded mask of one point) of `empty`:
    one placement checked without the whole position's legal mask (on 19x19 a tenth of
    its time or less), for a move played in a position not asked about before.

    Its region is free when a flood from the point meets a horizontal and a vertical
    line (a line met lies wholly in the region); `_keeps_lines` then floods only within
    the region too, so the lines of the whole board may be given to it."""
    if not empty & bit:
        return False
    w = lay.width
    h, v = _line_starts(empty, w)
    across = h | h << 1 | h << 2
    down = v | v << w | v << (w + w)
    found = bit
    while not (found & across and found & down):
        grown = (found | found << 1 | found >> 1 | found << w | found >> w) & empty
        if grown == found:
            return False  # the whole region, with no line of one direction: owned
        found = grown
    return _keeps_lines(lay, empty, h, v, bit.bit_length() - 1)


# -- the game ----------------------------------------------------------------------------


class Linage(Game):
    """A game of Linage: Vertical (first mover) against Horizontal, neutral stones.

    The state is `(empty, turn, passes)`: the padded mask of empty points, the colour to
    move, and the number of passes just made in a row (2 ends the game).
    """

    info = INFO
    piece_kind: ClassVar[str] = "stone"
    neutral_kind: ClassVar[str | None] = "stone"
    counter_keys: ClassVar[tuple[str, ...]] = ("passes",)

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.geometry: SquareGrid = _grid(options.size)
        self._layout = _layout(options.size)
        self._empty = self._layout.board
        self._turn = VERTICAL
        self._passes = 0
        # The legal placements of the last position asked about; legality depends on the
        # empty points only, so the mask itself is the cache key (no invalidation needed).
        self._cache_key = -1
        self._cache_mask = 0
        self._cache: list[Move] = []

    @classmethod
    def geometry_for(cls, size: int) -> SquareGrid:
        """The board of Linage at `size` points per side."""
        return _grid(size)

    # -- state ---------------------------------------------------------------------------

    def _state(self) -> tuple[int, int, int]:
        return self._empty, self._turn, self._passes

    def _set_state(self, state: object) -> None:
        self._empty, self._turn, self._passes = state  # type: ignore[misc]

    def view(self) -> LinageView:
        return LinageView(self._empty, self._turn, self._passes)

    def _apply(self, move: Move) -> None:
        if move == PASS:
            self._passes += 1
        else:
            self._empty ^= self._layout.bit[move]
            self._passes = 0
        self._turn ^= 1

    # -- rules ---------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Colour index of the side to move: 0 Vertical, 1 Horizontal."""
        return self._turn

    @property
    def passes(self) -> int:
        """The number of passes just made in a row: 0, 1, or 2 once the game is over."""
        return self._passes

    def _placements(self) -> list[Move]:
        empty = self._empty
        if empty != self._cache_key:
            lay = self._layout
            self._cache_mask = _legal_mask(lay, empty)
            self._cache = lay.cells(self._cache_mask)
            self._cache_key = empty
        return self._cache

    def legal_moves(self) -> list[Move]:
        """Every legal placement (lowest cell first), then `PASS`; empty once over."""
        if self._passes >= 2:
            return []
        return [*self._placements(), PASS]

    def illegal_reason(self, move: Move) -> str | None:
        """None if `move` is legal now, else why not, in words a player can act on."""
        n = self.geometry.cell_count
        if self._passes >= 2:
            return "the game is over: both players passed in a row"
        if move == PASS:
            return None
        if move == SWAP:
            return "Linage has no swap: the second player chooses sides before the game"
        if not isinstance(move, int) or not 0 <= move < n:
            if isinstance(move, int) and n <= move < n + n * n:
                return "Linage has no moves from one point to another: give a point, or pass"
            return f"{move} is not a move of Linage size {self.size}"
        bit = self._layout.bit[move]
        if self._cache_key == self._empty:
            legal = bool(self._cache_mask & bit)
        else:  # a record read, or a game replayed: each move in a new position
            legal = _legal_at(self._layout, self._empty, bit)
        return None if legal else self._why_not(move)

    def _why_not(self, cell: int) -> str:
        lay = self._layout
        w = lay.width
        name = self.geometry.name(cell)
        bit = lay.bit[cell]
        empty = self._empty
        if not empty & bit:
            return f"{name} is occupied"
        region = next(r for r in _components(empty, w) if r & bit)
        owner = _owner(region, w)
        if owner is not None:
            missing = "horizontal" if owner == VERTICAL else "vertical"
            colour = INFO.colours[owner].capitalize()
            return (
                f"{name} is in {colour}'s region (it has no {missing} line); "
                f"stones go only in free regions"
            )
        rest = region ^ bit
        for part in _components(rest, w):
            h, v = _line_starts(part, w)
            if not h | v:
                cells = _cells_text(self.geometry, lay.cells(part))
                if part == rest:
                    return (
                        f"a stone on {name} would leave the rest of its region ({cells}) "
                        f"with no line of three empty points"
                    )
                return f"a stone on {name} would cut off {cells} with no line of three empty points"
        raise AssertionError(f"{name} is legal")  # pragma: no cover

    def is_over(self) -> bool:
        """Whether both players passed in a row."""
        return self._passes >= 2

    def regions(self) -> tuple[Region, ...]:
        """Every region of the position with its owner, ordered by lowest cell."""
        lay = self._layout
        w = lay.width
        return tuple(
            Region(frozenset(lay.cells(part)), _owner(part, w))
            for part in _components(self._empty, w)
        )

    def score(self) -> LinageScore:
        """Points of owned regions, komi added to Horizontal; a preview before the end."""
        regions = self.regions()
        owned = [0, 0]
        lines = []
        for region in regions:
            where = _cells_text(self.geometry, sorted(region.cells))
            if region.owner is None:
                lines.append(f"free: {where} (lines both ways)")
            else:
                owned[region.owner] += region.size
                missing = "horizontal" if region.owner == VERTICAL else "vertical"
                colour = INFO.colours[region.owner].capitalize()
                lines.append(f"{colour} {region.size}: {where} (no {missing} line)")
        komi = self.options.komi
        lines.append(f"Vertical {owned[VERTICAL]}")
        total = owned[HORIZONTAL] + komi
        lines.append(
            f"Horizontal {owned[HORIZONTAL]} + komi {format_number(komi)} = {format_number(total)}"
            if komi
            else f"Horizontal {owned[HORIZONTAL]}"
        )
        return LinageScore(
            points=(float(owned[VERTICAL]), total + 0.0),
            lines=tuple(lines),
            regions=regions,
            komi=komi,
        )

    def outcome(self) -> Outcome | None:
        """The higher score wins once both passed in a row; equal scores are a draw."""
        if self._passes < 2:
            return None
        vertical, horizontal = self.score().points
        a, b = format_number(vertical), format_number(horizontal)
        if vertical == horizontal:
            return Outcome(None, f"tied {a}-{b}: equal scores are a draw")
        winner = VERTICAL if vertical > horizontal else HORIZONTAL
        return Outcome(winner, f"Vertical {a}, Horizontal {b}")

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves (pass included) until the game is over."""
        if self._passes >= 2:
            return
        lay = self._layout
        w = lay.width
        pad = lay.pad
        # A stone changes only its own region, and owned regions never change again, so
        # only the free regions are kept, each with its legal placements; a move
        # recomputes the parts of the region it split and nothing else.
        free: list[tuple[int, int, list[Move]]] = []
        for region in _components(self._empty, w):
            if _owner(region, w) is None:
                legal = _legal_in_region(lay, region)
                free.append((region, legal, lay.cells(legal)))
        total = sum(len(moves) for _, _, moves in free)
        while self._passes < 2:
            pick = rng.randrange(total + 1)
            if pick == total:
                self.push(PASS)
                continue
            index = 0
            region, _, moves = free[0]
            while pick >= len(moves):
                pick -= len(moves)
                index += 1
                region, _, moves = free[index]
            move = moves[pick]
            self.push(move)
            total -= len(moves)
            del free[index]
            for part in _components(region ^ 1 << pad[move], w):
                if _owner(part, w) is None:
                    legal = _legal_in_region(lay, part)
                    found = lay.cells(legal)
                    free.append((part, legal, found))
                    total += len(found)
        mask = 0
        for _, legal, _ in free:
            mask |= legal
        self._cache_mask = mask
        self._cache = lay.cells(mask)
        self._cache_key = self._empty

    # -- position strings ----------------------------------------------------------------

    def piece_at(self, cell: int) -> Piece | None:
        """A neutral stone, or None on an empty point."""
        return None if self._empty & self._layout.bit[cell] else STONE

    def _counters(self) -> dict[str, str]:
        return {"passes": str(self._passes)}

    @classmethod
    def _parse_piece(cls, token: str, number: int) -> Piece | None:
        if token == ".":
            return None
        if token == "x":
            return STONE
        raise PositionError(
            f"row {number} from the top: '{shown(token)}' is not a point; "
            f"use 'x' (stone) or '.' (empty): Linage stones are neutral"
        )

    @classmethod
    def _from_pieces(
        cls,
        options: Options,
        pieces: list[Piece | None],
        turn: int,
        counters: Mapping[str, str],
    ) -> Self:
        game = cls(options)
        lay = game._layout
        empty = 0
        for cell, piece in enumerate(pieces):
            if piece is None:
                empty |= lay.bit[cell]
            elif piece != STONE:
                raise PositionError(
                    f"{game.geometry.name(cell)}: Linage has only neutral stones (x), "
                    f"not a {piece.kind} of a colour"
                )
        text = counters["passes"]
        if text not in ("0", "1", "2"):
            raise PositionError(f"the counter passes must be 0, 1 or 2, not '{shown(text)}'")
        w = lay.width
        for part in _components(empty, w):
            h, v = _line_starts(part, w)
            if not h | v:
                raise PositionError(
                    f"the region {_cells_text(game.geometry, lay.cells(part))} has no "
                    f"line of three empty points; in Linage every region keeps one"
                )
        game._empty = empty
        game._turn = turn
        game._passes = int(text)
        return game


def _owner(region: int, w: int) -> int | None:
    """Who owns a region (padded mask): `VERTICAL`, `HORIZONTAL`, or None when free."""
    h, v = _line_starts(region, w)
    if not h:
        return VERTICAL
    if not v:
        return HORIZONTAL
    return None


def _cells_text(geometry: SquareGrid, cells: list[int]) -> str:
    """Points in words: their names when few, else their number and extent."""
    names = [geometry.name(c) for c in cells]
    if len(names) <= 8:
        return " ".join(names)
    return f"{len(names)} points from {names[0]} to {names[-1]}"
