"""Proofs marked, through the engine protocol as a client reads it: a proven move's line
ends `proven win|loss|draw`, an unproven figure is never 1.000 or 0.000, a move with too
few visits shows `winrate -`, and `search_info` counts the playouts run. Every mark is
checked against an exact negamax over the Python rules (`test_search.solve`)."""

from __future__ import annotations

import random
import re

import pytest

from abstracts_tui.engine.search import Budget, Search
from abstracts_tui.engine.terms import MIN_VISITS_TO_SHOW
from abstracts_tui.rules import GAMES, Game, load_position
from tests.engine.compiled_support import CORES, needs_core
from tests.engine.test_protocol_ai import talk
from tests.engine.test_search import solve, value_after

EGOTZI_QUICK_PROOF = "egotzi size=5,variant=standard .b.bw/b.b.w/bw.w./w.b.w/bbbww white swap=no"
"""White to move and win; the compiled core proves it within a few dozen playouts and
used to leave e3 (a win too) at `visits 2 winrate 0.000`."""
VALUES = {"win": 1.0, "draw": 0.5, "loss": 0.0}
ANALYZE_LINE = re.compile(
    r"move (\S+) visits (\d+) winrate (\d\.\d{3}|-) score (?:[+-]\d+\.\d|-) pv (\S+(?: \S+)*?)"
    r"(?: proven (win|loss|draw))?"
)
"""An `analyze` line as the protocol documents it."""


@pytest.fixture(params=CORES)
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs on both search cores (the engine subprocess inherits the choice)."""
    monkeypatch.setenv("ABSTRACTS_TUI_CORE", request.param)
    return str(request.param)


def read_analysis(text: str) -> dict[str, tuple[int, str, str | None]]:
    """An `analyze` answer: move -> (visits, winrate as printed, proof or None)."""
    found = {}
    for line in text.split("\n"):
        match = ANALYZE_LINE.fullmatch(line)
        assert match, line
        move, visits, winrate, _, proof = match.groups()
        found[move] = (int(visits), winrate, proof)
    return found


def read_info(text: str) -> dict[str, str]:
    words = text.split()
    return dict(zip(words[::2], words[1::2], strict=True))


def check_lines(game: Game, found: dict[str, tuple[int, str, str | None]]) -> int:
    """Assert what each line says of `game` holds; returns the proofs checked."""
    proofs = 0
    for move, (visits, winrate, proof) in found.items():
        if proof is not None:
            exact = value_after(game, game.parse_move(move))
            assert VALUES[proof] == exact, (game.position(), move, proof, exact)
            assert winrate == f"{exact:.3f}"
            proofs += 1
        elif visits < MIN_VISITS_TO_SHOW:
            assert winrate == "-", (move, visits, winrate)
        else:
            assert 0.001 <= float(winrate) <= 0.999, (move, visits, winrate)
    return proofs


def test_the_quick_proof_marks_its_proofs_and_no_bare_one_or_zero(core: str) -> None:
    answers, _ = talk(
        [f"setposition {EGOTZI_QUICK_PROOF}", "analyze", "search_info"],
        seed="7",
        playouts="20000",
    )
    assert all(a.ok for a in answers)
    found = read_analysis(answers[1].text)
    game = load_position(EGOTZI_QUICK_PROOF)
    assert value_after(game, game.parse_move("e3")) == 1.0
    _, winrate, proof = found["e3"]
    assert proof in (None, "win")
    assert winrate != "0.000"
    check_lines(game, found)
    if core == "compiled":
        assert found["c3"][2] == "win"
        assert read_info(answers[2].text)["proven"] == "win"


def playouts_until_proven(game: Game, seed: int) -> tuple[int, int]:
    """One compiled search of `game` (one thread), a walk at a time until its root is
    proven: (the walks by then, the playouts it says it ran by then)."""
    search = Search(game, seed, core="compiled", threads=1)
    while search.proven is None:
        assert search.playouts < 20000
        search.run(Budget(playouts=1))
    return search.playouts, search.playouts_run


@pytest.mark.parametrize("core", [CORES[0]], indirect=True)
def test_search_info_counts_every_playout_of_the_python_core(core: str) -> None:
    answers, _ = talk(
        [f"setposition {EGOTZI_QUICK_PROOF}", "analyze", "search_info"],
        seed="7",
        playouts="20000",
    )
    visits = sum(v for v, _, _ in read_analysis(answers[1].text).values())
    assert visits == 20000 == int(read_info(answers[2].text)["playouts"])


@needs_core
@pytest.mark.parametrize("core", [CORES[1]], indirect=True)
def test_search_info_counts_no_playout_after_the_root_is_proven(core: str) -> None:
    walks, run = playouts_until_proven(load_position(EGOTZI_QUICK_PROOF), seed=7)
    assert run <= walks < 200
    answers, _ = talk(
        [f"setposition {EGOTZI_QUICK_PROOF}", "analyze", "search_info"],
        seed="7",
        playouts="20000",
    )
    info = read_info(answers[2].text)
    # The 20,000 walks went on after the proof, each answered by it: no playout.
    assert sum(v for v, _, _ in read_analysis(answers[1].text).values()) == 20000
    assert int(info["playouts"]) == run


def small_positions(per_game: int, seed: int) -> list[Game]:
    """Positions of every game at its smallest size, by random play from the start until
    few moves are left (fewer in the games whose moves branch more), not over."""
    rng = random.Random(seed)
    found = []
    for name, cls in GAMES.items():
        most = 4 if name in ("petrify", "pilo") else 7
        while sum(g.info.name == name for g in found) < per_game:
            game = cls.new(cls.info.sizes.start)
            while not game.is_over() and not (
                len(game.moves) > 4 and len(game.legal_moves()) <= most
            ):
                game.play(rng.choice(game.legal_moves()))
            if not game.is_over():
                found.append(load_position(game.position()))
    return found


def test_every_proof_mark_holds_against_an_exact_solver(core: str) -> None:
    games = small_positions(per_game=6, seed=45)
    lines = []
    for game in games:
        lines += [f"setposition {game.position()}", "analyze", "search_info"]
    answers, _ = talk(lines, seed="1", playouts="3000", timeout=240)
    assert all(a.ok for a in answers)
    proofs = roots = 0
    for at, game in enumerate(games):
        proofs += check_lines(game, read_analysis(answers[at * 3 + 1].text))
        proven = read_info(answers[at * 3 + 2].text)["proven"]
        if proven != "none":
            assert VALUES[proven] == solve(game), game.position()
            roots += 1
    # The compiled core proves most of these positions (the pure-Python core proves only
    # moves that end the game, which these positions seldom have).
    if core == "compiled":
        assert proofs >= 60
        assert roots >= 20


def test_a_move_that_ends_the_game_is_proven_on_both_cores(core: str) -> None:
    position = "linage size=5,komi=0 ..xxx/x...x/xx.xx/...../xx.xx vertical passes=1"
    game = load_position(position)  # a pass ends it: a draw (see test_search.py)
    search = Search(game, seed=3)
    search.run(Budget(playouts=2000))
    marks = {game.move_name(c.move): c.proven for c in search.candidates()}
    assert marks["pass"] == "draw"
    assert search.proven == ("win" if core == "compiled" else None)  # d4 wins (no end)
