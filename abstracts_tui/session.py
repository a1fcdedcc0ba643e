"""A game in progress, as the app (and later the SSH server) sees it.

The session owns the game record (a tree of moves), the node where play stands, the
people and the colours they hold, and the steps before the first move (komi and the
choice of sides). It writes the record to an autosave file after every change, so that a
killed terminal loses no move. No user-interface code here.
"""

from __future__ import annotations

import datetime
import os
import tempfile
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

from .game_setup import Setup
from .records import Record, RecordNode, result_text
from .rules import SWAP, Game, Move, OptionError, Options, game_class
from .rules.base import parse_komi


class Phase(Enum):
    """What the session waits for."""

    KOMI = "komi"
    """The first person sets komi (Linage, Egotzi squared)."""
    SIDE = "side"
    """The second person chooses a colour (Linage, Egotzi squared)."""
    PLAY = "play"


class Session:
    """A game in progress: record, position, people, setup phase and autosave."""

    def __init__(self, record: Record, autosave: Path | None = None) -> None:
        self.record = record
        self.autosave_path = autosave
        self.node: RecordNode = record.root
        self.game: Game = record.new_game()
        self.phase = Phase.PLAY
        self.people = record.players
        """Names of the people who start as the first and the second colour."""
        for node in record.root.mainline():
            self._step_into(node)

    # -- starting -----------------------------------------------------------------------

    @classmethod
    def start(cls, setup: Setup, autosave: Path | None = None) -> Session:
        """A new session; with komi to choose it starts in the KOMI phase (or SIDE if agreed)."""
        info = game_class(setup.game).info
        options = info.options(setup.size, setup.variant, setup.komi)
        record = Record(
            game=info.name,
            options=options,
            players=(setup.first, setup.second),
            date=datetime.date.today().isoformat(),
        )
        session = cls(record, autosave)
        if info.takes_komi(options.variant):
            session.phase = Phase.KOMI if setup.komi is None else Phase.SIDE
        else:
            session.save_autosave()
        return session

    @property
    def chooser(self) -> str:
        """Who decides in the KOMI phase (the first person) or the SIDE phase (the second)."""
        return self.people[0] if self.phase is Phase.KOMI else self.people[1]

    def set_komi(self, text: str | float) -> float:
        """The first person's komi; raises `OptionError` with what is allowed."""
        if self.phase is not Phase.KOMI:
            raise OptionError("komi is set before the first move only")
        info = self.game.info
        komi = parse_komi(text, info.komi_step)
        self._replace_options(Options(self.game.size, self.game.options.variant, komi))
        self.phase = Phase.SIDE
        return komi

    def choose_side(self, colour: int) -> None:
        """The second person takes `colour` (0 moves first); play begins."""
        if self.phase is not Phase.SIDE:
            raise OptionError("sides are chosen before the first move only")
        first, second = self.people
        self.people = (second, first) if colour == 0 else (first, second)
        self.record.players = self.people
        self.phase = Phase.PLAY
        self.save_autosave()

    def _replace_options(self, options: Options) -> None:
        self.record.options = options
        self.game = type(self.game)(options)

    # -- people and colours -----------------------------------------------------------------

    @property
    def swapped(self) -> bool:
        """Whether the pie rule's swap has been played on the way to this position."""
        return SWAP in self.game.moves

    def person(self, colour: int) -> str:
        """The name of the person who holds `colour` now."""
        return self.people[colour ^ self.swapped]

    def turn_text(self) -> str:
        """`Blue to move (Ann)`, or the result once the game is over."""
        game = self.game
        if game.is_over():
            outcome = game.outcome()
            assert outcome is not None
            if outcome.winner is None:
                return "Draw"
            colour = outcome.winner
            return f"{game.colour_name(colour).capitalize()} ({self.person(colour)}) wins"
        colour = game.turn
        return f"{game.colour_name(colour).capitalize()} to move ({self.person(colour)})"

    # -- moves ----------------------------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Play a move (raises the rules' errors and changes nothing if it is not legal).

        A move played after an undo that differs from the move taken back starts the
        new main line; the old one is kept as a variation.
        """
        if self.phase is not Phase.PLAY:
            raise OptionError(
                "set komi first" if self.phase is Phase.KOMI else "choose sides first"
            )
        code = self.game.play(move)
        name = self.game.move_name(code)
        child = self.node.add(name)
        self.node.children.remove(child)
        self.node.children.insert(0, child)
        self.node = child
        self._after_change()
        return code

    def _step_into(self, node: RecordNode) -> None:
        if node.setup is not None:
            self.game = type(self.game).from_position(node.setup)
        if node.move is not None:
            self.game.play(node.move)
        self.node = node

    @property
    def can_undo(self) -> bool:
        return self.node is not self.record.root and self.node.setup is None

    @property
    def can_redo(self) -> bool:
        return bool(self.node.children)

    def undo(self) -> bool:
        """Take back one move; False at the start."""
        if not self.can_undo or not self.game.moves:
            return False
        self.game.undo()
        assert self.node.parent is not None
        self.node = self.node.parent
        self._after_change()
        return True

    def redo(self) -> bool:
        """Play again the move last taken back (the main line's next move); False if none."""
        if not self.can_redo:
            return False
        self._step_into(self.node.children[0])
        self._after_change()
        return True

    def path(self) -> Iterator[RecordNode]:
        """The nodes from the first move to the current one."""
        nodes = []
        node: RecordNode | None = self.node
        while node is not None and node is not self.record.root:
            nodes.append(node)
            node = node.parent
        return reversed(nodes)

    # -- files ----------------------------------------------------------------------------

    def _after_change(self) -> None:
        if self.node_is_last():  # the current line is the main line: its end has the result
            self.record.result = result_text(self.game)
        self.save_autosave()

    def node_is_last(self) -> bool:
        return not self.node.children

    def save(self, path: str | Path) -> None:
        """Write the record to `path` (atomically: a failure leaves any old file whole)."""
        write_atomic(Path(path), self.record.to_sgf())

    def save_autosave(self) -> None:
        if self.autosave_path is not None and self.phase is Phase.PLAY:
            write_atomic(self.autosave_path, self.record.to_sgf())

    def discard_autosave(self) -> None:
        if self.autosave_path is not None:
            self.autosave_path.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | Path, autosave: Path | None = None) -> Session:
        """A session from a record file, at the end of its main line."""
        session = cls(Record.load(path), autosave)
        session.save_autosave()
        return session


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
