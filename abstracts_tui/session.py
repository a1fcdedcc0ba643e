"""A game in progress, as the app (and later the SSH server) sees it.

The session owns the game record (a tree of moves), the node where play stands, the
people and the colours they hold, and the steps before the first move (komi and the
choice of sides). It writes the record to an autosave file after every change (off the
caller's thread, see `files.Autosave`), so that a killed terminal loses no move. What is
written is the game as shown: the record remembers the node shown (it opens there), and
a move taken back in play leaves the record (it is kept here for redo, or put back as a
variation when another move is played instead). A disk that refuses the file never
stops the game: `save_problem` says why it is not being saved. With a time control the
session owns the clock (see `clocks.py`): it is charged from `now()` at each move, taken
back with the move, and a flag ends the game. A session kept elsewhere than a file of
its own (an SSH room, in the server's store) is given `saving`, which turns each change
into the work that saves it. No user-interface code here.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TypeAlias

from .clock import Clock, SideTime, TimeControl, first_move_seconds
from .clocks import sides_at, time_left_after
from .files import Autosave, write_atomic
from .game_setup import Setup
from .records import Record, RecordNode, result_text
from .records.results import DRAW, VOID, Decided, How, decided, forfeited, resigned
from .records.timing import ON_TIME
from .rules import SWAP, Game, Move, OptionError, Options, game_class
from .rules.catalogue import parse_komi
from .subscribers import Subscribers


class Phase(Enum):
    """What the session waits for."""

    KOMI = "komi"
    """The first person sets komi (Linage, Egotzi squared)."""
    SIDE = "side"
    """The second person chooses a colour (Linage, Egotzi squared)."""
    PLAY = "play"


Saving: TypeAlias = "Callable[[Session, str], Callable[[], object]]"
"""How a session is saved when not to a file of its own: given the session and its
record's text, on the caller's thread (a snapshot), the work that saves them, run on the
autosave's writer thread."""


class Change(Enum):
    """What changed in a session, as its listeners are told."""

    MOVE = "move"
    """A move was played: the node shown is a new last child of the one shown before."""
    STEP = "step"
    """Another node is shown (undo, redo, stepping, a variation): the line may differ."""
    TREE = "tree"
    """The tree changed around the node shown (promotion, deletion, a comment)."""
    SETUP = "setup"
    """A position was set up."""
    PHASE = "phase"
    """Komi was set, a side chosen, or the people named."""
    FLAG = "flag"
    """The side to move ran out of time: the game is lost on time."""
    END = "end"
    """The game was resigned or called off (aborted)."""
    SEATS = "seats"
    """A side was handed to the computer or taken over from it (`set_level`)."""
    OFFER = "offer"
    """An offer was made, answered or withdrawn in the room that holds the session (its
    terms changed, see `rooms.terms`): its screens draw them again."""


@dataclass(frozen=True)
class Changed:
    """One change of a session: what it was, and for a move who made it."""

    change: Change
    mover: int | None = None
    """The colour that made the move (MOVE only)."""
    by: str | None = None
    """The person who made the move or the choice, when the session knows."""
    move: str | None = None
    """The move's name (MOVE only): a listener told later than the change (a screen's
    queue, several moves caught up at once) names the move made, not the last one."""


LOST = {How.TIME: "lost on time", How.FORFEIT: "left the game"}
"""How a person lost a game decided off the board, but by resigning, in words."""


class Session:
    """A game in progress: record, position, people, setup phase and autosave."""

    def __init__(
        self, record: Record, autosave: Path | None = None, *, saving: Saving | None = None
    ) -> None:
        self.record = record
        self.autosave = Autosave(autosave, self._saving_changed) if autosave else None
        """Where the game is written after every change (None: not saved): the file, or
        with `saving` the store it goes to, as the player is told."""
        self.saving = saving
        self.saving_listeners: Subscribers[[]] = Subscribers()
        """Told, from the autosave's writer thread, when `save_problem` changes (and by a
        room that holds the session, when its keeper's trouble does: `rooms.terms`)."""
        self.node = record.opening_node()
        self.game: Game = record.game_at(self.node)  # from the last setup on the way only
        self.taken_back: dict[RecordNode, list[tuple[RecordNode, int]]] = {}
        """Moves taken back in play, out of the record: for a node, the children taken
        back there (the last taken back last), each with its place among the node's
        children. `redo` there plays the last one again; another move played there puts
        them back as variations."""
        self.phase = Phase.PLAY
        self.people = record.players
        """Names of the people who start as the first and the second colour."""
        self.now: Callable[[], float] = time.monotonic
        """The clock's source of seconds (any that only goes forward)."""
        self.clock: Clock | None = Clock(record.clock) if record.clock is not None else None
        self.clock_paused = True
        """Whether the clock is held (until `resume_clock`: a game left, analysis)."""
        self.first_moves_free = False
        """Whether the clocks wait until each person has made a move (an online room's
        game, as on lichess): meanwhile the side to move has `clock.first_move_seconds`
        for its first move from the moment it was due, or the game is aborted."""
        self.first_move_due = -1
        """The move number at which the first move waited for became due (`clock.started`
        is that moment); -1: none is due."""
        self.live: tuple[RecordNode, list[SideTime] | None] | None = None
        """The position of play, kept while analysis shows others (`hold_live`): its node
        and both sides' times then."""
        self.listeners: Subscribers[[Changed]] = Subscribers()
        """Told after every change of the position or the phase with what changed (the
        screens showing this session redraw that; over SSH several screens show one
        session)."""
        self._reset_clock()

    @property
    def node(self) -> RecordNode:
        """The node shown; the record remembers it (`Record.shown`), so that the game
        written is the game as shown and opens there again."""
        return self._node

    @node.setter
    def node(self, node: RecordNode) -> None:
        self._node = node
        self.record.shown = node

    # -- starting -----------------------------------------------------------------------

    @classmethod
    def start(
        cls, setup: Setup, autosave: Path | None = None, *, saving: Saving | None = None
    ) -> Session:
        """A new session; with komi to choose it starts in the KOMI phase (or SIDE if agreed)."""
        info = game_class(setup.game).info
        options = info.options(setup.size, setup.variant, setup.komi)
        record = Record(
            game=info.name,
            options=options,
            players=(setup.first, setup.second),
            date=datetime.date.today().isoformat(),
            clock=TimeControl.parse(setup.clock) if setup.clock else None,
        )
        for name, level in ((setup.first, setup.first_level), (setup.second, setup.second_level)):
            if level is not None:
                record.computers[name] = level
        session = cls(record, autosave, saving=saving)
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
        self.notify(Changed(Change.PHASE, by=self.people[0]))
        return komi

    def choose_side(self, colour: int) -> None:
        """The second person takes `colour` (0 moves first); play begins."""
        if self.phase is not Phase.SIDE:
            raise OptionError("sides are chosen before the first move only")
        first, second = self.people
        self.people = (second, first) if colour == 0 else (first, second)
        self.record.players = self.people
        if colour == 0:
            self.reverse_clock()
        self.phase = Phase.PLAY
        self._run_clock()
        self.save_autosave()
        self.notify(Changed(Change.PHASE, by=second))

    def reverse_clock(self) -> None:
        """The people's seats were reversed before play: with time odds each keeps their
        own time control (a clock follows its person, see `clock.TimeControl.odds`)."""
        control = self.record.clock
        if control is None or control.odds is None:
            return
        self.record.clock = control.swapped()
        if self.clock is not None:
            self.clock.control = self.record.clock
            self.clock.sides.reverse()

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

    def level(self, name: str) -> str | None:
        """The strength level if `name` is a computer player, else None."""
        return self.record.computers.get(name)

    def set_level(self, name: str, level: str | None) -> None:
        """Hand `name`'s side to the computer at `level`, or with None to a person at this
        screen; kept in the record (a resumed game keeps it) and told as `Change.SEATS`."""
        if level is None:
            self.record.computers.pop(name, None)
        else:
            self.record.computers[name] = level
        self.save_autosave()
        self.notify(Changed(Change.SEATS, by=name))

    def waiting_for(self) -> str | None:
        """The name of who must act now (komi, side or move); None once the game is over."""
        if self.phase is not Phase.PLAY:
            return self.chooser
        if self.over:
            return None
        return self.person(self.game.turn)

    @property
    def over(self) -> bool:
        """Whether the game is over here: by the rules, on time, by a resignation, or
        called off."""
        return self.game.is_over() or self.ended() is not None

    def ended(self) -> Decided | None:
        """How the game was decided off the board (on time, by a resignation, called
        off), at the end of the main line of such a game; None elsewhere."""
        found = decided(self.record.result, self.game.info.colours)
        if found is None and self.record.result == DRAW and not self.game.is_over():
            found = Decided(How.AGREED, None)  # a draw before the end of play: agreed
        if found is None or not self.node_is_last() or not self.on_main_line():
            return None
        return found

    def time_winner(self) -> int | None:
        """The colour that won on time, at the end of the main line of a game lost on
        time; None elsewhere."""
        found = self.ended()
        return found.winner if found is not None and found.how is How.TIME else None

    def turn_text(self) -> str:
        """`Blue to move (Ann)`, or the result once the game is over."""
        game = self.game
        found = self.ended()
        if found is not None and found.how is How.AGREED:
            return "Draw agreed"
        if found is not None and found.winner is None:
            return "Aborted: no result"
        if found is not None:
            assert found.winner is not None
            winner, loser = found.winner, 1 - found.winner
            lost = LOST.get(found.how, "resigned")
            return (
                f"{game.colour_name(loser).capitalize()} ({self.person(loser)}) {lost}: "
                f"{game.colour_name(winner).capitalize()} ({self.person(winner)}) wins"
            )
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

    def play(self, move: Move | str, *, branch: bool = False) -> Move:
        """Play a move (raises the rules' errors and changes nothing if it is not legal).

        A move already in the tree here is followed (a move taken back here and played
        again is that move again). Otherwise, in play, a new move after an undo starts the
        new main line and the old one is kept as a variation (the moves taken back here
        too, after it); with `branch` (analysis) the new move starts a variation and the
        main line stays.
        """
        if self.phase is not Phase.PLAY:
            raise OptionError(
                "set komi first" if self.phase is Phase.KOMI else "choose sides first"
            )
        now = self.now()
        if self.check_flag(now) or (self.ended() is not None and not branch):
            raise OptionError(f"the game is over: {self.ended_text()}")
        mover = self.game.turn
        by = self.person(mover)
        side = mover ^ self.swapped
        code = self.game.play(move)
        name = self.game.move_name(code)
        again = self._take_again(name)
        if again is not None:
            self.node.children.insert(len(self.node.children) if branch else 0, again)
            child = again
        else:
            known = any(c.move == name and c.setup is None for c in self.node.children)
            child = self.node.add(name)
            if not known and not branch:
                self.node.children.remove(child)
                self.node.children.insert(0, child)
        if not branch:
            self._restore_taken_back(self.node)
        self.node = child
        clock = self.clock
        if clock is not None and not branch and clock.running == side:
            clock.moved(now, self.game.turn ^ self.swapped)
            child.time_left = time_left_after(clock, side, mover)
            if self.game.is_over():
                clock.stop(now)
        self._after_change(Changed(Change.MOVE, mover, by, name), main_line=True)
        if not branch:
            self._run_clock()  # a new line from inside a finished game: its clocks go on
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
        return bool(self.taken_back.get(self.node) or self.node.children)

    def undo(self) -> bool:
        """Take back one move (in play); False at the start.

        The last move of its line leaves the record (the autosave and a saved file no
        longer hold it) and is kept for `redo`; a move inside a line (a record opened
        inside its line) stays, and this is a step back.
        """
        if not self.can_undo or not self.game.moves:
            return False
        if self.ended() is not None:
            return False  # a game lost on time, resigned or called off is over for good
        node = self.node
        parent = node.parent
        assert parent is not None
        taken_back = not node.children
        if taken_back:
            self.taken_back.setdefault(parent, []).append((node, parent.children.index(node)))
            parent.children.remove(node)
        self._step_back(main_line=taken_back)
        return True

    def redo(self) -> bool:
        """Play again the move last taken back here, with its clock times (the line's
        next move if none was taken back here); False if none."""
        kept = self.taken_back.get(self.node)
        if not kept:
            return self.forward()
        child, place = kept.pop()
        if not kept:
            del self.taken_back[self.node]
        self.node.children.insert(place, child)
        self._step_into(child)
        self._reset_clock()
        self._after_change(Changed(Change.STEP), main_line=True)
        return True

    def forward(self) -> bool:
        """One move on along the line (the node's first child); False at its end."""
        if not self.node.children:
            return False
        self._step_into(self.node.children[0])
        self._reset_clock()
        self._after_change(Changed(Change.STEP))
        return True

    def _step_back(self, main_line: bool = False) -> None:
        """To the parent of a move node, taking the move back on the game."""
        self.game.undo()
        assert self.node.parent is not None
        self.node = self.node.parent
        self._reset_clock()
        self._after_change(Changed(Change.STEP), main_line=main_line)

    def _take_again(self, name: str) -> RecordNode | None:
        """The move `name` if it was taken back here (out of the kept ones), else None."""
        kept = self.taken_back.get(self.node, [])
        for index, (node, _) in enumerate(kept):
            if node.move == name:
                del kept[index]
                if not kept:
                    del self.taken_back[self.node]
                return node
        return None

    def _restore_taken_back(self, node: RecordNode) -> None:
        """The lines taken back at `node` return to the tree as its last variations (with
        the moves taken back below them): nothing is lost while the session lives."""
        todo = [node]
        while todo:
            parent = todo.pop()
            for child, _ in self.taken_back.pop(parent, []):
                parent.children.append(child)
                todo.append(child)

    def path(self) -> Iterator[RecordNode]:
        """The nodes from the first move to the current one."""
        return iter(self.node.line())

    # -- stepping through the tree (analysis) -------------------------------------------

    def hold_live(self) -> None:
        """Keep the position of play, and both clocks as they stand, to come back to
        (`back_to_live`) after analysis has shown other positions."""
        self.live = (self.node, list(self.clock.sides) if self.clock is not None else None)

    def _in_tree(self, node: RecordNode) -> bool:
        """Whether `node` is still in the record (a deleted variation's nodes are not)."""
        while node.parent is not None:
            if not any(child is node for child in node.parent.children):
                return False
            node = node.parent
        return node is self.record.root

    def back_to_live(self) -> None:
        """Show the position kept by `hold_live` again, the clocks as they were then (the
        variations tried meanwhile stay in the record); the end of the main line if that
        position was deleted meanwhile."""
        if self.live is None:
            return
        node, sides = self.live
        self.live = None
        if not self._in_tree(node):
            node, sides = (list(self.record.root.mainline()) or [self.record.root])[-1], None
        self.go_to(node)
        if sides is not None and self.clock is not None:
            self.clock.sides = sides

    def go_to(self, node: RecordNode) -> None:
        """Show the position at `node` (any node of the tree)."""
        if node is self.node:
            return
        self.game = self.record.game_at(node)
        self.node = node
        self._reset_clock()
        self._after_change(Changed(Change.STEP))

    def line_nodes(self) -> list[RecordNode]:
        """The current line: from the first move through this node to its last first child."""
        return self.node.line() + list(self.node.mainline())

    def movers(self, nodes: list[RecordNode]) -> list[int | None]:
        """The colour that made each move of the line `nodes` (from the root's first
        child on); None for a node without a move (a position set up)."""
        game = self.record.new_game()
        colours = game.info.colours
        turn = game.turn
        found: list[int | None] = []
        for node in nodes:
            if node.setup is not None:
                turn = colours.index(node.setup.split(" ")[3])
            found.append(turn if node.move is not None else None)
            if node.move is not None:
                # After the pie rule's swap the colour that swapped moves again.
                turn = turn if node.move == "swap" else 1 - turn
        return found

    def move_number(self) -> int:
        """How many nodes from the root the current one is (0 at the start)."""
        return len(self.node.line())

    def jump(self, number: int) -> bool:
        """Go to the position after move `number` of the current line; False if none."""
        nodes = self.line_nodes()
        if not 0 <= number <= len(nodes):
            return False
        self.go_to(nodes[number - 1] if number else self.record.root)
        return True

    def back(self) -> bool:
        """One node up the tree (setup nodes included); False at the start."""
        parent = self.node.parent
        if parent is None:
            return False
        if self.node.setup is None and self.game.moves:
            self._step_back()  # a step, never a takeback: the line stays as it is
        else:  # a setup node: the position above it is replayed
            self.go_to(parent)
        return True

    def variations(self) -> list[RecordNode]:
        """The current node and its alternatives: the children of its parent."""
        parent = self.node.parent
        return [self.node] if parent is None else list(parent.children)

    def switch_variation(self, step: int) -> bool:
        """Go to the next (`step` 1) or previous (-1) alternative to the current move."""
        siblings = self.variations()
        if len(siblings) < 2:
            return False
        index = siblings.index(self.node)
        self.go_to(siblings[(index + step) % len(siblings)])
        return True

    def on_main_line(self) -> bool:
        """Whether the current node lies on the main line (first children from the root)."""
        return self.node.on_main_line()

    def delete_variation(self) -> bool:
        """Remove the current node and everything after it, going to its parent; the main
        line itself cannot be deleted this way (False)."""
        parent = self.node.parent
        if parent is None or parent.children[0] is self.node:
            return False
        parent.children.remove(self.node)
        self.go_to(parent)
        return True

    def promote(self) -> bool:
        """Make the current line the main line; False if it already is."""
        if self.on_main_line():
            return False
        for node in self.path():
            assert node.parent is not None
            node.parent.children.remove(node)
            node.parent.children.insert(0, node)
        self._after_change(Changed(Change.TREE), main_line=True)
        return True

    def set_comment(self, text: str) -> None:
        """The comment of the current node (the root's is the game's comment)."""
        self.node.comment = text.strip()
        self._after_change(Changed(Change.TREE))

    def set_up(self, position: str) -> None:
        """Continue from `position` (checked by the rules; raises `PositionError`): a setup
        node after the current one, or the start position itself on an empty record."""
        game = type(self.game).from_position(position)
        if game.options != self.game.options:
            raise OptionError("a set-up position keeps the game's size, variant and komi")
        text = game.position()
        if self.node is self.record.root and not self.node.children:
            self.record.root.setup = text
            self.game = self.record.new_game()
        else:
            self.node = self.node.add(setup=text)
            self.game = self.record.game_at(self.node)
        self._reset_clock()
        if self.live is not None:  # a position set up is where play goes on
            self.live = (self.node, None)
        self._after_change(Changed(Change.SETUP), main_line=True)

    # -- the clock --------------------------------------------------------------------------

    def side_to_move(self) -> int:
        """The person to move: 0 the first, 1 the second (clocks follow people, not
        colours, through a swap)."""
        return self.game.turn ^ self.swapped

    def _reset_clock(self) -> None:
        """Both clocks as they were when the position shown was reached (after an undo,
        as before the move taken back), the side to move's running unless paused."""
        clock = self.clock
        if clock is None:
            return
        clock.sides = sides_at(clock.control, self.node)
        clock.running = None
        self._run_clock()

    def _run_clock(self) -> None:
        clock = self.clock
        if clock is None or self.clock_paused or self.phase is not Phase.PLAY or self.over:
            return
        if self.record.result:  # a finished game's clocks never run again
            return
        if clock.running is not None:
            return
        if self.first_moves_free and not self.each_moved():
            if self.first_move_due != self.move_number():  # a first move newly due
                self.first_move_due = self.move_number()
                clock.started = self.now()
            return
        self.first_move_due = -1
        clock.start(self.side_to_move(), self.now())

    def each_moved(self) -> bool:
        """Whether each person has made a move in the line played (the pie rule's swap
        followed: the person who swapped holds the first colour from then on)."""
        nodes = self.node.line()
        made: set[int] = set()
        swapped = False
        for node, colour in zip(nodes, self.movers(nodes), strict=True):
            if colour is not None:
                made.add(colour ^ swapped)
                swapped = swapped or node.move == "swap"  # the pie rule's, by its name
        return len(made) == 2

    def first_move_left(self, now: float) -> float | None:
        """Seconds left for the first move due (`first_moves_free`), None if none is."""
        clock = self.clock
        if clock is None or clock.running is not None or self.first_move_due < 0:
            return None
        if clock.held is not None:  # the room's store keeps no change: nothing is due
            return None
        if self.over or self.phase is not Phase.PLAY or self.clock_paused:
            return None
        return max(0.0, clock.started + first_move_seconds(clock.control) - now)

    def use_time(self, now: Callable[[], float]) -> None:
        """Take the clock's seconds from `now` from here on (a running clock goes on
        from this moment, charged nothing for the change)."""
        self.now = now
        clock = self.clock
        if clock is not None and clock.running is not None:
            clock.start(clock.running, now())

    def pause_clock(self) -> None:
        """Hold the clock, charging the time used so far (a game left, analysis)."""
        if self.clock is not None:
            self.clock.stop(self.now())
        self.clock_paused = True

    def resume_clock(self) -> None:
        """Let the side to move's clock run again, from the time it had left."""
        self.clock_paused = False
        self._run_clock()

    def check_flag(self, now: float | None = None) -> bool:
        """End the game if the side to move's time has run out: the record's result
        becomes the other colour's win on time (or, when its first move was not made in
        time, `first_move_left`, the game is aborted: no result). Whether it did (just
        now)."""
        clock = self.clock
        if clock is None:
            return False
        now = self.now() if now is None else now
        if self.first_move_left(now) == 0.0:  # no first move in time: aborted
            self._end(VOID, now, None)
            return True
        loser = clock.flagged(now)
        if loser is None:
            return False
        clock.stop(now)
        winner = 1 - (loser ^ self.swapped)
        self.record.result = f"{self.game.colour_name(winner)}+{ON_TIME}"
        self.save_autosave()
        self.notify(Changed(Change.FLAG))
        return True

    # -- ends off the board, and take-backs agreed (shared games) ------------------------------

    def ended_text(self) -> str:
        """`ann lost on time`, `ann resigned`, `it was aborted` for a game decided off the
        board; the empty text for any other."""
        found = self.ended()
        if found is None:
            return ""
        if found.how is How.AGREED:
            return "a draw was agreed"
        if found.winner is None:
            return "it was aborted"
        loser = self.person(1 - found.winner)
        if found.how is How.FORFEIT:
            return f"{loser} left the game"
        return f"{loser} lost on time" if found.how is How.TIME else f"{loser} resigned"

    def resign(self, colour: int, at: float | None = None) -> None:
        """The person holding `colour` gives up: the other colour wins (`orange+R`), the
        clock stops (at `at`, by `now` if None) and the game is over on every screen.
        Raises OptionError, changing nothing, when there is no game in progress here."""
        if self.phase is not Phase.PLAY or self.over:
            raise OptionError("there is no game in progress to resign")
        self._end(resigned(self.game.colour_name(1 - colour)), at, self.person(colour))

    def forfeit(self, winner: int, at: float | None = None, by: str | None = None) -> None:
        """The person holding `winner` claims the game from the other, who left it (`by`:
        who claimed): `winner` wins (`blue+F`), the clock stops. Raises OptionError,
        changing nothing, when there is no game in progress here."""
        if self.phase is not Phase.PLAY or self.over:
            raise OptionError("there is no game in progress to claim")
        self._end(forfeited(self.game.colour_name(winner)), at, by)

    def agree_draw(self, at: float | None = None, by: str | None = None) -> None:
        """End the game drawn, as both players agreed (`by`: who accepted the offer): the
        result `draw`, the clock stopped. Raises OptionError, changing nothing, when
        there is no game in progress here."""
        if self.phase is not Phase.PLAY or self.over:
            raise OptionError("there is no game in progress to draw")
        self._end(DRAW, at, by)

    def abort(self, at: float | None = None, by: str | None = None) -> None:
        """Call the game off: no result (`Void`), no winner, unrated; komi and sides, if
        they were being chosen, are chosen no more. Raises OptionError, changing
        nothing, once it is over. (Whether it may be called off is the caller's rule:
        a shared game only before each side has moved, see `rooms.play`.) `by`: who
        called it off, as the screens are told."""
        if self.over:
            raise OptionError("the game is over already")
        self.phase = Phase.PLAY
        self._end(VOID, at, by)

    def _end(self, result: str, at: float | None, by: str | None) -> None:
        if not (self.node_is_last() and self.on_main_line()):
            raise OptionError("the game is decided at the end of its main line only")
        if self.clock is not None:
            self.clock.stop(self.now() if at is None else at)
        self.record.result = result
        self.save_autosave()
        self.notify(Changed(Change.END, by=by))

    def take_back(self, count: int, at: float | None = None) -> None:
        """Take the last `count` moves of the game out of its record for good (a
        take-back both players agreed to): unlike `undo` they are not kept to be played
        again. The clocks go back to as they were before those moves (the record's
        times), the side to move's running from `at` (by `now` if None). Raises
        OptionError, changing nothing, when the game is over or has not that many moves
        of play at the end of its main line."""
        nodes = self.node.line()
        if self.over or not self.node_is_last() or not self.on_main_line():
            raise OptionError("only a game in progress can be taken back, at its end")
        if not 0 < count <= len(nodes) or any(n.setup is not None for n in nodes[-count:]):
            raise OptionError(f"there are not {count} moves to take back")
        for node in reversed(nodes[-count:]):
            assert node.parent is not None
            node.parent.children.remove(node)
            self.game.undo()
            self.node = node.parent
        self._reset_clock()
        clock = self.clock
        if at is not None and clock is not None and clock.running is not None:
            clock.start(clock.running, at)
        self._after_change(Changed(Change.STEP), main_line=True)

    # -- files ----------------------------------------------------------------------------

    def _after_change(self, changed: Changed, main_line: bool = False) -> None:
        """Save and tell the listeners; with `main_line` (a move, a promotion, a setup:
        the main line may have changed) the record's result is found again first."""
        if main_line and decided(self.record.result, self.game.info.colours) is None:
            on_its_end = self.node_is_last() and self.on_main_line()
            self.record.result = result_text(self.game if on_its_end else self.record.main_game())
        self.save_autosave()
        self.notify(changed)

    def notify(self, changed: Changed) -> None:
        """Tell every listener what changed."""
        self.listeners(changed)

    def node_is_last(self) -> bool:
        return not self.node.children

    def save(self, path: str | Path) -> None:
        """Write the record to `path` (atomically: a failure leaves any old file whole)."""
        write_atomic(Path(path), self.record.to_sgf())

    @property
    def autosave_path(self) -> Path | None:
        return self.autosave.path if self.autosave is not None else None

    @property
    def save_problem(self) -> str | None:
        """Why the game is not being saved (`the disk is full`); None while it is (or
        where it has no autosave: a room's keeper says its own, see `rooms.terms`)."""
        return self.autosave.problem if self.autosave is not None else None

    def _saving_changed(self) -> None:
        self.saving_listeners()

    @property
    def kept(self) -> bool:
        """Whether the game is kept in the games in progress: once it has a move or a
        set-up position (a game with nothing on the board is nobody's to resume)."""
        return self.autosave is not None and self.phase is Phase.PLAY and self.record.has_play()

    def save_autosave(self) -> None:
        """Write the record to the autosave file soon (komi and sides settled first), or,
        where the game is not to be kept (`kept`), remove the file (all its moves taken
        back): the writer does either, in turn, so the newest state wins."""
        if self.autosave is None or self.phase is not Phase.PLAY:
            return
        if self.saving is None:
            if self.kept:
                self.autosave.write(self.record.to_sgf())
            else:
                self.autosave.put(partial(self.autosave.path.unlink, missing_ok=True))
        else:
            self.autosave.put(self.saving(self, self.record.to_sgf()))

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the autosave file holds the game as it is now; False on a timeout."""
        return self.autosave.flush(timeout) if self.autosave is not None else True

    def discard_autosave(self) -> None:
        if self.autosave is not None and self.saving is None:  # a store's file is not ours
            self.autosave.flush()
            self.autosave.cancel()
            self.autosave.path.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | Path, autosave: Path | None = None) -> Session:
        """A session from a record file, at the node it was saved at (`SHOWN[]`), or at
        the end of its main line."""
        session = cls(Record.load(path), autosave)
        session.save_autosave()
        return session
