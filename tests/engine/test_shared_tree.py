"""The compiled search's one tree shared by every thread, under stress: more threads than
the machine has cores, the solver proving positions while they search, and the memory
bound filling the tree. Whatever the interleaving, the tree's counts must add up:

- every walk passes the root: the root's moves' visits add up to the playouts;
- at every node, its total is the sum of its moves' visits (each walk that goes on
  through a node takes one of its moves), and the walks that ended there (a proven node,
  or the game over) are counted apart;
- every move with a node below it has one visit more than the walks that reached that
  node: the playout from the move before its node was made (a move gets a node on its
  second visit). A visit is counted on the way down (the virtual loss) and its result
  on the way up, so once the search has stopped nothing is missing;
- a move's wins are at most its visits, and every proof agrees with the proofs of the
  moves below it.
"""

from __future__ import annotations

import os
import re

import pytest

from abstracts_tui.engine.search import Budget
from abstracts_tui.rules import SWAP, Game, load_position, new_game
from tests.engine.compiled_support import needs_core
from tests.engine.test_search import FORCED_WINS

pytestmark = needs_core

Row = tuple[int, int, int, int, list[tuple[int, int, float, int, int]]]


def proof_of(turn: int, proofs: list[int]) -> int:
    """A node's proof from its moves' proofs (0 unknown, 1 + winner, 3 a draw)."""
    if turn + 1 in proofs:
        return turn + 1
    if not proofs or 0 in proofs:
        return 0
    return 3 if 3 in proofs else (1 - turn) + 1


def check_tree(tree: list[Row], playouts: int) -> None:
    root_total = tree[0][0]
    assert root_total == playouts
    assert sum(edge[1] for edge in tree[0][4]) == playouts
    reached = [0] * len(tree)
    for total, _ended, solved, turn, edges in tree:
        assert total == sum(visits for _move, visits, _wins, _proven, _child in edges)
        for move, visits, wins, proven, child in edges:
            assert 0 <= wins <= visits
            assert child >= -1  # no node left half made
            if child >= 0:
                below = tree[child]
                reached[child] += 1
                assert visits == below[0] + below[1] + 1
                if proven:
                    # An edge proven through its node: a swap's as the other colour's
                    # person sees it (the pie rule: who swaps plays the other colour).
                    expected = 3 - below[2] if move == SWAP and below[2] != 3 else below[2]
                    assert proven == expected
        if solved:
            known = [edge[3] for edge in edges]
            derived = proof_of(turn, known)
            # Proven by its moves, or by the exact solver when it was made.
            assert derived in (0, solved)
    # A tree: every node but the root hangs from exactly one move.
    assert reached[0] == 0
    assert all(count == 1 for count in reached[1:])


def searched(game: Game, threads: int, playouts: int, max_bytes: int) -> list[Row]:
    from abstracts_tui.engine.compiled_search import CompiledSearch

    search = CompiledSearch(game, seed=7, threads=threads, max_bytes=max_bytes)
    search.run(Budget(playouts=playouts))
    assert search.playouts == playouts
    assert search.tree_bytes <= max_bytes
    return search._searcher.dump()


THREADS = 4 * (os.cpu_count() or 1) + 3
"""More threads than cores, so that threads are interrupted mid-walk."""


@pytest.mark.parametrize(
    "name, size, max_bytes",
    [
        ("egotzi", 5, 64 * 1024 * 1024),  # the solver at work
        ("linage", 7, 512 * 1024),  # the memory bound reached under way
        ("petrify", 6, 2 * 1024 * 1024),
        ("pilo", 6, 2 * 1024 * 1024),
        ("partitions", 5, 2 * 1024 * 1024),
    ],
)
def test_the_counts_add_up_with_more_threads_than_cores(
    name: str, size: int, max_bytes: int
) -> None:
    tree = searched(new_game(name, size=size), THREADS, 6000, max_bytes)
    check_tree(tree, 6000)


def test_a_full_tree_keeps_its_counts() -> None:
    max_bytes = 256 * 1024
    tree = searched(new_game("linage", size=7), THREADS, 8000, max_bytes)
    check_tree(tree, 8000)
    assert len(tree) > 10  # it grew, then filled
    assert sum(1 for row in tree for edge in row[4] if edge[4] < 0 and edge[1] > 1) > 0


@pytest.mark.parametrize(("position", "winner"), FORCED_WINS)
def test_proofs_under_many_threads_agree_with_one(position: str, winner: str) -> None:
    from abstracts_tui.engine.compiled_search import CompiledSearch

    game = load_position(position)
    for threads in (1, THREADS):
        search = CompiledSearch(game, seed=3, threads=threads)
        search.run(Budget(playouts=20000))
        check_tree(search._searcher.dump(), search.playouts)
        assert search.proven == "win"
        best = search.candidates()[0]
        assert (game.move_name(best.move), best.proven) == (winner, "win")


@pytest.mark.parametrize("threads", [1, THREADS])
def test_every_run_ends_with_the_roots_amaf_table_whole(threads: int) -> None:
    """With several threads each holds its additions to the root's AMAF table and adds
    them in batches; each run ends with all of them added, runs shorter than a batch
    too: every playout that began with a root move played it for the colour to move."""
    from abstracts_tui.engine.compiled_search import CompiledSearch

    search = CompiledSearch(new_game("egotzi", size=5), seed=5, threads=threads)
    for budget in (10, 7, 300):
        search.run(Budget(playouts=budget))
        visits = {row[0]: row[1] for row in search._searcher.stats()}
        assert sum(visits.values()) == search.playouts
        for move, played, wins in search._searcher.root_amaf():
            assert visits[move] <= played <= search.playouts
            assert wins <= played


def test_a_move_proven_a_draw_does_not_keep_the_search_from_a_win() -> None:
    """Linage, one pass made: passing again is a draw at once, d4 wins. With some
    seeds d4 looked worse than the draw, and every playout went to the draw: never
    proven. A proven draw is chosen only once every other move is proven."""
    from abstracts_tui.engine.compiled_search import CompiledSearch

    game = load_position("linage size=5,komi=0 ..xxx/x...x/xx.xx/...../xx.xx vertical passes=1")
    for seed in range(12):
        search = CompiledSearch(game, seed=seed, threads=1)
        search.run(Budget(playouts=2000))
        assert search.proven == "win", seed
        assert game.move_name(search.candidates()[0].move) == "d4"


def test_runs_and_tree_reuse_keep_the_counts() -> None:
    from abstracts_tui.engine.compiled_search import CompiledSearch

    game = new_game("egotzi", size=5)
    search = CompiledSearch(game, seed=11, threads=THREADS)
    search.run(Budget(playouts=3000))
    search.run(Budget(playouts=2000))
    check_tree(search._searcher.dump(), 5000)
    line = search.candidates(1)[0].pv
    later = game.copy()
    for move in line[:2]:
        later.push(move)
    assert search.follow(later)
    kept = search._searcher.dump()[0][0]
    search.run(Budget(playouts=1000))
    check_tree(search._searcher.dump(), kept + 1000)


def test_walks_that_met_are_counted_below_the_root_only_between_threads() -> None:
    """A walk that takes a move another thread's walk is on (the virtual loss lowering its
    value meanwhile) is counted: never with one thread, never more than the playouts."""
    from abstracts_tui.engine.compiled_search import CompiledSearch

    game = new_game("pilo", size=6)
    alone = CompiledSearch(game, seed=2, threads=1)
    alone.run(Budget(playouts=4000))
    assert alone.walks_met == 0
    shared = CompiledSearch(game, seed=2, threads=THREADS)
    shared.run(Budget(playouts=4000))
    shared.run(Budget(playouts=2000))
    assert 0 <= shared.walks_met <= shared.playouts == 6000
    check_tree(shared._searcher.dump(), 6000)


def test_the_threads_bench_prints_each_games_figures() -> None:
    """`scripts/threads_bench.py`, as run to measure the threads' sharing: a line a game,
    its playouts a second with 1 and K threads, the share per CPU second, and the share
    of the K threads' walks that met another."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "threads_bench.py"
    args = ["--threads", "3", "--game", "egotzi", "--rounds", "1", "--seconds", "0.05"]
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    header, line = done.stdout.splitlines()
    assert header.startswith("playouts a second, 1 and 3 threads")
    figures = r"egotzi +installed: [\d,]+ and [\d,]+ \([\d.]+x\), [\d.]+, walks met \d+%"
    assert re.fullmatch(figures, line), line
    wrong = subprocess.run(
        [sys.executable, str(script), "--game", "chess"], capture_output=True, text=True
    )
    assert wrong.returncode == 2 and "--game is one of petrify" in wrong.stderr


def test_a_running_search_refuses_to_be_read_changed_or_made_again() -> None:
    """While its threads walk the tree (the GIL released), the search's tree may not be
    dumped, advanced, run twice or made afresh: each says so; `stop` ends the run."""
    import threading
    import time

    from abstracts_tui.engine.compiled import position_of
    from abstracts_tui.engine.compiled_search import CompiledSearch

    game = new_game("linage", size=7)
    search = CompiledSearch(game, seed=3, threads=2)
    searcher = search._searcher
    runner = threading.Thread(target=searcher.run, args=(0, 30.0))
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while searcher.playouts == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert searcher.playouts > 0
        for call, says in [
            (searcher.dump, "this search is running"),
            (searcher.root_amaf, "this search is running"),
            (lambda: searcher.advance([]), "this search is running"),
            (lambda: searcher.run(100, 0.0), "this search is already running"),
            (
                lambda: searcher.__init__(  # type: ignore[misc]
                    position_of(game), 1, 1, 1, 50, 1e-5, 0.05, 20, 1 << 20
                ),
                "this search is running",
            ),
        ]:
            with pytest.raises(RuntimeError, match=says):
                call()
    finally:
        searcher.stop()
        runner.join(10)
    assert not runner.is_alive()
    check_tree(searcher.dump(), searcher.playouts)
