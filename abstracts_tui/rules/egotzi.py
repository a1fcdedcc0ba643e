"""Egotzi (Luis Bolaños Mures, 2021): every stone placed pushes its neighbours away.

The board is a square grid, filled one stone per move; the game ends when it is full.
How a push works (docs/rules.md, Egotzi: pushes): each stone orthogonally adjacent to the new
stone moves directly away from it, to the first empty square beyond it; failing that, it
wraps to the empty square of its line farthest from it in the opposite direction; failing
that, it stays. All pushes are worked out on the board as it stands just after the
placement, and when a straight push and a wrapped push land on one square the wrapped
stone stays.

Variants: `standard` (pie rule; opposite-coloured groups of equal size cancel and the
biggest group left wins) and `squared` (sum of the squares of the group sizes, komi to
White, no pie rule).

Internally a position is two bitboards (Python ints, bit `c` for cell `c` as in
`geometry`), and a push is a few mask operations on precomputed per-line tables, so that
random games stay fast in pure Python.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self, cast

from .base import (
    PASS,
    SWAP,
    Game,
    Move,
    Outcome,
    Piece,
    Score,
    colour_masks,
    yes_no,
    yes_no_text,
)
from .catalogue import EGOTZI, GameInfo, Options, format_number
from .errors import PositionError
from .geometry import SquareGrid
from .pairs import Group, cancel
from .views import EgotziView

INFO = EGOTZI

BLACK = 0
WHITE = 1

_STONES = (Piece("stone", BLACK), Piece("stone", WHITE))
_NAMES = ("Black", "White")

_Line = tuple[int, int, int, int, int]
"""One line through a cell p, as masks: (low neighbour, cells beyond it, high neighbour,
cells beyond it, the whole line). "Low" is the neighbour with the smaller cell index (left
or below), so a stone pushed from p towards low indices meets its nearest square at the
highest set bit, and the other way round."""


@functools.cache
def _geometry(size: int) -> SquareGrid:
    return SquareGrid(size)


@dataclass(frozen=True)
class _Tables:
    """Everything a move needs that depends only on the board size."""

    full: int
    lines: tuple[tuple[_Line, ...], ...]
    """`lines[p]`: the row and the column through cell p."""
    row_cells: tuple[tuple[tuple[int, ...], ...], ...]
    """`row_cells[r][pattern]`: the cells of row r whose bits are set in the row-wide
    `pattern`; turns an empty-squares bitboard into a move list a row at a time."""


@functools.cache
def _tables(size: int) -> _Tables:
    n = size
    lines: list[tuple[_Line, ...]] = []
    for p in range(n * n):
        col, row = p % n, p // n
        row_line = _line_masks(
            [row * n + c for c in range(col - 1, -1, -1)],
            [row * n + c for c in range(col + 1, n)],
            sum(1 << (row * n + c) for c in range(n)),
        )
        col_line = _line_masks(
            [r * n + col for r in range(row - 1, -1, -1)],
            [r * n + col for r in range(row + 1, n)],
            sum(1 << (r * n + col) for r in range(n)),
        )
        lines.append((row_line, col_line))
    row_cells = tuple(
        tuple(tuple(r * n + c for c in range(n) if pattern >> c & 1) for pattern in range(1 << n))
        for r in range(n)
    )
    return _Tables((1 << n * n) - 1, tuple(lines), row_cells)


def _line_masks(low_side: list[int], high_side: list[int], line: int) -> _Line:
    """The masks of one line; `low_side` / `high_side` run outwards from p."""

    def mask(cells: list[int]) -> int:
        return sum(1 << c for c in cells)

    low = 1 << low_side[0] if low_side else 0
    high = 1 << high_side[0] if high_side else 0
    return (low, mask(low_side[1:]), high, mask(high_side[1:]), line)


def _place(
    lines: tuple[tuple[_Line, ...], ...], full: int, black: int, white: int, p: int, colour: int
) -> tuple[int, int]:
    """The bitboards after `colour` places a stone on the empty cell `p` and pushes.

    `Egotzi.playout` inlines the same steps (keep the two in step; the tests replay
    playouts through this function).
    """
    bit = 1 << p
    if colour:
        white |= bit
    else:
        black |= bit
    for source, target in _pushes(lines[p], full, black | white):
        if black & source:
            black ^= source | target
        else:
            white ^= source | target
    return black, white


def _pushes(lines: tuple[_Line, ...], full: int, occupied: int) -> list[tuple[int, int]]:
    """The stones a placement pushes, as (the cell's bit, the bit of where it goes), for
    the lines through the new stone and the board `occupied` just after it is placed; a
    stone that stays is left out."""
    empty = full ^ occupied
    pushed: list[tuple[int, int]] = []
    # A row push and a column push never meet (their lines cross only at p, which is
    # full), so each line is settled on its own.
    for low, low_beyond, high, high_beyond, line in lines:
        line_empty = line & empty
        if not line_empty:
            continue  # nothing on this line can move
        target_low = target_high = 0
        if occupied & low:
            ahead_low = low_beyond & line_empty
            if occupied & high:
                ahead_high = high_beyond & line_empty
                # p and both neighbours are full, so the line's empty squares are
                # ahead_low | ahead_high, and a stone wraps onto the other one's side.
                if ahead_low:
                    target_low = 1 << (ahead_low.bit_length() - 1)
                    if ahead_high:
                        target_high = ahead_high & -ahead_high
                    else:
                        target_high = ahead_low & -ahead_low
                        if target_high == target_low:
                            target_high = 0  # wrapped onto the straight push's square: stays
                else:
                    target_high = ahead_high & -ahead_high
                    target_low = 1 << (ahead_high.bit_length() - 1)
                    if target_low == target_high:
                        target_low = 0
            else:
                target_low = 1 << ((ahead_low or line_empty).bit_length() - 1)
        elif occupied & high:
            ahead_high = (high_beyond & line_empty) or line_empty
            target_high = ahead_high & -ahead_high
        if target_low:
            pushed.append((low, target_low))
        if target_high:
            pushed.append((high, target_high))
    return pushed


@dataclass(frozen=True, kw_only=True)
class EgotziScore(Score):
    """Standard scoring: groups cancel in pairs, the biggest group left counts."""

    groups: tuple[tuple[Group, ...], tuple[Group, ...]]
    """Every group of each colour, biggest first."""
    cancelled: tuple[tuple[Group, Group], ...]
    """The pairs removed: a Black and a White group of the same size, biggest first."""
    left: tuple[Group, ...]
    """The groups left after cancelling, biggest first."""


@dataclass(frozen=True, kw_only=True)
class EgotziSquaredScore(Score):
    """Squared scoring: each colour's sum of squared group sizes, komi added to White."""

    groups: tuple[tuple[Group, ...], tuple[Group, ...]]
    """Every group of each colour, biggest first."""
    squares: tuple[int, int]
    """Each colour's sum of the squares of its group sizes, komi not included."""
    komi: float


class Egotzi(Game):
    """A game of Egotzi: Black and White fill a square board, pushing stones as they go."""

    info: ClassVar[GameInfo] = INFO
    piece_kind: ClassVar[str] = "stone"
    neutral_kind: ClassVar[str | None] = None
    counter_keys: ClassVar[tuple[str, ...]] = ("swap",)

    geometry: SquareGrid

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.geometry = _geometry(options.size)
        self._tables = _tables(options.size)
        self._pie = INFO.has_pie_rule(options.variant)
        self._black = 0
        self._white = 0
        self._swap_ok = False
        """Whether swap is legal now (only right after Black's first stone, pie rule on)."""

    @classmethod
    def geometry_for(cls, size: int) -> SquareGrid:
        """The square board of side `size`."""
        return _geometry(size)

    # -- state ------------------------------------------------------------------------

    def _state(self) -> tuple[int, int, bool]:
        return self._black, self._white, self._swap_ok

    def _set_state(self, state: object) -> None:
        self._black, self._white, self._swap_ok = cast(tuple[int, int, bool], state)

    def view(self) -> EgotziView:
        return EgotziView(self._black, self._white, self._swap_ok)

    def _apply(self, move: Move) -> None:
        if move == SWAP:
            # The persons change colours; the board and the colour to move do not.
            self._swap_ok = False
            return
        black, white = self._black, self._white
        was_empty = not (black | white)
        tables = self._tables
        self._black, self._white = _place(
            tables.lines, tables.full, black, white, move, (black | white).bit_count() & 1
        )
        self._swap_ok = self._pie and was_empty

    # -- rules ------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """0 (Black) or 1 (White): every move adds one stone and Black moves first, so
        Black is to move exactly when the number of stones is even."""
        return (self._black | self._white).bit_count() & 1

    @property
    def black(self) -> int:
        """The cells holding Black stones, as a bitboard."""
        return self._black

    @property
    def white(self) -> int:
        """The cells holding White stones, as a bitboard."""
        return self._white

    @property
    def swap_allowed(self) -> bool:
        """Whether White may swap now (the pie rule, second move of the game only)."""
        return self._swap_ok

    def pushed(self, move: Move) -> list[tuple[int, int]]:
        """The stones placing on `move` (legal now) would push: (from, to) cells, a
        stone that stays left out."""
        if move in (PASS, SWAP):
            return []
        occupied = self._black | self._white | 1 << move
        pushes = _pushes(self._tables.lines[move], self._tables.full, occupied)
        return [(source.bit_length() - 1, target.bit_length() - 1) for source, target in pushes]

    def legal_moves(self) -> list[Move]:
        """Every empty cell, lowest first, then SWAP when the pie rule allows it."""
        empty = self._tables.full ^ (self._black | self._white)
        n = self.size
        mask = (1 << n) - 1
        moves: list[Move] = []
        for row, cells in enumerate(self._tables.row_cells):
            moves += cells[(empty >> (row * n)) & mask]
        if self._swap_ok:
            moves.append(SWAP)
        return moves

    def illegal_reason(self, move: Move) -> str | None:
        """None if `move` is legal now, else why not."""
        if self.is_over():
            return "the game is over: the board is full"
        cells = self.geometry.cell_count
        if move == SWAP:
            if not self._pie:
                return "Egotzi squared is played with komi instead of the pie rule: no swap"
            if not self._swap_ok:
                return "swap is allowed only as the second move of the game"
            return None
        if move == PASS:
            return "there is no passing in Egotzi: place a stone on an empty square"
        if not isinstance(move, int) or not 0 <= move < cells:
            last = self.geometry.name(cells - 1)
            return f"{move} is not a move: place a stone on an empty square from a1 to {last}"
        if (self._black | self._white) >> move & 1:
            return f"{self.geometry.name(move)} is occupied"
        return None

    def is_over(self) -> bool:
        """The game ends when the board is full."""
        return self._black | self._white == self._tables.full

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves until the board is full.

        The same steps as `push()` of a move from `legal_moves()`, inlined: the empty
        squares are kept in a list (with each cell's index in it) that every push edits in
        place instead of being rebuilt.
        """
        tables = self._tables
        full = tables.full
        lines = tables.lines
        black, white, swap_ok = self._black, self._white, self._swap_ok
        occupied = black | white
        if occupied == full:
            return
        pie = self._pie
        empties = [c for c in range(self.geometry.cell_count) if not occupied >> c & 1]
        where = [0] * self.geometry.cell_count
        for index, cell in enumerate(empties):
            where[cell] = index
        turn = occupied.bit_count() & 1
        save = self._stack.append
        record = self.moves.append
        rand = rng.random
        while empties:
            count = len(empties)
            if swap_ok:
                pick = int(rand() * (count + 1))
                if pick == count:
                    save((black, white, swap_ok))
                    record(SWAP)
                    swap_ok = False
                    continue
                p = empties[pick]
            else:
                p = empties[int(rand() * count)]
            save((black, white, swap_ok))
            record(p)
            swap_ok = pie and not occupied
            last = empties.pop()
            if last != p:
                index = where[p]
                empties[index] = last
                where[last] = index
            bit = 1 << p
            if turn:
                white |= bit
            else:
                black |= bit
            turn ^= 1
            occupied |= bit
            empty = full ^ occupied
            for low, low_beyond, high, high_beyond, line in lines[p]:
                line_empty = line & empty
                if not line_empty:
                    continue
                target_low = target_high = 0
                if occupied & low:
                    ahead_low = low_beyond & line_empty
                    if occupied & high:
                        ahead_high = high_beyond & line_empty
                        if ahead_low:
                            target_low = 1 << (ahead_low.bit_length() - 1)
                            if ahead_high:
                                target_high = ahead_high & -ahead_high
                            else:
                                target_high = ahead_low & -ahead_low
                                if target_high == target_low:
                                    target_high = 0
                        else:
                            target_high = ahead_high & -ahead_high
                            target_low = 1 << (ahead_high.bit_length() - 1)
                            if target_low == target_high:
                                target_low = 0
                    else:
                        target_low = 1 << ((ahead_low or line_empty).bit_length() - 1)
                elif occupied & high:
                    ahead_high = (high_beyond & line_empty) or line_empty
                    target_high = ahead_high & -ahead_high
                if target_low:
                    if black & low:
                        black ^= low | target_low
                    else:
                        white ^= low | target_low
                    occupied ^= low | target_low
                    # The stone's old square takes its new square's place among the empties.
                    index = where[target_low.bit_length() - 1]
                    cell = low.bit_length() - 1
                    empties[index] = cell
                    where[cell] = index
                if target_high:
                    if black & high:
                        black ^= high | target_high
                    else:
                        white ^= high | target_high
                    occupied ^= high | target_high
                    index = where[target_high.bit_length() - 1]
                    cell = high.bit_length() - 1
                    empties[index] = cell
                    where[cell] = index
        self._black, self._white, self._swap_ok = black, white, swap_ok

    # -- scoring ----------------------------------------------------------------------

    def groups(self, colour: int) -> list[Group]:
        """The groups of `colour`, biggest first."""
        stones = self._white if colour else self._black
        parts = sorted(self.geometry.components(stones), key=lambda m: -m.bit_count())
        return [Group.from_mask(colour, part) for part in parts]

    def score(self) -> EgotziScore | EgotziSquaredScore:
        """The score by the variant's rule (a preview until the board is full)."""
        groups = (tuple(self.groups(BLACK)), tuple(self.groups(WHITE)))
        lines = [f"{_NAMES[colour]} groups: {_sizes_text(groups[colour])}" for colour in (0, 1)]
        if not self._pie:
            squares = (
                sum(g.size**2 for g in groups[BLACK]),
                sum(g.size**2 for g in groups[WHITE]),
            )
            komi = self.options.komi
            white_points = squares[WHITE] + komi
            for colour in (0, 1):
                terms = " + ".join(f"{g.size}²" for g in groups[colour]) or "no groups"
                lines.append(f"{_NAMES[colour]}: {terms} = {squares[colour]}")
            lines[-1] += f", plus komi {format_number(komi)} = {format_number(white_points)}"
            return EgotziSquaredScore(
                points=(float(squares[BLACK]), white_points),
                lines=tuple(lines),
                groups=groups,
                squares=squares,
                komi=komi,
            )
        pairs, left = cancel(groups[BLACK] + groups[WHITE])
        if pairs:
            cancelled_sizes = Counter(black.size for black, _ in pairs)
            lines.append(
                "cancelled: "
                + ", ".join(
                    f"{count} pair{'s' if count > 1 else ''} of size {size}"
                    for size, count in sorted(cancelled_sizes.items(), reverse=True)
                )
            )
        else:
            lines.append("cancelled: none")
        best = [0, 0]
        for colour in (0, 1):
            mine = [g for g in left if g.colour == colour]
            best[colour] = max((g.size for g in mine), default=0)
            lines.append(f"{_NAMES[colour]} left: {_sizes_text(mine)}; biggest {best[colour]}")
        return EgotziScore(
            points=(float(best[BLACK]), float(best[WHITE])),
            lines=tuple(lines),
            groups=groups,
            cancelled=tuple(pairs),
            left=tuple(left),
        )

    def outcome(self) -> Outcome | None:
        """The result once the board is full; None before."""
        if not self.is_over():
            return None
        points = self.score().points
        black, white = points
        text = f"Black {format_number(black)}, White {format_number(white)}"
        if self._pie:
            text += " (biggest groups left after cancelling)"
        elif self.options.komi:
            text += f" (komi {format_number(self.options.komi)} included)"
        if black > white:
            return Outcome(BLACK, text)
        if white > black:
            return Outcome(WHITE, text)
        if not self._pie:
            return Outcome(None, f"tied: {text}, a draw")
        # Only possible when every group cancelled. Each move adds one stone and Black
        # placed the first, so the colour of the last stone follows from the cell count.
        last = (self.geometry.cell_count - 1) & 1
        return Outcome(
            1 - last,
            f"every group cancelled (0-0): {_NAMES[last]} placed the last stone and loses",
        )

    # -- position strings -------------------------------------------------------------

    def piece_at(self, cell: int) -> Piece | None:
        """The stone on `cell`, or None when it is empty."""
        if self._black >> cell & 1:
            return _STONES[BLACK]
        if self._white >> cell & 1:
            return _STONES[WHITE]
        return None

    def _counters(self) -> dict[str, str]:
        return {"swap": yes_no_text(self._swap_ok)}

    @classmethod
    def _from_pieces(
        cls,
        options: Options,
        pieces: list[Piece | None],
        turn: int,
        counters: Mapping[str, str],
    ) -> Self:
        game = cls(options)
        black, white = colour_masks(pieces)  # the base parser allows no other piece
        blacks, whites = black.bit_count(), white.bit_count()
        if not 0 <= blacks - whites <= 1:
            raise PositionError(
                f"Black places the first stone and the colours alternate, so Black has as "
                f"many stones as White or one more; this board has {blacks} Black and "
                f"{whites} White"
            )
        stones = blacks + whites
        if turn != stones & 1:
            expected = _NAMES[stones & 1]
            stones_text = f"{stones} stone{'' if stones == 1 else 's'}"
            raise PositionError(
                f"with {stones_text} on the board it is {expected}'s turn (every move adds "
                f"one stone and Black moves when the count is even), not {_NAMES[turn]}'s"
            )
        swap = yes_no(counters["swap"], "swap")
        if swap and not game._pie:
            raise PositionError("Egotzi squared has no pie rule: the counter swap must be no")
        if swap and stones != 1:
            raise PositionError(
                f"swap=yes only right after Black's first stone (one stone on the board), "
                f"not with {stones} stones"
            )
        game._black, game._white, game._swap_ok = black, white, swap
        return game


def _sizes_text(groups: tuple[Group, ...] | list[Group]) -> str:
    return ", ".join(str(g.size) for g in groups) or "none"
