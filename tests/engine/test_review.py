"""Game review: each move's win rate lost, the biggest mistakes, accuracy, progress and
stop; and `abstracts-tui review FILE.sgf` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from abstracts_tui.engine.core_status import CORE_VARIABLE
from abstracts_tui.engine.review import Reviewer
from abstracts_tui.engine.search import Budget
from abstracts_tui.records import Record
from abstracts_tui.rules import load_position
from tests.engine.compiled_support import CORES

# Black to move; d3 is the only winning move (test_search.py checks it by full search).
FORCED = "egotzi size=5,variant=standard bbbbw/ww.w./www.w/.b.bw/bbbbw black swap=no"


@pytest.fixture(autouse=True, params=CORES)
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(CORE_VARIABLE, request.param)
    return str(request.param)


def blunder_game() -> tuple[object, str]:
    game = load_position(FORCED)
    blunder = next(m for m in game.legal_moves() if game.move_name(m) != "d3")
    game.play(blunder)
    while not game.is_over():
        game.play(game.legal_moves()[0])
    return game, game.move_name(blunder)


def test_the_only_losing_move_is_the_biggest_mistake() -> None:
    game, blunder = blunder_game()
    seen: list[tuple[int, int]] = []
    review = Reviewer(game, Budget(playouts=2000), seed=3).run(
        lambda done, total: seen.append((done, total))
    )
    total = len(game.moves) + 1  # type: ignore[attr-defined]
    assert seen == [(i, total) for i in range(1, total + 1)]
    assert len(review.evaluations) == total
    first = review.moves[0]
    assert (first.name, first.person, first.colour) == (blunder, 0, 0)
    assert first.before > 0.7  # the position is won for Black...
    assert first.loss > 0.5  # ...and the blunder gives it away
    assert first.best == "d3"
    assert review.mistakes(0, 1) == [first]
    assert first.accuracy < 20
    for person in (0, 1):
        accuracy = review.accuracy(person)
        assert accuracy is not None and 0 <= accuracy <= 100


def test_a_stopped_review_keeps_what_it_evaluated() -> None:
    game, _ = blunder_game()
    reviewer = Reviewer(game, Budget(playouts=500), seed=1)

    def progress(done: int, total: int) -> None:
        if done == 2:
            reviewer.stop()

    review = reviewer.run(progress)
    assert len(review.evaluations) == 2
    assert len(review.moves) == 1


def test_a_swap_exchanges_the_people() -> None:
    game = load_position(
        "egotzi size=5,variant=standard ...../...../..b../...../..... white swap=yes"
    )
    for move in ("swap", "b2", "d4"):
        game.play(move)
    review = Reviewer(game, Budget(playouts=200), seed=1).run()
    # swap by the second person (White); then the first person plays White's b2.
    assert [(m.name, m.colour, m.person) for m in review.moves] == [
        ("swap", 1, 1),
        ("b2", 1, 0),
        ("d4", 0, 1),
    ]


# An empty Egotzi 5x5 opened in the centre: the second person's best answer is the pie
# rule's swap (taking the first colour's strong start).
CENTRE_OPENING = "egotzi size=5,variant=standard ...../...../...../...../..... black swap=no"


def centre_opening(second: str) -> object:
    """c3, then `second` (swap or a cell), then two more moves."""
    game = load_position(CENTRE_OPENING)
    for move in ("c3", second, *[m for m in ("b2", "d4", "b4") if m != second][:2]):
        game.play(move)
    return game


def test_a_swap_that_was_best_loses_nothing_and_declining_it_does() -> None:
    swapped = Reviewer(centre_opening("swap"), Budget(playouts=300), seed=1).run()
    swap = swapped.moves[1]
    assert (swap.name, swap.best, swap.person) == ("swap", "swap", 1)
    # The swapper's chances are the first colour's before and after (the board stays).
    assert swap.before > 0.6 and swap.after > 0.5
    assert swap.loss == 0 and swap.accuracy == 100
    assert swap not in swapped.mistakes(1)
    # The first colour leads after the centre, whoever holds it.
    assert swapped.evaluations[1] > 0.6 and swapped.evaluations[2] > 0.5
    declined = Reviewer(centre_opening("b2"), Budget(playouts=300), seed=1).run()
    played_on = declined.moves[1]
    assert (played_on.best, played_on.person) == ("swap", 1)
    assert played_on.loss > 0.3
    assert declined.mistakes(1, 1) == [played_on]


def test_review_command_does_not_call_the_best_swap_a_mistake(tmp_path: Path, core: str) -> None:
    record = Record.from_game(centre_opening("swap"), players=("Ann", "Bob"))  # type: ignore[arg-type]
    path = tmp_path / "swap.sgf"
    record.save(path)
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
    assert lines[3].split() == ["2", "Bob", "swap", "swap", *lines[3].split()[4:6], "0.0%", "0.0"]
    bob = next(line for line in lines if line.startswith("Biggest mistakes of Bob:"))
    assert "swap" not in bob


def reviewed_blunder_game(tmp_path: Path, core: str) -> tuple[object, str, list[str]]:
    """`blunder_game`'s game, its blunder, and the lines `abstracts-tui review` prints of
    its record (on `core`, seeded, 1,500 playouts a position)."""
    game, blunder = blunder_game()
    record = Record.from_game(game, players=("Ann", "Bob"))  # type: ignore[arg-type]
    path = tmp_path / "game.sgf"
    record.save(path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ABSTRACTS_TUI_")}
    env.update({CORE_VARIABLE: core, "ABSTRACTS_TUI_SEED": "2"})
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "review", str(path), "--playouts", "1500"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return game, blunder, done.stdout.splitlines()


def test_review_command_prints_moves_mistakes_and_accuracy(tmp_path: Path, core: str) -> None:
    _, blunder, lines = reviewed_blunder_game(tmp_path, core)
    assert lines[0].startswith("Review of Egotzi size=5,variant=standard:")
    assert "1,500 playouts a position" in lines[0]
    assert lines[2].split()[:4] == ["1", "Ann", blunder, "d3"]
    assert any(line.startswith(f"Biggest mistakes of Ann: 1. {blunder} lost") for line in lines)
    assert lines[-2].startswith("Accuracy of Ann: ")
    assert lines[-1].startswith("Accuracy of Bob: ")


def test_review_command_refuses_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text("(;FF[4]GM[1000]GA[egotzi]SZ[5]\n;B[c3]\n;W[c3])")
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "review", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert str(path) in done.stderr


@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "86401"])
def test_review_command_refuses_seconds_that_would_never_end(tmp_path: Path, seconds: str) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("(;FF[4]GM[1000]GA[egotzi]SZ[5]\n;B[c3])")
    done = subprocess.run(
        [sys.executable, "-m", "abstracts_tui", "review", str(path), "--seconds", seconds],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "is not more than 0 and at most 86400 (a day)" in done.stderr


def test_review_command_marks_proofs_and_prints_no_bare_certainty(
    tmp_path: Path, core: str
) -> None:
    game, _, lines = reviewed_blunder_game(tmp_path, core)
    rows = [line.split() for line in lines[2:] if line.split()[:1] and line.split()[0].isdigit()]
    assert len(rows) == len(game.moves)  # type: ignore[attr-defined]
    # The last move ended the game: what follows it is known, and said so.
    assert rows[-1][5] in ("win", "loss", "draw")
    for row in rows:
        before, after = row[4], row[5]
        assert before not in ("100.0%", "0.0%") and after not in ("100.0%", "0.0%"), row
    assert "proven with best play" in "\n".join(lines)
    if core == "compiled":
        assert rows[0][4] == "win"  # Ann's position was a forced win (d3)
