"""Partitions (2024): fill the hex board; groups that do not divide it score for the opponent.

White and Black take turns placing a piece of their colour on any empty cell of a hex-hex
board; there is no passing and no swap, and the game ends when the board is full.

Scoring (docs/rules.md, Partitions): a group divides the board if removing its cells from the
board graph (every other cell stays, empty or not) leaves two or more connected parts;
otherwise it is a fragment group. White scores the black pieces in black fragment groups,
Black the white pieces in white fragment groups. On a tie every piece in a fragment group
changes colour and the new position is evaluated again, until the scores differ; if a
position repeats, or no fragment group is left to change, the game is a draw.

On a full board a draw cannot happen: the groups and their contacts form a tree (two
colours filling a hex board cannot cross), a group divides exactly when it is not a leaf,
so each tie-break step merges every leaf into its neighbour until one or two groups are
left, and two groups cannot tie because the board has an odd number of cells.

Speed: the position is two bitboards in the geometry's dense layout. Scoring copies them
into a padded layout (axial coordinates, one guard column) where a neighbour is a fixed
shift, grows groups with shifts, and decides whether a group divides the board from
counts alone: with the outside of the board as one more cell joined to every edge cell the
board is a triangulated sphere, and by Alexander duality removing a connected group G
leaves 1 + b1(G + outside) parts, where b1 = b0 - V + E - F counts vertices, edges and
triangles, each one popcount of shifted masks.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Self, cast

from .base import PASS, SWAP, Game, Move, Outcome, Piece, Score, colour_masks
from .catalogue import PARTITIONS, GameInfo, Options
from .errors import PositionError
from .geometry import HexGrid
from .views import PartitionsView

INFO = PARTITIONS

WHITE = 0
BLACK = 1

_PIECES = (Piece("stone", WHITE), Piece("stone", BLACK))
_NAMES = ("White", "Black")
_LOWER = ("white", "black")


@functools.cache
def _geometry(size: int) -> HexGrid:
    return HexGrid(size)


@dataclass(frozen=True)
class _Tables:
    """Everything scoring and move listing need that depends only on the board size."""

    full: int
    """Every cell, dense layout."""
    row_slices: tuple[tuple[int, int, int], ...]
    """Per row: (first dense cell, row mask, first padded bit) to copy a dense bitboard
    into the padded layout one row at a time."""
    dense_of: tuple[int, ...]
    """`dense_of[p]`: the dense cell at padded bit `p` (-1 on guard bits)."""
    width: int
    """Bits per padded row: a neighbour is 1, `width` or `width + 1` bits away."""
    border: int
    """Padded cells with fewer than six neighbours (they touch the outside)."""
    border_pairs: tuple[int, int, int]
    """Padded cells p that are on the border together with p + 1, p + width and
    p + width + 1 respectively: each such pair spans a triangle with the outside."""
    byte_cells: tuple[tuple[tuple[int, ...], ...], ...]
    """`byte_cells[k][byte]`: the dense cells of bits 8k..8k+7 that are set in `byte`."""


@functools.cache
def _tables(size: int) -> _Tables:
    grid = _geometry(size)
    n = size
    width = 2 * n  # 2n - 1 axial columns and one guard column
    padded = [0] * grid.cell_count
    row_slices = []
    for row in range(grid.row_count):
        # Axial column of the cell at position k: the upper rows start further right, so
        # that "up" is always +width and +width+1 and "down" -width and -width-1.
        first = max(0, row - (n - 1))
        start, length = grid.row_starts[row], grid.row_lengths[row]
        row_slices.append((start, (1 << length) - 1, row * width + first))
        for k in range(length):
            padded[start + k] = row * width + first + k
    dense_of = [-1] * (grid.row_count * width)
    for cell, p in enumerate(padded):
        dense_of[p] = cell
    # The padded layout must give the same adjacency as the notation's rule.
    for cell, near in enumerate(grid.neighbours):
        shifted = {padded[cell] + d for d in (-width - 1, -width, -1, 1, width, width + 1)}
        assert {padded[c] for c in near} == shifted & set(padded), cell
    border_cells = {c for c, near in enumerate(grid.neighbours) if len(near) < 6}
    border = sum(1 << padded[c] for c in border_cells)
    pairs = []
    for d in (1, width, width + 1):
        mask = 0
        for c in border_cells:
            p = padded[c] + d
            if 0 <= p < len(dense_of) and dense_of[p] in border_cells:
                mask |= 1 << padded[c]
        pairs.append(mask)
    # Every two neighbouring border cells are consecutive on the rim (true for side >= 2),
    # so each pair is one rim edge and the rim is one cycle: as many edges as cells.
    assert sum(m.bit_count() for m in pairs) == len(border_cells)
    chunks = (grid.cell_count + 7) // 8
    byte_cells = tuple(
        tuple(
            tuple(8 * k + i for i in range(8) if byte >> i & 1 and 8 * k + i < grid.cell_count)
            for byte in range(256)
        )
        for k in range(chunks)
    )
    return _Tables(
        full=grid.full,
        row_slices=tuple(row_slices),
        dense_of=tuple(dense_of),
        width=width,
        border=border,
        border_pairs=(pairs[0], pairs[1], pairs[2]),
        byte_cells=byte_cells,
    )


def _padded(tables: _Tables, dense: int) -> int:
    """`dense` (a dense bitboard) in the padded layout."""
    out = 0
    for start, mask, padded_start in tables.row_slices:
        out |= ((dense >> start) & mask) << padded_start
    return out


def _dense(tables: _Tables, padded: int) -> tuple[int, ...]:
    """The dense cells of a padded bitboard, lowest first (both layouts go row by row)."""
    dense_of = tables.dense_of
    cells = []
    while padded:
        low = padded & -padded
        cells.append(dense_of[low.bit_length() - 1])
        padded ^= low
    return tuple(cells)


def _split(tables: _Tables, stones: int) -> tuple[int, list[tuple[int, bool]]]:
    """(the cells of its fragment groups, every group as (cells, dividing)) of one colour.

    Bitboards are padded. This is the one place that decides which groups divide the
    board; the tests check it against a plain flood fill of what is left.
    """
    width = tables.width
    up = width + 1
    border = tables.border
    pair_side, pair_up, pair_diagonal = tables.border_pairs
    fragments = 0
    groups = []
    rest = stones
    while rest:
        group = rest & -rest
        while True:
            left = group << 1
            right = group >> 1
            grown = (
                group | left | right | ((group | left) << width) | ((group | right) >> width)
            ) & stones
            if grown == group:
                break
            group = grown
        rest ^= group
        size = group.bit_count()
        # The smallest cut of the board is the three neighbours of a corner.
        dividing = False
        if size >= 3:
            touch = group & border
            side = group & (group >> 1)
            vertical = group & (group >> width)
            diagonal = group & (group >> up)
            edges = (
                side.bit_count() + vertical.bit_count() + diagonal.bit_count() + touch.bit_count()
            )
            triangles = (
                (diagonal & (group >> 1)).bit_count()
                + (diagonal & (group >> width)).bit_count()
                + (side & pair_side).bit_count()
                + (vertical & pair_up).bit_count()
                + (diagonal & pair_diagonal).bit_count()
            )
            pieces = 1 if touch else 2  # components of the group plus the outside
            dividing = pieces - (size + 1) + edges - triangles > 0
        if not dividing:
            fragments |= group
        groups.append((group, dividing))
    return fragments, groups


@dataclass(frozen=True)
class PartitionGroup:
    """A group as scored: its colour, its cells and whether it divides the board."""

    colour: int
    cells: tuple[int, ...]
    """Dense cell indices, lowest first."""
    dividing: bool
    """Whether removing its cells leaves two or more connected parts."""

    @property
    def size(self) -> int:
        """The number of pieces in the group."""
        return len(self.cells)

    @property
    def fragment(self) -> bool:
        """Whether it is a fragment group (scores for the opponent)."""
        return not self.dividing


@dataclass(frozen=True)
class TieBreakStep:
    """One step of the tie-break: every fragment piece changed colour, then the scores."""

    number: int
    """1 for the first change of colour."""
    to_black: tuple[int, ...]
    """The cells of white fragment groups, now black."""
    to_white: tuple[int, ...]
    """The cells of black fragment groups, now white."""
    points: tuple[int, int]
    """The scores (White, Black) of the position after the change."""
    repeats: int | None = None
    """When the position after the change occurred before: the step it occurred at (0 for
    the position scored first). The tie-break then ends in a draw."""


@dataclass(frozen=True, kw_only=True)
class PartitionsScore(Score):
    """The first evaluation with its groups, and the tie-break that decides a tie.

    `points` are the scores of the first evaluation (records and the engine report them);
    `winner` comes from the tie-break when they are equal.
    """

    groups: tuple[PartitionGroup, ...]
    """Every group of the position scored, White's first, each colour's lowest cell first."""
    steps: tuple[TieBreakStep, ...]
    """The tie-break steps, empty when the first scores differ."""
    winner: int | None
    """The colour the evaluation favours, None for a draw."""
    ending: str
    """How the evaluation ended: `scores` (they differ), `repeat` (a position repeated) or
    `no fragment` (no fragment group was left to change colour)."""
    decision: str
    """The same in words (what `outcome().reason` says once the board is full)."""


@dataclass(frozen=True)
class _Step:
    to_black: int
    to_white: int
    points: tuple[int, int]
    repeats: int | None


@dataclass(frozen=True)
class _Verdict:
    """The first evaluation and the tie-break chain, bitboards padded."""

    points: tuple[int, int]
    steps: tuple[_Step, ...]
    winner: int | None
    ending: str


def _verdict(tables: _Tables, white: int, black: int) -> _Verdict:
    """Evaluate, then change the colour of every fragment piece while the scores tie."""
    white_fragments = _split(tables, white)[0]
    black_fragments = _split(tables, black)[0]
    points = first = (black_fragments.bit_count(), white_fragments.bit_count())
    seen = {(white, black): 0}
    history = [first]
    steps: list[_Step] = []
    while points[0] == points[1]:
        if not white_fragments | black_fragments:
            return _Verdict(first, tuple(steps), None, "no fragment")
        white = (white ^ white_fragments) | black_fragments
        black = (black ^ black_fragments) | white_fragments
        earlier = seen.get((white, black))
        if earlier is not None:
            steps.append(_Step(white_fragments, black_fragments, history[earlier], earlier))
            return _Verdict(first, tuple(steps), None, "repeat")
        seen[white, black] = len(history)
        to_black, to_white = white_fragments, black_fragments
        # Groups merge and split anew after the change, so everything is derived again.
        white_fragments = _split(tables, white)[0]
        black_fragments = _split(tables, black)[0]
        points = (black_fragments.bit_count(), white_fragments.bit_count())
        history.append(points)
        steps.append(_Step(to_black, to_white, points, None))
    return _Verdict(first, tuple(steps), WHITE if points[0] > points[1] else BLACK, "scores")


def _decision(verdict: _Verdict) -> str:
    """The verdict in words, e.g. `tied 3-3: after 2 tie-break steps White 8, Black 5`."""
    white, black = verdict.points
    if not verdict.steps and verdict.ending == "scores":
        return f"White {white}, Black {black}"
    count = len(verdict.steps)
    steps = f"{count} tie-break step{'s' if count != 1 else ''}"
    text = f"tied {white}-{black}: "
    if verdict.ending == "scores":
        last_white, last_black = verdict.steps[-1].points
        return (
            text + f"after {steps} (every fragment piece changes colour) "
            f"White {last_white}, Black {last_black}"
        )
    if verdict.ending == "repeat":
        again = _earlier(verdict.steps[-1].repeats or 0)
        return text + f"step {count} of the tie-break repeats {again}, a draw"
    after = f" after {steps}" if count else ""
    return text + f"no fragment group is left to change colour{after}, a draw"


def _earlier(step: int) -> str:
    return "the position scored first" if step == 0 else f"the position of step {step}"


class Partitions(Game):
    """A game of Partitions: White and Black fill a hex-hex board, one piece per move."""

    info: ClassVar[GameInfo] = INFO
    piece_kind: ClassVar[str] = "stone"
    neutral_kind: ClassVar[str | None] = None
    counter_keys: ClassVar[tuple[str, ...]] = ()

    geometry: HexGrid

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.geometry = _geometry(options.size)
        self._tables = _tables(options.size)
        self._full = self._tables.full
        self._white = 0
        self._black = 0
        self._turn = WHITE
        self._cache: tuple[int, int, _Verdict] | None = None

    @classmethod
    def geometry_for(cls, size: int) -> HexGrid:
        """The hex-hex board of side `size`."""
        return _geometry(size)

    # -- state ------------------------------------------------------------------------

    def _state(self) -> tuple[int, int, int]:
        return self._white, self._black, self._turn

    def _set_state(self, state: object) -> None:
        self._white, self._black, self._turn = cast(tuple[int, int, int], state)

    def view(self) -> PartitionsView:
        return PartitionsView(self._white, self._black, self._turn)

    def _apply(self, move: Move) -> None:
        if self._turn:
            self._black |= 1 << move
        else:
            self._white |= 1 << move
        self._turn ^= 1

    # -- rules ------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """0 (White) or 1 (Black): White moves exactly when the number of pieces is even."""
        return self._turn

    @property
    def white(self) -> int:
        """The cells holding white pieces, as a bitboard."""
        return self._white

    @property
    def black(self) -> int:
        """The cells holding black pieces, as a bitboard."""
        return self._black

    def legal_moves(self) -> list[Move]:
        """Every empty cell, lowest first (no pass, no swap); empty when the board is full."""
        tables = self._tables
        empty = self._full ^ (self._white | self._black)
        moves: list[Move] = []
        if not empty:
            return moves
        byte_cells = tables.byte_cells
        for k, byte in enumerate(empty.to_bytes(len(byte_cells), "little")):
            if byte:
                moves += byte_cells[k][byte]
        return moves

    def illegal_reason(self, move: Move) -> str | None:
        """None if `move` is legal now, else why not."""
        if self.is_over():
            return "the game is over: the board is full"
        if move == PASS:
            return "there is no passing in Partitions: place a piece on any empty cell"
        if move == SWAP:
            return "Partitions has no swap (no pie rule): place a piece on any empty cell"
        cells = self.geometry.cell_count
        if not isinstance(move, int) or not 0 <= move < cells:
            last = self.geometry.name(cells - 1)
            return f"{move} is not a move: place a piece on an empty cell from a1 to {last}"
        if (self._white | self._black) >> move & 1:
            return f"{self.geometry.name(move)} is occupied"
        return None

    def is_over(self) -> bool:
        """The game ends when the board is full."""
        return self._white | self._black == self._full

    def playout(self, rng: random.Random) -> None:
        """Place random pieces until the board is full, pushing every move on the stack.

        Picking uniformly among the empty cells at every turn orders them as a uniformly
        random permutation, so one shuffle gives the whole game.
        """
        white, black, turn = self._white, self._black, self._turn
        empties = self.legal_moves()
        rng.shuffle(empties)
        save = self._stack.append
        for cell in empties:
            save((white, black, turn))
            if turn:
                black |= 1 << cell
            else:
                white |= 1 << cell
            turn ^= 1
        self.moves += empties
        self._white, self._black, self._turn = white, black, turn

    # -- scoring ----------------------------------------------------------------------

    def _judge(self) -> _Verdict:
        """The verdict on the position, kept until the position changes."""
        white, black = self._white, self._black
        cache = self._cache
        if cache is not None and cache[0] == white and cache[1] == black:
            return cache[2]
        tables = self._tables
        verdict = _verdict(tables, _padded(tables, white), _padded(tables, black))
        self._cache = (white, black, verdict)
        return verdict

    def groups(self) -> list[PartitionGroup]:
        """Every group on the board with whether it divides it; White's first."""
        tables = self._tables
        found = []
        for colour, stones in ((WHITE, self._white), (BLACK, self._black)):
            for mask, dividing in _split(tables, _padded(tables, stones))[1]:
                found.append(PartitionGroup(colour, _dense(tables, mask), dividing))
        return found

    def score(self) -> PartitionsScore:
        """The first evaluation and the tie-break (a preview until the board is full)."""
        verdict = self._judge()
        groups = self.groups()
        tables = self._tables
        name = self.geometry.name
        white, black = verdict.points
        lines = []
        if not self.is_over():
            lines.append("the board is not full: this scores the position as it stands")
        lines.append(
            f"White {white}: black pieces in black fragment groups; "
            f"Black {black}: white pieces in white fragment groups"
        )
        for group in groups:
            kind = "dividing" if group.dividing else "fragment"
            lines.append(
                f"{_LOWER[group.colour]} {kind} group of {group.size}: "
                f"{_cells_text(name, group.cells)}"
            )
        steps = []
        for number, step in enumerate(verdict.steps, start=1):
            to_black = _dense(tables, step.to_black)
            to_white = _dense(tables, step.to_white)
            steps.append(TieBreakStep(number, to_black, to_white, step.points, step.repeats))
            changed = (
                f"step {number}: {len(to_black)} white to black ({_cells_text(name, to_black)}), "
                f"{len(to_white)} black to white ({_cells_text(name, to_white)})"
            )
            if step.repeats is None:
                lines.append(f"{changed}; White {step.points[0]}, Black {step.points[1]}")
            else:
                lines.append(f"{changed}; this repeats {_earlier(step.repeats)}")
        decision = _decision(verdict)
        if verdict.winner is None:
            lines.append(f"draw; {decision}")
        else:
            lines.append(f"{_NAMES[verdict.winner]} wins; {decision}")
        return PartitionsScore(
            points=(float(white), float(black)),
            lines=tuple(lines),
            groups=tuple(groups),
            steps=tuple(steps),
            winner=verdict.winner,
            ending=verdict.ending,
            decision=decision,
        )

    def outcome(self) -> Outcome | None:
        """The result once the board is full; None before."""
        if not self.is_over():
            return None
        verdict = self._judge()
        return Outcome(verdict.winner, _decision(verdict))

    # -- position strings -------------------------------------------------------------

    def piece_at(self, cell: int) -> Piece | None:
        """The piece on `cell`, or None when it is empty."""
        if self._white >> cell & 1:
            return _PIECES[WHITE]
        if self._black >> cell & 1:
            return _PIECES[BLACK]
        return None

    def _counters(self) -> dict[str, str]:
        return {}

    @classmethod
    def _from_pieces(
        cls,
        options: Options,
        pieces: list[Piece | None],
        turn: int,
        counters: Mapping[str, str],
    ) -> Self:
        game = cls(options)
        white, black = colour_masks(pieces)  # the base parser allows no other piece
        count = (white | black).bit_count()
        if turn != count & 1:
            counted = f"{count} piece{'s' if count != 1 else ''}"
            raise PositionError(
                f"with {counted} on the board it is {_NAMES[count & 1]}'s turn (White moves "
                f"exactly when the number of pieces is even), not {_NAMES[turn]}'s"
            )
        game._white, game._black, game._turn = white, black, turn
        return game


def _cells_text(name: Callable[[int], str], cells: tuple[int, ...], limit: int = 12) -> str:
    """Cell names, the first `limit` of them and how many more."""
    shown = " ".join(name(c) for c in cells[:limit])
    if len(cells) > limit:
        shown += f" and {len(cells) - limit} more"
    return shown or "none"
