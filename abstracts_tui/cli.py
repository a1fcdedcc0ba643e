"""The `abstracts-tui` command."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NamedTuple

import click

from . import __version__
from .engine.core_status import describe, missing_notice
from .engine.levels import DEFAULT_LEVEL, LEVELS
from .extras import missing_extra
from .pace import MAX_PACE, PACE_VARIABLE, WATCHING_PACE
from .server.web.limits import MAX_VISITORS, PAGES_PER_ADDRESS

if TYPE_CHECKING:
    from .clock import TimeControl
    from .game_setup import Setup
    from .records import Record, RecordNode
    from .server.ssh.server import Server
    from .server.web.rooms import WebRooms
    from .tui.settings import Settings

GAME_NAMES = ["petrify", "pilo", "egotzi", "linage", "partitions"]
LOG_LEVELS = ["debug", "info", "warning", "error"]


class Refusal(click.ClickException):
    """A command that cannot run as asked: one sentence, exit status 2 (no usage text: the
    command line was not wrong, something it asks for is missing or refused)."""

    exit_code = 2


def read_record(path: str, *, faults: bool = True) -> Record:
    """The record at `path`; a file that cannot be opened refused in one sentence (exit
    status 2, as line mode says it); with `faults`, a record with a fault named with its
    line (status 1), else its `RecordError` raised."""
    from .files import describe
    from .records import Record, RecordError

    try:
        return Record.load(path)
    except OSError as error:
        raise Refusal(f"{path} could not be opened: {describe(error)}.") from None
    except RecordError as error:
        if not faults:
            raise
        raise click.ClickException(f"{path}: {error}") from None


def log_to_stderr(level: str) -> None:
    """The servers' log (theirs, their store's and their writers') on standard error: the
    real one, since the apps swap sys.stderr while they run."""
    import logging

    from .printable import LogLine

    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(LogLine("%(asctime)s %(message)s", "%Y-%m-%d %H:%M:%S"))
    logger = logging.getLogger("abstracts_tui")
    logger.addHandler(handler)
    logger.setLevel(level.upper())


log_level_option = click.option(
    "--log-level",
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    default="info",
    show_default=True,
    help="The least important messages logged: debug, info, warning or error.",
)


NO_TERMINAL = (
    "abstracts-tui needs a terminal to show its screen (standard input or error is not one "
    "here): run it in a terminal, or use `--lines` to play by lines of text, "
    "`abstracts-tui engine` to play from a program and "
    "`abstracts-tui check FILE` or `abstracts-tui review FILE` to read a record."
)


def run_app(
    game: str | None = None,
    size: int | None = None,
    variant: str | None = None,
    komi: str | None = None,
    load: str | None = None,
    first: str = "Player 1",
    second: str = "Player 2",
    ascii: bool = False,
    computer: str | None = None,
    level: str | None = None,
    clock: str | None = None,
    lines: bool | None = None,
) -> None:
    """The app, or line mode with `lines` (None: as the settings say)."""
    from .clock import ClockSpecError, TimeControl
    from .rules import OptionError, game_class, shown
    from .rules.catalogue import parse_komi

    komi_value = None
    control = None
    if game is not None:
        try:
            info = game_class(game).info
            komi_value = None if komi is None else parse_komi(komi, info.komi_step or 0.5)
            info.options(size, variant, komi_value)  # refuse bad options before the screen opens
            control = TimeControl.parse(clock) if clock is not None else None
        except ClockSpecError as error:
            raise click.UsageError(f"--clock {shown(clock or '')}: {error}") from None
        except OptionError as error:
            raise click.UsageError(str(error)) from None
    options = SetupOptions(game, size, variant, komi_value, first, second, computer, level, control)
    if lines:  # plain lines on standard input and output: no terminal needed
        sys.exit(run_lines(options, load))
    from .tui.plain_terminal import ascii_reason, dumb_reason, in_terminal, started_with

    dumb = dumb_reason(os.environ)
    if dumb is not None:  # TERM=dumb cannot place the cursor: no full screen to draw
        click.echo(dumb, err=True)
        sys.exit(run_lines(options, load))
    if load is not None:  # a record that cannot be read stops here, before the screen opens
        from .records import RecordError

        try:
            read_record(load, faults=False)
        except RecordError as error:
            raise Refusal(f"{load} is not a game record this program can read: {error}.") from None
    if not in_terminal():  # Textual would wait for ever for keys that never come
        click.echo(NO_TERMINAL, err=True)
        sys.exit(2)

    from .tui.settings import load_settings

    settings = load_settings()
    if lines is None and settings.lines:  # the settings ask for line mode at every start
        sys.exit(run_lines(options, load, settings))

    # A closed terminal or a kill from here on ends the app as ctrl+q does (tui/hangup.py);
    # before the slow imports, so that one during the start is handled too.
    from .tui.hangup import Hangup

    hangup = Hangup()
    hangup.install()

    from .tui.factory import build_app

    setup = options.setup(level or settings.level)
    plain = None if ascii or settings.ascii else ascii_reason(started_with())
    app = build_app(
        setup, load=load, ascii=ascii or plain is not None, settings=settings, hangup=hangup
    )
    if plain is not None:  # said once, over the first screen
        app.notify(plain, timeout=15, markup=False)
    app.run()
    if app.return_code:  # the app failed (Textual has printed why): say so to the shell
        sys.exit(app.return_code)


class SetupOptions(NamedTuple):
    """The game the command line asks for, as it gives it."""

    game: str | None
    size: int | None
    variant: str | None
    komi: float | None
    first: str
    second: str
    computer: str | None
    level: str | None
    """None: the settings' level."""
    control: TimeControl | None

    def setup(self, level: str) -> Setup | None:
        """The game to start, the computer's seats at `level` (None: no game named)."""
        from .game_setup import Setup, seat_names

        if self.game is None:
            return None
        computer = self.computer
        levels = (
            level if computer in ("first", "both") else None,
            level if computer in ("second", "both") else None,
        )
        names = seat_names((self.first, self.second), levels)
        spec = self.control.spec if self.control is not None else None
        return Setup(self.game, self.size, self.variant, self.komi, *names, *levels, spec)


def run_lines(options: SetupOptions, load: str | None, settings: Settings | None = None) -> int:
    """Line mode (`--lines`, or the settings' `lines`): the exit status."""
    from .lines.terminal import run_lines as play_lines
    from .saved_games import data_dir
    from .tui.settings import load_settings

    settings = settings or load_settings()
    for problem in settings.problems:
        click.echo(f"Settings: {problem}", err=True)
    level = options.level or settings.level
    return play_lines(options.setup(level), load, data_dir(), level)


class Commands(click.Group):
    """The command group, whose `--help` lists each command with its whole first
    sentence, wrapped (click cuts it at the line's end with `...`)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class PlayCommand(click.Command):
    """`play`, whose `--help` ends with each game's sizes and defaults."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from .rules.catalogue import CATALOGUE, format_number

        rows = []
        for info in CATALOGUE.values():
            what = (
                f"--size {info.sizes.start} to {info.sizes.stop - 1} [default: {info.default_size}]"
            )
            if info.variants:
                what += f"; --variant {' or '.join(info.variants)} [default: {info.variants[0]}]"
            if info.komi_step:
                named = [variant for variant in info.komi_variants if variant]
                where = f" ({', '.join(named)})" if named else ""
                what += (
                    f"; --komi{where} in steps of {format_number(info.komi_step)} "
                    "[default: asked at the start]"
                )
            rows.append((info.name, what))
        with formatter.section("Games"):
            formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)


@click.group(
    cls=Commands,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(
    __version__,
    prog_name="abstracts-tui",
    message="%(prog)s %(version)s, " + describe(),
)
@click.option("--ascii", is_flag=True, help="Draw with ASCII characters only.")
@click.option(
    "--lines/--no-lines",
    default=None,
    help="Line mode, for screen readers and Braille displays: plain lines, no screen drawn "
    "[default: the settings' `lines`, else no].",
)
@click.pass_context
def main(ctx: click.Context, ascii: bool, lines: bool | None) -> None:
    """Play and study Petrify, Pilo, Egotzi, Linage and Partitions.

    With no command, opens the game-selection screen (or offers to resume the game in
    progress). NO_COLOR in the environment turns colours off.
    """
    notice = missing_notice()
    if notice is not None:
        click.echo(notice, err=True)
    if ctx.invoked_subcommand is None:
        run_app(ascii=ascii, lines=lines)


@main.command(cls=PlayCommand)
@click.argument("game", type=click.Choice(GAME_NAMES, case_sensitive=False), required=False)
@click.option(
    "--size", type=int, help="Board size (points per side for Linage, side for Partitions)."
)
@click.option("--variant", help="Egotzi: standard or squared.")
@click.option("--komi", help="Komi agreed beforehand (Linage, Egotzi squared); else asked.")
@click.option("--load", "load", type=click.Path(dir_okay=False), help="Open a game record (SGF).")
@click.option("--first", default="Player 1", show_default=True, help="The first player's name.")
@click.option("--second", default="Player 2", show_default=True, help="The second player's name.")
@click.option(
    "--computer",
    type=click.Choice(["first", "second", "both"]),
    help="Who the computer plays: the first person's seat, the second's, or both (a demo).",
)
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    help=f"The computer's strength [default: the settings' level, or {DEFAULT_LEVEL}].",
)
@click.option(
    "--clock",
    metavar="SPEC",
    help="A time control: 5m+3s (Fischer: main time + increment), 10m+3x30s (byo-yomi: "
    "main time + periods), 3d (days per move), none [default: none].",
)
@click.option(
    "--pace",
    type=click.FloatRange(0, MAX_PACE),
    metavar="SECONDS",
    help="With --computer both, the least time between the computer's moves, to watch it "
    f"play (0: at full speed) [default: {WATCHING_PACE:g}].",
)
@click.option("--ascii", is_flag=True, help="Draw with ASCII characters only.")
@click.option(
    "--lines/--no-lines",
    default=None,
    help="Line mode, for screen readers: plain lines, no screen drawn.",
)
def play(
    game: str | None,
    size: int | None,
    variant: str | None,
    komi: str | None,
    load: str | None,
    first: str,
    second: str,
    computer: str | None,
    level: str | None,
    clock: str | None,
    pace: float | None,
    ascii: bool,
    lines: bool | None,
) -> None:
    """Start a game of GAME directly, or open a record with --load."""
    if pace is not None:  # read where the computer moves, in the app and in line mode
        os.environ[PACE_VARIABLE] = str(pace)
    # `abstracts-tui --ascii play ...` as well as `abstracts-tui play --ascii ...`
    ascii = ascii or bool(click.get_current_context().find_root().params.get("ascii"))
    if game is None and load is None:
        raise click.UsageError("name a game (e.g. play petrify) or give --load FILE")
    if clock is not None and game is None:
        raise click.UsageError("--clock starts a new game: a record keeps its own clock")
    if level is not None and computer is None:
        # A level alone names no seat: which side the computer is to take is asked for
        # rather than guessed (a two-person game at a level would ignore it silently).
        raise click.UsageError(
            "--level is the computer's strength: add --computer first, second or both."
        )
    if lines is None:
        lines = click.get_current_context().find_root().params.get("lines")
    run_app(game, size, variant, komi, load, first, second, ascii, computer, level, clock, lines)


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
    from .printable import NAME_LIMIT, printable
    from .records.results import DRAW, UNKNOWN, How, decided

    record = read_record(path)
    game = record.main_game()
    info = game.info
    click.echo(f"{info.title} {record.options.token(info)}")
    for colour, name in zip(info.colours, record.players, strict=True):
        if name:  # a record's text: what it holds is shown, never acted on by the terminal
            click.echo(f"{colour.capitalize()} at the start: {printable(name, NAME_LIMIT)}")
    click.echo("moves: " + (" ".join(game.move_name(m) for m in game.moves) or "(none)"))
    variations = sum(max(0, len(node.children) - 1) for node in record.root.walk())
    if variations:
        click.echo(f"variations: {variations}")
    shown = record.marked_node()
    if shown is not None:
        click.echo(f"opens at: {where(shown)}")
    click.echo(game.board_text())
    if record.clock is not None:
        click.echo(f"clock: {printable(record.clock.spec)}")
    outcome = game.outcome()
    off_board = decided(record.result, info.colours)
    if off_board is not None and off_board.winner is not None:
        winner = info.colours[off_board.winner].capitalize()
        loser = info.colours[1 - off_board.winner].capitalize()
        lost = {How.TIME: "lost on time", How.FORFEIT: "left the game"}
        how = lost.get(off_board.how, "resigned")
        click.echo(f"result: {winner} wins ({loser} {how})")
    elif off_board is not None:
        click.echo("result: void (the game was called off)")
    elif outcome is None and record.result == DRAW:
        click.echo("result: draw (agreed by the players)")
    elif outcome is None and record.result == UNKNOWN:
        click.echo("result: unknown (the record says the game ended, not how)")
    elif outcome is None:
        click.echo(f"{game.side_to_move().capitalize()} to move")
    else:
        click.echo(f"result: {game.winner_name()} ({outcome.reason})")


def seconds_per_position(value: float | None) -> float | None:
    """`review --seconds`: more than 0 and at most a day (`inf` and `nan` never end)."""
    if value is not None and not 0 < value <= 86400:
        raise click.BadParameter(f"{value} is not more than 0 and at most 86400 (a day)")
    return value


def where(node: RecordNode) -> str:
    """`move 5 (e5) in a variation`: a node of a record, as `check` names it."""
    if node.parent is None:
        return "the start"
    what = node.move if node.move is not None else "a set-up position"
    line = "of the main line" if node.on_main_line() else "in a variation"
    return f"move {len(node.line())} ({what}) {line}"


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--playouts", type=click.IntRange(1), help="Playouts per position.")
@click.option(
    "--seconds",
    type=float,
    callback=lambda ctx, param, value: seconds_per_position(value),
    help="Seconds per position (at most a day).",
)
@click.option("--mistakes", default=3, show_default=True, help="Mistakes listed per person.")
@click.option("--seed", type=int, help="Seed of the searches (default ABSTRACTS_TUI_SEED).")
def review(
    path: str, playouts: int | None, seconds: float | None, mistakes: int, seed: int | None
) -> None:
    """Review the main line of a game record (SGF): each move's win rate before and after,
    the win rate and the expected score (points) it lost, each person's biggest mistakes
    by win rate lost, and an accuracy figure per person.

    Each position gets a search of 10,000 playouts (300 on the pure-Python core) unless
    --playouts or --seconds say otherwise.
    """
    import os

    from .engine.core_status import core_name
    from .engine.review import (
        Reviewer,
        percent_text,
        person_names,
        points_lost_text,
        review_budget,
    )
    from .engine.settings import SEED_VARIABLE, whole_number
    from .records.timing import time_winner
    from .rules import SWAP

    record = read_record(path)
    game = record.main_game()
    if seed is None:
        seed = whole_number(os.environ, SEED_VARIABLE, 0)
    budget = review_budget(playouts, seconds)
    info = game.info
    names = person_names(record.players, info.colours)
    per = f"{budget.playouts:,} playouts" if budget.playouts is not None else f"{seconds:g} s"
    click.echo(
        f"Review of {info.title} {record.options.token(info)}: {len(game.moves)} moves, "
        f"{per} a position ({core_name()} core)"
    )
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            click.echo(f"\rreviewing: position {done}/{total}", nl=False, err=True)

    result = Reviewer(game, budget, seed).run(progress)
    if show:
        click.echo("", err=True)
    click.echo("move  player        played  best    before  after   lost  points")
    for m in result.moves:
        click.echo(
            f"{m.number:>4}  {names[m.person][:12]:<12}  {m.name:<6}  {m.best or '-':<6}  "
            f"{percent_text(m.before, m.before_proof):>6} "
            f"{percent_text(m.after, m.after_proof):>6} {m.loss:>6.1%} {points_lost_text(m):>7}"
        )
    click.echo("(lost: the win rate lost; points: the expected score lost, in points)")
    if any(m.before_proof or m.after_proof for m in result.moves):
        click.echo("(win, loss, draw: proven with best play; no other figure is 100% or 0%)")
    for person, name in enumerate(names):
        found = result.mistakes(person, mistakes)
        listed = "; ".join(
            f"{m.number}. {m.name} lost {m.loss:.1%}"
            + ("" if m.score_loss is None else f", {m.score_loss:.1f} points")
            + f" (best {m.best or '-'})"
            for m in found
        )
        click.echo(f"Biggest mistakes of {name}: {listed or 'none'}")
    for person, name in enumerate(names):
        accuracy = result.accuracy(person)
        text = "no moves" if accuracy is None else f"{accuracy:.1f}"
        click.echo(f"Accuracy of {name}: {text}")
    on_time = time_winner(record.result, info.colours)
    if on_time is not None:
        # Named by colour at the start, as above; a swap hands the colours over.
        loser = names[(1 - on_time) ^ (game.moves.count(SWAP) % 2)]
        click.echo(f"Result: {record.result} ({loser} lost on time)")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=2222, show_default=True, help="The port (0: any free port).")
@click.option(
    "--authorized-keys",
    type=click.Path(exists=True, dir_okay=False),
    help="Public keys allowed in (OpenSSH authorized_keys format).",
)
@click.option(
    "--password-file",
    type=click.Path(exists=True, dir_okay=False),
    help="NAME:HASH lines (abstracts-tui passwd NAME --file FILE makes one).",
)
@click.option("--open", "open_", is_flag=True, help="Let anyone in on a non-loopback address.")
@click.option(
    "--data",
    type=click.Path(file_okay=False),
    help="The server's folder: host key, store, players' games [default: user data dir].",
)
@click.option("--rated", is_flag=True, help="Rooms made on the server are rated.")
@click.option(
    "--admin",
    "admins",
    multiple=True,
    metavar="NAME",
    help="A name that sees the reports and suspends names (ssh -T host reports); repeatable.",
)
@click.option(
    "--database",
    metavar="URL",
    envvar="ABSTRACTS_TUI_DATABASE",
    help="A postgresql:// URL: rooms, names, ratings and the host key in PostgreSQL, "
    "shared by every serve process given it [default: server.db in the data folder].",
)
@click.option("--sessions-per-user", default=3, show_default=True, help="Sessions per user name.")
@click.option(
    "--max-sessions",
    type=click.IntRange(min=1),
    help="Sessions open at once on the server [default: as many as half the memory "
    "available holds, at about 32 MiB each (8 MiB with --threads), at most 200].",
)
@click.option(
    "--connections-per-address",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Connections open at once from one address (IPv6: one /64).",
)
@click.option(
    "--idle-timeout", default=1800.0, show_default=True, help="Seconds without input to close."
)
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Check the store (SQLite's integrity check, or the database) and its tables' "
    "version, say what was found, and exit: 0 if it can be used, 2 if not.",
)
@click.option(
    "--login-timeout",
    type=click.FloatRange(min=1),
    default=20.0,
    show_default=True,
    help="Seconds a connection has to log in.",
)
@click.option(
    "--web",
    "web_address",
    metavar="[HOST:]PORT",
    help="Also serve the rooms to web browsers there (needs the web extra); "
    "HOST defaults to --host.",
)
@click.option(
    "--public-url",
    metavar="URL",
    help="With --web: the address browsers use, when a reverse proxy serves the page "
    "(e.g. https://games.example.org/ or https://example.org/games/).",
)
@click.option(
    "--behind-proxy",
    is_flag=True,
    help="With --web: trust the proxy's Forwarded or X-Forwarded-For/-Proto/-Host/-Prefix "
    "headers for the address browsers use and the browser's own.",
)
@click.option(
    "--isolate/--threads",
    default=None,
    help="Each session's app in a process of its own, so that no session's layouts or "
    "garbage collections hold up the others (the default, where the system can fork), or "
    "on a thread of the server's process: about 4 MiB a session instead of 14 to 21, one "
    "session's work holding up the others' keys at times (a quarter second seen).",
)
@click.option(
    "--smtp",
    metavar="HOST:PORT",
    help="Send the players' notices by e-mail (notify mailto:ADDRESS) through this SMTP "
    "server (STARTTLS when it offers it).",
)
@click.option("--smtp-from", metavar="ADDRESS", help="With --smtp: the notices' sender.")
@click.option(
    "--smtp-user",
    metavar="NAME",
    envvar="ABSTRACTS_TUI_SMTP_USER",
    help="With --smtp: log in as NAME (over TLS only), with the password in the "
    "environment variable ABSTRACTS_TUI_SMTP_PASSWORD.",
)
@click.option(
    "--notify-private",
    is_flag=True,
    help="Let notices be posted to URLs on loopback and private addresses (the server's "
    "own network).",
)
@log_level_option
def serve(
    host: str,
    port: int,
    authorized_keys: str | None,
    password_file: str | None,
    open_: bool,
    data: str | None,
    rated: bool,
    admins: tuple[str, ...],
    database: str | None,
    sessions_per_user: int,
    max_sessions: int | None,
    connections_per_address: int,
    idle_timeout: float,
    check_only: bool,
    login_timeout: float,
    web_address: str | None,
    public_url: str | None,
    behind_proxy: bool,
    isolate: bool | None,
    smtp: str | None,
    smtp_from: str | None,
    smtp_user: str | None,
    notify_private: bool,
    log_level: str,
) -> None:
    """Serve the games over SSH: each connection gets its own app, with rooms to play in.

    On loopback anyone may connect; on any other address give --authorized-keys and/or
    --password-file, or --open. With --web, browsers play in the same rooms: a visitor
    signs in with a name (and, where SSH asks for one, its password); behind a reverse
    proxy (HTTPS, a path of its own) give --public-url or --behind-proxy.
    """
    import asyncio
    import multiprocessing
    from pathlib import Path

    from .saved_games import data_dir
    from .server.limits import ConfigError, DatabaseError, Limits, ServerConfig, listen_address
    from .server.ssh.server import serve as run_server

    if database is not None:
        try:
            from .store import postgres  # noqa: F401
        except ImportError as error:
            raise Refusal(missing_extra("postgres", "--database", error)) from None
    web = None
    if web_address is None and (public_url is not None or behind_proxy):
        given = "--public-url" if public_url is not None else "--behind-proxy"
        raise click.UsageError(f"{given} is for the browsers' page: give --web too")
    if web_address is not None:
        try:
            web = listen_address(web_address, host)
        except ValueError as error:
            raise click.UsageError(f"--web: {error}") from None
        try:
            from .server.web import rooms  # noqa: F401
        except ImportError as error:
            raise Refusal(missing_extra("web", "--web", error)) from None
    public = None
    if public_url is not None:
        from .server.web.address import parse_public_url

        try:
            public = parse_public_url(public_url)
        except ValueError as error:
            raise click.UsageError(str(error)) from None
    from .server.notify_options import smtp_of

    try:
        mail = smtp_of(smtp, smtp_from, smtp_user, host)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    folder = Path(data) if data else data_dir() / "server"
    if check_only:
        from .server.ssh.server import check_store

        try:
            click.echo(check_store(folder, database))
        except ConfigError as error:
            raise Refusal(str(error)) from None
        return
    can_fork = "forkserver" in multiprocessing.get_all_start_methods()
    if isolate and not can_fork:
        raise click.UsageError(
            "--isolate needs a system that can fork processes; this one cannot: use --threads"
        )
    log_to_stderr(log_level)
    config = ServerConfig(
        data=folder,
        host=host,
        port=port,
        authorized_keys=Path(authorized_keys) if authorized_keys else None,
        password_file=Path(password_file) if password_file else None,
        open=open_,
        rated=rated,
        admins=frozenset(admins),
        smtp=mail,
        notify_private=notify_private,
        database=database,
        web=web,
        isolate=can_fork if isolate is None else isolate,
        limits=Limits(
            sessions_per_user=sessions_per_user,
            sessions=max_sessions,
            connections_per_address=connections_per_address,
            idle_seconds=idle_timeout,
            login_seconds=login_timeout,
        ),
    )
    beside = None
    if web is not None:  # browsers in the same rooms, beside the SSH server
        from .server.web.rooms import start_web

        address = web

        async def beside(server: Server) -> WebRooms:
            return await start_web(server, *address, public=public, behind_proxy=behind_proxy)

    try:
        asyncio.run(run_server(config, beside=beside))
    except DatabaseError as error:
        raise click.ClickException(str(error)) from None
    except ConfigError as error:
        raise Refusal(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host}:{port}: {error}") from None


@main.command()
@click.argument("name")
@click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False),
    help="The password file to give NAME its line in (added, or changed if NAME has one; "
    "a new file is readable by its owner only). Without it the line is printed.",
)
@click.option(
    "--stdin",
    "from_stdin",
    is_flag=True,
    help="Read the password from the first line of standard input instead of asking twice.",
)
def passwd(name: str, path: str | None, from_stdin: bool) -> None:
    """Make NAME's line of a password file for `serve --password-file`: NAME:HASH, a
    salted PBKDF2-SHA256 hash of a password asked twice."""
    from pathlib import Path

    from .server.auth import hash_password, set_password, valid_name
    from .server.limits import ConfigError

    if not valid_name(name):
        raise click.BadParameter(
            "use 1 to 24 letters, digits, '.', '_' or '-', starting with a letter or digit",
            param_hint="NAME",
        )
    if from_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    elif not sys.stdin.isatty():
        raise Refusal("there is no terminal to ask the password on: give --stdin to read it")
    else:
        password = click.prompt(
            f"Password for {name}",
            hide_input=True,
            confirmation_prompt="Again",
            prompt_suffix=": ",
        )
    if not password:
        raise Refusal("an empty password is refused")
    line = hash_password(password)
    if path is None:
        click.echo(f"{name}:{line}")
        return
    try:
        had = set_password(Path(path), name, line)
    except ConfigError as error:
        raise Refusal(str(error)) from None
    click.echo(f"{'Changed' if had else 'Added'} the password of {name} in {path}.", err=True)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, help="The port (0: any free port).")
@click.option(
    "--data",
    type=click.Path(file_okay=False),
    help="The folder of the visitors' games in progress [default: web/ in the user data dir].",
)
@click.option("--open", "open_", is_flag=True, help="Let anyone in on a non-loopback address.")
@click.option(
    "--public-url",
    metavar="URL",
    help="The address browsers use, when a reverse proxy serves the app "
    "(e.g. https://games.example.org/ or https://example.org/games/).",
)
@click.option(
    "--behind-proxy",
    is_flag=True,
    help="Trust the proxy's Forwarded or X-Forwarded-For/-Proto/-Host/-Prefix headers "
    "for the address browsers use and the browser's own.",
)
@click.option(
    "--max-visitors",
    type=click.IntRange(min=1),
    default=MAX_VISITORS,
    show_default=True,
    help="Pages (each an app of its own) open at once.",
)
@click.option(
    "--pages-per-address",
    type=click.IntRange(min=1),
    default=PAGES_PER_ADDRESS,
    show_default=True,
    help="Pages open at once from one address (IPv6: one /64).",
)
@log_level_option
def web(
    host: str,
    port: int,
    data: str | None,
    open_: bool,
    public_url: str | None,
    behind_proxy: bool,
    max_visitors: int,
    pages_per_address: int,
    log_level: str,
) -> None:
    """Serve the app to web browsers (needs: pip install 'abstracts-tui[web]').

    Every visitor gets an app and a folder for their games of their own; saving a record
    downloads it to their machine. On any address but loopback give --open: there is no
    login, so anyone who can reach the port can play. Behind a reverse proxy (HTTPS, a
    path of its own) give --public-url or --behind-proxy, so that the page's links and
    its websocket use the address the browser used.
    """
    import asyncio
    from pathlib import Path

    from .saved_games import data_dir
    from .server.auth import is_loopback
    from .server.files import own_folder
    from .server.limits import ConfigError

    if not open_ and not is_loopback(host):
        raise click.UsageError(
            f"{host} is not a loopback address: give --open to let anyone who can reach "
            "it play (the browser app has no login)"
        )
    try:
        from .server.web import visitors as web_server
    except ImportError as error:
        raise Refusal(missing_extra("web", "web", error)) from None
    from .server.web.address import parse_public_url
    from .server.web.internals import Unsupported

    try:
        public = None if public_url is None else parse_public_url(public_url)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    folder = Path(data) if data else data_dir() / "web"
    try:
        own_folder(folder / "visitors", link=True)
    except ConfigError as error:
        raise click.UsageError(str(error)) from None
    log_to_stderr(log_level)
    try:
        asyncio.run(
            web_server.serve(
                folder,
                host,
                port,
                public=public,
                behind_proxy=behind_proxy,
                max_visitors=max_visitors,
                per_address=pages_per_address,
            )
        )
    except Unsupported as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host}:{port}: {error}") from None


from .puzzle_cli import puzzles  # noqa: E402  (the puzzles' commands live in their own module)

main.add_command(puzzles)
