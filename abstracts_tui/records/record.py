"""Game records: a whole game with its variations and comments, stored as SGF.

A record is a tree of `RecordNode`s. The root holds the game's options and, when the
game did not start from the empty board, a setup position; every other node holds one
move (or a setup position) and an optional comment. The first child of a node is the
main line, the others are variations. A record also remembers the node shown when it was
written (`shown`): a node other than the end of the main line carries the private
property `SHOWN[]`, and reading the record opens it there. docs/records.md documents the
file format: FF[4]'s properties with FF[4]'s meaning, private ones for the rest.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .. import __version__
from ..clock import TimeControl
from ..rules import (
    GAMES,
    Game,
    OptionError,
    Options,
    RulesError,
    format_number,
    game_class,
    load_position,
    shown,
)
from ..rules.catalogue import read_float, read_int
from . import results, sgf
from .charset import decoded
from .errors import RecordError
from .timing import (
    ODDS,
    ON_TIME,
    TIME_KEYS,
    TimeLeft,
    control_properties,
    read_control,
    read_time_left,
    time_left_properties,
    time_winner,
)

N = TypeVar("N", int, float)

GM_NUMBER = "1000"
"""The GM (game) of abstracts-tui records: FF[4] numbers games from 1 (Go) up and has none
for these five, so the value is one far past its list, and the private property GA names
the game."""

COLOURS = "COLOURS"
"""The private root property of the game's colour names, `COLOURS[blue:orange]`: the
colour the person written B begins with, then W's. Records of earlier versions lack it
and wrote moves under the colours' initials: a record without it is read in either form."""

SHOWN = "SHOWN"
"""The private SGF property (valueless, `SHOWN[]`) of the node a record opens at, when
that is not the end of its main line (a move taken back in analysis, a variation)."""

ROOT_KEYS = (
    *("FF", "GM", "CA", "AP", "GA", "SZ", "VR", "KM", "DT", "RE", "EV", "SP", "C", "AI"),
    *("PB", "PW", COLOURS),
    *TIME_KEYS,
    SHOWN,
)

MAX_MIB = 16
MAX_SIZE = MAX_MIB * 1024 * 1024
"""The largest record file read, in bytes: a game with every variation and comment ever
added stays far below it, and a file above it is refused before it is read."""

MAX_SETUPS = 2_000
"""The most set-up positions below the root of a record: each is read and checked against
the rules (up to a fifth of a millisecond for the largest boards), and a study sets up a
position by hand a few times, not thousands."""

PASS = "pass"
SWAP = "swap"
"""A pass and the pie rule's swap in the notation of a record node's move."""

WIDE = 8
"""Past this many children a node's children are looked up in a table while reading."""


@dataclass(eq=False)
class RecordNode:
    """A node of the game tree: a move (or a setup position) and a comment."""

    move: str | None = None
    """The move in canonical notation; None at the root and at a setup node."""
    setup: str | None = None
    """A position string set up at this node (the root's is the start position)."""
    comment: str = ""
    time_left: TimeLeft | None = None
    """The mover's clock after the move (a game with a clock)."""
    children: list[RecordNode] = field(default_factory=list, repr=False)
    parent: RecordNode | None = field(default=None, repr=False)
    evaluation: float | None = field(default=None, repr=False)
    """The first colour's win rate here, from the longest search of it so far (not saved)."""
    evaluated_with: int = field(default=0, repr=False)
    """The playouts of the search that gave `evaluation`."""
    score: float | None = field(default=None, repr=False)
    """The first colour's expected score here (its mean final margin, komi included),
    from the same search as `evaluation` (not saved)."""

    def evaluate(
        self, first_winrate: float | None, playouts: int, first_score: float | None = None
    ) -> None:
        """Keep `first_winrate` (and `first_score`) unless a longer search has already
        evaluated this node."""
        if first_winrate is not None and playouts >= self.evaluated_with:
            self.evaluation = first_winrate
            self.evaluated_with = playouts
            self.score = first_score

    def add(self, move: str | None = None, setup: str | None = None) -> RecordNode:
        """The child holding `move` (or `setup`), made if it is not there yet."""
        for child in self.children:
            if child.move == move and child.setup == setup:
                return child
        child = RecordNode(move=move, setup=setup, parent=self)
        self.children.append(child)
        return child

    def mainline(self) -> Iterator[RecordNode]:
        """The nodes below this one along first children."""
        node = self
        while node.children:
            node = node.children[0]
            yield node

    def line(self) -> list[RecordNode]:
        """The nodes from the root's first move down to this node."""
        nodes = []
        node: RecordNode | None = self
        while node is not None and node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def on_main_line(self) -> bool:
        """Whether this node lies on the main line (first children from the root)."""
        return all(node.parent is None or node.parent.children[0] is node for node in self.line())

    def walk(self) -> Iterator[RecordNode]:
        """This node and every node below it, depth first."""
        todo = [self]
        while todo:
            node = todo.pop()
            yield node
            todo.extend(reversed(node.children))


@dataclass(eq=False)
class Record:
    """A game record: options, players, date, result and the tree of moves."""

    game: str
    options: Options
    players: tuple[str, str] = ("", "")
    """The people who start the game as the first and the second colour (a swap
    exchanges their colours from then on)."""
    date: str = ""
    result: str = ""
    """`<colour>+<margin>` (e.g. `orange+13`, `blue+R`, `orange+time`), `draw`, `Void`,
    `?` (ended, how unknown), or empty while unfinished; written as FF[4]'s `RE`."""
    event: str = ""
    root: RecordNode = field(default_factory=RecordNode)
    computers: dict[str, str] = field(default_factory=dict)
    """Players that are the computer: name -> strength level (SGF `AI[level:name]`)."""
    clock: TimeControl | None = None
    """The time control (SGF `TM` and `OT`); None: no clock."""
    extra: dict[str, list[str]] = field(default_factory=dict)
    """Root properties this program does not use, kept so that saving loses nothing."""
    shown: RecordNode | None = field(default=None, repr=False)
    """The node shown, where the record opens (SGF `SHOWN[]`); None: the end of the main
    line. A session keeps it at the node it shows."""

    def opening_node(self) -> RecordNode:
        """The node the record opens at: `shown`, or the end of the main line."""
        if self.shown is not None:
            return self.shown
        nodes = list(self.root.mainline())
        return nodes[-1] if nodes else self.root

    def marked_node(self) -> RecordNode | None:
        """The node that `to_sgf` marks `SHOWN[]`: `shown`, unless it is None or the end
        of the main line (where a record opens anyway)."""
        node = self.shown
        if node is None or node.children or not node.on_main_line():
            return node
        return None

    @classmethod
    def from_game(
        cls, game: Game, players: tuple[str, str] = ("", ""), date: str | None = None
    ) -> Record:
        """The record of `game`'s moves as the main line."""
        record = cls(
            game=game.info.name,
            options=game.options,
            players=players,
            date=date if date is not None else datetime.date.today().isoformat(),
        )
        start = game.start_position
        if start != type(game)(game.options).position():
            record.root.setup = start
        node = record.root
        for move in game.moves:
            node = node.add(game.move_name(move))
        record.result = result_text(game)
        return record

    def new_game(self) -> Game:
        """The game at the root (its setup position, or the empty board)."""
        cls = game_class(self.game)
        if self.root.setup is not None:
            return cls.from_position(self.root.setup)
        return cls(self.options)

    def game_at(self, node: RecordNode) -> Game:
        """The game with the moves from the root down to `node` played (from the last
        setup position on the way: what came before it does not count)."""
        path = []
        current: RecordNode | None = node
        while current is not None and current is not self.root:
            path.append(current)
            if current.setup is not None:
                break
            current = current.parent
        if path and path[-1].setup is not None:
            game = game_class(self.game).from_position(path[-1].setup)
        else:
            game = self.new_game()
        for step in reversed(path):
            if step.move is not None:
                game.play(step.move)
        return game

    def main_game(self) -> Game:
        """The game at the end of the main line."""
        nodes = list(self.root.mainline())
        return self.game_at(nodes[-1]) if nodes else self.new_game()

    def has_play(self) -> bool:
        """Whether anything was played or set up in the record (what makes a game kept)."""
        return any(node.move is not None or node.setup is not None for node in self.root.walk())

    def swapped(self) -> bool:
        """Whether a swap (the pie rule's) on the main line leaves each person holding the
        other colour than the one they began with (a set-up position starts the colours
        afresh, as the clocks do)."""
        swapped = False
        for node in self.root.mainline():
            swapped = (swapped and node.setup is None) ^ (node.move == SWAP)
        return swapped

    def to_sgf(self) -> str:
        """The record as SGF text."""
        info = game_class(self.game).info
        props: dict[str, list[str]] = {
            "FF": ["4"],
            "GM": [GM_NUMBER],
            "CA": ["UTF-8"],
            "AP": [f"abstracts-tui:{__version__}"],
            "GA": [self.game],
            COLOURS: [":".join(info.colours)],
            "SZ": [str(self.options.size)],
        }
        if info.variants:
            props["VR"] = [self.options.variant]
        if info.takes_komi(self.options.variant):
            props["KM"] = [format_number(self.options.komi)]
        for letter, name in zip(results.PLAYERS, self.players, strict=True):
            if name:
                props["P" + letter] = [name]
        result = results.written(self.result, info.colours, self.swapped())
        for key, value in (("DT", self.date), ("RE", result), ("EV", self.event)):
            if value:
                props[key] = [value]
        if self.computers:
            props["AI"] = [f"{level}:{name}" for name, level in self.computers.items()]
        if self.root.setup is not None:
            props["SP"] = [self.root.setup]
        if self.root.comment:
            props["C"] = [self.root.comment]
        if self.clock is not None:
            props.update(control_properties(self.clock))
        marked = self.marked_node()
        if marked is self.root:
            props[SHOWN] = [""]
        props.update(self.extra)
        top = sgf.SgfNode(props)
        self._copy_tree(top, marked)
        return sgf.dumps(top)

    def _copy_tree(self, top: sgf.SgfNode, marked: RecordNode | None) -> None:
        """The SGF nodes of the moves and setups below the root, depth first."""
        # A move is written with the letter of the person to move (the colour to move,
        # and the swaps above it), so the game is replayed along the way; after a setup
        # it is only loaded once a move needs it (a chain of setups, or setups each with
        # one move, is written loading none).
        colours = game_class(self.game).info.colours
        start: Game | str = self.root.setup if self.root.setup is not None else self.new_game()
        todo = [_Writing(self.root, top, start)]
        while todo:
            frame = todo[-1]
            children = frame.node.children
            if frame.next == len(children):
                todo.pop()
                _take_back(frame.game, frame.undos)
                continue
            child = children[frame.next]
            frame.next += 1
            carried = 0
            if frame.next == len(children):  # the last child takes the frame's place
                todo.pop()
                carried = frame.undos
            props: dict[str, list[str]] = {}
            here = frame.game
            swapped = frame.swapped and child.setup is None  # a setup starts colours afresh
            if child.setup is not None:
                props["SP"] = [child.setup]
                here = child.setup
                _take_back(frame.game, carried)  # the child plays on a game of its own
                carried = 0
            if child.move is not None and isinstance(here, str) and not child.children:
                # A last move after a setup: the colour is the position's side to move.
                turn = colours.index(here.split()[3])
                letter = results.PLAYERS[turn ^ swapped]
                props[letter] = [_move_text(child.move)]
            elif child.move is not None:
                if isinstance(here, str):
                    here = game_class(self.game).from_position(here)
                    if child.setup is None:  # the frame's game, for its other children
                        frame.game = here
                letter = results.PLAYERS[here.turn ^ swapped]
                props[letter] = [_move_text(child.move)]
                here.play(child.move)
                carried += child.setup is None
            if child.move is not None and child.time_left is not None:
                props.update(time_left_properties(letter, child.time_left))
            if child.comment:
                props["C"] = [child.comment]
            if child is marked:
                props[SHOWN] = [""]
            sgf_child = sgf.SgfNode(props)
            frame.out.children.append(sgf_child)
            swapped ^= child.move == SWAP
            todo.append(_Writing(child, sgf_child, here, carried, swapped=swapped))

    @classmethod
    def from_sgf(cls, text: str) -> Record:
        """Read a record; raises `RecordError` naming the line of any fault.

        Every move of every variation is checked against the rules, each node as it is
        read: the first fault stops the reading. A UTF-8 byte-order mark before it is
        skipped.
        """
        items = sgf.read(text.removeprefix("\ufeff"))
        opening = next(items)
        assert opening is sgf.OPEN  # or `read` has raised
        top = next(items)
        assert isinstance(top, sgf.SgfNode)
        record = cls._read_root(top)
        reader = _TreeReader(record, either=COLOURS not in top.properties)
        if SHOWN in top.properties:
            reader.mark(record.root, top.line)
        reader.read(items)
        games, line = 1, 0
        depth = 0
        for item in items:  # the rest of the file: any other game tree is a fault
            if item is sgf.OPEN:
                depth += 1
                games += depth == 1
            elif item is sgf.CLOSE:
                depth -= 1
            elif not line:
                assert isinstance(item, sgf.SgfNode)
                line = item.line
        if games > 1:
            raise RecordError(f"this file holds {games} games; a record holds one", line)
        record._read_game_info(top, reader.earlier)
        return record

    @classmethod
    def _read_root(cls, top: sgf.SgfNode) -> Record:
        line = top.line
        name = top.get("GA")
        if top.get("GM") != GM_NUMBER or name is None:
            raise RecordError(
                f"not an abstracts-tui record (it needs GM[{GM_NUMBER}] and "
                f"GA[game], one of {', '.join(GAMES)})",
                line,
            )
        try:
            info = game_class(name).info
            size = _number(top, "SZ", read_int, "the board size SZ must be a whole number")
            komi = _number(top, "KM", read_float, "the komi KM must be a number")
            variant = top.get("VR")
            if komi is not None and not info.takes_komi(variant or "") and komi == 0:
                komi = None  # KM[0] on a game without komi is harmless
            options = info.options(size, variant, komi)
        except RulesError as error:
            raise RecordError(str(error), line) from None
        record = cls(
            game=info.name,
            options=options,
            date=top.get("DT") or "",
            event=top.get("EV") or "",
        )
        record.root.comment = top.get("C") or ""
        record.clock = read_control(top.get("TM"), top.get("OT"), line, top.get(ODDS))
        setup = top.get("SP")
        if setup is not None:
            try:
                start = load_position(setup)
            except RulesError as error:
                raise RecordError(f"the setup position SP: {error}", line) from None
            if start.info.name != info.name or start.options != options:
                raise RecordError(
                    f"the setup position SP is a {start.info.name} "
                    f"{start.options.token(start.info)} position, but the record is "
                    f"{info.name} {options.token(info)}",
                    line,
                )
            record.root.setup = start.position()
        colour_keys = _earlier_name_keys(info.colours)
        record.extra = {
            key: values
            for key, values in top.properties.items()
            if key not in ROOT_KEYS and key not in colour_keys
        }
        return record

    def _read_game_info(self, top: sgf.SgfNode, earlier: bool) -> None:
        """The people, the result and the computers' seats of the root `top`, read once
        the moves are (a swap on the main line hands the colours over). `earlier`: a
        move was written under its colour's initial, as records of earlier versions do."""
        info = game_class(self.game).info
        line = top.line
        keys = _earlier_name_keys(info.colours)
        if COLOURS in top.properties:
            earlier = False
        elif (top.get("AP") or "").startswith("abstracts-tui:") or any(
            key in top.properties for key in keys if key not in ("PB", "PW")
        ):
            earlier = True  # written by an earlier version: names under colour initials
        if not earlier:
            keys = ("PB", "PW")
        self.players = (top.get(keys[0]) or "", top.get(keys[1]) or "")
        written = top.get("RE") or ""
        self.result = results.read(written, info.colours, self.swapped())
        if self.result.partition("+")[2].lower() == ON_TIME:
            if time_winner(self.result, info.colours) is None:
                raise RecordError(
                    f"the result RE[{shown(written)}]: a loss on time is written B+T or W+T",
                    line,
                )
            if self.clock is None:
                raise RecordError("a game lost on time needs its time control TM[...]", line)
        for value in top.properties.get("AI", []):
            level, _, name = value.partition(":")
            if name in self.players:
                self.computers[name] = level

    @classmethod
    def rewritten(cls, text: str) -> str:
        """`text` as this version writes the record (a record of an earlier version in
        FF[4]'s form, nothing lost), or `text` as it is where it cannot be read."""
        try:
            return cls.from_sgf(text).to_sgf()
        except RecordError:
            return text

    def save(self, path: str | Path) -> None:
        """Write the record to `path` as SGF (UTF-8)."""
        Path(path).write_text(self.to_sgf(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; raises `RecordError` (or `OSError` if it cannot be read).

        A file larger than `MAX_SIZE` is refused before it is read.
        """
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_SIZE:
                raise RecordError(too_long(size))
            data = handle.read(MAX_SIZE + 1)  # not a plain file (a pipe): its size is read
        if len(data) > MAX_SIZE:
            raise RecordError(too_long(None))
        return cls.from_sgf(decoded(data))


@dataclass(slots=True)
class _Writing:
    """A node whose children `to_sgf` is writing."""

    node: RecordNode
    out: sgf.SgfNode
    """The SGF node made for it."""
    game: Game | str
    """The game at the node, or the setup position to load it from when a move needs it."""
    undos: int = 0
    """The moves played on `game` since the frame that needs it as it was: taken back
    when this frame is done. A node's last child takes its place and carries them, so a
    long line (or a last variation nested deep) does not stack up frames."""
    next: int = 0
    """The child to write next."""
    swapped: bool = False
    """Whether the swaps above the node hand each person the other colour."""


@dataclass(slots=True)
class _Reading:
    """Where `_TreeReader` reads: the node the next one follows and its game."""

    node: RecordNode
    game: Game
    swapped: bool = False
    """Whether the swaps above the node hand each person the other colour."""


def _move_text(move: str) -> str:
    """A move as a record writes it: a pass as FF[4]'s empty value `B[]`."""
    return "" if move == PASS else move


def _take_back(game: Game | str, moves: int) -> None:
    for _ in range(moves):
        assert isinstance(game, Game)
        game.undo()


class _TreeReader:
    """Reads the nodes below a record's root as `sgf.read` yields them, checking each
    against the rules as it comes. Nothing recursive: the tree's shape only changes
    how long the list of open variations grows."""

    def __init__(self, record: Record, either: bool) -> None:
        self.record = record
        self.cls = game_class(record.game)
        self.colours = self.cls.info.colours
        self.either = either
        """Whether a move may be written under its colour's initial, as records of
        earlier versions are (a record without `COLOURS`), besides FF[4]'s B and W."""
        initials = "".join(colour[0].upper() for colour in self.colours)
        self.letters = results.PLAYERS + "".join(
            letter for letter in initials if either and letter not in results.PLAYERS
        )
        """The properties a move may be written under."""
        self.earlier = False
        """Whether a move was written under its colour's initial where FF[4]'s letter
        is another: the record is an earlier version's."""
        self.tables: dict[RecordNode, dict[tuple[str | None, str | None], RecordNode]] = {}
        """Children by move and setup, for the nodes with more than `WIDE` children."""
        self.marked_line = 0
        """The line of the node marked `SHOWN[]` (0: none yet)."""
        self.setups = 0
        """The set-up positions read so far (the root's is not counted)."""

    def mark(self, node: RecordNode, line: int) -> None:
        """`node` carries `SHOWN[]`: the record opens there (one node only)."""
        if self.marked_line:
            raise RecordError(
                f"{SHOWN}[] marks the one node a record opens at; the node on line "
                f"{self.marked_line} has it already",
                line,
            )
        self.record.shown = node
        self.marked_line = line or 1

    def read(self, items: Iterator[sgf.SgfNode | str]) -> None:
        """Read up to the end of the root's game tree."""
        here = _Reading(self.record.root, self.record.new_game())
        opened: list[tuple[_Reading, int]] = []
        """For each variation open: where it hangs from, with the number of moves of the
        game there (the variation may play more on that game: they are taken back).
        A variation that sets up a position plays on a game of its own; the game above
        stays loaded (at most `MAX_SETUPS` of them), so that each position is read once."""
        for item in items:
            if item is sgf.OPEN:
                opened.append((here, len(here.game.moves)))
            elif item is sgf.CLOSE:
                if not opened:
                    return
                here, moves = opened.pop()
                for _ in range(len(here.game.moves) - moves):
                    here.game.undo()
            else:
                assert isinstance(item, sgf.SgfNode)
                here = self.node(item, here)

    def node(self, item: sgf.SgfNode, here: _Reading) -> _Reading:
        """The record node for `item` below `here`, and the game after it."""
        line = item.line
        game = here.game
        setup = item.get("SP")
        if setup is not None:
            self.setups += 1
            if self.setups > MAX_SETUPS:
                raise RecordError(f"a record holds at most {MAX_SETUPS:,} set-up positions", line)
            try:
                game, setup = self.cls.read_position(setup)
            except RulesError as error:
                raise RecordError(f"the setup position SP: {error}", line) from None
            if game.options != self.record.options:
                raise RecordError("the setup position SP has other options", line)
        keys = [key for key in item.properties if key in self.letters]
        if len(keys) > 1:
            raise RecordError(f"a node holds one move, not {' and '.join(keys)}", line)
        move: str | None = None
        turn = game.turn
        swapped = here.swapped and setup is None  # a setup starts the colours afresh
        if keys:
            key = keys[0]
            text = item.properties[key][0]
            self.check_mover(key, text, turn, swapped, line)
            try:  # FF[4]'s pass is an empty move
                move = game.move_name(game.play(text if text.strip() else PASS))
            except RulesError as error:
                raise RecordError(f"the move {key}[{shown(text)}]: {error}", line) from None
        elif setup is None:
            raise RecordError(
                f"a node after the first holds a move "
                f"({' or '.join(f'{k}[...]' for k in results.PLAYERS)}) or a setup SP[...]",
                line,
            )
        child = self.child(here.node, move, setup)
        child.comment = item.get("C") or ""
        if SHOWN in item.properties:
            self.mark(child, line)
        if len(item.properties) > 1:  # more than the move: its time left, maybe
            child.time_left = read_time_left(
                item.properties,
                self.letters,
                keys[0] if keys else None,
                turn,
                self.record.clock,
                line,
                earlier=self.either,
            )
        return _Reading(child, game, swapped ^ (move == SWAP))

    def check_mover(self, key: str, text: str, turn: int, swapped: bool, line: int) -> None:
        """Raise RecordError unless a move written under `key` is the mover's: FF[4]'s
        letter of the person who holds colour `turn`, or (a record of an earlier
        version) that colour's initial."""
        if key == results.PLAYERS[turn ^ swapped]:
            return
        if self.either and key == self.colours[turn][0].upper():
            self.earlier = True
            return
        if key in results.PLAYERS:
            marked = self.colours[results.PLAYERS.index(key) ^ swapped]
        else:
            marked = next(colour for colour in self.colours if colour[0].upper() == key)
        raise RecordError(
            f"the move {key}[{shown(text)}] is marked for {marked.capitalize()}, "
            f"but it is {self.colours[turn].capitalize()}'s turn",
            line,
        )

    def child(self, node: RecordNode, move: str | None, setup: str | None) -> RecordNode:
        """`node.add(move, setup)`, in constant time however many children it has."""
        if len(node.children) < WIDE:
            return node.add(move, setup)
        table = self.tables.get(node)
        if table is None:
            table = self.tables[node] = {(c.move, c.setup): c for c in reversed(node.children)}
        found = table.get((move, setup))
        if found is None:
            found = table[move, setup] = RecordNode(move=move, setup=setup, parent=node)
            node.children.append(found)
        return found


def _earlier_name_keys(colours: tuple[str, ...]) -> tuple[str, str]:
    """The properties of the people in records of earlier versions: `P` and the initial
    of the colour each began with (`PB`/`PO` in Petrify, `PV`/`PH` in Linage)."""
    return ("P" + colours[0][0].upper(), "P" + colours[1][0].upper())


def _number(top: sgf.SgfNode, key: str, read: Callable[[str], N | None], what: str) -> N | None:
    """The root property `key` read as a number by `read`, None if absent."""
    text = top.get(key)
    if text is None:
        return None
    value = read(text)
    if value is None:
        raise OptionError(f"{what}, not '{shown(text)}'")
    return value


def too_long(size: int | None) -> str:
    """The message for a file over `MAX_SIZE` (of `size` bytes, or None if unknown)."""
    how_long = "larger" if size is None else f"{size:,} bytes long"
    return f"a record file is at most {MAX_MIB} MiB ({MAX_SIZE:,} bytes); this one is {how_long}"


def result_text(game: Game) -> str:
    """`<colour>+<margin>`, `draw`, or empty while the game is not over."""
    outcome = game.outcome()
    if outcome is None:
        return ""
    if outcome.winner is None:
        return "draw"
    points = game.score().points
    margin = abs(points[0] - points[1])
    return f"{game.colour_name(outcome.winner)}+{format_number(margin)}"
