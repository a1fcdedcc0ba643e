"""Rated puzzles on the server through OpenSSH: in line mode's lobby (`ssh -tt host
lines`, then `puzzle linage`) a player solves a puzzle and their puzzle rating rises as
Glicko-2 computes it, fails the next one and it falls; `puzzles` in the lobby and
`ssh -T host puzzles linage` say the rating kept."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from abstracts_tui.puzzles.puzzle import Puzzle
from abstracts_tui.puzzles.rated import first_rating
from abstracts_tui.puzzles.shipped import load
from abstracts_tui.puzzles.trial import Trial
from abstracts_tui.ratings import Rating, after_game
from abstracts_tui.rules.catalogue import CATALOGUE
from abstracts_tui.words import board_words
from tests.lines.terminal import LineTerminal
from tests.openssh import SSH, needs_ssh
from tests.ssh.conftest import RunningServer
from tests.ssh.test_line_rooms import lines_of

pytestmark = needs_ssh


def offered(term: LineTerminal) -> Puzzle:
    """The shipped Linage puzzle the player is offered, known by the board and the last
    move said."""
    heading = term.wait_for("A puzzle rated")
    last = term.wait_for("Last move:")
    lines = term.lines()
    said = lines[lines.index(heading) + 1 : lines.index(last) + 1]
    for puzzle in load("linage", 5):
        game = Trial(puzzle).game
        before = game.copy()
        move = before.undo()
        if said == [*board_words(game), f"Last move: {before.move_name(move)}."]:
            assert heading.endswith(f"{Trial(puzzle).task()} Type help for the commands.")
            return puzzle
    raise AssertionError(f"no shipped puzzle is {said}")


def test_solving_raises_failing_lowers_the_puzzle_rating_kept(
    start_server: Callable[..., RunningServer], tmp_path: Path
) -> None:
    server: RunningServer = start_server()
    ann = lines_of(server, "ann", tmp_path)
    ann.wait_for("Type new and a game")
    ann.send("puzzles")
    assert ann.wait_for("You have no puzzle rating") == (
        "You have no puzzle rating yet: puzzle GAME offers rated puzzles of GAME."
    )
    ann.send("puzzle linage")
    first = offered(ann)
    # The winner's moves of the line, each answered, the last one solves it.
    solution = first.solution
    for step in range(0, len(solution) - 1, 2):
        ann.send(solution[step])
        assert ann.wait_for("Right.").startswith("Right. ")
    ann.send(solution[-1])
    raised, _ = after_game(Rating(), first_rating(first), 1.0)
    assert ann.wait_for("Right. Solved.") == (
        f"Right. Solved. Puzzle rating 1500 -> {round(raised.value)}. "
        "Type next for the next puzzle, or lobby."
    )
    assert raised.value > 1500

    # The next one, never the one solved: a legal move other than the only winning one
    # loses the try, and the rating falls from where the solve left it.
    ann.send("next")
    second = offered(ann)
    assert second != first
    game = Trial(second).game
    wrong = next(
        name
        for name in (game.move_name(move) for move in game.legal_moves())
        if name != second.solution[0]
    )
    ann.send(wrong)
    lowered, _ = after_game(raised, first_rating(second), 0.0)
    line = ann.wait_for(f"{wrong} ")
    assert line.endswith(
        f"Try again, or type show. The try is lost. Puzzle rating {round(raised.value)} -> "
        f"{round(lowered.value)}."
    )
    assert lowered.value < raised.value
    ann.send("lobby")
    ann.wait_for("Back in the lobby")
    ann.send("puzzles")
    assert ann.wait_for("Your puzzle ratings") == (
        f"Your puzzle ratings: Linage {lowered.text()} (2 tries)."
    )
    ann.send("quit")
    ann.close()

    done = subprocess.run(
        [*SSH, "-p", str(server.port), "ann@127.0.0.1", "-T", "puzzles", "linage"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "game\tpuzzle rating\tdeviation\ttries",
        f"linage\t{lowered.text()}\t{round(lowered.deviation)}\t2",
    ]
    refused = subprocess.run(
        [*SSH, "-p", str(server.port), "ann@127.0.0.1", "-T", "puzzles", "chess"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert "there is no game chess" in refused.stderr


def test_the_full_screen_lobby_rates_a_puzzle_solved(
    start_server: Callable[..., RunningServer], tmp_path: Path
) -> None:
    """Ann has solved every Linage puzzle but one (kept in the store before the server
    starts): `p` in the lobby, Linage, and that one is offered; she finds its line on the
    puzzle screen and the status line says her rating's change."""
    import asyncio

    from abstracts_tui.puzzles.rated import puzzle_key
    from abstracts_tui.store import SqliteStore
    from abstracts_tui.store.puzzle_book import add_shipped, keep_try
    from tests.ssh.client import connect

    linage = load("linage", 5)
    left = next(p for p in linage if p.solution == ("a4", "d1", "c2", "d2", "e2"))
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "server.db")
    add_shipped(store, linage)
    before = Rating()
    for puzzle in linage:
        if puzzle != left:
            before = keep_try(store, "ann", puzzle_key(puzzle), won=True).after
    store.close()
    server: RunningServer = start_server(data=data)
    raised, _ = after_game(before, first_rating(left), 1.0)

    async def solve() -> None:
        conn, screen = await connect(server.port, "ann", width=120, height=40)
        await screen.wait_for("you are ann", "p Puzzles")
        screen.send("p")
        await screen.wait_for("Rated puzzles: choose a game", "Linage")
        games = [info.title for info in CATALOGUE.values()]
        screen.send("\x1b[B" * games.index("Linage") + "\r")  # down to Linage, Enter
        rating = round(before.value)
        await screen.wait_for(
            f"A puzzle rated {first_rating(left).text()}; your puzzle rating {rating}",
            "Linage 5, medium: the win takes 3 moves of Horizontal",
        )
        for move in ("a4", "c2"):
            screen.send(move + "\r")
            await screen.wait_for("your move.")
        screen.send("e2\r")
        await screen.wait_for(
            f"Right. Solved. Puzzle rating {round(before.value)} -> {round(raised.value)}."
        )
        screen.send("\x1b[17~")  # F6: none is left
        await screen.wait_for("You have solved every puzzle of Linage here.")
        conn.close()

    asyncio.run(solve())
    done = subprocess.run(
        [*SSH, "-p", str(server.port), "ann@127.0.0.1", "-T", "puzzles"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.splitlines()[1] == (
        f"linage\t{raised.text()}\t{round(raised.deviation)}\t{len(linage)}"
    )
