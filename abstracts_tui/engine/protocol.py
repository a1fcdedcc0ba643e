"""The engine's text protocol (GTP 2 framing) on standard input and output.

Each command line gets one answer: `=[id] result` or `?[id] message`, then an empty
line. A refused command changes nothing; only `quit` or the end of input stops it, and
either one stops a timed search under way at once (lines are read ahead on a thread:
`protocol_input.py`, which also bounds their length).

The AI commands (`time_per_move`, `genmove`, `analyze`) search with `search.Search`.
Two environment variables make them reproducible, for tests and match scripts:
`ABSTRACTS_TUI_SEED=N` seeds the searches (the k-th search of the process uses seed
N + k), and `ABSTRACTS_TUI_PLAYOUTS=N` gives every search N playouts instead of a time.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, BinaryIO, TextIO

from .. import __version__
from ..rules import GAMES, Game, RulesError, format_number, game_class, load_position
from .calibration import candidate_winrate
from .core_status import describe
from .protocol_input import (
    END,
    MAX_ID_DIGITS,
    Input,
    NumberError,
    TooLong,
    decimal,
    whole,
)
from .settings import PLAYOUTS_VARIABLE, SEED_VARIABLE, whole_number

if TYPE_CHECKING:
    from .search import Search
    from .terms import Candidate

DEFAULT_TIME_PER_MOVE = 1.0
"""Seconds of thought for `genmove` (and `analyze` without an argument) until changed."""
MAX_TIME_PER_MOVE = 24 * 3600.0
MIN_TIME_PER_MOVE = 0.01
"""The shortest search asked for, in seconds: a shorter one (`analyze 1e-9`) could end
before its first playout and answer nothing."""
SECONDS_DIGITS = (5, 3)
"""Digits of a time in seconds, before and after its point (`86400`, `0.015`)."""
SIZE_DIGITS = 2
"""Digits of a board size (every game's sizes are under 100)."""
KOMI_DIGITS = (4, 2)
"""Digits of a komi, before and after its point (komi lies between -1000 and 1000)."""
ANALYZE_LINES = 10
"""The most candidate moves `analyze` lists."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class CommandError(Exception):
    """A command that is refused; the message is sent after `?`."""


Handler = Callable[[list[str]], str]


class Engine:
    """The protocol's state (the current game) and its commands."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        """`environ` (default: this process's) may set the AI's seed and playouts."""
        self.game: Game | None = None
        self.quitting = False
        self.time_per_move = DEFAULT_TIME_PER_MOVE
        self.searches = 0
        """Searches run so far: the next one's seed is the base seed plus this."""
        self.last_search: Search | None = None
        """The last search, which goes on when the game continues its line."""
        self.running: Search | None = None
        """The timed search under way, which the end of input or `quit` stops."""
        self.closing = False
        """The input has ended (or `quit` was read ahead): searches stop at once."""
        settings = os.environ if environ is None else environ
        self.seed = whole_number(settings, SEED_VARIABLE, 0, warn="abstracts-tui engine")
        self.playouts = whole_number(settings, PLAYOUTS_VARIABLE, 1, warn="abstracts-tui engine")
        self.commands: dict[str, Handler] = {
            "protocol_version": self.protocol_version,
            "name": self.name,
            "version": self.version,
            "list_commands": self.list_commands,
            "known_command": self.known_command,
            "quit": self.quit,
            "list_games": self.list_games,
            "newgame": self.newgame,
            "legal_moves": self.legal_moves,
            "play": self.play,
            "undo": self.undo,
            "side_to_move": self.side_to_move,
            "game_over": self.game_over,
            "scores": self.scores,
            "winner": self.winner,
            "showboard": self.showboard,
            "position": self.position,
            "setposition": self.setposition,
            "moves": self.moves,
            "time_per_move": self.set_time_per_move,
            "genmove": self.genmove,
            "analyze": self.analyze,
            "search_info": self.search_info,
        }
        self.aliases: dict[str, Handler] = {
            "gogui-rules_game_id": self.game_id,
            "gogui-rules_legal_moves": self.legal_moves,
            "gogui-rules_side_to_move": self.side_to_move,
            "gogui-rules_final_result": self.final_result,
            "gogui-rules_board_size": self.board_size,
        }

    # -- framing --------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The full answer (ending in an empty line) to one input line; None to ignore it."""
        read = _command(line)
        if read is None:
            return None
        ident, words = read
        if len(ident) > MAX_ID_DIGITS:
            return (
                f"? the command id must be at most {MAX_ID_DIGITS} digits, not {len(ident):,}\n\n"
            )
        if not words:
            return f"?{ident} no command after the id\n\n"
        command, args = words[0], words[1:]
        handler = self.commands.get(command) or self.aliases.get(command)
        try:
            if handler is None:
                raise CommandError(f"unknown command '{command[:40]}' (see list_commands)")
            result = handler(args)
        except (CommandError, RulesError, NumberError) as error:
            return f"?{ident} {_one_paragraph(str(error))}\n\n"
        except Exception as error:  # the engine must outlive any bug behind one command
            return f"?{ident} internal error: {type(error).__name__}: {error}\n\n"
        body = _one_paragraph(result)
        if result.startswith("\n"):  # a diagram starts on its own line, as in GTP's showboard
            return f"={ident}\n{body}\n\n"
        return f"={ident} {body}".rstrip(" ") + "\n\n"

    def run(self, stdin: BinaryIO, stdout: TextIO) -> int:
        """Answer commands until `quit` or the end of input; returns the exit status.

        The lines are read ahead (`protocol_input.Input`): a line too long is answered
        with `?`, and `quit` or the end of input, once read, stops the timed search under
        way and any after it; the commands before are still answered in order."""
        lines = Input(stdin, _is_quit, self._stop_search)
        try:
            while (item := lines.next()) is not END:
                answer = item.answer() if isinstance(item, TooLong) else self.handle(item)
                if answer is not None:
                    stdout.write(answer)
                    stdout.flush()
                if self.quitting:
                    break
        finally:
            lines.close()
        return 0

    def _stop_search(self) -> None:
        """The input has ended or holds `quit`: stop the search under way, and the
        ones to come (called from the input's thread, again and again until the end)."""
        self.closing = True
        search = self.running
        if search is not None:
            search.stop()

    # -- helpers --------------------------------------------------------------------

    def _game(self) -> Game:
        if self.game is None:
            raise CommandError("no game yet: start one with newgame GAME (see list_games)")
        return self.game

    @staticmethod
    def _no_args(args: list[str]) -> None:
        if args:
            raise CommandError(f"this command takes no arguments, not '{' '.join(args)[:40]}'")

    # -- commands -------------------------------------------------------------------

    def protocol_version(self, args: list[str]) -> str:
        self._no_args(args)
        return "2"

    def name(self, args: list[str]) -> str:
        self._no_args(args)
        return "abstracts-tui"

    def version(self, args: list[str]) -> str:
        self._no_args(args)
        return f"{__version__}, {describe()}"

    def list_commands(self, args: list[str]) -> str:
        self._no_args(args)
        return "\n".join([*self.commands, *self.aliases])

    def known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("usage: known_command COMMAND")
        return "true" if args[0] in self.commands or args[0] in self.aliases else "false"

    def quit(self, args: list[str]) -> str:
        self.quitting = True
        return ""

    def list_games(self, args: list[str]) -> str:
        self._no_args(args)
        lines = []
        for name, cls in GAMES.items():
            info = cls.info
            sizes = f"{info.sizes.start}-{info.sizes.stop - 1}"
            options = []
            if info.variants:
                options.append("variant=" + "|".join(info.variants))
            if info.komi_variants:
                options.append("komi")
            lines.append(f"{name} {sizes} {info.default_size} {' '.join(options) or '-'}")
        return "\n".join(lines)

    def newgame(self, args: list[str]) -> str:
        if not args:
            raise CommandError("usage: newgame GAME [size=N] [variant=V] [komi=K]")
        cls = game_class(args[0])
        values: dict[str, str] = {}
        allowed = cls.info.option_names()
        for arg in args[1:]:
            key, sep, value = arg.partition("=")
            key = key.lower()
            if not sep or not value:
                raise CommandError(f"options are written key=value, e.g. size=8; not '{arg}'")
            if key not in allowed:
                raise CommandError(
                    f"{cls.info.title} takes the options {', '.join(allowed)}, not '{key}'"
                )
            if key in values:
                raise CommandError(f"the option {key} is given twice")
            values[key] = value
        size = _size(values["size"]) if "size" in values else None
        komi = _komi(values["komi"]) if "komi" in values else None
        self.game = cls.new(size, values.get("variant"), komi)
        return ""

    def legal_moves(self, args: list[str]) -> str:
        self._no_args(args)
        game = self._game()
        return " ".join(game.move_name(move) for move in game.legal_moves())

    def play(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("usage: play MOVE (e.g. play c3, play c3-f6, play pass)")
        self._game().play(args[0])
        return ""

    def undo(self, args: list[str]) -> str:
        self._no_args(args)
        self._game().undo()
        return ""

    def side_to_move(self, args: list[str]) -> str:
        self._no_args(args)
        return self._game().side_to_move()

    def game_over(self, args: list[str]) -> str:
        self._no_args(args)
        return "true" if self._game().is_over() else "false"

    def scores(self, args: list[str]) -> str:
        self._no_args(args)
        game = self._game()
        points = game.score().points
        colours = game.info.colours
        return " ".join(f"{colours[i]} {format_number(points[i])}" for i in (0, 1))

    def winner(self, args: list[str]) -> str:
        self._no_args(args)
        return self._game().winner_name()

    def final_result(self, args: list[str]) -> str:
        self._no_args(args)
        game = self._game()
        outcome = game.outcome()
        if outcome is None:
            return "unknown"
        return f"{game.winner_name()}: {outcome.reason}"

    def showboard(self, args: list[str]) -> str:
        self._no_args(args)
        return "\n" + self._game().board_text()

    def position(self, args: list[str]) -> str:
        self._no_args(args)
        return self._game().position()

    def setposition(self, args: list[str]) -> str:
        if not args:
            raise CommandError("usage: setposition POSITION (as given by the position command)")
        if len(args) > 1:  # its options' numbers are read as newgame's are
            for option in args[1].split(","):
                key, _, value = option.partition("=")
                if key.strip().lower() == "size":
                    _size(value)
                elif key.strip().lower() == "komi":
                    _komi(value)
        self.game = load_position(" ".join(args))
        return ""

    def moves(self, args: list[str]) -> str:
        self._no_args(args)
        game = self._game()
        return " ".join(game.move_name(move) for move in game.moves)

    # -- the AI -----------------------------------------------------------------------

    def set_time_per_move(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("usage: time_per_move SECONDS (e.g. time_per_move 2.5)")
        self.time_per_move = _seconds(args[0])
        return ""

    def genmove(self, args: list[str]) -> str:
        self._no_args(args)
        game = self._live_game()
        moves = game.legal_moves()
        if len(moves) == 1:
            move = moves[0]
        else:
            search = self._search(game, self.time_per_move)
            best = search.best_move()
            assert best is not None  # the game is not over
            move = best
        game.play(move)
        return game.move_name(move)

    def analyze(self, args: list[str]) -> str:
        if len(args) > 1:
            raise CommandError("usage: analyze [SECONDS]")
        seconds = _seconds(args[0]) if args else self.time_per_move
        game = self._live_game()
        search = self._search(game, seconds)
        return "\n".join(analyze_line(game, found) for found in search.candidates(ANALYZE_LINES))

    def search_info(self, args: list[str]) -> str:
        """What the last search (of genmove or analyze) did: its core, the playouts it
        ran (walks that a proof answered ran none), seconds, playouts per second, and the
        proof of its root (`none` until proven)."""
        self._no_args(args)
        search = self.last_search
        if search is None:
            raise CommandError("no search has run yet (genmove or analyze first)")
        return (
            f"core {search.core} playouts {search.playouts_run} seconds {search.seconds:.2f} "
            f"rate {search.playouts_per_second:.0f} proven {search.proven or 'none'}"
        )

    def _live_game(self) -> Game:
        game = self._game()
        if game.is_over():
            winner = game.winner_name()
            result = "a draw" if winner == "draw" else f"{winner} won"
            raise CommandError(f"the game is over ({result}): there is no move to make")
        return game

    def _search(self, game: Game, seconds: float) -> Search:
        """A finished search of `game` (which it leaves as it was): the last search goes
        on when `game` continues its line (tree reuse), else a new one starts."""
        # Imported here so that `python -m abstracts_tui.engine.search` does not find
        # the module already imported by the package.
        from .search import Budget, Search

        seed = None if self.seed is None else self.seed + self.searches
        self.searches += 1
        search = self.last_search
        if search is None or not search.follow(game):
            search = Search(game, seed)
        self.last_search = search
        if self.playouts is not None:
            # A fixed number of playouts (reproducible runs) is set by whoever starts
            # the engine, not by its input: it always runs whole.
            search.run(Budget(playouts=self.playouts))
        elif not self.closing:
            self.running = search
            try:
                search.run(Budget(seconds=seconds))
            finally:
                self.running = None
        return search

    def game_id(self, args: list[str]) -> str:
        self._no_args(args)
        return self._game().info.title

    def board_size(self, args: list[str]) -> str:
        self._no_args(args)
        return str(self._game().size)


def analyze_line(game: Game, found: Candidate) -> str:
    """One `analyze` line: `move M visits N winrate W score S pv ...`, then `proven
    win|loss|draw` when the move's value is proven. W has three places and lies within
    `SHOWN_WINRATE_BOUNDS` unless proven (1.000 and 0.000 are proofs only); it is the
    calibrated figure (`calibration.py`), as every front end shows it, and `-` for a
    move with fewer than `MIN_VISITS_TO_SHOW` visits and no proof. S is the expected
    score (`score_text`), `-` where W is or where no playout gave one."""
    shown = candidate_winrate(found, game)
    winrate = "-" if shown is None else f"{shown:.3f}"
    score = score_text(found.shown_score)
    pv = " ".join(game.move_name(move) for move in found.pv)
    name = game.move_name(found.move)
    line = f"move {name} visits {found.visits} winrate {winrate} score {score} pv {pv}"
    return line if found.proven is None else f"{line} proven {found.proven}"


def score_text(score: float | None) -> str:
    """An expected score as `analyze` gives it: one decimal with its sign always
    (`+3.5`, `-0.5`, `+0.0`), or `-` for none."""
    if score is None:
        return "-"
    shown = round(score, 1)
    return f"{shown + 0.0:+.1f}"  # + 0.0: a score that rounds to 0 reads +0.0, not -0.0


def _seconds(text: str) -> float:
    """A time in seconds, from `MIN_TIME_PER_MOVE` to `MAX_TIME_PER_MOVE`; `NumberError`
    or `CommandError` saying what is wrong."""
    seconds = decimal(text, "the time", *SECONDS_DIGITS)
    if not MIN_TIME_PER_MOVE <= seconds <= MAX_TIME_PER_MOVE:
        raise CommandError(
            f"the time must be from {MIN_TIME_PER_MOVE:g} to {MAX_TIME_PER_MOVE:.0f} seconds "
            f"(a day), not {text}"
        )
    return seconds


def _size(text: str) -> int:
    """A board size as the protocol takes it (the game checks its range)."""
    return whole(text, "size", SIZE_DIGITS)


def _komi(text: str) -> float:
    """A komi as the protocol takes it (the game checks its range and step)."""
    return decimal(text, "komi", *KOMI_DIGITS, signed=True)


def _command(line: str) -> tuple[str, list[str]] | None:
    """A line's id (empty if none) and words; None for an empty line or a comment."""
    line = _CONTROL.sub("", line.replace("\t", " ")).strip()
    if not line or line.startswith("#"):
        return None
    words = line.split()
    ident = ""
    if words[0].isascii() and words[0].isdigit():
        ident = words.pop(0)
    return ident, words


def _is_quit(line: str) -> bool:
    """Whether `line` is the command `quit` (with an id or not)."""
    read = _command(line)
    return read is not None and len(read[0]) <= MAX_ID_DIGITS and read[1][:1] == ["quit"]


def _one_paragraph(text: str) -> str:
    """Drop empty lines: a result never contains one (it would end the answer)."""
    return "\n".join(line for line in text.splitlines() if line.strip())


def main() -> int:
    """Run the protocol on this process's standard input and output."""
    return Engine().run(sys.stdin.buffer, sys.stdout)
