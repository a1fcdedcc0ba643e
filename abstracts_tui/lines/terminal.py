"""Line mode on the program's own terminal (or any standard input and output): the
reader with line editing, history and completion, the writer that lets no escape
sequence through, and the choice of a game as a numbered list.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..game_setup import Setup
from ..session import Session
from .play import COMMANDS, LineGame, Say

if TYPE_CHECKING:
    from ..saved_games import SavedGame

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Characters that a terminal could take as commands (escape among them): never written."""
MAX_LINE = 4096
"""The longest line taken; a longer one is cut (a paste gone wrong)."""


class Writer:
    """Writes whole lines, one at a time, from any thread, with control characters shown
    as `?` (a name or a comment in a record could hold an escape sequence)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        clean = CONTROL.sub("?", line)
        with self.lock:
            try:
                self.stream.write(clean + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass  # a closed terminal: the reader ends the game at the end of input


class Reader:
    """Reads lines from standard input; on a terminal with GNU readline's (or libedit's)
    editing, history and completion of the commands and of the legal moves."""

    def __init__(self, words: Callable[[], Sequence[str]], stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdin
        self.words = words
        self.editing = False
        if stream is None and sys.stdin.isatty() and sys.stdout.isatty():
            self.editing = self._set_up_readline()

    def _set_up_readline(self) -> bool:
        try:
            import readline
        except ImportError:  # not on every platform: plain lines then
            return False
        # No bracketed paste: its escape sequences would reach a Braille display.
        readline.parse_and_bind("set enable-bracketed-paste off")
        readline.parse_and_bind("set bell-style none")
        readline.parse_and_bind("tab: complete")
        readline.set_completer_delims(" ")
        readline.set_completer(self._complete)
        return True

    def _complete(self, text: str, state: int) -> str | None:
        found = [word for word in self.words() if word.startswith(text.lower())]
        return found[state] if state < len(found) else None

    def __call__(self) -> str | None:
        try:
            if self.editing:
                line = input("")
            else:
                line = self.stream.readline()
                if not line:
                    return None
        except EOFError:
            return None
        except KeyboardInterrupt:
            return "quit"
        return line.rstrip("\r\n")[:MAX_LINE]


def completions(game: LineGame) -> Sequence[str]:
    """What Tab completes: the commands and the legal moves of the position."""
    session = game.session
    moves = [session.game.move_name(move) for move in session.game.legal_moves()]
    return [*COMMANDS, *moves]


def choose(
    say: Say,
    read: Callable[[], str | None],
    question: str,
    options: list[str],
    *,
    words: dict[str, int] | None = None,
) -> int | None:
    """Ask `question` with `options` numbered from 1; the number (or the words, or one of
    `words`: another name of an option) of the one chosen, from 0; None at the end of
    input or on `quit`. `help` (or `?`) says how to answer and lists them again."""

    def ask() -> None:
        say(question)
        for number, option in enumerate(options, start=1):
            say(f"{number}. {option}")

    ask()
    while True:
        line = read()
        if line is None:
            return None
        text = " ".join(line.split()).lower()
        if text in ("q", "quit", "exit"):
            return None
        if text in ("?", "help", "h"):
            say(
                f"Type the number of your choice (1 to {len(options)}) or the start of its "
                "words, then Enter; quit leaves."
            )
            ask()
            continue
        if words and text in words:
            return words[text]
        if text.isdigit() and 1 <= int(text) <= len(options):
            return int(text) - 1
        named = [i for i, option in enumerate(options) if option.lower().startswith(text)]
        if text and len(named) == 1:
            return named[0]
        say(f"Type a number from 1 to {len(options)}, help, or quit.")


def start_session(
    say: Say, read: Callable[[], str | None], data: Path, level: str
) -> Session | None:
    """The game to play, chosen from numbered lists: a game in progress, a new one, or a
    finished one to look at again."""
    from ..recent_games import RecentGames
    from ..saved_games import SavedGames

    saved = SavedGames(data)
    RecentGames(data).take_finished(saved)  # games finished in earlier runs
    games, problems = saved.read()
    finished, more = RecentGames(data).read()
    for problem in problems + more:
        say(problem)
    if games or finished:
        options = [
            f"{game.describe()}{game.started_words()}, played {game.played()}" for game in games
        ]
        options.append("A new game")
        words = {"new": len(games), "n": len(games), "new game": len(games)}
        if finished:
            options.append(f"Recent games ({len(finished)} finished)")
            words |= {"recent": len(games) + 1, "r": len(games) + 1}
        title = "Games in progress:" if games else "Start:"
        picked = choose(say, read, title, options, words=words)
        if picked is None:
            return None
        if picked < len(games):
            return Session(games[picked].record, games[picked].path)
        if picked == len(games) + 1:
            return recent_session(say, read, finished)
    return new_session(say, read, data, level)


def recent_session(
    say: Say, read: Callable[[], str | None], finished: list[SavedGame]
) -> Session | None:
    """A finished game chosen from the recent games, newest first (its file goes on being
    its autosave: a variation tried in it is kept)."""
    options = [f"{game.describe()}, played {game.played()}" for game in finished]
    picked = choose(say, read, "Recent games, newest first:", options)
    if picked is None:
        return None
    return Session(finished[picked].record, finished[picked].path)


def new_session(say: Say, read: Callable[[], str | None], data: Path, level: str) -> Session | None:
    """A new game, chosen from numbered lists: which game, and who plays."""
    from ..recent_games import RecentGames
    from ..rules.catalogue import CATALOGUE
    from ..saved_games import SavedGames

    saved = SavedGames(data)
    RecentGames(data).take_finished(saved)  # the last game, if it ended, goes to the recent games
    infos = list(CATALOGUE.values())
    picked = choose(say, read, "Which game?", [info.title for info in infos])
    if picked is None:
        return None
    info = infos[picked]
    against = choose(
        say,
        read,
        "Who plays?",
        [
            "Two people at this keyboard",
            "You first, the computer second",
            "The computer first, you second",
        ],
    )
    if against is None:
        return None
    levels = (level if against == 2 else None, level if against == 1 else None)
    names = ("Computer" if levels[0] else "You", "Computer" if levels[1] else "You")
    if against == 0:
        names = ("Player 1", "Player 2")
    setup = Setup(
        info.name, first=names[0], second=names[1], first_level=levels[0], second_level=levels[1]
    )
    return Session.start(setup, saved.new_path(info.name))


def run_lines(
    setup: Setup | None,
    load: str | None,
    data: Path,
    level: str,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play in line mode until `quit` or the end of input; the exit status."""
    from ..recent_games import RecentGames
    from ..records import RecordError
    from ..rules import RulesError
    from ..saved_games import SavedGames

    say = Writer(stdout or sys.stdout)
    holder: list[LineGame] = []
    reader = Reader(lambda: completions(holder[0]) if holder else [], stdin)
    say("abstracts-tui in line mode. Type help for the commands, quit to leave.")
    saved = SavedGames(data)
    if load is not None:
        try:
            session: Session | None = Session.load(load, saved.new_path("record"))
        except OSError as error:
            from ..files import describe

            say(f"{load} could not be opened: {describe(error)}.")
            return 2
        except (RecordError, RulesError) as error:
            say(f"{load} is not a game record this program can read: {error}.")
            return 2
    elif setup is not None:
        RecentGames(data).take_finished(saved)
        session = Session.start(setup, saved.new_path(setup.game))
    else:
        session = start_session(say, reader, data, level)
    if session is None:
        say("Goodbye.")
        return 0
    import os

    from ..engine.settings import PLAYOUTS_VARIABLE, SEED_VARIABLE, whole_number

    game = LineGame(
        session,
        say,
        thinker_seed=whole_number(os.environ, SEED_VARIABLE, 0, "abstracts-tui"),
        playouts=whole_number(os.environ, PLAYOUTS_VARIABLE, 1, "abstracts-tui"),
        new_game=lambda: new_session(say, reader, data, level),
        level=level,
    )
    holder.append(game)
    game.run(reader)
    return 0
