"""Pilo (Luis Bolaños Mures, 2021): stacks capture stacks of their own height and grow.

A stack slides along a row or column over empty squares and friendly stacks; the first
enemy stack it meets can be captured only if it has the same height. The mover lands
there one disk taller and the square it left becomes a block (docs/rules.md, Heights). There is no
mound or barricade rule. Passing is allowed only without a board play; two passes in
succession end the game; patches are scored with pair-cancelling (`squares.py`).

Every capture adds one block, and a stack of height h took 2**(h-1) - 1 captures to
build; since a capture also removes a stack of the mover's height, the sum of
2**(h-1) - 1 over the stacks on the board always equals the number of blocks.
"""

from __future__ import annotations

import random

from .base import PASS, SWAP, Move, Piece
from .catalogue import PILO, Options
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
from .views import PiloView

INFO = PILO

PiloState = tuple[int, int, int, int, tuple[int, ...], int, int, int, int]
"""(Blue stacks, Orange stacks, blocks, stacks taller than 1, stacks by height, turn,
passes, last, swap)."""


def captures_needed(height: int) -> int:
    """How many captures it takes to build a stack of `height`."""
    return (1 << (height - 1)) - 1


class Pilo(SlidingCaptureGame):
    """A game of Pilo: Blue first, stacks slide orthogonally and capture their own height."""

    info = INFO
    piece_kind = "stack"

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        lay = self._layout
        # The tallest stack a board can hold: its captures each leave a block on it.
        self.max_height = (lay.cell_count + 1).bit_length()
        self._tall = 0
        """Stacks of height 2 or more (the rest have height 1)."""
        self._levels: tuple[int, ...] = (0,) * (self.max_height + 2)
        """`_levels[h]`: the stacks of height h, for h >= 2 (entries 0 and 1 stay 0)."""

    # -- state ------------------------------------------------------------------------

    def _state(self) -> PiloState:
        return (
            self._pieces0,
            self._pieces1,
            self._blocks,
            self._tall,
            self._levels,
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
            self._tall,
            self._levels,
            self._turn,
            self._passes,
            self._last,
            self._swap,
        ) = state  # type: ignore[misc]

    def view(self) -> PiloView:
        last = self._last
        return PiloView(
            self._pieces0,
            self._pieces1,
            self._blocks,
            self._tall,
            self._levels,
            self._turn,
            self._passes,
            None if last == NO_COLOUR else last,
            bool(self._swap),
        )

    def height_at(self, cell: int) -> int:
        """The height of the stack on `cell`, 0 when there is none."""
        bit = self._layout.pad[cell]
        if not (self._pieces0 | self._pieces1) >> bit & 1:
            return 0
        return self._height(bit)

    def _height(self, bit: int) -> int:
        if not self._tall >> bit & 1:
            return 1
        for height, level in enumerate(self._levels):
            if level >> bit & 1:
                return height
        raise AssertionError("a tall stack on no level")

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
            origin_bit = lay.pad[frm]
            origin = 1 << origin_bit
            target = 1 << lay.pad[to]
            height = self._height(origin_bit)
            levels = list(self._levels)
            levels[height] &= ~(origin | target)
            levels[height + 1] |= target
            self._levels = tuple(levels)
            self._tall = (self._tall & ~origin) | target
            if turn:
                self._pieces1 ^= origin | target
                self._pieces0 ^= target
            else:
                self._pieces0 ^= origin | target
                self._pieces1 ^= target
            self._blocks |= origin
        self._passes = 0
        self._last = turn
        self._turn = turn ^ 1

    # -- moves --------------------------------------------------------------------------

    def _classes(self, mine: int, theirs: int) -> list[tuple[int, int]]:
        """(my stacks, their stacks) of each height at which both sides have some."""
        tall = self._tall
        found = []
        low_mine = mine & ~tall
        low_theirs = theirs & ~tall
        if low_mine and low_theirs:
            found.append((low_mine, low_theirs))
        if tall:
            for level in self._levels:
                if level and mine & level and theirs & level:
                    found.append((mine & level, theirs & level))
        return found

    def _captures(self, colour: int) -> list[Move]:
        """Every capture `colour` could make now, as move codes."""
        mine, theirs = (self._pieces1, self._pieces0) if colour else (self._pieces0, self._pieces1)
        if not mine or not theirs:
            return []
        lay = self._layout
        n2 = lay.cell_count
        dense = lay.dense
        passable = lay.board & ~(self._blocks | theirs)
        codes = []
        for movers, targets in self._classes(mine, theirs):
            for step, origins in capture_origins(
                movers, targets, passable, lay.orthogonal, lay.rounds
            ):
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
        step = self._layout.step(frm, to, diagonal=False)
        if step is None:
            if frm == to:
                return f"a move must go somewhere: {name(frm)}-{name(to)} ends where it starts"
            return (
                f"{name(frm)}-{name(to)} is not along a row or a column: stacks move only "
                f"orthogonally"
            )
        reason = self._path_reason(frm, to, step) or self._target_reason(to)
        if reason is not None:
            return reason
        lay = self._layout
        mover = self._height(lay.pad[frm])
        victim = self._height(lay.pad[to])
        if mover != victim:
            return (
                f"the {self._colour(1 - self._turn)} stack on {name(to)} has height {victim} "
                f"but yours on {name(frm)} has height {mover}: a stack captures only a stack "
                f"of its own height"
            )
        return None

    # -- random games -----------------------------------------------------------------

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves until the game is over (fast path).

        Picks from the same distribution as choosing among `legal_moves()`, and pushes
        every move on the stack so the game can be undone and replayed.
        """
        lay = self._layout
        board = lay.board
        dense = lay.dense
        n2 = lay.cell_count
        steps = lay.orthogonal
        rounds = lay.rounds
        pie = self._pie
        below = uniform_below(rng)
        stack = self._stack
        moves = self.moves
        p0, p1, blocks, tall, levels, turn, passes, last, swap = self._state()
        empties = list(bits(board & ~(blocks | p0 | p1)))
        # Levels above the tallest stack are empty: no need to look at them.
        top = max(height for height, level in enumerate(levels) if level or height < 2)
        while passes < 2:
            stack.append((p0, p1, blocks, tall, levels, turn, passes, last, swap))
            mine, theirs = (p1, p0) if turn else (p0, p1)
            passable = board & ~(blocks | theirs)
            found: list[tuple[int, int, int]] = []
            total = len(empties) + swap
            if mine and theirs:
                low_mine = mine & ~tall
                low_theirs = theirs & ~tall
                if low_mine and low_theirs:
                    for step, origins in capture_origins(
                        low_mine, low_theirs, passable, steps, rounds
                    ):
                        found.append((1, step, origins))
                        total += origins.bit_count()
                for height in range(2, top + 1):
                    level = levels[height]
                    my_level = mine & level
                    if my_level and theirs & level:
                        for step, origins in capture_origins(
                            my_level, theirs & level, passable, steps, rounds
                        ):
                            found.append((height, step, origins))
                            total += origins.bit_count()
            if not total:
                passes += 1
                turn ^= 1
                moves.append(PASS)
                continue
            pick = below(total)
            placements = len(empties)
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
                    count = chosen[2].bit_count()
                    if pick < count:
                        break
                    pick -= count
                height, step, origins = chosen
                origin_bit = nth_bit(origins, pick)
                target_bit = slide_target(origin_bit, step, passable)
                origin = 1 << origin_bit
                target = 1 << target_bit
                grown = list(levels)
                grown[height] &= ~(origin | target)
                grown[height + 1] |= target
                levels = tuple(grown)
                tall = (tall & ~origin) | target
                if height == top:
                    top += 1
                mine ^= origin | target
                theirs ^= target
                blocks |= origin
                moves.append(n2 + dense[origin_bit] * n2 + dense[target_bit])
                swap = 0
            if turn:
                p1, p0 = mine, theirs
            else:
                p0, p1 = mine, theirs
            passes = 0
            last = turn
            turn ^= 1
        self._set_state((p0, p1, blocks, tall, levels, turn, passes, last, swap))

    # -- position strings -------------------------------------------------------------

    def piece_at(self, cell: int) -> Piece | None:
        """The stack or block on `cell`, or None when it is empty."""
        bit = self._layout.pad[cell]
        if self._blocks >> bit & 1:
            return Piece("block", None)
        if self._pieces0 >> bit & 1:
            return Piece("stack", 0, self._height(bit))
        if self._pieces1 >> bit & 1:
            return Piece("stack", 1, self._height(bit))
        return None

    def _load_board(self, pieces: list[Piece | None]) -> None:
        heights = self._read_pieces(pieces)
        lay = self._layout
        levels = [0] * (self.max_height + 2)
        needed = 0
        for bit, height in sorted(heights.items()):
            if height > self.max_height:
                raise PositionError(
                    f"the stack on {lay.name(bit)} has height {height}, but on a board of "
                    f"size {self.size} no stack can be taller than {self.max_height} (a stack "
                    f"of height h takes 2^(h-1)-1 captures, and each leaves a block)"
                )
            if height > 1:
                levels[height] |= 1 << bit
            needed += captures_needed(height)
        blocks = (self._blocks & lay.board).bit_count()
        if needed != blocks:
            raise PositionError(
                f"the stacks on the board took {needed} capture{'s' if needed != 1 else ''} "
                f"to build (a stack of height h stands for 2^(h-1)-1, as each capture also "
                f"removes a stack of the mover's height) but the board has {blocks} "
                f"block{'s' if blocks != 1 else ''}, and every capture leaves exactly one"
            )
        self._levels = tuple(levels)
        self._tall = sum(levels)
