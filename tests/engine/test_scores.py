"""The expected score beside every win rate: each root move's and the position's mean
final margin (komi included) for the side to move, on both search cores. A finished
position scores its final margin; where every way to finish gives one margin the score is
that margin; elsewhere it lies within the margins that can be reached; a swap is worth
the margin that playing on gives away; and the compiled core counts every playout it
runs, over every thread."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from abstracts_tui.engine.compiled_search import CompiledSearch
from abstracts_tui.engine.core_status import CORE_VARIABLE
from abstracts_tui.engine.protocol import score_text
from abstracts_tui.engine.review import Reviewer
from abstracts_tui.engine.search import Budget, Search
from abstracts_tui.engine.terms import first_margin
from abstracts_tui.records import Record
from abstracts_tui.rules import GAMES, SWAP, Game, new_game
from tests.engine.compiled_support import CORES
from tests.engine.test_protocol_ai import talk

SETUPS = [
    ("linage", 5, None, 0.5),
    ("petrify", 6, None, None),
    ("pilo", 6, None, None),
    ("egotzi", 5, "squared", 4.0),
    ("egotzi", 5, "standard", None),
    ("partitions", 5, None, None),
]
"""Small boards of every game, with komi where a game takes it (Linage's a half point)."""
SPAN_LIMIT = 2000
"""The most positions `span` walks through before it gives up."""


@pytest.fixture(autouse=True, params=CORES)
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs on both search cores."""
    monkeypatch.setenv(CORE_VARIABLE, request.param)
    return str(request.param)


class TooMany(Exception):
    """More positions than `SPAN_LIMIT` to walk through."""


def span(game: Game, turn: int, limit: int = SPAN_LIMIT) -> tuple[float, float]:
    """The least and the most final margin for `turn` over every way to finish `game`
    (which it leaves as it was); `TooMany` past `limit` positions."""
    left = [limit]

    def walk() -> tuple[float, float]:
        left[0] -= 1
        if left[0] < 0:
            raise TooMany
        if game.is_over():
            margin = first_margin(game) * (1 if turn == 0 else -1)
            return margin, margin
        low, high = float("inf"), float("-inf")
        for move in game.legal_moves():
            game.push(move)
            try:
                below = walk()
            finally:
                game.undo()
            low, high = min(low, below[0]), max(high, below[1])
        return low, high

    return walk()


def near_endings() -> Iterator[tuple[Game, tuple[float, float]]]:
    """Positions a few moves from the end of random games of every setup, each with the
    span of the final margins that can follow for the side to move."""
    for name, size, variant, komi in SETUPS:
        for seed in range(4):
            game = GAMES[name].new(size, variant, komi)
            game.playout(random.Random(seed))
            for _ in range(5):
                game.undo()
                try:
                    found = span(game, game.turn)
                except TooMany:
                    continue
                yield game.copy(), found


ENDINGS = list(near_endings())
SETTLED = [(game, low) for game, (low, high) in ENDINGS if low == high]
"""Positions where every way to finish gives the same margin."""
OPEN = [game for game, (low, high) in ENDINGS if low < high and len(game.legal_moves()) > 1]
"""Positions whose margin depends on the moves to come."""


def searched(game: Game, core: str, seed: int = 1) -> Search:
    search = Search(game, seed)
    search.run(Budget(playouts=400 if core == "compiled" else 150))
    return search


def test_the_positions_cover_every_game() -> None:
    for kinds in ([g for g, _ in SETTLED], OPEN):
        assert {g.info.name for g in kinds} == set(GAMES)


@pytest.mark.parametrize(("name", "size", "variant", "komi"), SETUPS)
def test_a_finished_game_scores_its_final_margin(
    name: str, size: int, variant: str | None, komi: float | None
) -> None:
    for seed in range(3):
        game = GAMES[name].new(size, variant, komi)
        game.playout(random.Random(seed))
        search = Search(game, seed)
        search.run(Budget(playouts=10))
        first, second = game.score().points
        mover = (first - second) if game.turn == 0 else (second - first)
        assert search.score() == mover
        assert search.candidates() == []


def test_where_every_ending_has_one_margin_every_score_is_that_margin(core: str) -> None:
    for game, margin in SETTLED:
        search = searched(game, core)
        assert search.score() == margin, game.position()
        for found in search.candidates():
            assert found.score == margin, (game.position(), game.move_name(found.move))


def test_every_score_lies_within_the_margins_that_can_be_reached(core: str) -> None:
    for game in OPEN:
        search = searched(game, core)
        low, high = span(game, game.turn)
        score = search.score()
        assert score is not None and low <= score <= high, (game.position(), score)
        turn = game.turn
        for found in search.candidates():
            game.push(found.move)
            try:
                low, high = span(game, turn)
            finally:
                game.undo()
            assert found.score is not None
            assert low <= found.score <= high, (game.position(), game.move_name(found.move))


@pytest.mark.parametrize("first", ["c3", "a1"])
def test_a_swap_scores_what_playing_on_gives_away(core: str, first: str) -> None:
    """After a swap the person who swapped plays the other colour: the swap's score is
    theirs, the margin that colour's opponent gets by playing on, with the sign turned.
    Egotzi's first move leads by about a point and a half in the centre, one in a corner."""
    game = new_game("egotzi", size=5)
    game.play(first)
    playouts = 20000 if core == "compiled" else 4000
    search = Search(game, seed=5)
    search.run(Budget(playouts=playouts))
    swap = next(c for c in search.candidates() if c.move == SWAP)
    swapped = game.copy()
    swapped.play("swap")
    after = Search(swapped, seed=5)
    after.run(Budget(playouts=playouts))
    playing_on = after.candidates(1)[0].score
    assert swap.score is not None and playing_on is not None
    assert swap.score > 0.5 and playing_on < -0.5
    assert abs(swap.score + playing_on) < 0.4, (swap.score, playing_on)


@pytest.mark.parametrize("core", [CORES[1]], indirect=True)
@pytest.mark.parametrize("threads", [1, 4])
def test_the_compiled_core_scores_every_playout_it_runs(core: str, threads: int) -> None:
    """Each walk that ran a playout (or reached the end of the game) adds its margin to
    its root move's, in every thread; a walk a proof answered adds none."""
    for name, size, variant, komi in SETUPS:
        game = GAMES[name].new(size, variant, komi)
        search = CompiledSearch(game, seed=3, threads=threads)
        search.run(Budget(playouts=3000))
        counted = sum(n for _, n in search._searcher.scores())
        assert counted == search.playouts_run, name
        for found in search.candidates():
            assert found.score is not None


@pytest.mark.parametrize("core", [CORES[1]], indirect=True)
def test_the_compiled_core_scores_again_once_its_root_moves(core: str) -> None:
    """Only the root's moves keep margins: after tree reuse they count from then on."""
    game = new_game("partitions", size=5)
    search = CompiledSearch(game, seed=3)
    search.run(Budget(playouts=2000))
    game.play(game.legal_moves()[0])
    assert search.follow(game)
    assert search.score() is None
    before = search.playouts_run
    search.run(Budget(playouts=500))
    counted = sum(n for _, n in search._searcher.scores())
    assert counted == search.playouts_run - before
    assert search.score() is not None


ANALYZE_SCORE = re.compile(
    r"move (\S+) visits (\d+) winrate (\d\.\d{3}|-) score ([+-]\d+\.\d|-) pv \S+(?: \S+)*?"
    r"(?: proven (win|loss|draw))?"
)
"""An `analyze` line as docs/engine.md gives it, with the expected score."""


def test_analyze_gives_every_move_its_score(core: str) -> None:
    game, margin = next((g, m) for g, m in SETTLED if len(g.legal_moves()) > 1 and m)
    answers, _ = talk([f"setposition {game.position()}", "analyze"], playouts="300")
    assert all(answer.ok for answer in answers)
    lines = answers[1].text.split("\n")
    assert len(lines) == len(game.legal_moves())
    for line in lines:
        found = ANALYZE_SCORE.fullmatch(line)
        assert found, line
        _, _, winrate, score, proof = found.groups()
        if winrate == "-":
            assert score == "-", line
        elif proof is not None:  # a proof may have ended the playouts early
            assert score in ("-", score_text(margin)), line
        else:
            assert score == score_text(margin), line
    if core == "python":  # the compiled core's solver proves these within a few playouts
        assert all(f"score {score_text(margin)} " in line for line in lines)
    assert score_text(margin) in (f"+{abs(margin):.1f}", f"-{abs(margin):.1f}")


def test_analyze_scores_an_opening_for_the_side_to_move(core: str) -> None:
    answers, _ = talk(["newgame egotzi size=5", "play c3", "analyze"], playouts="3000")
    lines = answers[2].text.split("\n")
    first = ANALYZE_SCORE.fullmatch(lines[0])
    assert first, lines[0]
    move, _, winrate, score, _ = first.groups()
    # White swaps, taking Black's centre stone: a lead of about a point and a half.
    assert move == "swap"
    assert float(winrate) > 0.55 and float(score) > 0.5, lines[0]
    for line in lines:
        found = ANALYZE_SCORE.fullmatch(line)
        assert found, line
        winrate, score = found.group(3), found.group(4)
        assert (winrate == "-") == (score == "-"), line


def random_game(seed: int) -> Game:
    """A random game of Egotzi 5 with komi, played to its end."""
    game = new_game("egotzi", size=5, variant="squared", komi=4)
    game.playout(random.Random(seed))
    return game


def test_the_review_gives_each_move_the_points_it_lost(core: str) -> None:
    game = random_game(2)
    playouts = 1500 if core == "compiled" else 200
    review = Reviewer(game, Budget(playouts=playouts), seed=1).run()
    assert len(review.scores) == len(review.evaluations) == len(game.moves) + 1
    first, second = game.score().points
    assert review.scores[-1] == first - second  # the end: the count itself
    last = review.moves[-1]
    assert last.score_after == (first - second if last.colour == 0 else second - first)
    lost = [m.score_loss for m in review.moves]
    assert all(x is None or x >= 0 for x in lost)
    assert all(m.score_loss in (0.0, None) for m in review.moves if m.name == m.best)
    assert sum(x is not None for x in lost) > len(lost) // 2
    assert max(x for x in lost if x is not None) > 1  # random moves give points away


def test_the_review_command_prints_the_points_lost(tmp_path: Path, core: str) -> None:
    path = tmp_path / "game.sgf"
    Record.from_game(random_game(2), players=("Ann", "Bob")).save(path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ABSTRACTS_TUI_")}
    env.update({CORE_VARIABLE: core, "ABSTRACTS_TUI_SEED": "1"})
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "review", str(path), "--playouts", "300"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].split()[-2:] == ["lost", "points"]
    rows = [line.split() for line in lines[2:] if line.split()[:1] and line.split()[0].isdigit()]
    assert len(rows) == 25
    for row in rows:
        assert row[-1] == "-" or float(row[-1]) >= 0, row
    mistakes = next(line for line in lines if line.startswith("Biggest mistakes of Ann: "))
    assert re.search(r"lost \d+\.\d%, \d+\.\d points \(best ", mistakes), mistakes
