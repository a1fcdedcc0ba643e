"""Petrify (Luis Bolaños Mures, 2021): place disks, or capture by sliding and leave a block.

A disk slides any distance in one of the 8 directions over empty squares and friendly
disks to the first enemy disk and captures it; the square it left becomes a block, which
must not complete a mound (2x2 blocks) or a barricade (3 blocks in a diagonal line). The
board sits inside a ring of blocks that counts for both (docs/rules.md, Petrify). Passing is allowed
only without a board play; two passes in succession end the game; patches are scored
with pair-cancelling (`squares.py`).
"""

from __future__ import annotations

import random

from .base import PASS, SWAP, Move, Piece
from .catalogue import PETRIFY, Options
from .errors import PositionError
from .geometry import bits
from .squares import (
    NO_COLOUR,
    SlidingCaptureGame,
    capture_origins,
    nth_bit,
    slide_target,
    uniform_below,
)
from .views import PetrifyView

INFO = PETRIFY

PetrifyState = tuple[int, int, int, int, int, int, int, int]
"""(Blue disks, Orange disks, blocks, forbidden squares, turn, passes, last, swap)."""


def formation_mask(blocks: int, stride: int, board: int) -> int:
    """The board squares where one more block would complete a mound or a barricade.

    `blocks` is a padded bitboard (ring included) of the given stride.
    """
    up = stride
    right = blocks >> 1
    left = blocks << 1
    above = blocks >> up
    below = blocks << up
    up_right = blocks >> (up + 1)
    up_left = blocks >> (up - 1)
    down_right = blocks << (up - 1)
    down_left = blocks << (up + 1)
    mound = (
        (right & above & up_right)
        | (left & above & up_left)
        | (right & below & down_right)
        | (left & below & down_left)
    )
    rising = (
        (up_right & (blocks >> (2 * up + 2)))
        | (up_right & down_left)
        | (down_left & (blocks << (2 * up + 2)))
    )
    falling = (
        (up_left & (blocks >> (2 * up - 2)))
        | (up_left & down_right)
        | (down_right & (blocks << (2 * up - 2)))
    )
    return (mound | rising | falling) & board


def formation_shapes(stride: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every way a square can be part of a mound or a barricade: the other squares' offsets."""
    up = stride
    shapes: list[tuple[str, tuple[int, ...]]] = [
        ("mound", (1, up, up + 1)),
        ("mound", (-1, up, up - 1)),
        ("mound", (1, -up, -up + 1)),
        ("mound", (-1, -up, -up - 1)),
    ]
    for a in (up + 1, up - 1):
        shapes += [("barricade", (a, 2 * a)), ("barricade", (-a, a)), ("barricade", (-a, -2 * a))]
    return tuple(shapes)


class Petrify(SlidingCaptureGame):
    """A game of Petrify: Blue first, disks slide in 8 directions, captures leave blocks."""

    info = INFO
    piece_kind = "disk"

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        lay = self._layout
        self._steps = lay.orthogonal + lay.diagonal
        self._shapes = formation_shapes(lay.stride)
        self._forbidden = formation_mask(self._blocks, lay.stride, lay.board)

    # -- state ------------------------------------------------------------------------

    def _state(self) -> PetrifyState:
        return (
            self._pieces0,
            self._pieces1,
            self._blocks,
            self._forbidden,
            self._turn,
            self._passes,
            self._last,
            self._swap,
        )

    def _set_state(self, state: object) -> None:
        (
            self._pieces0,
            self._pieces1,
            self._blocks,
            self._forbidden,
            self._turn,
            self._passes,
            self._last,
            self._swap,
        ) = state  # type: ignore[misc]

    def view(self) -> PetrifyView:
        last = self._last
        return PetrifyView(
            self._pieces0,
            self._pieces1,
            self._blocks,
            self._turn,
            self._passes,
            None if last == NO_COLOUR else last,
            bool(self._swap),
        )

    def _apply(self, move: Move) -> None:
        if move == PASS:
            self._passes += 1
            self._turn ^= 1
            self._swap = 0
            return
        if move == SWAP:
            self._swap = 0  # the colour to move stays Orange (docs/rules.md, The pie rule)
            return
        lay = self._layout
        n2 = lay.cell_count
        turn = self._turn
        self._swap = self._pie if self._last == NO_COLOUR else 0
        if move < n2:
            bit = 1 << lay.pad[move]
            if turn:
                self._pieces1 |= bit
            else:
                self._pieces0 |= bit
        else:
            frm, to = divmod(move - n2, n2)
            origin = 1 << lay.pad[frm]
            target = 1 << lay.pad[to]
            if turn:
                self._pieces1 ^= origin | target
                self._pieces0 ^= target
            else:
                self._pieces0 ^= origin | target
                self._pieces1 ^= target
            self._blocks |= origin
            self._forbidden = formation_mask(self._blocks, lay.stride, lay.board)
        self._passes = 0
        self._last = turn
        self._turn = turn ^ 1

    # -- moves --------------------------------------------------------------------------

    def _captures(self, colour: int) -> list[Move]:
        """Every capture `colour` could make now, as move codes."""
        mine, theirs = (self._pieces1, self._pieces0) if colour else (self._pieces0, self._pieces1)
        movers = mine & ~self._forbidden
        if not movers or not theirs:
            return []
        lay = self._layout
        n2 = lay.cell_count
        dense = lay.dense
        passable = lay.board & ~(self._blocks | theirs)
        codes = []
        for step, origins in capture_origins(movers, theirs, passable, self._steps, lay.rounds):
            for origin in bits(origins):
                target = slide_target(origin, step, passable)
                codes.append(n2 + dense[origin] * n2 + dense[target])
        codes.sort()
        return codes

    def _capture_reason(self, frm: int, to: int) -> str | None:
        reason = self._mover_reason(frm)
        if reason is not None:
            return reason
        name = self.geometry.name
        step = self._layout.step(frm, to, diagonal=True)
        if step is None:
            if frm == to:
                return f"a move must go somewhere: {name(frm)}-{name(to)} ends where it starts"
            return (
                f"{name(frm)}-{name(to)} is not a straight line: disks move along rows, "
                f"columns and diagonals"
            )
        reason = self._path_reason(frm, to, step) or self._target_reason(to)
        if reason is not None:
            return reason
        origin = self._layout.pad[frm]
        if self._forbidden >> origin & 1:
            kind, parts = self._formation(origin, self._blocks)
            return (
                f"{name(frm)}-{name(to)} would leave a block on {name(frm)} completing a "
                f"{kind} with {parts}"
            )
        return None

    def _formation(self, bit: int, blocks: int) -> tuple[str, str]:
        """A mound or barricade that a block on `bit` completes: its kind and the others."""
        lay = self._layout
        for kind, offsets in self._shapes:
            others = [bit + offset for offset in offsets]
            if all(other >= 0 and blocks >> other & 1 for other in others):
                n = self.size
                cells = sorted(
                    (lay.dense[o] for o in others if lay.dense[o] >= 0),
                    key=lambda cell: (cell % n, cell // n),  # by column, then row
                )
                names = [self.geometry.name(cell) for cell in cells]
                parts = []
                if names:
                    listed = (
                        ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
                    )
                    parts.append(f"the block{'s' if len(names) > 1 else ''} on {listed}")
                if len(names) < len(others):
                    parts.append("the edge of the board")
                return kind, " and ".join(parts)
        raise AssertionError("no formation at a forbidden square")

    # -- random games -----------------------------------------------------------------

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves until the game is over (fast path).

        Picks from the same distribution as choosing among `legal_moves()`, and pushes
        every move on the stack so the game can be undone and replayed.
        """
        lay = self._layout
        stride = lay.stride
        board = lay.board
        dense = lay.dense
        n2 = lay.cell_count
        steps = self._steps
        rounds = lay.rounds
        pie = self._pie
        below = uniform_below(rng)
        stack = self._stack
        moves = self.moves
        p0, p1, blocks, forbidden, turn, passes, last, swap = self._state()
        empties = list(bits(board & ~(blocks | p0 | p1)))
        while passes < 2:
            stack.append((p0, p1, blocks, forbidden, turn, passes, last, swap))
            mine, theirs = (p1, p0) if turn else (p0, p1)
            movers = mine & ~forbidden
            passable = board & ~(blocks | theirs)
            found = (
                capture_origins(movers, theirs, passable, steps, rounds)
                if movers and theirs
                else []
            )
            placements = len(empties)
            total = placements + swap
            for _, origins in found:
                total += origins.bit_count()
            if not total:
                passes += 1
                turn ^= 1
                moves.append(PASS)
                continue
            pick = below(total)
            if pick < placements:
                bit = empties[pick]
                empties[pick] = empties[-1]
                empties.pop()
                mine |= 1 << bit
                moves.append(dense[bit])
                swap = pie if last == NO_COLOUR else 0
            elif swap and pick == total - 1:
                swap = 0
                moves.append(SWAP)
                continue
            else:
                pick -= placements
                for chosen in found:
                    count = chosen[1].bit_count()
                    if pick < count:
                        break
                    pick -= count
                step, origins = chosen
                origin = nth_bit(origins, pick)
                target = slide_target(origin, step, passable)
                mine ^= (1 << origin) | (1 << target)
                theirs ^= 1 << target
                blocks |= 1 << origin
                forbidden = formation_mask(blocks, stride, board)
                moves.append(n2 + dense[origin] * n2 + dense[target])
                swap = 0
            if turn:
                p1, p0 = mine, theirs
            else:
                p0, p1 = mine, theirs
            passes = 0
            last = turn
            turn ^= 1
        self._set_state((p0, p1, blocks, forbidden, turn, passes, last, swap))

    # -- position strings -------------------------------------------------------------

    def piece_at(self, cell: int) -> Piece | None:
        """The disk or block on `cell`, or None when it is empty."""
        bit = self._layout.pad[cell]
        if self._blocks >> bit & 1:
            return Piece("block", None)
        if self._pieces0 >> bit & 1:
            return Piece("disk", 0)
        if self._pieces1 >> bit & 1:
            return Piece("disk", 1)
        return None

    def _load_board(self, pieces: list[Piece | None]) -> None:
        self._read_pieces(pieces)
        lay = self._layout
        blocks = self._blocks
        for bit in bits(blocks & lay.board):
            rest = blocks & ~(1 << bit)
            if formation_mask(rest, lay.stride, lay.board) >> bit & 1:
                kind, parts = self._formation(bit, rest)
                raise PositionError(
                    f"the block on {lay.name(bit)} completes a {kind} with {parts}; "
                    f"Petrify never allows a mound or a barricade"
                )
        self._forbidden = formation_mask(blocks, lay.stride, lay.board)
