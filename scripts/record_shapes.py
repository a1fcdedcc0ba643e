"""Records of any number of nodes in the shapes that used to break the reader, for
`bench_records.py` and `fuzz.py`:

- `wide`: one move and many variations of it, `(;B[d4])(;B[e4])...` (each node is
  checked against the rules and merged with its twin);
- `chain`: a long sequence of setup nodes, `;SP[...];SP[...]...`, each a different
  position from a random game: one line of the tree, as deep as it is long;
- `nested`: variations inside variations, `(;SP[...](;B[c3])(;SP[...](;W[d2])(...)))`,
  so that the SGF text itself nests as deep as the tree.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from abstracts_tui.records import GM_NUMBER
from abstracts_tui.rules import new_game

SHAPES = ("wide", "chain", "nested")
WIDE_GAME = ("petrify", 8)
DEEP_GAME = ("egotzi", 5)
"""Egotzi's 5x5 positions are among the shortest strings, so deep records fit more
nodes into the file size limit."""


def header(game: str, size: int) -> str:
    return f"(;FF[4]GM[{GM_NUMBER}]GA[{game}]SZ[{size}]"


def positions(count: int, seed: int = 1) -> list[tuple[str, str]]:
    """`count` different positions of random Egotzi games, each with one legal move in
    SGF form (`B[c3]`)."""
    rng = random.Random(seed)
    found: dict[str, str] = {}
    while len(found) < count:
        game = new_game(*DEEP_GAME)
        while not game.is_over() and len(found) < count:
            moves = game.legal_moves()
            move = game.move_name(rng.choice(moves))
            found.setdefault(game.position(), f"{game.side_to_move()[0].upper()}[{move}]")
            game.play(move)
    return list(found.items())


def wide(nodes: int) -> str:
    game = new_game(*WIDE_GAME)
    cells = [game.move_name(move) for move in game.legal_moves()]
    body = "".join(f"(;B[{cells[i % len(cells)]}])" for i in range(nodes))
    return header(*WIDE_GAME) + body + ")\n"


def chain(nodes: int, seed: int = 1) -> str:
    found = positions(min(nodes, 2000), seed)
    body = "".join(f"\n;SP[{found[i % len(found)][0]}]" for i in range(nodes))
    return header(*DEEP_GAME) + body + ")\n"


def nested(nodes: int, seed: int = 1) -> str:
    found = positions(min(nodes, 2000), seed)
    levels = nodes // 2
    body = "".join("(;SP[{}](;{})".format(*found[i % len(found)]) for i in range(levels))
    return header(*DEEP_GAME) + body + ")" * levels + ")\n"


def make(shape: str, nodes: int, seed: int = 1) -> str:
    if shape == "wide":
        return wide(nodes)
    if shape == "chain":
        return chain(nodes, seed)
    if shape == "nested":
        return nested(nodes, seed)
    raise ValueError(f"unknown shape {shape}")
