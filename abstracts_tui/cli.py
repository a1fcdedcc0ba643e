"""The `abstracts-tui` command."""

from __future__ import annotations

import sys

import click

from . import __version__

GAME_NAMES = ["petrify", "pilo", "egotzi", "linage", "partitions"]


def run_app(
    game: str | None = None,
    size: int | None = None,
    variant: str | None = None,
    komi: str | None = None,
    load: str | None = None,
    first: str = "Player 1",
    second: str = "Player 2",
    ascii: bool = False,
) -> None:
    from .game_setup import Setup
    from .rules import OptionError, game_class
    from .rules.base import parse_komi
    from .tui.app import AbstractsApp

    setup = None
    if game is not None:
        try:
            info = game_class(game).info
            komi_value = None if komi is None else parse_komi(komi, info.komi_step or 0.5)
            info.options(size, variant, komi_value)  # refuse bad options before the screen opens
        except OptionError as error:
            raise click.UsageError(str(error)) from None
        setup = Setup(game, size, variant, komi_value, first, second)
    AbstractsApp(setup, load=load, ascii=ascii).run()


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="abstracts-tui")
@click.option("--ascii", is_flag=True, help="Draw with ASCII characters only.")
@click.pass_context
def main(ctx: click.Context, ascii: bool) -> None:
    """Play and study Petrify, Pilo, Egotzi, Linage and Partitions.

    With no command, opens the game-selection screen (or offers to resume the game in
    progress). NO_COLOR in the environment turns colours off.
    """
    if ctx.invoked_subcommand is None:
        run_app(ascii=ascii)


@main.command()
@click.argument("game", type=click.Choice(GAME_NAMES, case_sensitive=False), required=False)
@click.option(
    "--size", type=int, help="Board size (points per side for Linage, side for Partitions)."
)
@click.option("--variant", help="Egotzi: standard or squared.")
@click.option("--komi", help="Komi agreed beforehand (Linage, Egotzi squared); else asked.")
@click.option("--load", "load", type=click.Path(dir_okay=False), help="Open a game record (SGF).")
@click.option("--first", default="Player 1", show_default=True, help="The first player's name.")
@click.option("--second", default="Player 2", show_default=True, help="The second player's name.")
@click.option("--ascii", is_flag=True, help="Draw with ASCII characters only.")
def play(
    game: str | None,
    size: int | None,
    variant: str | None,
    komi: str | None,
    load: str | None,
    first: str,
    second: str,
    ascii: bool,
) -> None:
    """Start a game of GAME directly, or open a record with --load."""
    if game is None and load is None:
        raise click.UsageError("name a game (e.g. play petrify) or give --load FILE")
    run_app(game, size, variant, komi, load, first, second, ascii)


@main.command()
def engine() -> None:
    """Speak the engine text protocol (GTP framing) on standard input and output.

    Type `list_commands` for the commands, `newgame petrify` to start, `showboard` to see
    the board; `quit` or end of input stops it.
    """
    from .engine.protocol import Engine

    sys.exit(Engine().run(sys.stdin.buffer, sys.stdout))


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
def check(path: str) -> None:
    """Read a game record (SGF), check every move, and print its main line."""
    from .records import Record, RecordError

    try:
        record = Record.load(path)
    except (OSError, RecordError) as error:
        raise click.ClickException(f"{path}: {error}") from None
    game = record.main_game()
    info = game.info
    click.echo(f"{info.title} {record.options.token(info)}")
    for colour, name in zip(info.colours, record.players, strict=True):
        if name:
            click.echo(f"{colour.capitalize()} at the start: {name}")
    click.echo("moves: " + (" ".join(game.move_name(m) for m in game.moves) or "(none)"))
    variations = sum(max(0, len(node.children) - 1) for node in record.root.walk())
    if variations:
        click.echo(f"variations: {variations}")
    click.echo(game.board_text())
    outcome = game.outcome()
    if outcome is None:
        click.echo(f"{game.side_to_move().capitalize()} to move")
    else:
        click.echo(f"result: {game.winner_name()} ({outcome.reason})")
