"""What Petrify and Pilo share: padded bitboards, sliding captures, patches and their score.

Both games are played on a square board whose pieces slide until they meet something.
Internally a board of side n is laid out on bitboards with a stride of n + 3: a ring of
blocks one square wide around the board (docs/rules.md, Blocks; Petrify counts it for mounds and
barricades; for both games it stops every slide), and one spare column that is never
set, so that shifting by two diagonal steps never wraps from one side onto the other.
The API speaks dense cell indices (`geometry.py`); `Layout.pad` and `Layout.dense`
translate at the edge.

Scoring (docs/rules.md, Petrify and Pilo scoring): per patch (orthogonally connected
non-block squares), opposite-coloured groups of the same size cancel in pairs; the colour
of the biggest group left owns the patch; a colour scores the sizes of the patches it
owns. Equal scores at the end: the colour that made the last board play loses.
"""

from __future__ import annotations

import functools
import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from .base import PASS, SWAP, Game, Move, Outcome, Piece, Score, yes_no, yes_no_text
from .catalogue import Options
from .errors import PositionError, shown
from .geometry import SquareGrid
from .pairs import Group, cancel, owner_after_cancelling

NO_COLOUR = -1
"""The `last` of a game in which no board play has been made yet."""


@functools.cache
def square_grid(size: int) -> SquareGrid:
    """The (shared, immutable) square board of side `size`."""
    return SquareGrid(size)


class Layout:
    """A board of side `size` as bit indices, inside a ring of blocks.

    Square (col, row) of the board, both from 0 at the bottom left, is bit
    `(row + 1) * stride + col + 1`; the ring occupies rows 0 and size + 1 and columns 0
    and size + 1; column size + 2 is padding and is never set.
    """

    def __init__(self, size: int) -> None:
        n = size
        stride = n + 3
        self.size = n
        self.stride = stride
        self.cell_count = n * n
        self.pad: tuple[int, ...] = tuple(
            (cell // n + 1) * stride + cell % n + 1 for cell in range(n * n)
        )
        """`pad[cell]`: the bit index of a dense cell."""
        dense = [-1] * ((n + 2) * stride)
        for cell, bit in enumerate(self.pad):
            dense[bit] = cell
        self.dense: tuple[int, ...] = tuple(dense)
        """`dense[bit]`: the dense cell of a bit index, -1 off the board."""
        self.board = sum(1 << bit for bit in self.pad)
        """Every square of the board."""
        self.ring = sum(
            1 << (row * stride + col)
            for row in range(n + 2)
            for col in range(n + 2)
            if row in (0, n + 1) or col in (0, n + 1)
        )
        """The ring of blocks around the board."""
        self.orthogonal = (1, stride)
        """The positive steps along rows and columns (their negatives go the other way)."""
        self.diagonal = (stride + 1, stride - 1)
        """The positive diagonal steps."""
        # A capture's target can be up to size - 1 steps away, so the fill from the target
        # back to the cell next to the mover spans up to size - 2 steps.
        self.rounds = max(1, (n - 2).bit_length())
        self.grid = square_grid(n)

    def cells(self, mask: int) -> list[int]:
        """The dense cells of a bitboard (board squares only), in ascending order."""
        dense = self.dense
        found = []
        while mask:
            low = mask & -mask
            cell = dense[low.bit_length() - 1]
            if cell >= 0:
                found.append(cell)
            mask ^= low
        found.sort()
        return found

    def name(self, bit: int) -> str:
        """The name of the square at a bit index, e.g. `c3`."""
        return self.grid.name(self.dense[bit])

    def component(self, start: int, within: int) -> int:
        """The squares of `within` orthogonally connected to the bitboard `start`."""
        stride = self.stride
        found = start
        while True:
            grown = (
                found | (found << 1) | (found >> 1) | (found << stride) | (found >> stride)
            ) & within
            if grown == found:
                return found
            found = grown

    def components(self, within: int) -> list[int]:
        """The orthogonally connected parts of `within`, lowest square first."""
        parts = []
        while within:
            part = self.component(within & -within, within)
            parts.append(part)
            within ^= part
        return parts

    def step(self, frm: int, to: int, diagonal: bool) -> int | None:
        """The bit step from dense cell `frm` towards `to`, or None if not on one line.

        Lines are rows and columns, and also diagonals when `diagonal` is true.
        """
        n = self.size
        dc = to % n - frm % n
        dr = to // n - frm // n
        if (dc, dr) == (0, 0):
            return None
        if dc and dr and (not diagonal or abs(dc) != abs(dr)):
            return None
        sign_c = (dc > 0) - (dc < 0)
        sign_r = (dr > 0) - (dr < 0)
        return sign_r * self.stride + sign_c


@functools.cache
def layout(size: int) -> Layout:
    """The (shared, immutable) padded layout of a board of side `size`."""
    return Layout(size)


def capture_origins(
    movers: int, targets: int, passable: int, steps: Iterable[int], rounds: int
) -> list[tuple[int, int]]:
    """Where captures start: `(step, origins)` for each direction that has any.

    `origins` are the `movers` that, sliding by `step` (and for each positive step in
    `steps`, by its negative too) over `passable` squares, first meet a square of
    `targets`. `passable` must hold no ring square and no target. This is an occluded
    fill (Kogge-Stone) from the targets back towards the movers, `rounds` doublings long.
    """
    found = []
    for d in steps:
        # Towards +d: grow the targets backwards (to lower bits) through passable squares.
        g = targets
        p = passable
        g |= p & (g >> d)
        s = d + d
        if rounds > 1:
            p &= p >> d
            g |= p & (g >> s)
            if rounds > 2:
                p &= p >> s
                g |= p & (g >> (s + s))
                if rounds > 3:
                    p &= p >> (s + s)
                    g |= p & (g >> (4 * s))
        origins = (g >> d) & movers
        if origins:
            found.append((d, origins))
        # Towards -d: the mirror image.
        g = targets
        p = passable
        g |= p & (g << d)
        if rounds > 1:
            p &= p << d
            g |= p & (g << s)
            if rounds > 2:
                p &= p << s
                g |= p & (g << (s + s))
                if rounds > 3:
                    p &= p << (s + s)
                    g |= p & (g << (4 * s))
        origins = (g << d) & movers
        if origins:
            found.append((-d, origins))
    return found


def nth_bit(mask: int, k: int) -> int:
    """The index of the `k`-th (from 0, lowest first) set bit of `mask`."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def slide_target(origin: int, step: int, passable: int) -> int:
    """The first bit from `origin` along `step` that is not in `passable`."""
    bit = origin + step
    while passable >> bit & 1:
        bit += step
    return bit


def uniform_below(rng: random.Random) -> Callable[[int], int]:
    """A function `below(n)`: a uniform integer in [0, n), like `rng.randrange(n)`.

    It skips `randrange`'s argument checks, which cost more than the draw in a playout.
    """
    getrandbits = rng.getrandbits

    def below(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return below


# -- scoring ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    """One patch of a position and who owns it."""

    cells: frozenset[int]
    """Its squares (dense cells), empty ones included."""
    owner: int | None
    """Colour index of the owner, None when every group cancelled or there is none."""
    groups: tuple[Group, ...]
    """Every group in the patch, biggest first."""
    cancelled: tuple[tuple[Group, Group], ...]
    """The pairs of same-sized groups that cancelled (first colour's group first)."""
    left: tuple[Group, ...]
    """The groups left after cancelling, biggest first."""

    @property
    def size(self) -> int:
        """The number of squares of the patch."""
        return len(self.cells)

    @property
    def anchor(self) -> int:
        """The patch's first cell (lowest row, then leftmost): where it is named from."""
        return min(self.cells)


@dataclass(frozen=True)
class PatchScore(Score):
    """A Petrify or Pilo score: points by colour and each patch's breakdown."""

    patches: tuple[Patch, ...] = ()
    """Every patch, ordered by its first cell."""


def _group_masks(lay: Layout, pieces: int) -> list[tuple[int, int]]:
    return [(mask, mask.bit_count()) for mask in lay.components(pieces)]


def patch_points(lay: Layout, blocks: int, pieces0: int, pieces1: int) -> tuple[int, int]:
    """The two colours' scores, without the breakdown (the fast path for outcomes)."""
    groups0 = _group_masks(lay, pieces0)
    groups1 = _group_masks(lay, pieces1)
    points = [0, 0]
    for patch in lay.components(lay.board & ~blocks):
        sizes0 = [size for mask, size in groups0 if mask & patch]
        sizes1 = [size for mask, size in groups1 if mask & patch]
        # Most patches hold one colour only: nothing can cancel there.
        if not sizes1:
            owner = 0 if sizes0 else None
        elif not sizes0:
            owner = 1
        else:
            owner = owner_after_cancelling(sizes0, sizes1)
        if owner is not None:
            points[owner] += patch.bit_count()
    return points[0], points[1]


def score_patches(
    lay: Layout, blocks: int, pieces0: int, pieces1: int, colours: tuple[str, str]
) -> PatchScore:
    """The full score of a position: each patch, its groups, what cancelled, who owns it."""
    groups0 = lay.components(pieces0)
    groups1 = lay.components(pieces1)
    names = (colours[0].capitalize(), colours[1].capitalize())
    patches = []
    lines = []
    points = [0, 0]
    for patch_mask in lay.components(lay.board & ~blocks):
        groups = [
            Group(colour, frozenset(lay.cells(mask)))
            for colour, masks in ((0, groups0), (1, groups1))
            for mask in masks
            if mask & patch_mask
        ]
        groups.sort(key=lambda group: (-group.size, min(group.cells), group.colour))
        pairs, left = cancel(groups)
        # `cancel` lists the groups left biggest first, and all those left at one size
        # have the same colour, so the first one left names the owner.
        owner = left[0].colour if left else None
        patch = Patch(
            frozenset(lay.cells(patch_mask)), owner, tuple(groups), tuple(pairs), tuple(left)
        )
        if owner is not None:
            points[owner] += patch.size
        patches.append(patch)
        lines.append(_patch_line(patch, lay, names))
    return PatchScore((points[0], points[1]), tuple(lines), tuple(patches))


def _patch_line(patch: Patch, lay: Layout, names: tuple[str, str]) -> str:
    """E.g. `patch of 12 at a1: Blue (biggest left: Blue 3; cancelled: 2 pairs of size 1)`."""
    head = f"patch of {patch.size} at {lay.grid.name(patch.anchor)}"
    if not patch.groups:
        return f"{head}: nobody (no groups)"
    cancelled = ""
    if patch.cancelled:
        by_size = Counter(first.size for first, _ in patch.cancelled)
        cancelled = ", ".join(
            f"{count} pair{'s' if count > 1 else ''} of size {size}"
            for size, count in sorted(by_size.items(), reverse=True)
        )
    if patch.owner is None:
        return f"{head}: nobody (every group cancelled: {cancelled})"
    biggest: dict[int, int] = {}
    for group in patch.left:  # biggest first, so the first of each colour wins
        biggest.setdefault(group.colour, group.size)
    order = [patch.owner, 1 - patch.owner]
    left = ", ".join(f"{names[c]} {biggest[c]}" for c in order if c in biggest)
    detail = f"biggest left: {left}"
    if cancelled:
        detail += f"; cancelled: {cancelled}"
    return f"{head}: {names[patch.owner]} ({detail})"


# -- the game framework ---------------------------------------------------------------------


class SlidingCaptureGame(Game):
    """What Petrify and Pilo share: placements, sliding captures that leave a block,
    passing only without a board play, the pie rule, and patch scoring.

    Subclasses keep their pieces on the padded bitboards of `Layout`: `_pieces0` (Blue),
    `_pieces1` (Orange) and `_blocks` (ring included), and implement the parts that
    differ: move generation, capture checks, and what a board may hold.
    """

    piece_kind: ClassVar[str] = "disk"
    neutral_kind: ClassVar[str | None] = "block"
    counter_keys: ClassVar[tuple[str, ...]] = ("passes", "last", "swap")

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.geometry = square_grid(options.size)
        self._layout = layout(options.size)
        self._pieces0 = 0
        self._pieces1 = 0
        self._blocks = self._layout.ring
        self._turn = 0
        self._passes = 0
        self._last = NO_COLOUR
        self._swap = 0
        self._pie = int(self.info.has_pie_rule(options.variant))
        """1 if the variant is played with the pie rule (so swap follows the first move)."""
        self._scored: tuple[tuple[int, int, int], PatchScore] | None = None
        """The last score computed and the (Blue, Orange, blocks) it belongs to."""

    @classmethod
    def geometry_for(cls, size: int) -> SquareGrid:
        """The square board of side `size`."""
        return square_grid(size)

    # -- hooks ----------------------------------------------------------------------

    @abstractmethod
    def _captures(self, colour: int) -> list[Move]:
        """Every capture `colour` could make now, as move codes in ascending order."""

    @abstractmethod
    def _capture_reason(self, frm: int, to: int) -> str | None:
        """Why the capture from dense cell `frm` to `to` is illegal now, or None."""

    @abstractmethod
    def _load_board(self, pieces: list[Piece | None]) -> None:
        """Set the board from parsed pieces; raise `PositionError` if the rules forbid it."""

    # -- rules ----------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Colour index of the side to move: 0 for Blue."""
        return self._turn

    @property
    def passes(self) -> int:
        """How many passes were just made in succession (2 ends the game)."""
        return self._passes

    @property
    def last_board_play(self) -> int | None:
        """The colour that made the last placement or capture, None before any."""
        return None if self._last == NO_COLOUR else self._last

    @property
    def can_swap(self) -> bool:
        """Whether the pie rule's swap is a legal move now."""
        return bool(self._swap)

    def _empty(self) -> int:
        return self._layout.board & ~(self._blocks | self._pieces0 | self._pieces1)

    def _has_board_play(self, colour: int) -> bool:
        """Whether `colour` could place or capture in the current position."""
        return bool(self._empty()) or bool(self._captures(colour))

    def legal_moves(self) -> list[Move]:
        """Placements, then captures, then swap when the pie rule allows it; or pass."""
        if self._passes >= 2:
            return []
        moves = self._layout.cells(self._empty())
        moves += self._captures(self._turn)
        if not moves:
            moves.append(PASS)
        if self._swap:
            moves.append(SWAP)
        return moves

    def is_over(self) -> bool:
        """Whether both players passed in succession."""
        return self._passes >= 2

    def _colour(self, colour: int) -> str:
        return self.info.colours[colour].capitalize()

    def _occupant(self, bit: int) -> str:
        """What stands on a square, in words, e.g. `a block`, `an Orange disk`."""
        if self._blocks >> bit & 1:
            return "a block"
        colour = 0 if self._pieces0 >> bit & 1 else 1
        article = "an" if self._colour(colour)[0] in "AEIOU" else "a"
        return f"{article} {self._colour(colour)} {self.piece_kind}"

    def illegal_reason(self, move: Move) -> str | None:
        """None if `move` is legal now, else why not."""
        n2 = self._layout.cell_count
        if not (move in (PASS, SWAP) or 0 <= move < n2 + n2 * n2):
            return f"{move} is not a move code of {self.info.title} size {self.size}"
        if self.is_over():
            return "the game is over"
        if move == SWAP:
            if self._swap:
                return None
            if not self.info.has_pie_rule(self.options.variant):
                return f"{self.info.title} is played without the pie rule here"
            return "swap is allowed only as the second move of the game"
        if move == PASS:
            if self._has_board_play(self._turn):
                return "you may pass only when you have no board play"
            return None
        if move < n2:
            bit = self._layout.pad[move]
            if (self._blocks | self._pieces0 | self._pieces1) >> bit & 1:
                return f"{self.geometry.name(move)} is occupied by {self._occupant(bit)}"
            return None
        frm, to = divmod(move - n2, n2)
        return self._capture_reason(frm, to)

    def _mover_reason(self, frm: int) -> str | None:
        """Why the square `frm` cannot start a capture by the side to move, or None."""
        bit = self._layout.pad[frm]
        name = self.geometry.name(frm)
        mine = self._pieces1 if self._turn else self._pieces0
        if mine >> bit & 1:
            return None
        if self._blocks >> bit & 1:
            return f"{name} is a block: only a {self.piece_kind} can move"
        if (self._pieces0 | self._pieces1) >> bit & 1:
            return (
                f"the {self.piece_kind} on {name} is {self._colour(1 - self._turn)}'s; "
                f"it is {self._colour(self._turn)}'s turn"
            )
        return f"there is no {self.piece_kind} on {name} to move"

    def _path_reason(self, frm: int, to: int, step: int) -> str | None:
        """Why a slide from `frm` to `to` by `step` is blocked before `to`, or None."""
        lay = self._layout
        theirs = self._pieces0 if self._turn else self._pieces1
        stop = self._blocks | theirs
        target = lay.pad[to]
        bit = lay.pad[frm] + step
        while bit != target:
            if stop >> bit & 1:
                return (
                    f"the way from {self.geometry.name(frm)} to {self.geometry.name(to)} "
                    f"is blocked by {self._occupant(bit)} on {lay.name(bit)}"
                )
            bit += step
        return None

    def _target_reason(self, to: int) -> str | None:
        """Why `to` cannot be the end of a capture (not an enemy piece), or None."""
        bit = self._layout.pad[to]
        theirs = self._pieces0 if self._turn else self._pieces1
        if theirs >> bit & 1:
            return None
        name = self.geometry.name(to)
        enemy = f"an enemy {self.piece_kind}"
        if self._blocks >> bit & 1:
            return f"{name} is a block: a move must end on {enemy}"
        if (self._pieces0 | self._pieces1) >> bit & 1:
            return f"{name} holds your own {self.piece_kind}: a move must end on {enemy}"
        return (
            f"{name} is empty: a move must end on {enemy} (to place a disk there, give "
            f"just the square)"
        )

    # -- score and outcome ----------------------------------------------------------

    def score(self) -> PatchScore:
        """Each colour's owned patch sizes, with every patch's breakdown.

        Before the end it is the same computation on the current position (a preview).
        """
        key = (self._pieces0, self._pieces1, self._blocks)
        if self._scored is not None and self._scored[0] == key:
            return self._scored[1]
        score = score_patches(self._layout, self._blocks, *key[:2], self.info.colours)
        self._scored = (key, score)
        return score

    def outcome(self) -> Outcome | None:
        """The result once both players passed; ties go against the last board play."""
        if not self.is_over():
            return None
        key = (self._pieces0, self._pieces1, self._blocks)
        if self._scored is not None and self._scored[0] == key:
            p0, p1 = self._scored[1].points
        else:
            p0, p1 = patch_points(self._layout, self._blocks, *key[:2])
        if p0 != p1:
            return Outcome(0 if p0 > p1 else 1, f"{self._colour(0)} {p0}, {self._colour(1)} {p1}")
        if self._last == NO_COLOUR:
            return Outcome(None, f"tied {p0}-{p1} and no board play was made: a draw")
        return Outcome(
            1 - self._last,
            f"tied {p0}-{p1}: {self._colour(self._last)} made the last board play and loses",
        )

    # -- position strings -----------------------------------------------------------

    def _counters(self) -> dict[str, str]:
        last = "none" if self._last == NO_COLOUR else self.info.colours[self._last]
        return {"passes": str(self._passes), "last": last, "swap": yes_no_text(bool(self._swap))}

    @classmethod
    def _from_pieces(
        cls,
        options: Options,
        pieces: list[Piece | None],
        turn: int,
        counters: Mapping[str, str],
    ) -> Self:
        game = cls(options)
        game._load_board(pieces)
        game._turn = turn
        game._load_counters(counters)
        return game

    def _setup_counters(self, pieces: Sequence[Piece | None], turn: int) -> dict[str, str]:
        # The last board play is the other colour's, unless nothing was played yet.
        played = any(piece is not None for piece in pieces)
        last = self.info.colours[1 - turn] if played else "none"
        return {"passes": "0", "last": last, "swap": "no"}

    def _load_counters(self, counters: Mapping[str, str]) -> None:
        """Read the counters and check that they fit the board (a reachable position)."""
        colours = self.info.colours
        names = (self._colour(0), self._colour(1))
        turn = self._turn
        text = counters["passes"]
        if text not in ("0", "1", "2"):
            raise PositionError(f"the counter passes must be 0, 1 or 2, not '{shown(text)}'")
        passes = int(text)
        text = counters["last"]
        if text != "none" and text not in colours:
            raise PositionError(
                f"the counter last must be {colours[0]}, {colours[1]} or none, not '{shown(text)}'"
            )
        last = NO_COLOUR if text == "none" else colours.index(text)
        swap = yes_no(counters["swap"], "swap")
        kind = self.piece_kind
        pieces = (self._pieces0, self._pieces1)
        empty_board = not (pieces[0] | pieces[1] | (self._blocks & self._layout.board))
        if last == NO_COLOUR:
            if not empty_board:
                raise PositionError(
                    "last=none, but the board is not empty: some board play was made"
                )
            if turn != 0:
                raise PositionError(f"on an empty board it is {names[0]}'s turn, not {names[1]}'s")
            if passes:
                raise PositionError(
                    f"passes={passes} on an empty board: a player with an empty square to "
                    f"fill cannot pass"
                )
        else:
            if empty_board:
                raise PositionError(
                    f"last={colours[last]}, but the board is empty: every board play leaves "
                    f"a {kind} or a block on it"
                )
            if not pieces[last]:
                raise PositionError(
                    f"last={colours[last]}, but {names[last]} has no {kind} on the board: "
                    f"the last board play always leaves one"
                )
            # The move just before the passes was a board play (or the swap, which keeps
            # the colour to move and follows Blue's first placement).
            expected = turn if passes == 1 else 1 - turn
            if last != expected:
                raise PositionError(
                    f"last={colours[last]} does not fit: with {names[turn]} to move after "
                    f"{passes} pass{'es' if passes != 1 else ''}, the last board play was "
                    f"{names[expected]}'s"
                )
        if swap:
            if not self.info.has_pie_rule(self.options.variant):
                raise PositionError(
                    f"swap=yes, but {self.info.title} is played without the pie rule"
                )
            if turn != 1:
                raise PositionError(
                    f"swap=yes, but it is {names[turn]}'s turn: swap is only possible as "
                    f"{names[1]}'s first move"
                )
            only_one = pieces[0].bit_count() == 1 and not pieces[1]
            if not only_one or self._blocks != self._layout.ring or passes or last != 0:
                raise PositionError(
                    f"swap=yes needs the position after the first move: a single "
                    f"{names[0]} {kind} and nothing else, passes=0, last={colours[0]}"
                )
        if passes >= 1 and self._has_board_play(1 - turn):
            raise PositionError(
                f"passes={passes}, but {names[1 - turn]}, who passed last, has a board play "
                f"here: a player may pass only without one"
            )
        if passes == 2 and self._has_board_play(turn):
            raise PositionError(
                f"passes=2, but {names[turn]}, who passed first, has a board play here: "
                f"a player may pass only without one"
            )
        self._passes = passes
        self._last = last
        self._swap = int(swap)

    def _read_pieces(self, pieces: list[Piece | None]) -> dict[int, int]:
        """Put parsed pieces on the bitboards; returns the height of each occupied bit."""
        pad = self._layout.pad
        heights = {}
        p0 = p1 = 0
        blocks = self._layout.ring
        for cell, piece in enumerate(pieces):
            if piece is None:
                continue
            bit = 1 << pad[cell]
            if piece.colour is None:
                blocks |= bit
            else:
                if piece.colour == 0:
                    p0 |= bit
                else:
                    p1 |= bit
                heights[pad[cell]] = piece.height
        self._pieces0, self._pieces1, self._blocks = p0, p1, blocks
        return heights
