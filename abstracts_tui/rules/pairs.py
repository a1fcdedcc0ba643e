"""The pair-cancelling count shared by Petrify, Pilo and Egotzi.

Opposite-coloured groups of the same size are removed in pairs until no such pair is
left; what is left decides. At each size, equal numbers of the two colours cancel, so
the groups left at a size are all of the colour that had more groups of that size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .geometry import bits


@dataclass(frozen=True)
class Group:
    """A group of like-coloured pieces: its colour index and its cells."""

    colour: int
    cells: frozenset[int]

    @property
    def size(self) -> int:
        return len(self.cells)

    @classmethod
    def from_mask(cls, colour: int, mask: int) -> Group:
        return cls(colour, frozenset(bits(mask)))


def biggest_left(sizes0: Iterable[int], sizes1: Iterable[int]) -> tuple[int, int]:
    """For each colour, the size of its biggest group left after cancelling (0 if none)."""
    count0 = Counter(sizes0)
    count1 = Counter(sizes1)
    best0 = best1 = 0
    for size in count0.keys() | count1.keys():
        diff = count0[size] - count1[size]
        if diff > 0 and size > best0:
            best0 = size
        elif diff < 0 and size > best1:
            best1 = size
    return best0, best1


def owner_after_cancelling(sizes0: Iterable[int], sizes1: Iterable[int]) -> int | None:
    """The colour whose group left over is biggest, or None when every group cancels."""
    best0, best1 = biggest_left(sizes0, sizes1)
    if best0 == best1:  # only possible when both are 0
        return None
    return 0 if best0 > best1 else 1


def cancel(groups: Sequence[Group]) -> tuple[list[tuple[Group, Group]], list[Group]]:
    """Pair off groups: (the cancelled pairs, colour 0 first in each; the groups left).

    Within a size, groups are paired in the order given; the pairs and the groups left
    come biggest size first.
    """
    by_size: dict[int, tuple[list[Group], list[Group]]] = {}
    for group in groups:
        by_size.setdefault(group.size, ([], []))[group.colour].append(group)
    pairs: list[tuple[Group, Group]] = []
    left: list[Group] = []
    for size in sorted(by_size, reverse=True):
        first, second = by_size[size]
        paired = min(len(first), len(second))
        pairs.extend(zip(first[:paired], second[:paired], strict=True))
        left.extend(first[paired:] + second[paired:])
    return pairs, left
