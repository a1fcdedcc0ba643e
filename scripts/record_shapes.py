"""Records of any size in the shapes that cost the reader most, for `bench_records.py`,
`fuzz.py` and `hostile_inputs.py`:

- `wide`: one move and many variations of it, `(;B[d4])(;B[e4])...` (each node is
  checked against the rules and merged with its twin);
- `chain`: a long sequence of setup nodes, `;SP[...];SP[...]...`, each a different
  position from a random game: one line of the tree, as deep as it is long;
- `nested`: variations inside variations, `(;SP[...](;B[c3])(;SP[...](;W[d2])(...)))`,
  so that the SGF text itself nests as deep as the tree;
- `moves`: whole random games of Linage 19x19 as variations of the start, every node a
  move in a position not seen before (the rules' costliest check of a move);
- `setups`: a chain of Pilo 10x10 setups (the costliest position strings to check);
- `comment`: one move with one comment as long as the record, full of escapes;
- `properties`: a root with as many different properties as fit;
- `values`: a root property with as many values as fit.

`make(shape, count)` gives `count` nodes (properties, values, or 10-character pieces of
the comment); `of_size(shape, size)` the largest of a shape that fits in `size` bytes.

    python scripts/record_shapes.py --out /tmp/shapes              # each at 16 MiB
    python scripts/record_shapes.py --out /tmp/shapes --mib 1 wide comment
"""

from __future__ import annotations

import argparse
import random
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from abstracts_tui.records import GM_NUMBER, MAX_SIZE, sgf
from abstracts_tui.rules import new_game

SHAPES = ("wide", "chain", "nested", "moves", "setups", "comment", "properties", "values")
WIDE_GAME = ("petrify", 8)
DEEP_GAME = ("egotzi", 5)
"""Egotzi's 5x5 positions are among the shortest strings, so deep records fit more
nodes into the file size limit."""
MOVES_GAME = ("linage", 19)
SETUPS_GAME = ("pilo", 10)


def header(game: str, size: int) -> str:
    return f"(;FF[4]GM[{GM_NUMBER}]GA[{game}]SZ[{size}]"


@cache
def positions(
    count: int, seed: int = 1, game: tuple[str, int] = DEEP_GAME
) -> list[tuple[str, str]]:
    """`count` different positions of random games, each with one legal move in SGF form
    (`B[c3]`)."""
    rng = random.Random(seed)
    found: dict[str, str] = {}
    while len(found) < count:
        played = new_game(*game)
        while not played.is_over() and len(found) < count:
            moves = played.legal_moves()
            move = played.move_name(rng.choice(moves))
            found.setdefault(played.position(), f"{played.side_to_move()[0].upper()}[{move}]")
            played.play(move)
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


@cache
def games(count: int, seed: int = 1) -> list[str]:
    """`count` random Linage 19x19 games as SGF sequences (`;V[c3];H[d4]...`)."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        game = new_game(*MOVES_GAME)
        nodes = []
        while not game.is_over():
            letter = game.side_to_move()[0].upper()
            move = rng.choice(game.legal_moves())
            nodes.append(f";{letter}[{game.move_name(move)}]")
            game.play(move)
        texts.append("".join(nodes))
    return texts


def moves(nodes: int, seed: int = 1) -> str:
    found = games(20, seed)  # then again: the same moves, but checked all the same
    parts, total, index = [], 0, 0
    while total < nodes:
        line = found[index % len(found)]
        index += 1
        taken = line.split(";")[1 : nodes - total + 1]
        parts.append("(;" + ";".join(taken) + ")")
        total += len(taken)
    return header(*MOVES_GAME) + "".join(parts) + ")\n"


def setups(nodes: int, seed: int = 1) -> str:
    found = positions(min(nodes, 2000), seed, SETUPS_GAME)
    body = "".join(f"\n;SP[{found[i % len(found)][0]}]" for i in range(nodes))
    return header(*SETUPS_GAME) + body + ")\n"


def comment(pieces: int) -> str:
    text = sgf.escape("a ] b \\ c\n" * pieces)
    return header(*WIDE_GAME) + ";B[d4]C[" + text + "])\n"


def properties(count: int) -> str:
    names = []
    for index in range(count):
        name = ""
        for _ in range(5):  # 26^5 names, all upper-case letters, none the program reads
            index, letter = divmod(index, 26)
            name += chr(ord("A") + letter)
        names.append("X" + name + "[1]")
    return header(*WIDE_GAME) + "".join(names) + ")\n"


def values(count: int) -> str:
    return header(*WIDE_GAME) + "XV" + "[1]" * count + ")\n"


MAKERS = {
    "wide": wide,
    "chain": chain,
    "nested": nested,
    "moves": moves,
    "setups": setups,
    "comment": comment,
    "properties": properties,
    "values": values,
}


def make(shape: str, count: int) -> str:
    if shape not in MAKERS:
        raise ValueError(f"unknown shape {shape}")
    return MAKERS[shape](count)


def of_size(shape: str, size: int = MAX_SIZE) -> str:
    """The record of `shape` with the most nodes (or pieces) whose UTF-8 text is at most
    `size` bytes."""
    sample = 2000
    per = len(make(shape, sample).encode()) / sample
    count = int(size / per)
    text = make(shape, count)
    while len(text.encode()) > size:
        count = int(count * 0.995)
        text = make(shape, count)
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shapes", nargs="*", metavar="SHAPE", help=f"of {', '.join(SHAPES)}")
    parser.add_argument("--out", type=Path, required=True, help="folder for SHAPE.sgf")
    parser.add_argument("--mib", type=float, default=MAX_SIZE / 2**20, help="size of each")
    args = parser.parse_args()
    unknown = sorted(set(args.shapes) - set(SHAPES))
    if unknown:
        parser.error(f"no shape {', '.join(unknown)}: the shapes are {', '.join(SHAPES)}")
    args.out.mkdir(parents=True, exist_ok=True)
    for shape in args.shapes or SHAPES:
        text = of_size(shape, int(args.mib * 2**20))
        path = args.out / f"{shape}.sgf"
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(text.encode()):,} bytes")


if __name__ == "__main__":
    main()
