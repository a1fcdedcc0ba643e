"""The Monte Carlo tree search: legal, reproducible, stoppable, and it sees a forced win."""

from __future__ import annotations

import math
import random
import threading
import time

import pytest

from abstracts_tui.engine.core_status import CORE_VARIABLE
from abstracts_tui.engine.search import Budget, Search, choose_move
from abstracts_tui.engine.terms import DEFAULT_BIAS, GAME_BIAS
from abstracts_tui.rules import GAMES, PASS, SWAP, Game, load_position, new_game
from tests.engine.compiled_support import CORES


@pytest.fixture(autouse=True, params=CORES)
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs on both search cores."""
    monkeypatch.setenv(CORE_VARIABLE, request.param)
    return str(request.param)


def solve(game: Game) -> float:
    """The game-theoretic value for the side to move: 1 win, 0.5 draw, 0 loss."""
    if game.is_over():
        outcome = game.outcome()
        assert outcome is not None
        if outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == game.turn else 0.0
    best = 0.0
    for move in game.legal_moves():
        best = max(best, value_after(game, move))
        if best == 1.0:
            break
    return best


def value_after(game: Game, move: int) -> float:
    """The side to move's value with best play after `move` (a swap keeps the mover)."""
    me = game.turn
    game.push(move)
    value = solve(game)
    if game.turn != me:
        value = 1.0 - value
    game.undo()
    return value


def winning_moves(game: Game) -> list[str]:
    """The moves after which the side to move wins with best play."""
    return [game.move_name(m) for m in game.legal_moves() if value_after(game, m) == 1.0]


# One move wins and every other loses (or draws) with best play; each position was found
# by random play and is checked by `solve` in the test itself. GRAVE is not infallible
# here: in the Linage position, where passing is a sure draw and the winning stone looks
# poor in random playouts, 1 seed in 40 never tries d4 within a few thousand playouts.
FORCED_WINS = [
    pytest.param(
        "egotzi size=5,variant=standard bbbbw/ww.w./www.w/.b.bw/bbbbw black swap=no",
        "d3",
        id="egotzi",
    ),
    pytest.param(
        "partitions size=5 wbbwb/wbwbwb/wbwbbww/wbbwwwbb/bwbbbwbw./b.bbwwww/w.bbwww/.bbwwb/wwbb. "
        "white -",
        "d2",
        id="partitions",
    ),
    pytest.param(
        "linage size=5,komi=0 ..xxx/x...x/xx.xx/...../xx.xx vertical passes=1",
        "d4",
        id="linage",
    ),
]


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize(("position", "winner"), FORCED_WINS)
def test_finds_the_only_winning_move(position: str, winner: str, seed: int) -> None:
    game = load_position(position)
    assert len(game.legal_moves()) >= 5
    assert winning_moves(game) == [winner]
    search = Search(game, seed=seed)
    search.run(Budget(playouts=1500))
    best = search.best_move()
    assert best is not None
    assert game.move_name(best) == winner
    assert search.candidates()[0].winrate > 0.6


@pytest.mark.parametrize("name", list(GAMES))
def test_a_legal_move_in_every_game(name: str) -> None:
    game = new_game(name)
    rng = random.Random(5)
    for _ in range(7):
        game.push(rng.choice(game.legal_moves()))
    before = game.position()
    for grave in (True, False):
        search = Search(game, seed=1, grave=grave)
        search.run(Budget(playouts=60))
        move = search.best_move()
        assert move in game.legal_moves()
        assert search.playouts == 60
    assert game.position() == before  # the search works on its own copy


@pytest.mark.parametrize("name", ["petrify", "pilo", "egotzi"])
def test_swap_is_a_move_like_any_other(name: str) -> None:
    game = new_game(name)
    game.push(game.legal_moves()[len(game.legal_moves()) // 2])
    assert SWAP in game.legal_moves()
    search = Search(game, seed=2)
    search.run(Budget(playouts=150))
    assert search.best_move() in game.legal_moves()
    # Every root move, swap included, gets tried.
    assert SWAP in {c.move for c in search.candidates()}


@pytest.mark.parametrize("first", ["c3", "a1"])
def test_a_swap_is_worth_what_playing_on_loses(core: str, first: str) -> None:
    """The pie rule: after a swap the position stays and the same colour moves, but the
    person who swapped now plays the other colour. So a swap is worth for them what
    playing on loses: one minus the best that colour can do in the same position with
    no swap left. Egotzi's first move is worth having (in the centre most of all), so
    the search swaps. Once the swap was valued as playing on (about 0.4 here) and, after
    one lost playout, never tried again."""
    game = new_game("egotzi", size=5)
    game.play(first)
    playouts = 20000 if core == "compiled" else 4000
    search = Search(game, seed=5)
    search.run(Budget(playouts=playouts))
    swap = search.candidates()[0]
    assert swap.move == SWAP
    swapped = game.copy()
    swapped.play("swap")
    after = Search(swapped, seed=5)
    after.run(Budget(playouts=playouts))
    playing_on = after.candidates(1)[0].winrate
    assert playing_on < 0.45  # the swap's colour has the better of it
    assert swap.winrate > 0.55
    assert abs(swap.winrate - (1 - playing_on)) < 0.06, (swap.winrate, playing_on)


def test_only_pass_is_legal() -> None:
    game = load_position("linage size=5,komi=0 xxxxx/xxxxx/xxxxx/xxxxx/x...x vertical passes=0")
    assert game.legal_moves() == [PASS]
    search = Search(game, seed=1)
    search.run(Budget(playouts=20))
    assert search.best_move() == PASS
    assert choose_move(game, Budget(playouts=20)) == PASS


def test_a_draw_counts_half() -> None:
    # Both pass in a row on a board without territory: the only move ends in a 0-0 draw.
    game = load_position("linage size=5,komi=0 xxxxx/xxxxx/xxxxx/xxxxx/xxxxx vertical passes=1")
    search = Search(game, seed=1)
    search.run(Budget(playouts=10))
    (only,) = search.candidates()
    assert (only.move, only.visits, only.winrate) == (PASS, 10, 0.5)


def test_a_finished_game_has_no_move() -> None:
    game = load_position("linage size=5,komi=0 xxxxx/xxxxx/xxxxx/xxxxx/xxxxx vertical passes=1")
    game.push(PASS)
    assert game.is_over()
    search = Search(game, seed=1)
    search.run(Budget(playouts=10))
    assert search.best_move() is None
    assert search.candidates() == []
    assert search.playouts == 0
    with pytest.raises(ValueError):
        choose_move(game, Budget(playouts=10))


@pytest.mark.parametrize("name", ["petrify", "partitions"])
def test_same_seed_and_playouts_same_result(name: str) -> None:
    # One thread: several threads share one tree, and their interleaving changes it.
    game = new_game(name)
    runs = []
    for _ in range(2):
        search = Search(game, seed=42, threads=1)
        search.run(Budget(playouts=120))
        runs.append(search.candidates())
    assert runs[0] == runs[1]
    other = Search(game, seed=43, threads=1)
    other.run(Budget(playouts=120))
    assert other.candidates() != runs[0]


def test_runs_add_up() -> None:
    game = new_game("egotzi", size=5)
    search = Search(game, seed=9)
    search.run(Budget(playouts=50))
    search.run(Budget(playouts=70))
    assert search.playouts == 120
    assert sum(c.visits for c in search.candidates()) == 120


def test_candidates_are_sorted_and_their_lines_are_legal() -> None:
    game = new_game("egotzi", size=5)
    game.push(12)
    search = Search(game, seed=4)
    search.run(Budget(playouts=400))
    found = search.candidates()
    # Moves with a tenth of the top visits or more first, by the lower bound of their
    # winrate; then the others by visits.
    top = max(c.visits for c in found)
    sure = [c for c in found if c.visits >= top / 10]
    assert found[: len(sure)] == sure
    bounds = [c.winrate - 0.5 / math.sqrt(c.visits) for c in sure]
    assert bounds == sorted(bounds, reverse=True)
    rest = [c.visits for c in found[len(sure) :]]
    assert rest == sorted(rest, reverse=True)
    assert search.best_move() == found[0].move
    assert search.winrate() == found[0].winrate
    assert len(search.candidates(3)) == 3
    for candidate in found:
        assert 0.0 <= candidate.winrate <= 1.0
        assert candidate.pv[0] == candidate.move
        line = game.copy()
        for move in candidate.pv:
            line.play(move)


def test_a_time_budget_is_kept() -> None:
    game = new_game("petrify")
    search = Search(game, seed=1)
    start = time.perf_counter()
    search.run(Budget(seconds=0.3))
    spent = time.perf_counter() - start
    assert 0.3 <= spent < 0.3 + 0.25
    assert search.playouts > 0


def test_stop_ends_a_search_from_another_thread() -> None:
    game = new_game("linage")  # the slowest playouts
    search = Search(game, seed=1)
    worker = threading.Thread(target=search.run, args=(Budget(),))  # no limit at all
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()
    asked = time.perf_counter()
    search.stop()
    worker.join(timeout=2)
    assert not worker.is_alive()
    assert time.perf_counter() - asked < 0.2
    assert search.playouts > 0
    assert search.best_move() in game.legal_moves()
    # The search can go on afterwards.
    done = search.playouts
    search.run(Budget(playouts=5))
    assert search.playouts == done + 5


def test_results_can_be_read_while_it_runs() -> None:
    game = new_game("egotzi")
    search = Search(game, seed=1)
    worker = threading.Thread(target=search.run, args=(Budget(seconds=0.6),))
    worker.start()
    seen = []
    while worker.is_alive():
        found = search.candidates(5)
        if found:
            seen.append(found[0].visits)
        time.sleep(0.05)
    worker.join()
    assert len(seen) >= 3
    assert all(visits > 0 for visits in seen)


@pytest.mark.parametrize("name", list(GAMES))
def test_colours_alternate_except_after_a_swap(name: str) -> None:
    # The search works out who played each move of a playout from this rule.
    rng = random.Random(11)
    for _ in range(20):
        game = new_game(name)
        movers = []
        while not game.is_over():
            moves = game.legal_moves()
            move = SWAP if SWAP in moves and rng.random() < 0.5 else rng.choice(moves)
            movers.append(game.turn)
            game.push(move)
        expected = []
        turn = 0
        for move in game.moves:
            expected.append(turn)
            if move != SWAP:
                turn ^= 1
        assert movers == expected


def test_the_tree_is_reused_along_the_line_played(core: str) -> None:
    game = new_game("egotzi", size=5)
    search = Search(game, seed=5)
    search.run(Budget(playouts=3000))
    line = search.candidates(1)[0].pv
    assert len(line) >= 2
    later = game.copy()
    for move in line[:2]:
        later.push(move)
    if core == "python":
        assert not search.follow(later)  # the pure-Python core always starts again
        return
    assert search.follow(later)
    kept = sum(c.visits for c in search.candidates())
    assert kept > 0  # what was found below the two moves is still there
    search.run(Budget(playouts=500))
    assert sum(c.visits for c in search.candidates()) == kept + 500
    assert search.best_move() in later.legal_moves()
    other = new_game("egotzi", size=5)
    other.push(next(m for m in other.legal_moves() if m != line[0]))
    assert not search.follow(other)  # a line the search did not start from


def test_without_reuse_a_search_starts_again(core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABSTRACTS_TUI_WITHOUT", "reuse")
    game = new_game("egotzi", size=5)
    search = Search(game, seed=5)
    search.run(Budget(playouts=300))
    game.push(game.legal_moves()[0])
    assert not search.follow(game)


@pytest.mark.parametrize(("position", "winner"), FORCED_WINS)
def test_the_solver_proves_the_winning_move(position: str, winner: str, core: str) -> None:
    game = load_position(position)
    search = Search(game, seed=1)
    if core == "python":
        search.run(Budget(playouts=200))
        # The pure-Python search proves only the moves that end the game.
        assert search.proven is None
        for c in search.candidates():
            game.push(c.move)
            assert (c.proven is not None) == game.is_over()
            game.undo()
        return
    # A timed search stops once the root is proven: the win is played at once.
    search.run(Budget(seconds=30))
    assert search.seconds < 10
    assert search.proven == "win"
    best = search.candidates()[0]
    assert (game.move_name(best.move), best.proven, best.winrate) == (winner, "win", 1.0)


@pytest.mark.parametrize("core", [CORES[1]], indirect=True)
def test_proven_losses_rank_last(core: str) -> None:
    game = load_position(FORCED_WINS[0].values[0])  # type: ignore[index]
    search = Search(game, seed=2)
    search.run(Budget(playouts=4000))
    verdicts = [c.proven for c in search.candidates()]
    assert verdicts[0] == "win"
    assert "loss" in verdicts
    first_loss = verdicts.index("loss")
    assert all(v == "loss" for v in verdicts[first_loss:])


@pytest.mark.parametrize("core", [CORES[1]], indirect=True)
@pytest.mark.parametrize("threads", [1, 2, 12])
def test_the_tree_stays_within_its_memory_bound(core: str, threads: int) -> None:
    from abstracts_tui.engine.compiled_search import CompiledSearch

    game = new_game("partitions", size=10)
    bound = 3 * 1024 * 1024
    search = CompiledSearch(game, seed=1, threads=threads, max_bytes=bound)
    search.run(Budget(playouts=6000))
    used = search.tree_bytes
    assert used <= bound
    assert used > bound / 2  # it grew until full...
    nodes = search.nodes
    search.run(Budget(playouts=2000))
    assert search.playouts == 8000  # ...and the playouts went on
    assert search.nodes == nodes  # no room for another node's moves
    assert search.tree_bytes <= bound  # (AMAF tables may still fill their own share)


def root_amaf_shortfall(core: str, seed: int) -> list[tuple[str, int, float]]:
    """The root moves of a 300-playout search of Egotzi 5 from the start, on `core` with
    one thread, whose AMAF playouts (those that played the move for the colour to move,
    up to any swap) are fewer than their visits: (move, visits, AMAF playouts)."""
    game = new_game("egotzi", size=5)
    short = []
    if core == "compiled":
        from abstracts_tui.engine.compiled_search import CompiledSearch

        searched = CompiledSearch(game, seed=seed, threads=1)
        searched.run(Budget(playouts=300))
        visits = {row[0]: row[1] for row in searched._searcher.stats()}
        for move, played, _wins in searched._searcher.root_amaf():
            if played < visits[move]:
                short.append((game.move_name(move), visits[move], float(played)))
    else:
        from abstracts_tui.engine.search import PythonSearch

        python = PythonSearch(game, seed)
        python.run(Budget(playouts=300))
        root = python.root
        for i, move in enumerate(root.moves):
            entry = (root.amaf or {}).get(move * 2 + root.turn)
            played = entry[1] if entry else 0.0
            if played < root.visits[i]:
                short.append((game.move_name(move), root.visits[i], played))
    return short


@pytest.mark.parametrize("seed", [14, 89, 115])
def test_a_first_move_played_again_after_the_swap_counts_for_the_root(core: str, seed: int) -> None:
    """Every playout through a root move played it for the colour to move, so the root's
    AMAF statistics of that move count at least its visits. They take the moves up to the
    pie rule's swap; each move was kept at its last ply, and a first move whose point the
    same colour played again after the swap (Egotzi's stones are pushed off the board)
    was dropped: with these seeds some root moves fell short (seed 14: a move of 40 visits
    with 39 AMAF playouts on the Python core, one of 59 with 55 on the compiled one), and
    the test of the threads' batches failed at times."""
    assert root_amaf_shortfall(core, seed) == []


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_searches_with_its_own_bias(name: str) -> None:
    """Petrify's searches let a move's own mean take over from its AMAF mean sooner than
    the other games' (`GAME_BIAS`): with no bias given, a search plays as one given the
    game's, and not as one given another."""
    game = new_game(name, size=GAMES[name].info.sizes[0])
    own = GAME_BIAS.get(name, DEFAULT_BIAS)
    other = DEFAULT_BIAS if name in GAME_BIAS else 1e-3

    def root(bias: float | None) -> list[tuple[str, int]]:
        search = Search(game, seed=5, threads=1, bias=bias)
        search.run(Budget(playouts=1500))
        return [(game.move_name(c.move), c.visits) for c in search.candidates()]

    assert root(None) == root(own)
    assert root(None) != root(other)
