"""The `abstracts-tui` command."""

from __future__ import annotations

import sys

import click

from . import __version__


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="abstracts-tui")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Play and study Petrify, Pilo, Egotzi, Linage and Partitions."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


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
