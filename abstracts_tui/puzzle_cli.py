"""`abstracts-tui puzzles`: the shipped puzzles, counted, exported as JSON lines, or
played in line mode."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from .rules.catalogue import CATALOGUE

if TYPE_CHECKING:
    from .puzzles.puzzle import Puzzle


class Refused(click.ClickException):
    """A request this command cannot answer: one sentence, exit status 2."""

    exit_code = 2


def chosen(game: str | None, size: int | None, grade: str | None = None) -> list[Puzzle]:
    """The shipped puzzles of `game` (every game if None) on `size` (every size if
    None) of `grade`; refused in one sentence when the game or size has none."""
    from .puzzles.shipped import load, shipped_sizes

    pairs = shipped_sizes()
    if game is not None:
        name = game.lower()
        if name not in CATALOGUE:
            raise Refused(f"There is no game {game!r}: the games are {', '.join(CATALOGUE)}.")
        info = CATALOGUE[name]
        have = [s for g, s in pairs if g == name]
        if size is not None and size not in info.sizes:
            last = info.sizes.stop - 1
            raise Refused(
                f"{info.title} is played on sizes {info.sizes.start} to {last}, not {size}."
            )
        if not have:
            raise Refused(f"{info.title} has no puzzles yet.")
        if size is not None and size not in have:
            listed = " and ".join(str(s) for s in have)
            raise Refused(f"{info.title} has puzzles of size {listed} only, not {size}.")
        pairs = [(g, s) for g, s in pairs if g == name and size in (None, s)]
    elif size is not None:
        raise Refused("--size needs --game (the sizes are each game's own).")
    found = [puzzle for g, s in pairs for puzzle in load(g, s)]
    if grade is not None:
        found = [puzzle for puzzle in found if puzzle.grade == grade]
    return found


@click.group(invoke_without_command=True)
@click.pass_context
def puzzles(ctx: click.Context) -> None:
    """Puzzles the solver proves: one move alone wins. Alone: how many there are."""
    if ctx.invoked_subcommand is None:
        say_counts()


@puzzles.command("list")
def list_puzzles() -> None:
    """How many puzzles there are for each game and size, by grade."""
    say_counts()


def say_counts() -> None:
    from .puzzles.puzzle import GRADES
    from .puzzles.shipped import counts

    total = 0
    for (game, size), graded in counts().items():
        count = sum(graded.values())
        total += count
        grades = ", ".join(f"{graded[grade]} {grade}" for grade in GRADES)
        click.echo(f"{CATALOGUE[game].title} {size}: {count} puzzles ({grades})")
    click.echo(f"{total} puzzles in all.")


GRADE = click.Choice(["easy", "medium", "hard"], case_sensitive=False)


@puzzles.command()
@click.option("--game", required=True, help="The game, such as petrify.")
@click.option("--size", type=int, help="The board size [default: every size with puzzles].")
@click.option("--grade", type=GRADE, help="Only this grade.")
def export(game: str, size: int | None, grade: str | None) -> None:
    """Print the puzzles one JSON object a line: game, size, options, moves, solution,
    value, depth and grade."""
    for puzzle in chosen(game, size, grade and grade.lower()):
        click.echo(puzzle.to_json())


@puzzles.command()
@click.option("--game", help="The game [default: every game].")
@click.option("--size", type=int, help="The board size [default: every size with puzzles].")
@click.option("--grade", type=GRADE, help="Only this grade.")
@click.option("--lines", is_flag=True, help="Line mode: plain lines, for screen readers.")
@click.pass_context
def play(
    ctx: click.Context, game: str | None, size: int | None, grade: str | None, lines: bool
) -> None:
    """Solve puzzles: play the winning move, the reply is played, until the win is done."""
    found = chosen(game, size, grade and grade.lower())
    if not found:
        raise Refused("There are no puzzles of that grade there.")
    from .tui.plain_terminal import in_terminal

    root = ctx.find_root().params
    if not (lines or root.get("lines")) and not in_terminal():
        click.echo("No terminal to draw on: the puzzles in line mode.", err=True)
        lines = True
    if lines or root.get("lines"):
        from .lines.puzzles import completions, run_puzzles
        from .lines.terminal import Reader, Writer
        from .puzzles.trial import Trial

        trials: list[Trial] = []
        reader = Reader(lambda: completions(trials[-1]) if trials else ())
        run_puzzles(found, Writer(sys.stdout), reader, started=trials.append)
        return
    from .tui.puzzle_app import PuzzleApp

    PuzzleApp(found, ascii=bool(root.get("ascii"))).run()


@puzzles.command()
@click.option(
    "--data",
    type=click.Path(file_okay=False),
    help="The server's folder, as serve --data [default: user data dir].",
)
@click.option(
    "--database",
    metavar="URL",
    envvar="ABSTRACTS_TUI_DATABASE",
    help="The server's postgresql:// URL, as serve --database.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=1, max=600),
    default=20.0,
    show_default=True,
    help="The most seconds spent on one game.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1, max=10_000),
    default=100,
    show_default=True,
    help="The most finished games mined in this run.",
)
def mine(data: str | None, database: str | None, seconds: float, games: int) -> None:
    """Mine the server's finished games (those not mined yet, on boards the solver
    settles) for positions where one move alone wins, kept as the server's puzzles."""
    from pathlib import Path

    from .puzzle_mining import mine_archive
    from .saved_games import data_dir
    from .server.limits import ConfigError
    from .server.ssh.server import open_store
    from .store import STORE_FILE

    folder = Path(data) if data else data_dir() / "server"
    if database is None and not (folder / STORE_FILE).is_file():
        raise Refused(f"There is no server store in {folder}: give serve's --data.")
    try:
        store = open_store(folder, database)
    except ConfigError as error:
        raise Refused(str(error)) from None
    try:
        click.echo(mine_archive(store, seconds=seconds, most_games=games, say=click.echo).said())
    finally:
        store.close()
