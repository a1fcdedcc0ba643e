"""The computer's searches without an app: `Searcher` starts a job on a thread of its own,
hands its result to a callback, and never delivers a job cancelled (a side taken over, an
undo, a new game) or a result for a position the game has left."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from abstracts_tui.chances import Hint
from abstracts_tui.engine.levels import budget_for
from abstracts_tui.engine.terms import Budget
from abstracts_tui.game_setup import Setup
from abstracts_tui.play.searching import HINT_BUDGET, Job, Kind, Searcher, spawn_thread
from abstracts_tui.session import Phase, Session

WAIT = 60.0
"""The longest a search of a few playouts may take on a loaded machine (a bound for a
hang, not a measure)."""


class Held:
    """A spawn that holds each job's thread until `release`: the test decides when a
    search ends, relative to a cancel or a move."""

    def __init__(self) -> None:
        self.runs: list[Callable[[], None]] = []

    def __call__(self, run: Callable[[], None], kind: Kind) -> None:
        self.runs.append(run)

    def release(self) -> None:
        for run in self.runs:
            spawn_thread(run, Kind.HINT)
        self.runs.clear()


def computer_game(phase: str = "play") -> Session:
    if phase == "komi":
        setup = Setup("linage", 5, first="Computer", second="Ann", first_level="easy")
    else:
        setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="easy")
    return Session.start(setup)


def searcher(session: Session, **more: Any) -> tuple[Searcher, list[tuple[Job, Any]]]:
    told: list[tuple[Job, Any]] = []
    return Searcher(session, lambda job, result: told.append((job, result)), **more), told


def finished(job: Job) -> Job:
    assert job.finished.wait(WAIT), "the search did not end"
    return job


def test_the_computer_s_move_is_delivered_once_and_is_legal() -> None:
    session = computer_game()
    session.play("a1")
    search, told = searcher(session, seed=1, playouts=200)
    job = search.computer_turn("easy")
    assert search.busy(Kind.TURN)
    move = search.wait(job)
    assert move in session.game.legal_moves()
    assert told == [(job, move)]
    assert not search.busy(Kind.TURN)


def test_komi_and_a_side_are_the_computer_s_decisions_in_their_phases() -> None:
    session = computer_game("komi")
    search, _ = searcher(session, seed=1, playouts=50)
    komi = search.wait(search.computer_turn("easy"))  # the game waits for komi first
    assert isinstance(komi, float)
    session.set_komi(komi)
    assert session.phase is Phase.SIDE
    side = search.wait(search.computer_turn("easy"))
    assert side in (0, 1)


def test_a_hint_is_the_best_move_and_how_many_it_was_the_best_of() -> None:
    session = computer_game()
    search, _ = searcher(session, seed=1, playouts=300)
    found = search.wait(search.analyse(Kind.HINT))
    assert len(found) == 1 and isinstance(found[0], Hint)
    assert found[0].move in session.game.legal_moves()
    assert found[0].tried > 1


def test_a_cancelled_search_stops_and_is_never_delivered() -> None:
    session = computer_game()
    search, told = searcher(session, seed=1)
    job = search.analyse(Kind.ANALYSIS, Budget(seconds=600))
    search.cancel(Kind.ANALYSIS)
    assert not search.busy(Kind.ANALYSIS)
    assert finished(job).cancelled
    assert told == []
    assert search.wait(job) is None


def test_a_result_that_ends_after_its_cancel_is_dropped() -> None:
    """The search finished its work, but was cancelled (an undo) before its thread said so."""
    held = Held()
    session = computer_game()
    session.play("a1")
    search, told = searcher(session, seed=1, playouts=100, spawn=held)
    job = search.computer_turn("easy")
    search.cancel(Kind.TURN)  # the computer's side taken over
    held.release()
    assert finished(job).result in session.game.legal_moves()
    assert told == []
    assert search.wait(job) is None


def test_a_new_job_of_a_kind_replaces_the_one_under_way() -> None:
    held = Held()
    session = computer_game()
    search, told = searcher(session, seed=1, playouts=100, spawn=held)
    first = search.analyse(Kind.HINT)
    second = search.analyse(Kind.HINT)
    held.release()
    assert first.cancelled and search.wait(first) is None
    assert search.wait(second) and [done for done, _ in told] == [second]


def test_a_result_for_a_position_left_is_not_taken() -> None:
    """A hint that arrives after a move was made answers a position no longer shown."""
    session = computer_game()
    search, _ = searcher(session, seed=1, playouts=100)
    job = finished(search.analyse(Kind.HINT))
    session.play("a1")
    assert not search.take(job)
    assert search.search(Kind.HINT) is None  # its figures are of another position


def test_a_hurried_search_is_delivered_with_what_it_found() -> None:
    session = computer_game()
    session.play("a1")
    search, told = searcher(session, seed=1)
    job = search.analyse(Kind.ANALYSIS, Budget(seconds=600))
    assert search.hurry(Kind.ANALYSIS)
    found = search.wait(job)
    assert found is not None and [done for done, _ in told] == [job]
    assert not search.hurry(Kind.ANALYSIS)  # nothing runs now


def test_the_budget_of_each_kind_is_decided_in_one_place() -> None:
    session = computer_game()
    search = Searcher(session)
    assert search.budget(Kind.TURN, "easy") == budget_for("easy")
    assert search.budget(Kind.HINT) == HINT_BUDGET
    fixed = Searcher(session, playouts=42)
    assert {fixed.budget(kind, "easy") for kind in Kind} == {Budget(playouts=42)}


def test_the_computer_s_turn_is_cut_to_its_running_clock() -> None:
    setup = Setup("partitions", 5, first="Ann", second="Computer", second_level="hard", clock="10s")
    session = Session.start(setup)
    session.play("a1")  # the computer's clock runs
    budget = Searcher(session).budget(Kind.TURN, "hard")
    assert budget.seconds is not None and budget.seconds < 10
