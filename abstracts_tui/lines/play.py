"""A game in line mode: commands read a line at a time, every event said once as a line.

`LineGame` holds the session and answers each line typed; it writes through `say` (one
call a line, never an escape sequence) and reads through the reader it is given, so that
the same game runs on a terminal (`lines.terminal`) or on any pair of streams. The
computer's searches are the play model's (`play/searching.py`), on a thread of their own,
which the reading thread waits for between lines; the clock's warnings and its flag
come from a watcher thread, under the same lock as every change of the session, as does
the news that the game is not being saved (a full disk: why), and saved again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..chances import Hint, candidate_chance
from ..engine.levels import DEFAULT_LEVEL, LEVELS
from ..engine.terms import Candidate
from ..files import describe
from ..play.searching import BRIEF_ANALYSIS, Kind, Searcher
from ..play.sentences import (
    NO_HINT,
    NO_HINT_FOUND,
    choosing_words,
    hint_sentence,
    komi_words,
    side_words,
    time_up_words,
)
from ..play.turns import Ask, Turns, side_named
from ..records import RecordError
from ..rules import SWAP, OptionError, RulesError
from ..session import Phase, Session
from ..words import (
    colour,
    komi_question,
    move_words,
    pie_question,
    side_question,
)
from .questions import QUESTIONS, score_lines, seconds_words

Say = Callable[[str], None]
Read = Callable[[], "str | None"]
"""The next line typed, without its end; None at the end of input."""
NewGame = Callable[[], "Session | None"]
"""Asks which game to start next (by lines); None when the person leaves instead."""

WARNINGS = (60.0, 30.0, 10.0)
"""Seconds before the side to move's time runs out at which it is told."""
ANALYSIS_MOVES = 3

HELP = """\
Commands (the short form in brackets):
a move in the game's notation, such as d4, b3-e3, pass or swap: play it.
board (b): the board row by row, from the top.
row N (r N): one row; column X (c X): one column; cell d4 (or d4?): a cell and what is around it.
score (s): the score as it stands, each part.
moves (m): the last 10 moves; moves all: every move.
legal (l): the legal moves, or how many and where.
turn (t): whose turn it is.
undo (u): take back the last move (and the computer's answer); redo: play it again.
computer [SIDE] [LEVEL]: the computer plays SIDE (the side to move if none) from now on,
  at LEVEL (the settings' level if none).
take [SIDE]: you play SIDE instead of the computer (the computer's side if it has one).
hint (h): the computer's move for you.
analyze (a): the computer's best moves, with their win rates.
clock (k): the time each side has left.
swap, play on: the pie rule's choice, when it is offered.
save FILE, load FILE: write the game as a record, or open one.
resign: give up the game.
rules: the rules of this game, in short.
new (n): start another game (this one is kept, as quit keeps it).
help (?): this list. quit (q): leave; a game with a move is kept and offered next time."""

COMMANDS = (
    "board", "row", "column", "cell", "score", "moves", "legal", "turn", "undo", "redo",
    "computer", "take", "hint", "analyze", "clock", "swap", "play on", "save", "load",
    "resign", "rules", "new", "help", "quit",
)  # fmt: skip
SHORT = {
    "b": "board", "r": "row", "c": "column", "s": "score", "m": "moves", "l": "legal",
    "t": "turn", "u": "undo", "h": "hint", "a": "analyze", "analyse": "analyze",
    "k": "clock", "n": "new", "?": "help", "q": "quit", "exit": "quit",
}  # fmt: skip

AFTER_END = (
    "Now: undo (u) takes back the last move, new (n) starts another game, "
    "save FILE keeps the record, quit (q) leaves."
)
"""What can be done once a game is over, said after its end."""


def warning_due(left: float, warned: set[float]) -> float | None:
    """The warning to give with `left` seconds on the clock, if one is due: the nearest
    of `WARNINGS` crossed and not given yet (those crossed are added to `warned`)."""
    crossed = [mark for mark in WARNINGS if left <= mark and mark not in warned]
    warned.update(crossed)
    return min(crossed) if crossed else None


class LineGame:
    """One game played by lines."""

    def __init__(
        self,
        session: Session,
        say: Say,
        *,
        thinker_seed: int | None = None,
        playouts: int | None = None,
        new_game: NewGame | None = None,
        level: str = DEFAULT_LEVEL,
    ) -> None:
        self.session = session
        self.turns = Turns(session)
        """Whose turn it is and what to ask: the same model as the full-screen app's."""
        self.say = say
        self.lock = threading.RLock()
        self.thinker_seed = thinker_seed
        self.playouts = playouts
        """A fixed playout budget for every search (tests), instead of the levels' time."""
        self.searcher = self._searcher(session)
        self.warned: set[float] = set()
        self.watching = threading.Event()
        self.ended_said = False
        self.pie_said = False
        self.turn_said: tuple[int, int] | None = None
        """The session and node whose turn was said last (said again only when it changes)."""
        self.saving_said: str | None = None
        """Why the game is not being saved, as last said (None: it is, or nothing said)."""
        self.new_game = new_game
        self.level = level
        """The computer's level for a side handed to it with none named (the settings')."""
        self.new_asked = False
        """`new` was typed: the game is left to ask for the next one."""

    # -- the loop ---------------------------------------------------------------------

    def run(self, read: Read) -> None:
        """Answer lines until `quit` or the end of input; the game is kept either way."""
        session = self.session
        self.say(f"{self.title()}.")
        session.resume_clock()
        watcher = threading.Thread(target=self._watch_clock, name="line-clock", daemon=True)
        self.watching.set()
        watcher.start()
        try:
            self._next()
            while True:
                line = read()
                if line is None:
                    self.say(f"End of input: {self._left()}")
                    break
                with self.lock:
                    going_on = self.answer(line)
                    if going_on:
                        self._next()
                if going_on:
                    continue
                if not self.new_asked:
                    break
                self.new_asked = False
                assert self.new_game is not None
                new = self.new_game()  # not under the lock: the choice is read line by line
                if new is None:
                    self.say(self._left().capitalize())
                    break
                with self.lock:
                    self._switch(new)
                    self._next()
        finally:
            self.watching.clear()
            with self.lock:
                session.pause_clock()
                session.save_autosave()
                session.flush()

    def title(self) -> str:
        game = self.session.game
        info = game.info
        size = f"side {game.size}" if info.geometry == "hex" else f"{game.size} by {game.size}"
        people = self.session.people
        return f"{info.title}, {size}: {people[0]} against {people[1]}"

    def _next(self) -> None:
        """Say what the game waits for now, letting the computer act first where it is its
        turn (the model's request, as in the full-screen app)."""
        session = self.session
        while True:
            request = self.turns.request()
            if request is not None and request.ask is Ask.COMPUTER:
                if session.phase is Phase.KOMI:
                    self._computer_komi()
                elif session.phase is Phase.SIDE:
                    self._computer_side()
                else:
                    self._computer_move()
                continue
            if session.phase is Phase.KOMI:
                self.say(komi_question(session.game, session.chooser))
                return
            if session.phase is Phase.SIDE:
                self.say(side_question(session.game, session.chooser))
                return
            if session.over:
                if not self.ended_said:
                    self.ended_said = True
                    self._say_end()
                return
            mover = session.person(session.game.turn)
            here = (id(session), id(session.node))
            if here != self.turn_said:  # a question about the position changes no turn
                self.turn_said = here
                self.say(f"{session.turn_text()}.")
            if request is not None and request.ask is Ask.PIE and not self.pie_said:
                self.pie_said = True
                self.say(pie_question(session.game, mover))
            return

    # -- the computer ------------------------------------------------------------------

    def _searcher(self, session: Session) -> Searcher:
        """The computer's searches on `session`, each waited for on the reading thread."""
        return Searcher(session, seed=self.thinker_seed, playouts=self.playouts)

    def _decided(self, name: str) -> tuple[Any, float]:
        """The computer's decision (komi, a side or a move) for `name`, at its level, said
        first to be coming, and the seconds it took."""
        session, searcher = self.session, self.searcher
        level = session.level(name)
        self.say(choosing_words(name, level, session.phase))
        job = searcher.computer_turn(level)
        return searcher.wait(job), job.thought

    def _computer_komi(self) -> None:
        session = self.session
        who = session.chooser
        komi, _ = self._decided(who)
        session.set_komi(komi)
        self.say(komi_words(who, komi))

    def _computer_side(self) -> None:
        session = self.session
        who = session.chooser
        side, _ = self._decided(who)
        session.choose_side(side)
        self.say(side_words(who, session.game, side))

    def _computer_move(self) -> None:
        session = self.session
        move, thought = self._decided(session.person(session.game.turn))
        self._play(move, thought)

    # -- answering a line ----------------------------------------------------------------

    def answer(self, line: str) -> bool:
        """Answer one line; False when it asks to leave."""
        text = " ".join(line.split())
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        if text.lower() == "play on":
            return self._play_on()
        command = SHORT.get(word, word)
        if text.endswith("?") and len(text) > 1:
            command, rest = "cell", text[:-1]
        question = QUESTIONS.get(command)
        if question is not None:
            question(self.session, rest, self.say)
            return True
        handler = getattr(self, f"_{command}", None) if command in COMMANDS else None
        if handler is not None:
            result = handler(rest)
            return result is not False
        return self._typed(text)

    def _typed(self, text: str) -> bool:
        session = self.session
        if session.phase is Phase.KOMI:
            self._komi(text)
        elif session.phase is Phase.SIDE:
            self._side(text)
        else:
            self._move(text)
        return True

    def _komi(self, text: str) -> None:
        session = self.session
        number = text.removeprefix("komi").strip()
        if session.phase is not Phase.KOMI:
            self.say("Komi is set before the first move only.")
            return
        who = session.chooser
        try:
            komi = session.set_komi(number)
        except OptionError as error:
            self.say(f"Not set: {error}.")
            return
        self.say(komi_words(who, komi))

    def _side(self, text: str) -> None:
        session = self.session
        if session.phase is not Phase.SIDE:
            self.say("Sides are chosen before the first move only.")
            return
        game = session.game
        choice = side_named(game, text)
        if choice is None:
            self.say(f"Type first for {colour(game, 0)} or second for {colour(game, 1)}.")
            return
        who = session.chooser
        session.choose_side(choice)
        self.say(side_words(who, game, choice))

    def _move(self, text: str) -> None:
        session = self.session
        if session.over:
            self.say(f"The game is over. {AFTER_END}")
            return
        try:
            move = session.game.parse_move(text)
        except RulesError as error:
            self.say(f"Not understood: {error}. Type help for the commands.")
            return
        reason = session.game.illegal_reason(move)
        if reason is not None:
            self.say(f"Not played: {reason}.")
            return
        self._play(move)

    def _play(self, move: int, thought: float | None = None) -> None:
        """Play `move` and say it (`thought`: the seconds the computer took over it)."""
        session = self.session
        before = session.game.copy()
        person = session.person(before.turn)
        try:
            session.play(move)
        except (RulesError, OptionError) as error:
            self.say(f"Not played: {error}.")
            return
        self.warned.clear()
        self.say(move_words(before, session.game, move, person, thought))

    def _say_end(self) -> None:
        session = self.session
        self.say(f"The game is over. {session.turn_text()}.")
        for line in score_lines(session.game):
            self.say(line)
        self.say(AFTER_END)

    # -- the commands --------------------------------------------------------------------

    def _help(self, rest: str) -> None:
        for line in HELP.splitlines():
            self.say(line)

    def _quit(self, rest: str) -> bool:
        if self.session.over or self.session.record.result:
            self.say("Goodbye.")
        elif self.session.kept:
            self.say("The game is kept: it is offered again next time.")
        else:
            self.say(self._left().capitalize())
        return False

    def _left(self) -> str:
        """What becomes of the game left, as a sentence."""
        if self.session.over:
            return "the game is over."
        if self.session.kept:
            return "the game is kept."
        return "the game had no move, so it is not kept."

    def _undo(self, rest: str) -> None:
        self._stepped(self.turns.undo())

    def _redo(self, rest: str) -> None:
        self._stepped(self.turns.redo())

    def _stepped(self, said: str) -> None:
        """Say what undo or redo did; the end, the pie rule and the turn are said again
        as they come (the sentence says whose turn it is now)."""
        session = self.session
        self.ended_said = session.over
        self.pie_said = False
        if not session.over:
            self.turn_said = (id(session), id(session.node))
        self.say(said)

    def _computer(self, rest: str) -> None:
        """`computer [SIDE] [LEVEL]`: hand a side (the side to move by default) to the
        computer, at a level (the default level if none is named)."""
        session = self.session
        side: int | None = session.game.turn
        level = self.level
        for word in rest.lower().split():
            if word in LEVELS:
                level = word
            elif (side := side_named(session.game, word)) is None:
                break
        if side is None:
            names = f"{colour(session.game, 0)} or {colour(session.game, 1)}"
            self.say(f"Type computer, a side ({names}) and a level ({', '.join(LEVELS)}).")
            return
        self.say(self.turns.hand_to_computer(side, level))

    def _take(self, rest: str) -> None:
        """`take [SIDE]`: play a side instead of the computer (its only side by default)."""
        session = self.session
        computers = self.turns.computer_sides()
        side = side_named(session.game, rest) if rest.strip() else None
        if side is None and not rest.strip() and len(computers) == 1:
            side = computers[0]
        if side is None:
            names = f"{colour(session.game, 0)} or {colour(session.game, 1)}"
            self.say(f"Type take and the side to play ({names}).")
            return
        self.say(self.turns.take_over(side))

    def _hint(self, rest: str) -> None:
        session = self.session
        if session.phase is not Phase.PLAY or session.over:
            self.say(NO_HINT)
            return
        found = self._search(Kind.HINT)
        hint = found[0] if found else None
        if not isinstance(hint, Hint):
            self.say(NO_HINT_FOUND)
            return
        self.say(hint_sentence(session.game, hint))

    def _analyze(self, rest: str) -> None:
        session = self.session
        if session.phase is not Phase.PLAY or session.over:
            self.say("Nothing to analyze: there is no move to play now.")
            return
        self.say("Analyzing for 3 seconds.")
        found = sorted(self._search(Kind.ANALYSIS), key=lambda c: -c.visits)
        for number, candidate in enumerate(found[:ANALYSIS_MOVES], start=1):
            self.say(f"{number}. " + candidate_chance(session.game, candidate))

    def _search(self, kind: Kind) -> list[Candidate]:
        """The candidates of a search of the position (a hint's: its best one), best
        first."""
        searcher = self.searcher
        budget = BRIEF_ANALYSIS if kind is Kind.ANALYSIS else None
        found: list[Candidate] | None = searcher.wait(searcher.analyse(kind, budget))
        return found or []

    def _swap(self, rest: str) -> None:
        session = self.session
        if SWAP not in session.game.legal_moves():
            self.say("No swap now: it is offered to the second player after the first move.")
            return
        self._play(SWAP)

    def _play_on(self) -> bool:
        session = self.session
        if SWAP not in session.game.legal_moves():
            self.say("There is no swap to decline now.")
        else:
            self.say(f"{session.person(session.game.turn)} plays on: type a move.")
        return True

    def _save(self, rest: str) -> None:
        path = Path(rest.strip()).expanduser() if rest.strip() else None
        if path is None:
            self.say("Type save and a file name, such as save game.sgf.")
            return
        try:
            self.session.save(path)
        except OSError as error:
            self.say(f"Not saved: {describe(error)}.")
            return
        self.say(f"Saved to {path}.")

    def _load(self, rest: str) -> None:
        from ..saved_games import SavedGames, data_dir

        path = Path(rest.strip()).expanduser() if rest.strip() else None
        if path is None:
            self.say("Type load and a file name.")
            return
        old = self.session
        autosave = old.autosave_path
        folder = autosave.parent.parent if autosave is not None else data_dir()
        try:
            new = Session.load(path, SavedGames(folder).new_path(old.record.game))
        except (OSError, RecordError, RulesError) as error:
            reason = describe(error) if isinstance(error, OSError) else str(error)
            self.say(f"Not opened: {reason}.")
            return
        self._switch(new, f"Opened {path}")

    def _new(self, rest: str) -> bool:
        if self.new_game is None:
            self.say("Type quit, then start the program again for another game.")
            return True
        if not self.session.over:
            self.say(self._left().capitalize())
        self.new_asked = True
        return False

    def _switch(self, new: Session, opened: str | None = None) -> None:
        """Play `new` from now on; the game before is kept (unless it has no move)."""
        old = self.session
        old.pause_clock()
        old.save_autosave()
        kept = old.kept
        self.searcher.cancel_all()
        self.session = new
        self.turns = Turns(new)
        self.searcher = self._searcher(new)
        self.ended_said = self.pie_said = False
        self.warned.clear()
        new.resume_clock()
        if opened is not None and kept:
            self.say(f"{opened}; the game before is kept in the games in progress.")
        elif opened is not None:
            self.say(f"{opened}.")
        self.say(f"{self.title()}.")

    def _resign(self, rest: str) -> None:
        session = self.session
        if session.phase is not Phase.PLAY or session.over:
            self.say("There is no game to resign.")
            return
        game = session.game
        loser = game.turn
        try:
            session.resign(loser)  # `orange+R`, as a room's resignation; the clock stops
        except OptionError as error:
            self.say(f"{str(error).capitalize()}.")
            return
        self.ended_said = True
        self.say(
            f"{colour(game, loser)} ({session.person(loser)}) resigns: "
            f"{colour(game, 1 - loser)} ({session.person(1 - loser)}) wins."
        )
        self.say(AFTER_END)

    # -- the clock's watcher -------------------------------------------------------------

    def _watch_clock(self) -> None:
        while self.watching.is_set():
            time.sleep(0.2)
            with self.lock:
                if not self.watching.is_set():
                    return
                self._tell_saving()
                self._clock_tick()

    def _tell_saving(self) -> None:
        """Say once when the game stops being saved, and why, and once when it is saved
        again (its autosave tries again meanwhile: the game goes on)."""
        problem = self.session.save_problem
        if problem == self.saving_said:
            return
        if problem is not None:
            self.say(f"Not being saved: {problem.rstrip('.')}. Play goes on.")
        elif self.saving_said is not None:
            self.say("The game is being saved again.")
        self.saving_said = problem

    def _clock_tick(self) -> None:
        session = self.session
        clock = session.clock
        if clock is None or clock.running is None or session.over:
            return
        if session.check_flag():
            self.ended_said = True
            self.say(time_up_words(session))
            self.say(AFTER_END)
            return
        left = clock.seconds_to_flag(session.now())
        if left is None:
            return
        due = warning_due(left, self.warned)
        if due is not None:
            mover = session.game.turn
            self.say(
                f"{colour(session.game, mover)} ({session.person(mover)}): "
                f"{seconds_words(due)} left."
            )
